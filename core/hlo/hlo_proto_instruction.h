// One instruction to and from XLA's HloInstructionProto: its opcode, shape
// and every attribute of its opcode. Operands, control predecessors and
// called computations are referred to by id; the module conversions
// (hlo_module_to_proto / hlo_module_from_proto) own the id maps.
#pragma once

#include <cstdint>
#include <memory>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/hlo/hlo_instruction.h"
#include "core/hlo/hlo_module.pb.h"

namespace systolic {

// The ids a module's instructions and computations are written with.
struct HloProtoIds {
  absl::flat_hash_map<const HloInstruction*, int64_t> instructions;
  absl::flat_hash_map<const HloComputation*, int64_t> computations;
};

// Errors: an attribute XLA's proto has no number for (a dot algorithm
// outside its enum).
absl::StatusOr<hlo_proto::HloInstructionProto> InstructionToProto(const HloInstruction& instruction,
                                                                  const HloProtoIds& ids);

// A new instruction, not yet in a computation, with its operands and called
// computations (in the order the proto lists them). Errors name the
// instruction: unknown opcode, bad shape, literal or sharding.
absl::StatusOr<std::unique_ptr<HloInstruction>> InstructionFromProto(
    const hlo_proto::HloInstructionProto& proto, absl::Span<HloInstruction* const> operands,
    absl::Span<HloComputation* const> called);

}  // namespace systolic
