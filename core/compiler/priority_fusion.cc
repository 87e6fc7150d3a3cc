#include "core/compiler/priority_fusion.h"

#include <deque>
#include <functional>
#include <optional>
#include <queue>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/compiler/fusion_builder.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

// Instructions that will become one kernel. Operands come before users in
// `members`; only `root` is read from outside.
struct Group {
  int64_t id = 0;
  std::vector<HloInstruction*> members;
  HloInstruction* root = nullptr;
  bool alive = true;
  int64_t version = 0;
  int64_t instruction_count = 0;
  bool has_reduction = false;
  bool has_matrix = false;
  bool expensive = false;
  std::optional<double> seconds;  // cached cost of the group as one kernel
};

bool IsEpilogueOp(const HloInstruction& instr) {
  return instr.IsElementwise() || instr.opcode() == HloOpcode::kBroadcast ||
         instr.opcode() == HloOpcode::kConstant || instr.opcode() == HloOpcode::kIota;
}

class PriorityFusionRunner {
 public:
  PriorityFusionRunner(HloComputation* computation, const CostModel& cost_model,
                       const FusionOptions& options, FusionBuilder* builder, PassRunLog* log)
      : computation_(computation),
        cost_model_(cost_model),
        options_(options),
        builder_(builder),
        log_(log) {}

  absl::StatusOr<bool> Run();

 private:
  Group* NewGroup(HloInstruction* instr);
  double Seconds(Group* g);
  double SecondsOf(const Group& producer, const Group& consumer) const;
  FusionCandidate Candidate(const Group& producer, const Group& consumer) const;
  // The distinct groups reading the producer's root; nullopt when an
  // instruction outside any group reads it (the value must stay in memory).
  std::optional<std::vector<Group*>> Consumers(const Group& producer) const;
  bool CanFuse(const Group& producer, Group& consumer, size_t consumer_count) const;
  // Time saved by fusing `producer` into all its consumers, if allowed.
  std::optional<double> Priority(Group* producer);
  void Push(Group* g);
  void FuseIntoConsumers(Group* producer, const std::vector<Group*>& consumers, double saved);
  void UpdateAround(Group* g);
  void AbsorbCheapLeaves(Group* g);
  absl::Status Materialize();

  HloComputation* computation_;
  const CostModel& cost_model_;
  const FusionOptions& options_;
  FusionBuilder* builder_;
  PassRunLog* log_;
  std::deque<Group> groups_;
  absl::flat_hash_map<const HloInstruction*, Group*> group_of_;
  using Entry = std::tuple<double, int64_t, Group*, int64_t>;  // priority, -id, group, version
  std::priority_queue<Entry> queue_;
  int64_t fusions_ = 0;
};

Group* PriorityFusionRunner::NewGroup(HloInstruction* instr) {
  Group& g = groups_.emplace_back();
  g.id = int64_t(groups_.size());
  g.members = {instr};
  g.root = instr;
  g.instruction_count = KernelInstructionCount(*instr);
  g.has_reduction = HasReduction(*instr);
  g.has_matrix = HasMatrixOp(*instr);
  g.expensive = IsExpensiveToDuplicate(*instr);
  group_of_[instr] = &g;
  return &g;
}

FusionCandidate PriorityFusionRunner::Candidate(const Group& producer, const Group& consumer) const {
  FusionCandidate c;
  c.instructions.reserve(producer.members.size() + consumer.members.size());
  c.instructions.insert(c.instructions.end(), producer.members.begin(), producer.members.end());
  c.instructions.insert(c.instructions.end(), consumer.members.begin(), consumer.members.end());
  c.outputs = {consumer.root};
  return c;
}

double PriorityFusionRunner::Seconds(Group* g) {
  if (!g->seconds) {
    g->seconds = g->members.size() == 1
                     ? cost_model_.EstimateInstruction(*g->root).seconds
                     : cost_model_.EstimateFusion(FusionCandidate{
                           std::vector<const HloInstruction*>(g->members.begin(), g->members.end()),
                           {g->root}}).seconds;
  }
  return *g->seconds;
}

double PriorityFusionRunner::SecondsOf(const Group& producer, const Group& consumer) const {
  return cost_model_.EstimateFusion(Candidate(producer, consumer)).seconds;
}

std::optional<std::vector<Group*>> PriorityFusionRunner::Consumers(const Group& producer) const {
  if (producer.root->IsRoot()) return std::nullopt;
  std::vector<Group*> consumers;
  for (const HloInstruction* user : producer.root->users()) {
    auto it = group_of_.find(user);
    if (it == group_of_.end()) return std::nullopt;
    if (std::find(consumers.begin(), consumers.end(), it->second) == consumers.end()) {
      consumers.push_back(it->second);
      // More consumers than a producer is ever copied into: not a candidate.
      if (int64_t(consumers.size()) > options_.max_consumers_to_duplicate) return std::nullopt;
    }
  }
  if (consumers.empty()) return std::nullopt;
  return consumers;
}

