#include "core/stablehlo/dynamic_shape_ops.h"

#include "absl/strings/str_cat.h"

namespace systolic::stablehlo {
namespace {

// The result shape: the declared one when static, else the sizes held by the
// constant `sizes` operand.
absl::StatusOr<Shape> StaticResultShape(ComputationBuilder& b, const mlir::Operation& op,
                                        const Shapes& declared, const HloInstruction* sizes) {
  if (declared.size() != 1 || !declared[0].IsArray()) {
    return b.Error(op, absl::StrCat(op.name, " has one array result"));
  }
  if (declared[0].is_static()) return declared[0];
  if (sizes->opcode() != HloOpcode::kConstant || sizes->shape().rank() != 1 ||
      sizes->shape().dimensions(0) != declared[0].rank()) {
    return b.Error(op, absl::StrCat(op.name, " with a result size known only at run time needs ",
                                    "dynamic shapes, which this compiler does not support"));
  }
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < declared[0].rank(); ++i) {
    const int64_t size = sizes->literal().GetAsInt64(i);
    if (size < 0) return b.Error(op, absl::StrCat(op.name, ": result dimension ", i, " is ", size));
    dims.push_back(size);
  }
  return Shape(declared[0].element_type(), dims);
}

// Converts through the static op's converter, with the operands it takes
// (the first `kept` of the dynamic op's) and the resolved result shape.
OpConverter AsStatic(const char* static_name, size_t sizes_operand, size_t kept) {
  return [static_name, sizes_operand, kept](ComputationBuilder& b, const mlir::Operation& op,
                                            const Operands& ops, const Shapes& shapes) -> Results {
    if (ops.size() <= sizes_operand) {
      return b.Error(op, absl::StrCat(op.name, " takes ", sizes_operand + 1, " operands"));
    }
    absl::StatusOr<Shape> shape = StaticResultShape(b, op, shapes, ops[sizes_operand]);
    if (!shape.ok()) return shape.status();
    const OpConverter* convert = FindOpConverter(static_name);
    return (*convert)(b, op, Operands(ops.begin(), ops.begin() + kept), Shapes{*shape});
  };
}

// Each dynamic op as its static form: that form's name, which operand holds
// the result's sizes, and how many leading operands the static form takes.
struct StaticForm {
  const char* dynamic_name;
  const char* static_name;
  size_t sizes_operand;
  size_t kept_operands;
};
constexpr StaticForm kStaticForms[] = {
    {"stablehlo.dynamic_reshape", "stablehlo.reshape", 1, 1},
    {"stablehlo.dynamic_broadcast_in_dim", "stablehlo.broadcast_in_dim", 1, 1},
    {"stablehlo.dynamic_iota", "stablehlo.iota", 0, 0},
};

}  // namespace

void AddDynamicShapeConverters(absl::flat_hash_map<std::string, OpConverter>* converters) {
  for (const StaticForm& f : kStaticForms) {
    (*converters)[f.dynamic_name] = AsStatic(f.static_name, f.sizes_operand, f.kept_operands);
  }
}

bool ResolvesUnboundedResults(absl::string_view op_name) {
  for (const StaticForm& f : kStaticForms) {
    if (op_name == f.dynamic_name) return true;
  }
  return false;
}

}  // namespace systolic::stablehlo
