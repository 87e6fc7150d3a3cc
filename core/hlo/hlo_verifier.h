// Checks that a module is well formed, as XLA's HloVerifier does: the graph
// is consistent (operands, users, parameters, roots, no cycles, unique names,
// called computations in the module and not recursive), every instruction's
// shape equals the one shape inference gives for its operands, attributes and
// called computations, attribute values are sane, and the module header
// (entry_computation_layout, input_output_alias, buffer_donor, schedule)
// agrees with the entry computation.
//
// The verifier never trusts its input: it is run on whatever the parser
// accepts, so it checks bounds before it indexes anything.
//
// Errors name the place and the problem:
//   `model.hlo:12:3: %add.3: add has the wrong shape, expected f32[4] but the
//   instruction says f32[8]`
// or, for an instruction without a source location,
//   `computation %main: %add.3: ...`.
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"

namespace systolic {

struct HloVerifierOptions {
  // Also compare layouts where an instruction cannot change them (tuple,
  // get-tuple-element, call, while, ...), require a layout on every array
  // shape, and require bitcasts to keep the byte size.
  bool layout_sensitive = false;
  // Accept operands of different floating-point types in one instruction
  // (add(f32, bf16)) and results that differ from the inferred shape only in
  // floating-point precision.
  bool allow_mixed_precision = false;
  // Require instruction names to be unique in the whole module, not only in
  // their computation (XLA text scopes names by computation; modules built by
  // passes keep them unique module-wide).
  bool unique_names_across_module = false;
};

absl::Status VerifyHloModule(const HloModule& module, const HloVerifierOptions& options = {});

// Whether an opcode's result shape follows from its operands, attributes and
// called computations alone (add, reduce, dot, tuple, while, ...), so that XLA
// text may leave it out. Opcodes such as convert, broadcast, reshape, iota or
// custom-call need the shape written.
bool ShapeCanBeInferred(HloOpcode opcode);

// The shape the verifier's inference gives `instr`, which must belong to a
// computation of a module and have an opcode ShapeCanBeInferred accepts.
absl::StatusOr<Shape> InferInstructionShape(const HloInstruction& instr);

}  // namespace systolic