bool PriorityFusionRunner::CanFuse(const Group& producer, Group& consumer,
                                   size_t consumer_count) const {
  // A reduction ends a kernel: its result is complete only at the end.
  if (producer.has_reduction) return false;
  if (consumer_count > 1 &&
      (producer.expensive || int64_t(consumer_count) > options_.max_consumers_to_duplicate)) {
    return false;
  }
  if (producer.has_matrix) {
    // Output fusion: one matrix op, followed by an elementwise epilogue over
    // its result.
    if (consumer.has_matrix || consumer.has_reduction ||
        consumer.root->shape().dimensions() != producer.root->shape().dimensions()) {
      return false;
    }
    for (const HloInstruction* m : consumer.members) {
      if (!IsEpilogueOp(*m)) return false;
    }
  }
  if (consumer.has_matrix) {
    // The matrix op's operands stay in memory; only its epilogue grows.
    for (const HloInstruction* user : producer.root->users()) {
      if (group_of_.at(user) != &consumer) continue;
      if (user->opcode() == HloOpcode::kDot || user->opcode() == HloOpcode::kConvolution ||
          (user->opcode() == HloOpcode::kFusion && HasMatrixOp(*user))) {
        return false;
      }
    }
  }
  if (producer.instruction_count + consumer.instruction_count > options_.max_fused_instructions) {
    return false;
  }
  FusionCandidate candidate = Candidate(producer, consumer);
  if (cost_model_.OnChipFootprint(candidate) > cost_model_.OnChipMemoryBytes()) return false;
  // Distinct values read from outside.
  absl::flat_hash_set<const HloInstruction*> members(candidate.instructions.begin(),
                                                     candidate.instructions.end());
  absl::flat_hash_set<const HloInstruction*> inputs;
  for (const HloInstruction* m : candidate.instructions) {
    for (const HloInstruction* op : m->operands()) {
      if (!members.contains(op)) inputs.insert(op);
    }
  }
  return int64_t(inputs.size()) <= options_.max_fusion_parameters;
}

std::optional<double> PriorityFusionRunner::Priority(Group* producer) {
  std::optional<std::vector<Group*>> consumers = Consumers(*producer);
  if (!consumers) return std::nullopt;
  double unfused = Seconds(producer);
  double fused = 0;
  for (Group* consumer : *consumers) {
    if (!CanFuse(*producer, *consumer, consumers->size())) return std::nullopt;
    unfused += Seconds(consumer);
    fused += SecondsOf(*producer, *consumer);
  }
  return unfused - fused;
}

void PriorityFusionRunner::Push(Group* g) {
  ++g->version;
  std::optional<double> priority = Priority(g);
  if (priority && *priority > 0) queue_.emplace(*priority, -g->id, g, g->version);
}

void PriorityFusionRunner::UpdateAround(Group* g) {
  Push(g);
  // Its producers now feed a different kernel.
  std::vector<Group*> producers;
  for (const HloInstruction* m : g->members) {
    for (const HloInstruction* op : m->operands()) {
      auto it = group_of_.find(op);
      if (it == group_of_.end() || it->second == g) continue;
      if (std::find(producers.begin(), producers.end(), it->second) == producers.end()) {
        producers.push_back(it->second);
      }
    }
  }
  for (Group* p : producers) Push(p);
}

void PriorityFusionRunner::FuseIntoConsumers(Group* producer, const std::vector<Group*>& consumers,
                                             double saved) {
  HloModule* module = computation_->parent();
  HloInstruction* root = producer->root;
  for (size_t i = 0; i < consumers.size(); ++i) {
    Group* consumer = consumers[i];
    std::vector<HloInstruction*> added = producer->members;
    if (i > 0) {
      // A copy of the producer for each further consumer.
      absl::flat_hash_map<const HloInstruction*, HloInstruction*> copy_of;
      added.clear();
      for (HloInstruction* m : producer->members) {
        std::vector<HloInstruction*> operands;
        for (HloInstruction* op : m->operands()) {
          auto it = copy_of.find(op);
          operands.push_back(it == copy_of.end() ? op : it->second);
        }
        auto clone = m->CloneWithNewOperands(m->shape(), operands);
        clone->SetName(module->UniqueName(m->name()));
        HloInstruction* copy = computation_->AddInstruction(std::move(clone));
        copy_of[m] = copy;
        added.push_back(copy);
      }
      HloInstruction* root_copy = copy_of.at(root);
      for (HloInstruction* m : consumer->members) m->ReplaceUseWith(root, root_copy);
    }
    for (HloInstruction* m : added) group_of_[m] = consumer;
    added.insert(added.end(), consumer->members.begin(), consumer->members.end());
    consumer->members = std::move(added);
    consumer->instruction_count += producer->instruction_count;
    consumer->has_reduction |= producer->has_reduction;
    consumer->has_matrix |= producer->has_matrix;
    consumer->expensive |= producer->expensive;
    consumer->seconds.reset();
  }
  producer->alive = false;
  ++fusions_;
  log_->CountRewrite(consumers.size() > 1 ? "fused a producer into several consumers (copied)"
                                          : "fused a producer into its consumer");
  std::string into;
  for (const Group* c : consumers) absl::StrAppend(&into, into.empty() ? "%" : ", %", c->root->name());
  log_->AddDecision(absl::StrFormat("fused %%%s into %s: saves %.3f us (%s cost model)",
                                    root->name(), into, saved * 1e6, cost_model_.name()));
  for (Group* consumer : consumers) UpdateAround(consumer);
}

