#include "core/compiler/multi_output_fusion.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "core/compiler/fusion_builder.h"
#include "core/compiler/hlo_reachability.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

// A kernel as multi-output fusion sees it: the instructions that go into
// the new fusion and the values it writes.
struct Kernel {
  std::vector<HloInstruction*> members;
  std::vector<HloInstruction*> outputs;
};

// Loop / input fusions and reductions; multi-output ones only when every
// user takes an element.
std::optional<Kernel> AsKernel(HloInstruction* instr) {
  const bool fusion = instr->opcode() == HloOpcode::kFusion &&
                      (instr->fusion_kind() == FusionKind::kLoop ||
                       instr->fusion_kind() == FusionKind::kInput);
  if (!fusion && instr->opcode() != HloOpcode::kReduce) return std::nullopt;
  if (!IsFusible(*instr)) return std::nullopt;
  Kernel k;
  k.members.push_back(instr);
  if (!instr->shape().IsTuple()) {
    k.outputs.push_back(instr);
    return k;
  }
  if (instr->IsRoot() || instr->users().empty()) return std::nullopt;
  for (HloInstruction* user : instr->users()) {
    if (user->opcode() != HloOpcode::kGetTupleElement) return std::nullopt;
    k.members.push_back(user);
    k.outputs.push_back(user);
  }
  return k;
}

class MultiOutputFusionRunner {
 public:
  MultiOutputFusionRunner(HloComputation* computation, const CostModel& cost_model,
                          const FusionOptions& options, FusionBuilder* builder, PassRunLog* log)
      : computation_(computation),
        cost_model_(cost_model),
        options_(options),
        builder_(builder),
        log_(log),
        reach_(computation) {
    for (HloInstruction* instr : computation->instructions()) live_[instr->unique_id()] = instr;
  }

  absl::StatusOr<int64_t> Run();

 private:
  HloInstruction* Live(int64_t id) const {
    auto it = live_.find(id);
    return it == live_.end() ? nullptr : it->second;
  }
  // Time saved by running `merged` as one kernel instead of `separate`.
  std::optional<double> Saving(const std::vector<HloInstruction*>& separate, const Kernel& merged) const;
  absl::StatusOr<HloInstruction*> Merge(const Kernel& merged, const std::string& why, double saved);
  absl::StatusOr<bool> TryProducerConsumer(HloInstruction* consumer);
  absl::StatusOr<bool> TrySiblings(HloInstruction* shared);

  HloComputation* computation_;
  const CostModel& cost_model_;
  const FusionOptions& options_;
  FusionBuilder* builder_;
  PassRunLog* log_;
  HloReachability reach_;
  absl::flat_hash_map<int64_t, HloInstruction*> live_;
  int64_t merges_ = 0;
};

std::optional<double> MultiOutputFusionRunner::Saving(const std::vector<HloInstruction*>& separate,
                                                      const Kernel& merged) const {
  int64_t count = 0;
  for (const HloInstruction* m : merged.members) {
    if (m->opcode() != HloOpcode::kGetTupleElement) count += KernelInstructionCount(*m);
  }
  if (count > options_.max_fused_instructions) return std::nullopt;
  FusionCandidate candidate;
  candidate.instructions.assign(merged.members.begin(), merged.members.end());
  candidate.outputs.assign(merged.outputs.begin(), merged.outputs.end());
  if (cost_model_.OnChipFootprint(candidate) > cost_model_.OnChipMemoryBytes()) return std::nullopt;
  absl::flat_hash_set<const HloInstruction*> members(merged.members.begin(), merged.members.end());
  absl::flat_hash_set<const HloInstruction*> inputs;
  for (const HloInstruction* m : merged.members) {
    for (const HloInstruction* op : m->operands()) {
      if (!members.contains(op)) inputs.insert(op);
    }
  }
  if (int64_t(inputs.size()) > options_.max_fusion_parameters) return std::nullopt;
  double before = 0;
  for (const HloInstruction* k : separate) before += cost_model_.EstimateInstruction(*k).seconds;
  return before - cost_model_.EstimateFusion(candidate).seconds;
}

absl::StatusOr<HloInstruction*> MultiOutputFusionRunner::Merge(const Kernel& merged,
                                                               const std::string& why,
                                                               double saved) {
  bool reduction = false;
  for (const HloInstruction* m : merged.members) reduction |= HasReduction(*m);
  HloReachability::PendingFusion pending = reach_.Prepare(merged.members);
  std::vector<std::string> names;
  for (const HloInstruction* m : merged.members) {
    if (m->opcode() != HloOpcode::kGetTupleElement) names.push_back("%" + m->name());
    live_.erase(m->unique_id());
  }
  SYSTOLIC_ASSIGN_OR_RETURN(
      HloInstruction * fusion,
      builder_->Fuse(merged.members, merged.outputs,
                     reduction ? FusionKind::kInput : FusionKind::kLoop));
  std::vector<const HloInstruction*> elements;
  live_[fusion->unique_id()] = fusion;
  for (HloInstruction* user : fusion->users()) {
    if (user->opcode() == HloOpcode::kGetTupleElement && user->operand(0) == fusion) {
      elements.push_back(user);
      live_[user->unique_id()] = user;
    }
  }
  reach_.Commit(pending, fusion, elements);
  ++merges_;
  log_->CountRewrite(why);
  log_->AddDecision(absl::StrFormat("%s: %s into %%%s, saves %.3f us (%s cost model)", why,
                                    absl::StrJoin(names, " and "), fusion->name(), saved * 1e6,
                                    cost_model_.name()));
  return fusion;
}

