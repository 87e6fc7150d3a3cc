#include "core/compiler/spmd/sharding_propagation.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/compiler/spmd/sharding_rules.h"
#include "core/compiler/spmd/sharding_transforms.h"
#include "core/hlo/sharding_annotation.h"

namespace systolic {
namespace {

// The shardings of a value's leaves (array, token, ...) in shape order;
// HloSharding::Unknown() marks a leaf not known yet.
using Leaves = std::vector<HloSharding>;

void CollectLeafShapes(const Shape& shape, std::vector<const Shape*>* leaves) {
  if (!shape.IsTuple()) {
    leaves->push_back(&shape);
    return;
  }
  for (const Shape& element : shape.tuple_shapes()) CollectLeafShapes(element, leaves);
}

int64_t LeafCount(const Shape& shape) {
  if (!shape.IsTuple()) return 1;
  int64_t count = 0;
  for (const Shape& element : shape.tuple_shapes()) count += LeafCount(element);
  return count;
}

// The first leaf of tuple element `index`.
int64_t FirstLeafOfElement(const Shape& tuple, int64_t index) {
  int64_t first = 0;
  for (int64_t i = 0; i < index; ++i) first += LeafCount(tuple.tuple_shapes(i));
  return first;
}

bool Fits(const HloSharding& sharding, const Shape& leaf) {
  if (sharding.IsTuple()) return false;
  if (!sharding.IsTiled()) return true;
  return leaf.IsArray() && sharding.TiledDataRank() == leaf.rank();
}

bool IsKnown(const Leaves& leaves) {
  return std::any_of(leaves.begin(), leaves.end(),
                     [](const HloSharding& s) { return !s.IsUnknown(); });
}

// The better of what a leaf holds and a candidate, when the candidate
// improves on it: two partial shardings that fit together merge, otherwise
// the more specific one wins.
std::optional<HloSharding> Refine(const HloSharding& current, const HloSharding& candidate) {
  if (auto merged = spmd::MergeShardings(current, candidate);
      merged && spmd::ShardCount(*merged) > spmd::ShardCount(current)) {
    return merged;
  }
  if (spmd::IsMoreSpecific(candidate, current)) return candidate;
  return std::nullopt;
}

class Propagation {
 public:
  explicit Propagation(HloModule* module) : module_(module) {
    CollectComputations();
    for (HloInstruction* instr : order_) InitSlot(instr);
    PinWhileLoops();
  }

  // Runs to the fixed point and writes the shardings; true if any changed.
  bool Run(PassRunLog* log) {
    constexpr int kMaxSweeps = 1000;  // a guard; each sweep must refine some leaf
    for (int level = 0; level <= spmd::kLowestPropagationPriority; ++level) {
      for (int sweep = 0;; ++sweep) {
        bool changed = false;
        for (HloInstruction* instr : order_) changed |= Forward(instr, level);
        for (auto it = order_.rbegin(); it != order_.rend(); ++it) changed |= Backward(*it, level);
        changed |= TieWhileLoops();
        if (!changed) break;
        if (sweep == kMaxSweeps) {
          log->AddDecision(absl::StrCat("stopped after ", kMaxSweeps, " sweeps at priority ", level));
          break;
        }
      }
    }
    return Write(log);
  }

 private:
  struct Slot {
    Leaves leaves;
    std::vector<const Shape*> leaf_shapes;
    bool annotated = false;  // written by the user: never changed
    bool fixed = false;      // annotated, or tied to an annotated loop member
  };

  // The entry and what it reaches through while, conditional and call, with
  // the instructions calling each; `order_` lists their instructions,
  // callees first, each computation's operands before users.
  void CollectComputations() {
    absl::flat_hash_set<const HloComputation*> reached = {module_->entry_computation()};
    std::vector<const HloComputation*> pending = {module_->entry_computation()};
    while (!pending.empty()) {
      const HloComputation* computation = pending.back();
      pending.pop_back();
      for (HloInstruction* instr : computation->instructions()) {
        const HloOpcode op = instr->opcode();
        if (op != HloOpcode::kWhile && op != HloOpcode::kConditional && op != HloOpcode::kCall) {
          continue;
        }
        if (op == HloOpcode::kWhile) whiles_.push_back(instr);
        for (HloComputation* callee : instr->called_computations()) {
          callers_[callee].push_back(instr);
          if (reached.insert(callee).second) pending.push_back(callee);
        }
      }
    }
    for (HloComputation* computation : module_->MakeComputationPostOrder()) {
      if (!reached.contains(computation)) continue;
      for (HloInstruction* instr : computation->MakeInstructionPostOrder()) order_.push_back(instr);
    }
  }

