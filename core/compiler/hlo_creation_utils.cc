#include "core/compiler/hlo_creation_utils.h"

#include "absl/strings/str_cat.h"
#include "core/hlo/shape_inference.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

HloInstruction* Add(HloInstruction* like, std::unique_ptr<HloInstruction> instr) {
  MaybeGiveLayout(instr->mutable_shape(), like->shape());
  return like->parent()->AddInstruction(std::move(instr));
}

}  // namespace

void MaybeGiveLayout(Shape* shape, const Shape& like) {
  if (shape->IsArray() && !shape->has_layout() && like.has_layout()) {
    shape->set_layout(Layout::Descending(shape->rank()));
  }
}

absl::StatusOr<HloInstruction*> MakeUnaryHlo(HloOpcode opcode, HloInstruction* operand) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape, ShapeInference::InferUnaryOpShape(opcode, operand->shape()));
  return Add(operand, HloInstruction::CreateUnary(shape, opcode, operand));
}

absl::StatusOr<HloInstruction*> MakeBinaryHlo(HloOpcode opcode, HloInstruction* lhs,
                                              HloInstruction* rhs) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape,
                            ShapeInference::InferBinaryOpShape(opcode, lhs->shape(), rhs->shape()));
  return Add(lhs, HloInstruction::CreateBinary(shape, opcode, lhs, rhs));
}

absl::StatusOr<HloInstruction*> MakeCompareHlo(ComparisonDirection direction,
                                               HloInstruction* lhs, HloInstruction* rhs) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape, ShapeInference::InferBinaryOpShape(
                                             HloOpcode::kCompare, lhs->shape(), rhs->shape()));
  return Add(lhs, HloInstruction::CreateCompare(shape, lhs, rhs, direction));
}

absl::StatusOr<HloInstruction*> MakeSelectHlo(HloInstruction* pred, HloInstruction* on_true,
                                              HloInstruction* on_false) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape, ShapeInference::InferSelectShape(
                                             pred->shape(), on_true->shape(), on_false->shape()));
  return Add(on_true, HloInstruction::CreateTernary(shape, HloOpcode::kSelect, pred, on_true,
                                                    on_false));
}

absl::StatusOr<HloInstruction*> MakeConvertToHlo(HloInstruction* operand, PrimitiveType type) {
  if (operand->shape().element_type() == type) return operand;
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape, ShapeInference::InferConvertShape(operand->shape(), type));
  return Add(operand, HloInstruction::CreateConvert(shape, operand));
}

absl::StatusOr<HloInstruction*> MakeBroadcastHlo(HloInstruction* operand,
                                                 absl::Span<const int64_t> dimensions,
                                                 absl::Span<const int64_t> result_dimensions) {
  Shape target(operand->shape().element_type(), result_dimensions);
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape,
                            ShapeInference::InferBroadcastShape(operand->shape(), target, dimensions));
  return Add(operand, HloInstruction::CreateBroadcast(
                          shape, operand, std::vector<int64_t>(dimensions.begin(), dimensions.end())));
}

absl::StatusOr<HloInstruction*> MakeReshapeHlo(absl::Span<const int64_t> result_dimensions,
                                               HloInstruction* operand) {
  Shape target(operand->shape().element_type(), result_dimensions);
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape, ShapeInference::InferReshapeShape(operand->shape(), target));
  return Add(operand, HloInstruction::CreateReshape(shape, operand));
}

absl::StatusOr<HloInstruction*> MakeTransposeHlo(HloInstruction* operand,
                                                 absl::Span<const int64_t> permutation) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape,
                            ShapeInference::InferTransposeShape(operand->shape(), permutation));
  return Add(operand, HloInstruction::CreateTranspose(
                          shape, operand, std::vector<int64_t>(permutation.begin(), permutation.end())));
}

absl::StatusOr<HloInstruction*> MakeSliceHlo(HloInstruction* operand,
                                             absl::Span<const int64_t> starts,
                                             absl::Span<const int64_t> limits,
                                             absl::Span<const int64_t> strides) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape, ShapeInference::InferSliceShape(operand->shape(), starts,
                                                                         limits, strides));
  return Add(operand, HloInstruction::CreateSlice(shape, operand,
                                                  std::vector<int64_t>(starts.begin(), starts.end()),
                                                  std::vector<int64_t>(limits.begin(), limits.end()),
                                                  std::vector<int64_t>(strides.begin(), strides.end())));
}

absl::StatusOr<HloInstruction*> MakeReduceHlo(HloInstruction* operand, HloInstruction* init,
                                              absl::Span<const int64_t> dimensions,
                                              HloComputation* reducer) {
  const Shape* shapes[] = {&operand->shape(), &init->shape()};
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape,
                            ShapeInference::InferReduceShape(shapes, dimensions,
                                                             reducer->ComputeProgramShape()));
  return Add(operand, HloInstruction::CreateReduce(
                          shape, {operand}, {init},
                          std::vector<int64_t>(dimensions.begin(), dimensions.end()), reducer));
}

HloInstruction* MakeScalarConstant(HloComputation* computation, Literal literal) {
  return computation->AddInstruction(HloInstruction::CreateConstant(std::move(literal)));
}

Literal ScalarLiteral(PrimitiveType type, double value) {
  Literal literal(Shape::MakeScalar(type));
  if (primitive_util::IsComplexType(type)) {
    literal.SetFromComplex128(0, complex128(value, 0));
  } else if (primitive_util::IsFloatingPointType(type)) {
    literal.SetFromDouble(0, value);
  } else {
    literal.SetFromInt64(0, int64_t(value));
  }
  return literal;
}

HloInstruction* MakeScalarLike(HloInstruction* like, double value) {
  return MakeScalarConstant(like->parent(), ScalarLiteral(like->shape().element_type(), value));
}

HloComputation* MakeScalarComputation(HloModule* module, HloOpcode opcode, PrimitiveType type) {
  const std::string name = absl::StrCat("scalar_", HloOpcodeString(opcode), "_",
                                        primitive_util::LowercasePrimitiveTypeName(type));
  if (HloComputation* existing = module->GetComputationWithName(name)) return existing;
  auto computation = std::make_unique<HloComputation>(name);
  const Shape scalar = Shape::MakeScalar(type);
  HloInstruction* x = computation->AddParameter(HloInstruction::CreateParameter(0, scalar, "x"));
  HloInstruction* y = computation->AddParameter(HloInstruction::CreateParameter(1, scalar, "y"));
  HloInstruction* root =
      computation->AddInstruction(HloInstruction::CreateBinary(scalar, opcode, x, y));
  computation->set_root_instruction(root);
  return module->AddEmbeddedComputation(std::move(computation));
}

}  // namespace systolic
