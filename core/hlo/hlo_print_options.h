// How much of a module the printer writes, and the printing entry points
// that take it. The default is everything, which parse(print(m)) needs (files,
// `parse`, `export`). Pass snapshots leave out the values of large constants,
// as XLA's printer does when its options ask not to print large constants:
// such a constant prints as `constant({...})`, which the parser reads as
// zeros.
#pragma once

#include <cstdint>
#include <string>

#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_instruction.h"
#include "core/hlo/hlo_module.h"

namespace systolic {

struct HloPrintOptions {
  // XLA's threshold: array constants of more elements print as `{...}`.
  static constexpr int64_t kLargeConstantElements = 10;

  // Array constants of more elements than this print as `{...}` (a tuple
  // constant element by element); negative prints every constant in full.
  int64_t max_constant_elements = -1;

  static HloPrintOptions Full() { return {}; }
  static HloPrintOptions WithoutLargeConstants() {
    HloPrintOptions options;
    options.max_constant_elements = kLargeConstantElements;
    return options;
  }
};

// HloInstruction::AppendTo, HloComputation::AppendTo and HloModule::AppendTo
// with `options`.
void AppendInstructionText(const HloInstruction& instruction, const HloPrintOptions& options,
                           std::string* out);
void AppendComputationText(const HloComputation& computation, const HloPrintOptions& options,
                           std::string* out, const InstructionPrinted& on_printed = nullptr);
void AppendModuleText(const HloModule& module, const HloPrintOptions& options, std::string* out,
                      const InstructionPrinted& on_printed = nullptr);
std::string ModuleText(const HloModule& module, const HloPrintOptions& options);

// The value of a constant (or of a custom call's literal) in full, whatever
// a snapshot elided: `f32[2,2] {{1, 2}, {3, 4}}`; empty for an instruction
// without a literal. A view that shows snapshot text can call this on the
// instruction (of the compiled module, or of the module the program was read
// from) to show the values behind a `{...}`.
std::string FullLiteralText(const HloInstruction& instruction);

}  // namespace systolic
