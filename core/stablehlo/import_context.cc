#include "core/stablehlo/import_context.h"

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/stablehlo/dynamic_shape_ops.h"
#include "core/stablehlo/quantized_ops.h"
#include "core/stablehlo/stablehlo_importer.h"

namespace systolic::stablehlo {

ComputationBuilder::ComputationBuilder(ModuleImporter* importer, HloComputation* computation,
                                       const ComputationBuilder* enclosing)
    : importer_(importer), computation_(computation), enclosing_(enclosing) {}

HloInstruction* ComputationBuilder::Add(std::unique_ptr<HloInstruction> instruction,
                                        const mlir::Operation& op) {
  OpMetadata metadata;
  metadata.op_type = op.name;
  metadata.op_name = op.location_name;
  metadata.source_file = op.source_file;
  metadata.source_line = op.source_line;
  instruction->set_metadata(std::move(metadata));
  instruction->set_source_location({op.where.line, op.where.column});
  return computation_->AddInstruction(std::move(instruction));
}

HloInstruction* ComputationBuilder::AddParameter(int64_t number, const Shape& shape,
                                                 std::string name) {
  std::string unique = importer_->module()->UniqueName(name);
  return computation_->AddParameter(HloInstruction::CreateParameter(number, shape, unique));
}

absl::StatusOr<HloInstruction*> ComputationBuilder::Lookup(const mlir::ValueRef& ref) const {
  std::string key = ref.index >= 0 ? absl::StrCat(ref.name, "#", ref.index) : ref.name;
  auto it = values_.find(key);
  if (it != values_.end()) return it->second;
  if (ref.index < 0) {
    // `%r` naming the first result of a multi-result group.
    auto first = values_.find(absl::StrCat(ref.name, "#0"));
    if (first != values_.end() && !values_.contains(absl::StrCat(ref.name, "#1"))) {
      return first->second;
    }
  }
  for (const ComputationBuilder* outer = enclosing_; outer; outer = outer->enclosing_) {
    if (outer->values_.contains(key)) {
      return importer_->Error(ref.where,
                              absl::StrCat(ref.ToString(),
                                           " is defined outside this region, which cannot use "
                                           "values of its surroundings"));
    }
  }
  return importer_->Error(ref.where, absl::StrCat("use of undefined value ", ref.ToString()));
}

absl::StatusOr<std::vector<HloInstruction*>> ComputationBuilder::Operands(
    const mlir::Operation& op) const {
  std::vector<HloInstruction*> out;
  out.reserve(op.operands.size());
  for (const mlir::ValueRef& ref : op.operands) {
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * v, Lookup(ref));
    out.push_back(v);
  }
  return out;
}

absl::StatusOr<std::vector<Shape>> ComputationBuilder::ResultShapes(
    const mlir::Operation& op) const {
  std::vector<Shape> shapes;
  for (const mlir::Type& t : op.result_types) {
    auto shape = t.ToShape(/*allow_unbounded=*/true);
    if (!shape.ok()) return Error(op, shape.status().message());
    shapes.push_back(*std::move(shape));
  }
  return shapes;
}

absl::StatusOr<std::vector<HloInstruction*>> ComputationBuilder::ConvertBlock(
    const mlir::Block& block) {
  for (const mlir::Operation& op : block.operations) {
    if (op.name == "func.return" || op.name == "stablehlo.return") return Operands(op);
    const OpConverter* converter = FindOpConverter(op.name);
    if (!converter) {
      return Error(op, absl::StrCat("operation ", op.name, " is not supported"));
    }
    SYSTOLIC_ASSIGN_OR_RETURN(std::vector<HloInstruction*> operands, Operands(op));
    SYSTOLIC_ASSIGN_OR_RETURN(std::vector<Shape> shapes, ResultShapes(op));
    // Only ops that work out their own sizes may have `?` in their result types.
    for (size_t i = 0; i < shapes.size(); ++i) {
      if (shapes[i].is_unbounded_dynamic() && !ResolvesUnboundedResults(op.name)) {
        return Error(op, absl::StrCat("type ", op.result_types[i].text,
                                      " has an unbounded dynamic dimension"));
      }
    }
    SYSTOLIC_ASSIGN_OR_RETURN(
        std::vector<HloInstruction*> results,
        NeedsExpressedType(*this, op, operands)
            ? ConvertThroughExpressedType(*this, op, operands, shapes, *converter)
            : (*converter)(*this, op, operands, shapes));
    for (size_t i = 0; i < results.size() && i < op.result_types.size(); ++i) {
      if (op.result_types[i].quant) SetQuant(results[i], op.result_types[i].quant);
    }
    if (results.size() < op.results.size()) {
      return Error(op, absl::StrCat(op.name, " gives ", results.size(), " results, ",
                                    op.results.size(), " are named"));
    }
    for (size_t i = 0; i < op.results.size(); ++i) {
      // SSA: a name is defined once in its block.
      if (IsDefinedHere(op.results[i])) {
        return Error(op, absl::StrCat("%", op.results[i], " is defined twice"));
      }
      Define(op.results[i], results[i]);
    }
  }
  return std::vector<HloInstruction*>{};  // a block without a terminator returns nothing
}

const mlir::QuantType* ComputationBuilder::QuantOf(const HloInstruction* value) const {
  auto found = quant_.find(value);
  return found == quant_.end() ? nullptr : found->second.get();
}

void ComputationBuilder::SetQuant(const HloInstruction* value, std::shared_ptr<const mlir::QuantType> quant) {
  quant_[value] = std::move(quant);
}

absl::Status ComputationBuilder::Error(const mlir::Operation& op,
                                       absl::string_view message) const {
  return importer_->Error(op.where, message);
}

}  // namespace systolic::stablehlo
