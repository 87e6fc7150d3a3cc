#include "core/compiler/layout_assignment.h"

#include <optional>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/compiler/layout_util.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/shape_inference.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

// Row-major, untiled, wherever `shape` has no layout yet.
void FillMissingLayouts(Shape* shape) {
  if (shape->IsTuple()) {
    for (Shape& element : *shape->mutable_tuple_shapes()) FillMissingLayouts(&element);
  } else if (shape->IsArray() && !shape->has_layout()) {
    shape->set_layout(Layout::Descending(shape->rank()));
  }
}

class LayoutAssigner {
 public:
  LayoutAssigner(HloModule* module, bool tiled, PassRunLog* log)
      : module_(module), tiled_(tiled), log_(log) {}

  absl::Status Run();
  bool changed() const { return changed_; }

 private:
  // Lays out `computation`: parameters as `params` (default when null), the
  // root as `result` (default when null).
  absl::Status AssignComputation(HloComputation* computation, const std::vector<Shape>* params,
                                 const Shape* result);
  void AssignInstruction(HloInstruction* instr);
  // Makes the operands of a dot / convolution match the matrix unit.
  void ConstrainMatrixOperand(HloInstruction* user, int64_t operand_index,
                              const std::vector<int64_t>& m2m);
  // `value` in exactly the layout of `target`: itself relaid when it may
  // write any layout, else through copies.
  HloInstruction* ConstrainTo(HloInstruction* value, const Shape& target, absl::string_view why);
  bool MayRelayout(const HloInstruction* instr) const;
  Shape DefaultShape(Shape shape) const {
    SetDefaultLayout(&shape, tiled_);
    return shape;
  }
  HloInstruction* AddCopy(HloInstruction* value, const Shape& target, absl::string_view why);

  HloModule* module_;
  bool tiled_;
  PassRunLog* log_;
  // Values whose layout was chosen for a constraint and must not move again.
  absl::flat_hash_set<const HloInstruction*> pinned_;
  absl::flat_hash_set<const HloComputation*> done_;
  bool changed_ = false;
};

bool LayoutAssigner::MayRelayout(const HloInstruction* instr) const {
  if (pinned_.contains(instr)) return false;
  switch (instr->opcode()) {
    case HloOpcode::kParameter:
    case HloOpcode::kGetTupleElement:
    case HloOpcode::kTuple:
    case HloOpcode::kWhile:
    case HloOpcode::kCall:
    case HloOpcode::kConditional:
    case HloOpcode::kFusion:
    case HloOpcode::kCustomCall:
    case HloOpcode::kBitcast:
    case HloOpcode::kOptimizationBarrier:
    case HloOpcode::kInfeed:
    case HloOpcode::kRecv:
    case HloOpcode::kRecvDone:
      return false;
    default:
      return instr->shape().IsArray();
  }
}

HloInstruction* LayoutAssigner::AddCopy(HloInstruction* value, const Shape& target,
                                        absl::string_view why) {
  HloInstruction* copy = value->parent()->AddInstruction(
      HloInstruction::CreateUnary(target, HloOpcode::kCopy, value));
  copy->MergeProvenanceFrom(*value);
  pinned_.insert(copy);
  log_->CountRewrite(absl::StrCat("inserted a copy ", why));
  log_->AddDecision(absl::StrCat("copy %", copy->name(), " of %", value->name(), " to ",
                                 target.ToString(true), " ", why));
  changed_ = true;
  return copy;
}

HloInstruction* LayoutAssigner::ConstrainTo(HloInstruction* value, const Shape& target,
                                            absl::string_view why) {
  if (SameLayouts(value->shape(), target)) return value;
  if (target.IsTuple()) {
    std::vector<HloInstruction*> elements;
    for (int64_t i = 0; i < target.tuple_shapes_size(); ++i) {
      HloInstruction* element =
          value->opcode() == HloOpcode::kTuple
              ? value->mutable_operand(i)
              : value->parent()->AddInstruction(HloInstruction::CreateGetTupleElement(value, i));
      if (element->opcode() == HloOpcode::kGetTupleElement && element->operand(0) == value &&
          value->opcode() != HloOpcode::kTuple) {
        element->MergeProvenanceFrom(*value);
      }
      elements.push_back(ConstrainTo(element, target.tuple_shapes(i), why));
    }
    HloInstruction* tuple = value->parent()->AddInstruction(HloInstruction::CreateTuple(elements));
    tuple->MergeProvenanceFrom(*value);
    return tuple;
  }
  if (MayRelayout(value)) {
    *value->mutable_shape()->mutable_layout() = target.layout();
    pinned_.insert(value);
    log_->CountRewrite(absl::StrCat("laid out a producer ", why));
    changed_ = true;
    return value;
  }
  return AddCopy(value, target, why);
}