  void InitSlot(HloInstruction* instr) {
    Slot& slot = slots_[instr];
    CollectLeafShapes(instr->shape(), &slot.leaf_shapes);
    slot.leaves.assign(slot.leaf_shapes.size(), HloSharding::Unknown());
    if (!instr->has_sharding() || instr->sharding().IsUnknown()) return;
    const HloSharding& given = instr->sharding();
    if (given.IsTuple()) {
      if (given.tuple_elements().size() != slot.leaves.size()) return;
      slot.leaves = given.tuple_elements();
    } else {
      slot.leaves.assign(slot.leaves.size(), given);
    }
    slot.annotated = slot.fixed = true;
  }

  // A loop's body parameter, body root and condition parameter.
  std::vector<HloInstruction*> LoopMembers(const HloInstruction* loop) const {
    return {loop->while_body()->parameter_instruction(0), loop->while_body()->root_instruction(),
            loop->while_condition()->parameter_instruction(0)};
  }

  // A loop with an annotated member: the others take that sharding for good.
  void PinWhileLoops() {
    for (HloInstruction* loop : whiles_) {
      std::vector<HloInstruction*> members = LoopMembers(loop);
      members.insert(members.begin(), loop);
      auto annotated = std::find_if(members.begin(), members.end(),
                                    [&](HloInstruction* m) { return slots_[m].fixed; });
      if (annotated == members.end()) continue;
      const Leaves pinned = slots_[*annotated].leaves;
      for (HloInstruction* member : members) {
        Slot& slot = slots_[member];
        if (slot.fixed) continue;
        slot.leaves = pinned;
        slot.fixed = true;
      }
    }
  }

  // Every member of a loop takes the loop's sharding once the loop has taken
  // whatever a member knows better.
  bool TieWhileLoops() {
    bool changed = false;
    for (HloInstruction* loop : whiles_) {
      Slot& loop_slot = slots_[loop];
      for (HloInstruction* member : LoopMembers(loop)) changed |= Offer(loop_slot, slots_[member].leaves);
      for (HloInstruction* member : LoopMembers(loop)) {
        Slot& slot = slots_[member];
        if (slot.fixed) continue;
        for (size_t i = 0; i < slot.leaves.size() && i < loop_slot.leaves.size(); ++i) {
          if (loop_slot.leaves[i].IsUnknown() || slot.leaves[i] == loop_slot.leaves[i]) continue;
          slot.leaves[i] = loop_slot.leaves[i];
          changed = true;
        }
      }
    }
    return changed;
  }

  // Refines `slot` leaf by leaf with `candidate`; true if any leaf changed.
  static bool Offer(Slot& slot, const Leaves& candidate) {
    if (slot.fixed || candidate.size() != slot.leaves.size()) return false;
    bool changed = false;
    for (size_t i = 0; i < candidate.size(); ++i) {
      if (candidate[i].IsUnknown() || !Fits(candidate[i], *slot.leaf_shapes[i])) continue;
      if (auto better = Refine(slot.leaves[i], candidate[i])) {
        slot.leaves[i] = std::move(*better);
        changed = true;
      }
    }
    return changed;
  }

  // A rule's answer as leaves of `instr`: a tuple sharding element by
  // element, anything else for every leaf.
  Leaves ToLeaves(const HloSharding& sharding, const HloInstruction* instr) {
    const size_t count = slots_[instr].leaves.size();
    if (!sharding.IsTuple()) return Leaves(count, sharding);
    if (sharding.tuple_elements().size() != count) return {};
    return sharding.tuple_elements();
  }

