#include "tests/core/compiler/compiler_test_util.h"

#include "core/hlo/hlo_computation.h"

namespace systolic::testing {

std::unique_ptr<HloModule> ParseModule(const std::string& text) {
  auto module = ParseAndReturnUnverifiedModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? std::move(module).value() : nullptr;
}

HloInstruction* FindInstruction(const HloModule& module, const std::string& name) {
  for (const HloComputation* c : module.computations()) {
    for (HloInstruction* instr : c->instructions()) {
      if (instr->name() == name) return instr;
    }
  }
  return nullptr;
}

bool RunPass(HloPassInterface& pass, HloModule* module) {
  absl::StatusOr<bool> changed = pass.Run(module);
  EXPECT_TRUE(changed.ok()) << pass.name() << ": " << changed.status();
  return changed.ok() && *changed;
}

std::string RootText(const HloModule& module) {
  return module.entry_computation()->root_instruction()->ToString();
}

std::string Expr(const HloInstruction* instr) {
  if (instr->opcode() == HloOpcode::kParameter) return instr->name();
  if (instr->opcode() == HloOpcode::kConstant) return instr->literal().ToStringWithoutShape();
  std::string out = std::string(HloOpcodeString(instr->opcode())) + "(";
  for (int64_t i = 0; i < instr->operand_count(); ++i) {
    if (i) out += ", ";
    out += Expr(instr->operand(i));
  }
  return out + ")";
}

std::string RootExpr(const HloModule& module) {
  return Expr(module.entry_computation()->root_instruction());
}

int64_t CountOpcode(const HloModule& module, HloOpcode opcode) {
  int64_t n = 0;
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* instr : c->instructions()) n += instr->opcode() == opcode;
  }
  return n;
}

}  // namespace systolic::testing
