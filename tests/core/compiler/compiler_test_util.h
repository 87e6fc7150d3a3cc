// Helpers shared by the compiler tests: modules from HLO text, finding
// instructions, running a pass.
#pragma once

#include <memory>
#include <string>

#include "core/compiler/hlo_pass_interface.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"

namespace systolic::testing {

// Parses `text` (fails the test on error).
std::unique_ptr<HloModule> ParseModule(const std::string& text);

// The instruction named `name` in any computation, or nullptr.
HloInstruction* FindInstruction(const HloModule& module, const std::string& name);

// Runs `pass`; fails the test on error. Returns whether it changed the module.
bool RunPass(HloPassInterface& pass, HloModule* module);

// The entry root's text, e.g. "%add = f32[2]{0} add(...)".
std::string RootText(const HloModule& module);

// The expression computing `instr`, e.g. "add(x, broadcast(0))":
// parameters by name, constants by value, others as opcode(operands).
std::string Expr(const HloInstruction* instr);
// Expr of the entry root.
std::string RootExpr(const HloModule& module);

// Counts instructions of `opcode` in the whole module (fused ones included).
int64_t CountOpcode(const HloModule& module, HloOpcode opcode);

}  // namespace systolic::testing
