#include "core/analysis/instruction_details.h"

#include <memory>
#include <string>

#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"

namespace systolic::analysis {
namespace {

std::string Row(const std::vector<std::pair<std::string, std::string>>& rows,
                const std::string& label) {
  for (const auto& [l, value] : rows) {
    if (l == label) return value;
  }
  return "";
}

// The details' unit is where the simulator ran the instruction when the
// profile has it, the opcode's unit otherwise; a disagreement is said.
TEST(InstructionDetails, TheUnitIsWhereTheSimulatorRanIt) {
  auto module = ParseAndReturnUnverifiedModule(R"(HloModule m
ENTRY e {
  a = f32[8,8] parameter(0)
  ROOT d = f32[8,8] dot(a, a), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  ASSERT_TRUE(module.ok()) << module.status();
  const HloInstruction* dot = (*module)->entry_computation()->root_instruction();
  EXPECT_EQ(Row(DescribeInstruction(*dot), "Unit"), "MXU");
  OpStats on_mxu;
  on_mxu.category = OpCategory::kMxu;
  EXPECT_EQ(Row(DescribeInstruction(*dot, &on_mxu), "Unit"), "MXU (as simulated)");
  OpStats on_dma;
  on_dma.category = OpCategory::kDma;
  EXPECT_EQ(Row(DescribeInstruction(*dot, &on_dma), "Unit"), "DMA (as simulated; MXU by its opcode)");
}

}  // namespace
}  // namespace systolic::analysis
