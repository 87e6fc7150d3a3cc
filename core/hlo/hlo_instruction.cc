#include "core/hlo/hlo_instruction.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"

namespace systolic {

std::string ShapeIndexToString(const ShapeIndex& index) {
  return absl::StrCat("{", absl::StrJoin(index, ","), "}");
}

absl::string_view FusionKindToString(FusionKind kind) {
  switch (kind) {
    case FusionKind::kLoop:
      return "kLoop";
    case FusionKind::kInput:
      return "kInput";
    case FusionKind::kOutput:
      return "kOutput";
    case FusionKind::kCustom:
      return "kCustom";
  }
  return "kLoop";
}

std::optional<FusionKind> StringToFusionKind(absl::string_view s) {
  for (auto k : {FusionKind::kLoop, FusionKind::kInput, FusionKind::kOutput, FusionKind::kCustom}) {
    if (FusionKindToString(k) == s) return k;
  }
  return std::nullopt;
}

absl::string_view RandomDistributionToString(RandomDistribution d) {
  return d == RandomDistribution::kNormal ? "rng_normal" : "rng_uniform";
}

absl::string_view RandomAlgorithmToString(RandomAlgorithm a) {
  switch (a) {
    case RandomAlgorithm::kThreeFry:
      return "rng_three_fry";
    case RandomAlgorithm::kPhilox:
      return "rng_philox";
    case RandomAlgorithm::kDefault:
      return "rng_default";
  }
  return "rng_default";
}

absl::string_view FftTypeToString(FftType t) {
  switch (t) {
    case FftType::kFft:
      return "FFT";
    case FftType::kIfft:
      return "IFFT";
    case FftType::kRfft:
      return "RFFT";
    case FftType::kIrfft:
      return "IRFFT";
  }
  return "FFT";
}

absl::string_view TriangularSolveTransposeToString(TriangularSolveTranspose t) {
  switch (t) {
    case TriangularSolveTranspose::kNoTranspose:
      return "NO_TRANSPOSE";
    case TriangularSolveTranspose::kTranspose:
      return "TRANSPOSE";
    case TriangularSolveTranspose::kAdjoint:
      return "ADJOINT";
  }
  return "NO_TRANSPOSE";
}

HloInstruction::HloInstruction(HloOpcode opcode, Shape shape)
    : opcode_(opcode), shape_(std::move(shape)) {}

std::unique_ptr<HloInstruction> HloInstruction::Create(
    HloOpcode opcode, Shape shape, absl::Span<HloInstruction* const> operands) {
  std::unique_ptr<HloInstruction> instr(new HloInstruction(opcode, std::move(shape)));
  instr->operands_.reserve(operands.size());
  for (HloInstruction* op : operands) instr->AppendOperand(op);
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateParameter(int64_t number,
                                                                const Shape& shape,
                                                                std::string name) {
  auto instr = Create(HloOpcode::kParameter, shape, {});
  instr->a_.parameter_number_ = number;
  instr->name_ = std::move(name);
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateConstant(Literal literal) {
  auto instr = Create(HloOpcode::kConstant, literal.shape(), {});
  instr->set_literal(std::move(literal));
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateUnary(const Shape& shape, HloOpcode opcode,
                                                            HloInstruction* operand) {
  return Create(opcode, shape, {operand});
}

std::unique_ptr<HloInstruction> HloInstruction::CreateBinary(const Shape& shape, HloOpcode opcode,
                                                             HloInstruction* lhs,
                                                             HloInstruction* rhs) {
  return Create(opcode, shape, {lhs, rhs});
}

std::unique_ptr<HloInstruction> HloInstruction::CreateTernary(const Shape& shape,
                                                              HloOpcode opcode, HloInstruction* a,
                                                              HloInstruction* b,
                                                              HloInstruction* c) {
  return Create(opcode, shape, {a, b, c});
}

std::unique_ptr<HloInstruction> HloInstruction::CreateCompare(const Shape& shape,
                                                              HloInstruction* lhs,
                                                              HloInstruction* rhs,
                                                              ComparisonDirection direction,
                                                              std::optional<ComparisonType> type) {
  auto instr = Create(HloOpcode::kCompare, shape, {lhs, rhs});
  instr->a_.comparison_direction_ = direction;
  instr->a_.comparison_type_ = type;
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateConvert(const Shape& shape,
                                                              HloInstruction* operand) {
  return Create(HloOpcode::kConvert, shape, {operand});
}

std::unique_ptr<HloInstruction> HloInstruction::CreateBroadcast(const Shape& shape,
                                                                HloInstruction* operand,
                                                                std::vector<int64_t> dimensions) {
  auto instr = Create(HloOpcode::kBroadcast, shape, {operand});
  instr->a_.dimensions_ = std::move(dimensions);
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateReshape(const Shape& shape,
                                                              HloInstruction* operand) {
  return Create(HloOpcode::kReshape, shape, {operand});
}

std::unique_ptr<HloInstruction> HloInstruction::CreateTranspose(const Shape& shape,
                                                                HloInstruction* operand,
                                                                std::vector<int64_t> permutation) {
  auto instr = Create(HloOpcode::kTranspose, shape, {operand});
  instr->a_.dimensions_ = std::move(permutation);
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateSlice(const Shape& shape,
                                                            HloInstruction* operand,
                                                            std::vector<int64_t> starts,
                                                            std::vector<int64_t> limits,
                                                            std::vector<int64_t> strides) {
  auto instr = Create(HloOpcode::kSlice, shape, {operand});
  instr->set_slice(std::move(starts), std::move(limits), std::move(strides));
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateConcatenate(
    const Shape& shape, absl::Span<HloInstruction* const> operands, int64_t dimension) {
  auto instr = Create(HloOpcode::kConcatenate, shape, operands);
  instr->a_.dimensions_ = {dimension};
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateReduce(
    const Shape& shape, absl::Span<HloInstruction* const> operands,
    absl::Span<HloInstruction* const> inits, std::vector<int64_t> dimensions,
    HloComputation* reducer) {
  auto instr = Create(HloOpcode::kReduce, shape, operands);
  for (HloInstruction* init : inits) instr->AppendOperand(init);
  instr->a_.dimensions_ = std::move(dimensions);
  instr->called_.push_back(reducer);
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateDot(const Shape& shape, HloInstruction* lhs,
                                                          HloInstruction* rhs,
                                                          DotDimensionNumbers dnums,
                                                          PrecisionConfig precision) {
  auto instr = Create(HloOpcode::kDot, shape, {lhs, rhs});
  instr->mutable_rare()->dot_dnums_ = std::move(dnums);
  instr->mutable_rare()->precision_ = std::move(precision);
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateTuple(
    absl::Span<HloInstruction* const> elements) {
  std::vector<Shape> shapes;
  for (HloInstruction* e : elements) shapes.push_back(e->shape());
  return Create(HloOpcode::kTuple, Shape::MakeTuple(std::move(shapes)), elements);
}

std::unique_ptr<HloInstruction> HloInstruction::CreateGetTupleElement(HloInstruction* tuple,
                                                                      int64_t index) {
  auto instr = Create(HloOpcode::kGetTupleElement, tuple->shape().tuple_shapes(index), {tuple});
  instr->a_.tuple_index_ = index;
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateIota(const Shape& shape, int64_t dimension) {
  auto instr = Create(HloOpcode::kIota, shape, {});
  instr->a_.dimensions_ = {dimension};
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreatePad(const Shape& shape,
                                                          HloInstruction* operand,
                                                          HloInstruction* padding_value,
                                                          PaddingConfig config) {
  auto instr = Create(HloOpcode::kPad, shape, {operand, padding_value});
  instr->mutable_rare()->padding_config_ = std::move(config);
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateFusion(
    const Shape& shape, FusionKind kind, absl::Span<HloInstruction* const> operands,
    HloComputation* fused_computation) {
  auto instr = Create(HloOpcode::kFusion, shape, operands);
  instr->a_.fusion_kind_ = kind;
  instr->called_.push_back(fused_computation);
  fused_computation->SetFusionInstruction(instr.get());
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateCall(
    const Shape& shape, absl::Span<HloInstruction* const> operands, HloComputation* computation) {
  auto instr = Create(HloOpcode::kCall, shape, operands);
  instr->called_.push_back(computation);
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateWhile(const Shape& shape,
                                                            HloComputation* condition,
                                                            HloComputation* body,
                                                            HloInstruction* init) {
  auto instr = Create(HloOpcode::kWhile, shape, {init});
  instr->called_ = {condition, body};
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CloneWithNewOperands(
    const Shape& shape, absl::Span<HloInstruction* const> new_operands) const {
  return CloneWithNewOpcode(opcode_, shape, new_operands);
}

std::unique_ptr<HloInstruction> HloInstruction::CloneWithNewOpcode(
    HloOpcode opcode, const Shape& shape, absl::Span<HloInstruction* const> new_operands) const {
  auto clone = Create(opcode, shape, new_operands);
  clone->a_ = a_;
  clone->called_ = called_;
  clone->name_ = name_;
  clone->provenance_ = provenance_;
  clone->source_location_ = source_location_;
  if (clone->provenance_.empty()) clone->provenance_.push_back({unique_id_, name_});
  return clone;
}

HloModule* HloInstruction::GetModule() const {
  return parent_ ? parent_->parent() : nullptr;
}

int64_t HloInstruction::operand_index(const HloInstruction* operand) const {
  for (int64_t i = 0; i < operand_count(); ++i) {
    if (operands_[i] == operand) return i;
  }
  return -1;
}

bool HloInstruction::IsRoot() const {
  return parent_ != nullptr && parent_->root_instruction() == this;
}

namespace {
constexpr size_t kUserIndexThreshold = 16;
}  // namespace

void HloInstruction::AddUser(HloInstruction* user) {
  if (user_positions_) {
    if (user_positions_->emplace(user, users_.size()).second) users_.push_back(user);
    return;
  }
  if (std::find(users_.begin(), users_.end(), user) != users_.end()) return;
  users_.push_back(user);
  if (users_.size() > kUserIndexThreshold) {
    user_positions_ = std::make_unique<absl::flat_hash_map<const HloInstruction*, size_t>>();
    for (size_t i = 0; i < users_.size(); ++i) (*user_positions_)[users_[i]] = i;
  }
}

void HloInstruction::RemoveUser(HloInstruction* user) {
  if (user_positions_) {
    auto it = user_positions_->find(user);
    if (it == user_positions_->end()) return;
    // Swap with the last user: O(1), the order of users carries no meaning.
    size_t pos = it->second;
    user_positions_->erase(it);
    if (pos + 1 != users_.size()) {
      users_[pos] = users_.back();
      (*user_positions_)[users_[pos]] = pos;
    }
    users_.pop_back();
    return;
  }
  auto it = std::find(users_.begin(), users_.end(), user);
  if (it != users_.end()) users_.erase(it);
}

void HloInstruction::AppendOperand(HloInstruction* operand) {
  operands_.push_back(operand);
  operand->AddUser(this);
}

void HloInstruction::ReplaceOperandWith(int64_t index, HloInstruction* new_operand) {
  HloInstruction* old = operands_[index];
  if (old == new_operand) return;
  operands_[index] = new_operand;
  if (std::find(operands_.begin(), operands_.end(), old) == operands_.end()) old->RemoveUser(this);
  new_operand->AddUser(this);
}

void HloInstruction::ReplaceUseWith(HloInstruction* old_operand, HloInstruction* new_operand) {
  if (old_operand == new_operand) return;
  bool replaced = false;
  for (HloInstruction*& op : operands_) {
    if (op == old_operand) {
      op = new_operand;
      replaced = true;
    }
  }
  if (replaced) {
    old_operand->RemoveUser(this);
    new_operand->AddUser(this);
  }
}

void HloInstruction::ReplaceAllUsesWith(HloInstruction* replacement) {
  std::vector<HloInstruction*> users = users_;
  for (HloInstruction* user : users) {
    if (user == replacement) continue;  // e.g. replacement = f(this)
    user->ReplaceUseWith(this, replacement);
  }
  if (parent_ && parent_->root_instruction() == this) parent_->set_root_instruction(replacement);
}

void HloInstruction::DetachFromOperandsAndUsers() {
  for (HloInstruction* op : operands_) {
    if (op) op->RemoveUser(this);
  }
  operands_.clear();
  RemoveAllControlDependencies();
}

void HloInstruction::AddControlDependencyTo(HloInstruction* successor) {
  if (std::find(control_succs_.begin(), control_succs_.end(), successor) != control_succs_.end()) {
    return;
  }
  control_succs_.push_back(successor);
  successor->control_preds_.push_back(this);
}

void HloInstruction::RemoveAllControlDependencies() {
  for (HloInstruction* pred : control_preds_) {
    auto& succs = pred->control_succs_;
    succs.erase(std::remove(succs.begin(), succs.end(), this), succs.end());
  }
  for (HloInstruction* succ : control_succs_) {
    auto& preds = succ->control_preds_;
    preds.erase(std::remove(preds.begin(), preds.end(), this), preds.end());
  }
  control_preds_.clear();
  control_succs_.clear();
}

HloInstruction* HloInstruction::fused_expression_root() const {
  return fused_instructions_computation()->root_instruction();
}

void HloInstruction::set_slice(std::vector<int64_t> starts, std::vector<int64_t> limits,
                               std::vector<int64_t> strides) {
  mutable_rare()->slice_starts_ = std::move(starts);
  mutable_rare()->slice_limits_ = std::move(limits);
  mutable_rare()->slice_strides_ = std::move(strides);
}

ComparisonType HloInstruction::comparison_type() const {
  if (a_.comparison_type_) return *a_.comparison_type_;
  return DefaultComparisonType(operands_.empty() ? F32 : operands_[0]->shape().element_type());
}

void HloInstruction::MergeProvenanceFrom(const HloInstruction& other) {
  auto add = [&](const ProvenanceEntry& e) {
    if (std::find(provenance_.begin(), provenance_.end(), e) == provenance_.end()) {
      provenance_.push_back(e);
    }
  };
  if (other.provenance_.empty()) {
    add({other.unique_id_, other.name_});
  } else {
    for (const ProvenanceEntry& e : other.provenance_) add(e);
  }
}

bool HloInstruction::IsElementwise() const {
  if (HloOpcodeIsElementwiseUnary(opcode_) || HloOpcodeIsElementwiseBinary(opcode_)) return true;
  switch (opcode_) {
    case HloOpcode::kSelect:
    case HloOpcode::kClamp:
    case HloOpcode::kStochasticConvert:
      return true;
    case HloOpcode::kBitcastConvert:
      return operand_count() == 1 && primitive_util::BitWidth(shape_.element_type()) ==
                                         primitive_util::BitWidth(
                                             operands_[0]->shape().element_type());
    default:
      return false;
  }
}

bool HloInstruction::IsFused() const { return parent_ && parent_->IsFusionComputation(); }

bool HloInstruction::HasSideEffect() const {
  switch (opcode_) {
    case HloOpcode::kSend:
    case HloOpcode::kSendDone:
    case HloOpcode::kRecv:
    case HloOpcode::kRecvDone:
    case HloOpcode::kInfeed:
    case HloOpcode::kOutfeed:
    case HloOpcode::kRng:
    case HloOpcode::kRngGetAndUpdateState:
    case HloOpcode::kAfterAll:
    case HloOpcode::kAddDependency:
      return true;
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart:
      return rare().constrain_layout_;
    case HloOpcode::kCustomCall:
      return rare().custom_call_.has_side_effect;
    default:
      return false;
  }
}

void HloInstruction::AccessorMisused(const char* accessor) const {
  const std::string opcode(HloOpcodeString(opcode_));
  std::fprintf(stderr, "HloInstruction::%s() asked of %s %%%s (%zu called computations)\n",
               accessor, opcode.c_str(), name().c_str(), called_.size());
  std::abort();
}

}  // namespace systolic
