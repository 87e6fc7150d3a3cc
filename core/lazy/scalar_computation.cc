#include "core/lazy/scalar_computation.h"

#include "absl/strings/str_cat.h"

namespace systolic::lazy {

const char* ScalarComputationName(ScalarComputation kind) {
  switch (kind) {
    case ScalarComputation::kAdd:
      return "add";
    case ScalarComputation::kMax:
      return "max";
    case ScalarComputation::kMin:
      return "min";
    case ScalarComputation::kGe:
      return "ge";
  }
  return "add";
}

ProgramShape ScalarComputationProgramShape(ScalarComputation kind, PrimitiveType type) {
  ProgramShape ps;
  ps.parameters = {Shape::MakeScalar(type), Shape::MakeScalar(type)};
  ps.parameter_names = {"lhs", "rhs"};
  ps.result = Shape::MakeScalar(kind == ScalarComputation::kGe ? PRED : type);
  return ps;
}

std::unique_ptr<HloComputation> BuildScalarComputation(ScalarComputation kind,
                                                       PrimitiveType type) {
  auto computation = std::make_unique<HloComputation>(absl::StrCat(
      ScalarComputationName(kind), ".", primitive_util::LowercasePrimitiveTypeName(type)));
  const Shape scalar = Shape::MakeScalar(type);
  HloInstruction* lhs = computation->AddParameter(HloInstruction::CreateParameter(0, scalar, "lhs"));
  HloInstruction* rhs = computation->AddParameter(HloInstruction::CreateParameter(1, scalar, "rhs"));
  std::unique_ptr<HloInstruction> root;
  switch (kind) {
    case ScalarComputation::kAdd:
      root = HloInstruction::CreateBinary(scalar, HloOpcode::kAdd, lhs, rhs);
      break;
    case ScalarComputation::kMax:
      root = HloInstruction::CreateBinary(scalar, HloOpcode::kMaximum, lhs, rhs);
      break;
    case ScalarComputation::kMin:
      root = HloInstruction::CreateBinary(scalar, HloOpcode::kMinimum, lhs, rhs);
      break;
    case ScalarComputation::kGe:
      root = HloInstruction::CreateCompare(Shape::MakeScalar(PRED), lhs, rhs,
                                           ComparisonDirection::kGe);
      break;
  }
  computation->set_root_instruction(computation->AddInstruction(std::move(root)));
  return computation;
}

}  // namespace systolic::lazy