void LayoutAssigner::ConstrainMatrixOperand(HloInstruction* user, int64_t operand_index,
                                            const std::vector<int64_t>& m2m) {
  HloInstruction* operand = user->mutable_operand(operand_index);
  if (!operand->shape().IsArray() || operand->shape().rank() < 2) return;
  // The matrix unit cares about the order of the dimensions, not the tiling.
  if (operand->shape().has_layout() && operand->shape().layout().minor_to_major() == m2m) return;
  Shape target = operand->shape();
  SetLayout(&target, m2m, tiled_);
  if (operand->opcode() == HloOpcode::kTranspose && operand->operand(0)->shape().has_layout()) {
    // Tiled like its operand, the transpose may become a mere relabeling.
    *target.mutable_layout()->mutable_tiles() = operand->operand(0)->shape().layout().tiles();
  }
  const std::string why = absl::StrCat("for %", user->name(), " (contracting dimension minor)");
  // Only relay the producer when nobody else reads it.
  HloInstruction* constrained;
  if (MayRelayout(operand) && operand->user_count() == 1) {
    constrained = ConstrainTo(operand, target, why);
  } else {
    constrained = AddCopy(operand, target, why);
  }
  user->ReplaceOperandWith(operand_index, constrained);
  if (constrained->opcode() == HloOpcode::kTranspose && TransposeIsBitcast(*constrained)) {
    log_->AddDecision(absl::StrCat("%", constrained->name(),
                                   " now moves no data: its layout matches its operand's"));
  }
}

void LayoutAssigner::AssignInstruction(HloInstruction* instr) {
  Shape* shape = instr->mutable_shape();
  switch (instr->opcode()) {
    case HloOpcode::kTuple: {
      std::vector<Shape> elements;
      for (const HloInstruction* op : instr->operands()) elements.push_back(op->shape());
      *shape = Shape::MakeTuple(std::move(elements));
      return;
    }
    case HloOpcode::kGetTupleElement:
      *shape = instr->operand(0)->shape().tuple_shapes(instr->tuple_index());
      return;
    case HloOpcode::kWhile: {
      *shape = instr->while_body()->root_instruction()->shape();
      instr->ReplaceOperandWith(0, ConstrainTo(instr->mutable_operand(0), *shape,
                                               "for the loop state's layout"));
      return;
    }
    case HloOpcode::kCall:
    case HloOpcode::kConditional: {
      const bool is_call = instr->opcode() == HloOpcode::kCall;
      for (int64_t i = is_call ? 0 : 1; i < instr->operand_count(); ++i) {
        // A call passes operand i as parameter i; a conditional passes
        // operand i to branch i-1 as its only parameter.
        const Shape& param =
            is_call ? instr->to_apply()->parameter_instruction(i)->shape()
                    : instr->branch_computation(i - 1)->parameter_instruction(0)->shape();
        instr->ReplaceOperandWith(i, ConstrainTo(instr->mutable_operand(i), param,
                                                 "for a called computation's parameter"));
      }
      *shape = instr->called_computations()[0]->root_instruction()->shape();
      return;
    }
    case HloOpcode::kFusion: {
      std::vector<Shape> params;
      for (const HloInstruction* op : instr->operands()) params.push_back(op->shape());
      // Assigned here, with the operands' layouts, not on its own.
      HloComputation* fused = instr->fused_instructions_computation();
      absl::Status s = AssignComputation(fused, &params, nullptr);
      (void)s;  // fused computations have no failing constraints
      *shape = fused->root_instruction()->shape();
      return;
    }
    default:
      break;
  }
  if (!shape->IsArray()) {
    SetDefaultLayout(shape, tiled_);
    return;
  }
  // Elementwise results follow a layout all their same-rank operands share.
  if (instr->IsElementwise()) {
    const Layout* common = nullptr;
    bool agree = true;
    for (const HloInstruction* op : instr->operands()) {
      if (op->shape().rank() != shape->rank() || !op->shape().has_layout()) continue;
      if (common == nullptr) {
        common = &op->shape().layout();
      } else if (common->minor_to_major() != op->shape().layout().minor_to_major()) {
        agree = false;
      }
    }
    if (common != nullptr && agree) {
      SetLayout(shape, common->minor_to_major(), tiled_);
      return;
    }
  }
  SetDefaultLayout(shape, tiled_);
}