absl::StatusOr<bool> MultiOutputFusionRunner::TryProducerConsumer(HloInstruction* consumer) {
  std::optional<Kernel> c = AsKernel(consumer);
  if (!c) return false;
  std::vector<HloInstruction*> operands;
  for (HloInstruction* op : consumer->operands()) {
    if (std::find(operands.begin(), operands.end(), op) == operands.end()) operands.push_back(op);
  }
  for (HloInstruction* producer : operands) {
    // A loop kernel whose value others read as well.
    const bool loop_kernel = producer->opcode() == HloOpcode::kFusion
                                 ? producer->fusion_kind() == FusionKind::kLoop
                                 : producer->IsElementwise() && IsFusible(*producer);
    if (!loop_kernel || producer->shape().IsTuple() || producer->user_count() < 2 ||
        HasReduction(*producer) || HasMatrixOp(*producer)) {
      continue;
    }
    if (reach_.Distance(producer, consumer) > MultiOutputFusion::kMaxDistance) continue;
    // Another path from the producer to the consumer would make a cycle.
    bool other_path = false;
    for (const HloInstruction* user : producer->users()) {
      if (user != consumer && reach_.IsReachable(user, consumer)) other_path = true;
    }
    if (other_path) continue;
    Kernel merged;
    merged.members.push_back(producer);
    merged.members.insert(merged.members.end(), c->members.begin(), c->members.end());
    merged.outputs = c->outputs;
    merged.outputs.push_back(producer);
    std::optional<double> saved = Saving({producer, consumer}, merged);
    if (!saved || *saved <= 0) continue;
    SYSTOLIC_RETURN_IF_ERROR(
        Merge(merged, "fused a producer with its consumer, keeping it as an output", *saved)
            .status());
    return true;
  }
  return false;
}

absl::StatusOr<bool> MultiOutputFusionRunner::TrySiblings(HloInstruction* shared) {
  std::vector<HloInstruction*> users;
  for (HloInstruction* user : shared->users()) {
    if (AsKernel(user) && std::find(users.begin(), users.end(), user) == users.end()) {
      users.push_back(user);
    }
  }
  if (users.size() < 2) return false;
  std::sort(users.begin(), users.end(), [](const HloInstruction* a, const HloInstruction* b) {
    return a->unique_id() < b->unique_id();
  });
  std::vector<int64_t> ids;
  for (const HloInstruction* u : users) ids.push_back(u->unique_id());
  bool changed = false;
  int64_t current = ids[0];
  for (size_t j = 1; j < ids.size() && int(j) <= MultiOutputFusion::kMaxSiblingsPerValue; ++j) {
    HloInstruction* a = Live(current);
    HloInstruction* b = Live(ids[j]);
    if (a == nullptr || b == nullptr || a == b) continue;
    std::optional<Kernel> ka = AsKernel(a), kb = AsKernel(b);
    if (!ka || !kb || IterationSpace(*a) != IterationSpace(*b) || IterationSpace(*a).empty()) {
      continue;
    }
    if (reach_.Distance(a, b) > MultiOutputFusion::kMaxDistance || reach_.IsReachable(a, b) ||
        reach_.IsReachable(b, a)) {
      continue;
    }
    Kernel merged = *ka;
    merged.members.insert(merged.members.end(), kb->members.begin(), kb->members.end());
    merged.outputs.insert(merged.outputs.end(), kb->outputs.begin(), kb->outputs.end());
    std::optional<double> saved = Saving({a, b}, merged);
    if (!saved || *saved <= 0) continue;
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * fusion,
                              Merge(merged, "fused two siblings reading the same value", *saved));
    current = fusion->unique_id();
    changed = true;
  }
  return changed;
}

absl::StatusOr<int64_t> MultiOutputFusionRunner::Run() {
  std::vector<int64_t> order;
  for (const HloInstruction* instr : computation_->MakeInstructionPostOrder()) {
    order.push_back(instr->unique_id());
  }
  for (int64_t id : order) {
    if (HloInstruction* instr = Live(id)) {
      SYSTOLIC_RETURN_IF_ERROR(TryProducerConsumer(instr).status());
    }
  }
  for (int64_t id : order) {
    if (HloInstruction* instr = Live(id)) SYSTOLIC_RETURN_IF_ERROR(TrySiblings(instr).status());
  }
  return merges_;
}

}  // namespace

absl::StatusOr<bool> MultiOutputFusion::Run(HloModule* module) {
  FusionBuilder builder(module);
  int64_t merges = 0;
  for (HloComputation* computation : FusibleComputations(*module)) {
    MultiOutputFusionRunner runner(computation, *cost_model_, options_, &builder, &run_log());
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t m, runner.Run());
    merges += m;
  }
  if (merges > 0) module->RemoveUnusedComputations();
  return merges > 0;
}

}  // namespace systolic