  // The leaves as one sharding, as the rules take it.
  HloSharding ShardingOf(const HloInstruction* instr) {
    const Slot& slot = slots_[instr];
    if (instr->shape().IsTuple()) return HloSharding::Tuple(slot.leaves);
    return slot.leaves[0];
  }

  const Leaves& LeavesOf(const HloInstruction* instr) { return slots_[instr].leaves; }

  // --- Forward: what operands (and callers, for parameters) say --------------
  bool Forward(HloInstruction* instr, int level) {
    Slot& slot = slots_[instr];
    if (slot.fixed) return false;
    bool changed = false;
    auto offer = [&](const Leaves& candidate) { changed |= Offer(slot, candidate); };
    if (instr->opcode() == HloOpcode::kParameter) {
      for (HloInstruction* caller : callers_[instr->parent()]) {
        OfferFromCaller(caller, instr, offer);
      }
    }
    switch (instr->opcode()) {
      case HloOpcode::kTuple: {
        Leaves leaves;
        for (const HloInstruction* operand : instr->operands()) {
          const Leaves& part = LeavesOf(operand);
          leaves.insert(leaves.end(), part.begin(), part.end());
        }
        offer(leaves);
        break;
      }
      case HloOpcode::kGetTupleElement: {
        const HloInstruction* tuple = instr->operand(0);
        const int64_t first = FirstLeafOfElement(tuple->shape(), instr->tuple_index());
        const Leaves& all = LeavesOf(tuple);
        offer(Leaves(all.begin() + first, all.begin() + first + int64_t(slot.leaves.size())));
        break;
      }
      case HloOpcode::kCall:
        offer(LeavesOf(instr->to_apply()->root_instruction()));
        break;
      case HloOpcode::kConditional:
        for (int64_t b = 0; b < instr->branch_count(); ++b) {
          offer(LeavesOf(instr->branch_computation(b)->root_instruction()));
        }
        break;
      case HloOpcode::kWhile:
        offer(LeavesOf(instr->operand(0)));  // the members come in TieWhileLoops
        break;
      case HloOpcode::kOptimizationBarrier:
        offer(LeavesOf(instr->operand(0)));
        break;
      case HloOpcode::kCustomCall:
        // Other custom calls are opaque: their results stay as users say.
        if (IsShardingAnnotation(*instr)) offer(LeavesOf(instr->operand(0)));
        break;
      default:
        if (spmd::PropagationPriority(*instr) > level) break;
        for (int64_t k = 0; k < instr->operand_count(); ++k) {
          const HloInstruction* operand = instr->operand(k);
          if (!operand->shape().IsArray() || LeavesOf(operand)[0].IsUnknown()) continue;
          if (auto inferred = spmd::InferResultSharding(*instr, k, LeavesOf(operand)[0])) {
            offer(ToLeaves(*inferred, instr));
          }
        }
        break;
    }
    return changed;
  }

  // What `caller` passes to `parameter` of one of its computations.
  template <typename OfferFn>
  void OfferFromCaller(const HloInstruction* caller, const HloInstruction* parameter,
                       OfferFn& offer) {
    const HloComputation* callee = parameter->parent();
    switch (caller->opcode()) {
      case HloOpcode::kCall:
        offer(LeavesOf(caller->operand(parameter->parameter_number())));
        break;
      case HloOpcode::kConditional:
        for (int64_t b = 0; b < caller->branch_count(); ++b) {
          if (caller->branch_computation(b) == callee) offer(LeavesOf(caller->operand(b + 1)));
        }
        break;
      case HloOpcode::kWhile:
        offer(LeavesOf(caller->operand(0)));
        break;
      default:
        break;
    }
  }

  // --- Backward: what users (and callers, for roots) say ----------------------
  bool Backward(HloInstruction* instr, int level) {
    Slot& slot = slots_[instr];
    if (slot.fixed) return false;
    bool changed = false;
    auto offer = [&](const Leaves& candidate) { changed |= Offer(slot, candidate); };
    for (const HloInstruction* user : instr->users()) {
      if (!slots_.contains(user)) continue;
      for (int64_t k = 0; k < user->operand_count(); ++k) {
        if (user->operand(k) == instr) OfferFromUser(user, k, level, offer);
      }
    }
    if (instr == instr->parent()->root_instruction()) {
      for (const HloInstruction* caller : callers_[instr->parent()]) {
        // A loop condition's root is its predicate, not the loop state.
        if (caller->opcode() == HloOpcode::kWhile && caller->while_body() != instr->parent()) continue;
        offer(LeavesOf(caller));
      }
    }
    return changed;
  }