absl::Status LayoutAssigner::AssignComputation(HloComputation* computation,
                                               const std::vector<Shape>* params,
                                               const Shape* result) {
  if (!done_.insert(computation).second) return absl::OkStatus();
  for (int64_t i = 0; i < computation->num_parameters(); ++i) {
    HloInstruction* param = computation->parameter_instruction(i);
    Shape before = param->shape();
    if (params != nullptr) {
      *param->mutable_shape() = (*params)[i];
    } else {
      SetDefaultLayout(param->mutable_shape(), tiled_);
    }
    changed_ |= !SameLayouts(before, param->shape());
  }
  for (HloInstruction* instr : computation->MakeInstructionPostOrder()) {
    if (instr->opcode() == HloOpcode::kParameter) continue;
    Shape before = instr->shape();
    AssignInstruction(instr);
    changed_ |= !SameLayouts(before, instr->shape());
    if (instr->opcode() == HloOpcode::kDot) {
      const DotDimensionNumbers& d = instr->dot_dimension_numbers();
      ConstrainMatrixOperand(instr, 0,
                             MatrixUnitOperandOrder(instr->operand(0)->shape().rank(),
                                                    d.lhs_batch_dimensions,
                                                    d.lhs_contracting_dimensions));
      ConstrainMatrixOperand(instr, 1,
                             MatrixUnitOperandOrder(instr->operand(1)->shape().rank(),
                                                    d.rhs_batch_dimensions,
                                                    d.rhs_contracting_dimensions));
    } else if (instr->opcode() == HloOpcode::kConvolution) {
      const ConvolutionDimensionNumbers& d = instr->convolution_dimension_numbers();
      ConstrainMatrixOperand(instr, 0,
                             MatrixUnitOperandOrder(instr->operand(0)->shape().rank(),
                                                    {d.input_batch_dimension},
                                                    {d.input_feature_dimension}));
      ConstrainMatrixOperand(instr, 1,
                             MatrixUnitOperandOrder(instr->operand(1)->shape().rank(),
                                                    {d.kernel_output_feature_dimension},
                                                    {d.kernel_input_feature_dimension}));
    }
  }
  HloInstruction* root = computation->root_instruction();
  if (computation->IsFusionComputation()) return absl::OkStatus();
  Shape required = result != nullptr ? *result : DefaultShape(root->shape());
  HloInstruction* constrained = ConstrainTo(root, required, "for the computation's result");
  if (constrained != root) computation->set_root_instruction(constrained);
  return absl::OkStatus();
}

absl::Status LayoutAssigner::Run() {
  HloComputation* entry = module_->entry_computation();
  // Computations a fusion calls are laid out with their fusion.
  for (HloComputation* c : module_->MakeComputationPostOrder()) {
    if (c == entry || c->IsFusionComputation()) continue;
    SYSTOLIC_RETURN_IF_ERROR(AssignComputation(c, nullptr, nullptr));
  }
  // The entry keeps its layout: from the header, else as written, else row-major.
  const bool declared = module_->has_entry_computation_layout();
  std::vector<Shape> params;
  for (int64_t i = 0; i < entry->num_parameters(); ++i) {
    Shape shape = entry->parameter_instruction(i)->shape();
    if (declared && i < int64_t(module_->entry_computation_layout().parameters.size()) &&
        ShapeInference::Compatible(module_->entry_computation_layout().parameters[i], shape)) {
      shape = module_->entry_computation_layout().parameters[i];
    }
    FillMissingLayouts(&shape);
    params.push_back(std::move(shape));
  }
  Shape result = entry->root_instruction()->shape();
  if (declared && ShapeInference::Compatible(module_->entry_computation_layout().result, result)) {
    result = module_->entry_computation_layout().result;
  }
  FillMissingLayouts(&result);
  SYSTOLIC_RETURN_IF_ERROR(AssignComputation(entry, &params, &result));
  if (!module_->has_entry_computation_layout()) {
    module_->set_entry_computation_layout(entry->ComputeProgramShape());
    changed_ = true;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<bool> LayoutAssignment::Run(HloModule* module) {
  if (module->entry_computation() == nullptr) return false;
  LayoutAssigner assigner(module, options_.tile_layouts, &run_log());
  SYSTOLIC_RETURN_IF_ERROR(assigner.Run());
  return assigner.changed();
}

}  // namespace systolic