void PriorityFusionRunner::AbsorbCheapLeaves(Group* g) {
  HloModule* module = computation_->parent();
  absl::flat_hash_map<const HloInstruction*, HloInstruction*> copy_of;
  std::vector<HloInstruction*> prefix;
  // A copy of `leaf` (and of a cheap operand of it) inside the group.
  std::function<HloInstruction*(HloInstruction*)> copy = [&](HloInstruction* leaf) {
    auto it = copy_of.find(leaf);
    if (it != copy_of.end()) return it->second;
    std::vector<HloInstruction*> operands;
    for (HloInstruction* op : leaf->operands()) {
      operands.push_back(IsCheapToDuplicate(*op) ? copy(op) : op);
    }
    auto clone = leaf->CloneWithNewOperands(leaf->shape(), operands);
    clone->SetName(module->UniqueName(leaf->name()));
    HloInstruction* added = computation_->AddInstruction(std::move(clone));
    copy_of[leaf] = added;
    prefix.push_back(added);
    group_of_[added] = g;
    return added;
  };
  const std::vector<HloInstruction*> members = g->members;
  for (HloInstruction* m : members) {
    // A matrix op reads its operands from memory anyway.
    if (m->opcode() == HloOpcode::kDot || m->opcode() == HloOpcode::kConvolution ||
        (m->opcode() == HloOpcode::kFusion && HasMatrixOp(*m))) {
      continue;
    }
    for (HloInstruction* op : std::vector<HloInstruction*>(m->operands())) {
      if (group_of_.contains(op) || !IsCheapToDuplicate(*op)) continue;
      // A lone instruction only takes leaves that save reading an array.
      if (members.size() == 1 && op->shape().rank() == 0) continue;
      m->ReplaceUseWith(op, copy(op));
    }
  }
  if (prefix.empty()) return;
  log_->rewrites["copied a constant, iota or broadcast into a kernel"] += int64_t(prefix.size());
  prefix.insert(prefix.end(), g->members.begin(), g->members.end());
  g->members = std::move(prefix);
}

absl::Status PriorityFusionRunner::Materialize() {
  for (Group& g : groups_) {
    if (!g.alive) continue;
    AbsorbCheapLeaves(&g);
    if (g.members.size() < 2) continue;
    const FusionKind kind = g.has_matrix      ? FusionKind::kOutput
                            : g.has_reduction ? FusionKind::kInput
                                              : FusionKind::kLoop;
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * fusion, builder_->Fuse(g.members, {g.root}, kind));
    (void)fusion;
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> PriorityFusionRunner::Run() {
  for (HloInstruction* instr : computation_->MakeInstructionPostOrder()) {
    if (IsFusible(*instr) && !IsCheapToDuplicate(*instr)) NewGroup(instr);
  }
  for (Group& g : groups_) Push(&g);
  while (!queue_.empty()) {
    auto [priority, neg_id, group, version] = queue_.top();
    queue_.pop();
    if (!group->alive || version != group->version) continue;
    std::optional<std::vector<Group*>> consumers = Consumers(*group);
    if (!consumers) continue;
    FuseIntoConsumers(group, *consumers, priority);
  }
  const int64_t before = computation_->instruction_count();
  SYSTOLIC_RETURN_IF_ERROR(Materialize());
  return fusions_ > 0 || computation_->instruction_count() != before;
}

}  // namespace

absl::StatusOr<bool> PriorityFusion::Run(HloModule* module) {
  FusionBuilder builder(module);
  bool changed = false;
  for (HloComputation* computation : FusibleComputations(*module)) {
    PriorityFusionRunner runner(computation, *cost_model_, options_, &builder, &run_log());
    SYSTOLIC_ASSIGN_OR_RETURN(bool c, runner.Run());
    changed |= c;
  }
  if (changed) module->RemoveUnusedComputations();
  return changed;
}

}  // namespace systolic