  // What `user` says about its operand `k`.
  template <typename OfferFn>
  void OfferFromUser(const HloInstruction* user, int64_t k, int level, OfferFn& offer) {
    const HloInstruction* operand = user->operand(k);
    switch (user->opcode()) {
      case HloOpcode::kTuple: {
        const int64_t first = FirstLeafOfElement(user->shape(), k);
        const Leaves& all = LeavesOf(user);
        offer(Leaves(all.begin() + first, all.begin() + first + LeafCount(operand->shape())));
        return;
      }
      case HloOpcode::kGetTupleElement: {
        Leaves leaves(size_t(LeafCount(operand->shape())), HloSharding::Unknown());
        const Leaves& part = LeavesOf(user);
        std::copy(part.begin(), part.end(),
                  leaves.begin() + FirstLeafOfElement(operand->shape(), user->tuple_index()));
        offer(leaves);
        return;
      }
      case HloOpcode::kCall:
        offer(LeavesOf(user->to_apply()->parameter_instruction(k)));
        return;
      case HloOpcode::kConditional:
        if (k > 0) offer(LeavesOf(user->branch_computation(k - 1)->parameter_instruction(0)));
        return;
      case HloOpcode::kWhile:
      case HloOpcode::kOptimizationBarrier:
        offer(LeavesOf(user));
        return;
      case HloOpcode::kCustomCall:
        if (IsShardingAnnotation(*user)) offer(LeavesOf(user));
        return;
      default:
        break;
    }
    if (spmd::PropagationPriority(*user) > level || !operand->shape().IsArray()) return;
    if (IsKnown(LeavesOf(user))) {
      if (auto inferred = spmd::InferOperandSharding(*user, k, ShardingOf(user))) {
        offer(ToLeaves(*inferred, operand));
      }
    }
    if (user->opcode() == HloOpcode::kDot || user->opcode() == HloOpcode::kConvolution) {
      const HloInstruction* sibling = user->operand(1 - k);
      if (sibling->shape().IsArray() && !LeavesOf(sibling)[0].IsUnknown()) {
        if (auto inferred = spmd::InferOperandShardingFromSibling(*user, k, LeavesOf(sibling)[0])) {
          offer(ToLeaves(*inferred, operand));
        }
      }
    }
  }

  // Writes every inferred sharding (replicated where nothing was known);
  // true if any instruction's sharding changed.
  bool Write(PassRunLog* log) {
    bool changed = false;
    for (HloInstruction* instr : order_) {
      Slot& slot = slots_[instr];
      if (slot.annotated) continue;
      bool defaulted = false;
      for (HloSharding& leaf : slot.leaves) {
        if (!leaf.IsUnknown()) continue;
        leaf = HloSharding::Replicate();
        defaulted = true;
      }
      log->CountRewrite(defaulted ? "replicated for want of information" : "sharding inferred");
      HloSharding sharding = ShardingOf(instr);
      if (instr->has_sharding() && instr->sharding() == sharding) continue;
      instr->set_sharding(std::move(sharding));
      changed = true;
    }
    return changed;
  }

  HloModule* module_;
  std::vector<HloInstruction*> order_;
  std::vector<HloInstruction*> whiles_;
  absl::flat_hash_map<const HloComputation*, std::vector<HloInstruction*>> callers_;
  absl::flat_hash_map<const HloInstruction*, Slot> slots_;
};

bool HasAnySharding(const HloModule& module) {
  for (const HloComputation* computation : module.computations()) {
    for (const HloInstruction* instr : computation->instructions()) {
      if (instr->has_sharding()) return true;
    }
  }
  return false;
}

}  // namespace

absl::StatusOr<bool> ShardingPropagation::Run(HloModule* module) {
  if (module->entry_computation() == nullptr || !HasAnySharding(*module)) return false;
  Propagation propagation(module);
  return propagation.Run(&run_log());
}

}  // namespace systolic
