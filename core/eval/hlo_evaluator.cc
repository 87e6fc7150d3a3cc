#include "core/eval/hlo_evaluator.h"

#include <algorithm>
#include <optional>
#include <new>
#include <random>


#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/eval/batch_norm.h"
#include "core/eval/collectives.h"
#include "core/eval/convolution.h"
#include "core/eval/dot_general.h"
#include "core/eval/elementwise_kernel.h"
#include "core/eval/evaluation_memory.h"
#include "core/eval/fft.h"
#include "core/eval/fused_elementwise_plan.h"
#include "core/eval/gather_scatter.h"
#include "core/eval/linear_algebra.h"
#include "core/eval/reduction.h"
#include "core/eval/rng_bit_generator.h"
#include "core/eval/scalar_function.h"
#include "core/eval/shape_ops.h"
#include "core/eval/sort.h"
#include "core/hlo/host_memory.h"
#include "core/hlo/sharding_annotation.h"

namespace systolic {
namespace {

using eval::ScalarFunction;

absl::Status Invalid(absl::string_view message) { return absl::InvalidArgumentError(message); }

// The instructions of a computation that its root needs, in an order where
// operands come first, with each operand's position.
struct ComputationPlan {
  std::vector<const HloInstruction*> order;
  absl::flat_hash_map<const HloInstruction*, int> position;
  std::vector<std::vector<int>> operands;
  int root = -1;
  // A tuple value every user of which is a get-tuple-element of a different
  // index: each may take its element by move.
  std::vector<bool> elements_movable;
};

std::unique_ptr<ComputationPlan> BuildPlan(const HloComputation& computation) {
  auto plan = std::make_unique<ComputationPlan>();
  const HloInstruction* root = computation.root_instruction();
  absl::flat_hash_map<const HloInstruction*, bool> reachable;
  std::vector<const HloInstruction*> stack;
  if (root != nullptr) stack.push_back(root);
  while (!stack.empty()) {
    const HloInstruction* i = stack.back();
    stack.pop_back();
    if (!reachable.emplace(i, true).second) continue;
    for (const HloInstruction* o : i->operands()) stack.push_back(o);
    for (const HloInstruction* o : i->control_predecessors()) stack.push_back(o);
  }
  for (const HloInstruction* i : computation.MakeInstructionPostOrder()) {
    if (!reachable.contains(i)) continue;
    plan->position[i] = int(plan->order.size());
    plan->order.push_back(i);
  }
  plan->operands.resize(plan->order.size());
  plan->elements_movable.assign(plan->order.size(), false);
  for (size_t p = 0; p < plan->order.size(); ++p) {
    for (const HloInstruction* o : plan->order[p]->operands()) {
      plan->operands[p].push_back(plan->position.at(o));
    }
  }
  if (root != nullptr) plan->root = plan->position.at(root);
  for (size_t p = 0; p < plan->order.size(); ++p) {
    const HloInstruction* i = plan->order[p];
    if (!i->shape().IsTuple() || int(p) == plan->root) continue;
    std::vector<int64_t> seen;
    bool ok = true;
    for (const HloInstruction* user : i->users()) {
      if (!reachable.contains(user)) continue;
      if (user->opcode() != HloOpcode::kGetTupleElement ||
          std::find(seen.begin(), seen.end(), user->tuple_index()) != seen.end()) {
        ok = false;
        break;
      }
      seen.push_back(user->tuple_index());
    }
    plan->elements_movable[p] = ok;
  }
  return plan;
}

// One value of a running computation: owned, or a reference to a literal the
// computation does not own (a constant, a borrowed argument).
struct Slot {
  Literal owned;
  const Literal* ref = nullptr;
  bool is_owned = false;
};

// Arguments of a computation: borrowed, or owned (then moved into the
// parameters).
struct CallArgs {
  absl::Span<const Literal* const> borrowed;
  std::vector<Literal>* owned = nullptr;
  size_t size() const { return owned != nullptr ? owned->size() : borrowed.size(); }
};

// The operands of the instruction being evaluated. Take() moves a value out
// when this instruction is its last user, and copies it otherwise.
class Operands {
 public:
  explicit Operands(std::vector<const Literal*> values) : values_(std::move(values)) {}
  Operands(std::vector<const Literal*> values, std::vector<Slot>* slots,
           const std::vector<int>* positions, const std::vector<int>* remaining,
           const ComputationPlan* plan)
      : values_(std::move(values)),
        slots_(slots),
        positions_(positions),
        remaining_(remaining),
        plan_(plan) {}

  const Literal& operator[](int64_t i) const { return *values_[i]; }
  int64_t size() const { return int64_t(values_.size()); }
  bool complete() const {
    return std::find(values_.begin(), values_.end(), nullptr) == values_.end();
  }
  absl::Span<const Literal* const> all() const { return values_; }
  absl::Span<const Literal* const> range(int64_t begin, int64_t end) const {
    return absl::Span<const Literal* const>(values_).subspan(begin, end - begin);
  }

  Literal Take(int64_t i) {
    if (Slot* s = Movable(i)) {
      s->ref = nullptr;
      return std::move(s->owned);
    }
    return values_[i]->Clone();
  }

  absl::StatusOr<Literal> TakeElement(int64_t i, int64_t element) {
    const Literal& tuple = *values_[i];
    if (!tuple.shape().IsTuple() || element < 0 || element >= tuple.tuple_size()) {
      return Invalid(absl::StrCat("element ", element, " of ", tuple.shape().ToString(),
                                  " does not exist"));
    }
    Slot* s = Movable(i);
    if (s == nullptr && slots_ != nullptr) {
      const int pos = (*positions_)[i];
      Slot& slot = (*slots_)[pos];
      if (slot.is_owned && plan_->elements_movable[pos]) s = &slot;
    }
    if (s != nullptr) return std::move(s->owned.tuple_element(element));
    return tuple.tuple_element(element).Clone();
  }

 private:
  Slot* Movable(int64_t i) {
    if (slots_ == nullptr) return nullptr;
    const int pos = (*positions_)[i];
    Slot& slot = (*slots_)[pos];
    if (!slot.is_owned || (*remaining_)[pos] != 1) return nullptr;
    int uses = 0;
    for (int p : *positions_) uses += p == pos;
    return uses == 1 ? &slot : nullptr;
  }

  std::vector<const Literal*> values_;
  std::vector<Slot>* slots_ = nullptr;
  const std::vector<int>* positions_ = nullptr;
  const std::vector<int>* remaining_ = nullptr;
  const ComputationPlan* plan_ = nullptr;
};

bool SameDimensionsAndType(const Shape& a, const Shape& b) {
  if (a.IsTuple() != b.IsTuple()) return false;
  if (a.IsTuple()) {
    if (a.tuple_shapes_size() != b.tuple_shapes_size()) return false;
    for (int64_t i = 0; i < a.tuple_shapes_size(); ++i) {
      if (!SameDimensionsAndType(a.tuple_shapes(i), b.tuple_shapes(i))) return false;
    }
    return true;
  }
  return a.element_type() == b.element_type() && a.dimensions() == b.dimensions();
}

// Bytes the value of `shape` takes (saturating; tuples add up).
absl::Status OutOfMemory() {
  return absl::ResourceExhaustedError("the host ran out of memory evaluating the program");
}

// The tuple of an asynchronous start: (operands, result, context...), built
// after `shape` with zero context values.
Literal StartTuple(const Shape& shape, Literal operands, Literal result) {
  std::vector<Literal> elements;
  elements.push_back(std::move(operands));
  elements.push_back(std::move(result));
  for (int64_t i = 2; i < shape.tuple_shapes_size(); ++i) {
    elements.push_back(eval::ZeroLiteral(shape.tuple_shapes(i)));
  }
  return Literal::MakeTuple(std::move(elements));
}

}  // namespace

class HloEvaluator::Impl {
 public:
  Impl(EvaluatorOptions options, eval::DeviceContext device)
      : options_(options),
        device_(device),
        rng_(options.rng_seed),
        rng_state_(options.rng_seed),
        value_limit_(options.max_value_bytes > 0 ? options.max_value_bytes : HalfPhysicalMemory()) {}

  const EvaluatorOptions& options() const { return options_; }
  const eval::DeviceContext& device() const { return device_; }

  // A lone evaluator runs device 0 of the module's replicas x partitions:
  // collectives that need the other devices then fail clearly.
  void AdoptModuleDeviceCounts(const HloModule& module) {
    if (device_.rendezvous != nullptr) return;
    device_.replica_count = std::max<int64_t>(device_.replica_count, module.replica_count());
    device_.partition_count = std::max<int64_t>(device_.partition_count, module.num_partitions());
  }

  absl::StatusOr<Literal> RunBorrowed(const HloComputation& c, absl::Span<const Literal* const> args) {
    auto values = Execute(c, CallArgs{args, nullptr}, {});
    if (!values.ok()) return values.status();
    return std::move((*values)[0]);
  }

  absl::StatusOr<Literal> RunOwned(const HloComputation& c, std::vector<Literal> args) {
    auto values = Execute(c, CallArgs{{}, &args}, {});
    if (!values.ok()) return values.status();
    return std::move((*values)[0]);
  }

  absl::StatusOr<Literal> EvaluateInstruction(const HloInstruction& instr,
                                              absl::Span<const Literal* const> operands) {
    if (instr.opcode() == HloOpcode::kConstant && instr.has_literal()) return instr.literal().Clone();
    if (instr.opcode() == HloOpcode::kParameter) {
      return Invalid(absl::StrCat("%", instr.name(), " is a parameter: it has no value of its own"));
    }
    if (int64_t(operands.size()) != instr.operand_count()) {
      return Invalid(absl::StrCat("%", instr.name(), " takes ", instr.operand_count(),
                                  " operands, got ", operands.size()));
    }
    Operands ops(std::vector<const Literal*>(operands.begin(), operands.end()));
    auto result = DispatchChecked(instr, ops);
    if (!result.ok()) return Annotate(instr, result.status());
    return result;
  }

  // Runs `c`; returns the values of `targets` (the root when empty).
  absl::StatusOr<std::vector<Literal>> Execute(const HloComputation& c, CallArgs args,
                                               absl::Span<const HloInstruction* const> targets) {
    const ComputationPlan& plan = PlanFor(c);
    if (plan.root < 0) return Invalid(absl::StrCat("computation ", c.name(), " has no root"));
    if (int64_t(args.size()) != c.num_parameters()) {
      return Invalid(absl::StrCat("computation ", c.name(), " takes ", c.num_parameters(),
                                  " arguments, got ", args.size()));
    }
    const size_t n = plan.order.size();
    std::vector<int> target_positions;
    if (targets.empty()) {
      target_positions.push_back(plan.root);
    } else {
      for (const HloInstruction* t : targets) {
        auto it = plan.position.find(t);
        if (it == plan.position.end()) {
          return absl::InternalError(absl::StrCat("%", t->name(), " is not needed by ", c.name()));
        }
        target_positions.push_back(it->second);
      }
    }
    // What the targets need, and how many uses each value has left.
    std::vector<bool> needed(n, false);
    for (int t : target_positions) needed[t] = true;
    for (size_t p = n; p-- > 0;) {
      if (!needed[p]) continue;
      for (int o : plan.operands[p]) needed[o] = true;
      for (const HloInstruction* pred : plan.order[p]->control_predecessors()) {
        auto it = plan.position.find(pred);
        if (it != plan.position.end()) needed[it->second] = true;
      }
    }
    std::vector<int> remaining(n, 0);
    for (size_t p = 0; p < n; ++p) {
      if (!needed[p]) continue;
      for (int o : plan.operands[p]) ++remaining[o];
    }
    for (int t : target_positions) ++remaining[t];

    std::vector<Slot> slots(n);
    for (size_t p = 0; p < n; ++p) {
      if (!needed[p]) continue;
      const HloInstruction& instr = *plan.order[p];
      Slot& slot = slots[p];
      if (instr.opcode() == HloOpcode::kParameter) {
        const int64_t k = instr.parameter_number();
        if (k < 0 || k >= int64_t(args.size())) {
          return Invalid(absl::StrCat("%", instr.name(), ": no argument ", k));
        }
        if (args.owned == nullptr && args.borrowed[k] == nullptr) {
          return Invalid(absl::StrCat("%", instr.name(), ": argument ", k, " is missing"));
        }
        if (args.owned != nullptr) {
          slot.owned = std::move((*args.owned)[k]);
          slot.ref = &slot.owned;
          slot.is_owned = true;
        } else {
          slot.ref = args.borrowed[k];
        }
        continue;
      }
      if (instr.opcode() == HloOpcode::kConstant && instr.has_literal()) {
        slot.ref = &instr.literal();
        continue;
      }
      const std::vector<int>& positions = plan.operands[p];
      std::vector<const Literal*> values;
      values.reserve(positions.size());
      for (int o : positions) values.push_back(slots[o].ref);
      Operands ops(std::move(values), &slots, &positions, &remaining, &plan);
      auto result = DispatchChecked(instr, ops);
      if (!result.ok()) return Annotate(instr, result.status());
      slot.owned = *std::move(result);
      slot.ref = &slot.owned;
      slot.is_owned = true;
      for (int o : positions) {
        if (--remaining[o] == 0) {
          slots[o].owned = Literal();
          slots[o].ref = nullptr;
        }
      }
    }
    std::vector<Literal> out;
    for (size_t i = 0; i < target_positions.size(); ++i) {
      const int t = target_positions[i];
      Slot& slot = slots[t];
      const bool last = std::count(target_positions.begin() + i + 1, target_positions.end(), t) == 0;
      if (slot.is_owned && last) {
        out.push_back(std::move(slot.owned));
      } else {
        out.push_back(slot.ref->Clone());
      }
    }
    return out;
  }

 private:
  static absl::Status Annotate(const HloInstruction& instr, const absl::Status& s) {
    return absl::Status(s.code(), absl::StrCat("%", instr.name(), " (", HloOpcodeString(instr.opcode()),
                                               "): ", s.message()));
  }

  const ComputationPlan& PlanFor(const HloComputation& c) {
    auto& plan = plans_[&c];
    if (plan == nullptr) plan = BuildPlan(c);
    return *plan;
  }

  const eval::FusedElementwisePlan* FusionPlanFor(const HloComputation& c) {
    auto it = fusion_plans_.find(&c);
    if (it == fusion_plans_.end()) {
      it = fusion_plans_.emplace(&c, eval::FusedElementwisePlan::Build(c)).first;
    }
    return it->second.get();
  }

  absl::StatusOr<ScalarFunction> Compile(const HloComputation* c) {
    if (c == nullptr) return Invalid("the instruction has no computation to apply");
    return ScalarFunction::Compile(*c, [this](const HloComputation& comp,
                                              absl::Span<const Literal* const> args) {
      return RunBorrowed(comp, args);
    });
  }

  absl::Status ExpectOperands(const HloInstruction& instr, const Operands& ops, int64_t count) {
    if (ops.size() != count) {
      return Invalid(absl::StrCat("expects ", count, " operands, has ", ops.size()));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<Literal> Elementwise(const HloInstruction& instr, const Operands& ops) {
    auto kernel = eval::MakeElementwiseKernel(instr);
    if (!kernel.ok()) return kernel.status();
    Literal out(Shape(instr.shape().element_type(), instr.shape().dimensions()));
    if (auto s = eval::RunElementwise(*kernel, ops.all(), &out); !s.ok()) return s;
    return out;
  }

  absl::StatusOr<Literal> Map(const HloInstruction& instr, const Operands& ops) {
    auto f = Compile(instr.to_apply());
    if (!f.ok()) return f.status();
    if (f->parameter_count() != ops.size() || f->result_count() != 1) {
      return Invalid("map: the computation does not take one scalar per operand");
    }
    Literal out(Shape(instr.shape().element_type(), instr.shape().dimensions()));
    for (int64_t k = 0; k < ops.size(); ++k) {
      if (!ops[k].shape().IsArray() || ops[k].element_count() != out.element_count() ||
          ops[k].element_type() != f->parameter_type(k)) {
        return Invalid(absl::StrCat("map: operand ", k, " is ", ops[k].shape().ToString()));
      }
    }
    if (f->result_type(0) != out.element_type()) return Invalid("map: the result type differs");
    if (const eval::ElementwiseKernel* k = f->binary_kernel(); k != nullptr && ops.size() == 2) {
      const void* in[2] = {ops[f->binary_swapped() ? 1 : 0].untyped_data(),
                           ops[f->binary_swapped() ? 0 : 1].untyped_data()};
      k->Run(in, out.untyped_data(), out.element_count());
      return out;
    }
    std::vector<const void*> args(ops.size());
    const int64_t out_width = primitive_util::ByteWidth(out.element_type());
    for (int64_t i = 0; i < out.element_count(); ++i) {
      for (int64_t k = 0; k < ops.size(); ++k) {
        args[k] = static_cast<const uint8_t*>(ops[k].untyped_data()) +
                  i * primitive_util::ByteWidth(ops[k].element_type());
      }
      void* result[1] = {static_cast<uint8_t*>(out.untyped_data()) + i * out_width};
      if (auto s = f->Call(args.data(), result); !s.ok()) return s;
    }
    return out;
  }

  absl::StatusOr<Literal> While(const HloInstruction& instr, Operands& ops) {
    if (instr.called_computations().size() != 2) return Invalid("while needs a condition and a body");
    const HloComputation& condition = *instr.while_condition();
    const HloComputation& body = *instr.while_body();
    Literal state = ops.Take(0);
    for (int64_t iteration = 0;; ++iteration) {
      if (options_.max_while_iterations > 0 && iteration >= options_.max_while_iterations) {
        return absl::ResourceExhaustedError(absl::StrCat(
            "the loop did not finish within ", options_.max_while_iterations,
            " iterations (EvaluatorOptions::max_while_iterations)"));
      }
      const Literal* arg = &state;
      auto go_on = RunBorrowed(condition, absl::MakeConstSpan(&arg, 1));
      if (!go_on.ok()) return go_on.status();
      if (go_on->element_type() != PRED || go_on->element_count() != 1) {
        return Invalid(absl::StrCat("the condition returned ", go_on->shape().ToString()));
      }
      if (!go_on->GetFirstElement<bool>()) return state;
      std::vector<Literal> args;
      args.push_back(std::move(state));
      auto next = RunOwned(body, std::move(args));
      if (!next.ok()) return next.status();
      state = *std::move(next);
    }
  }

  absl::StatusOr<Literal> Conditional(const HloInstruction& instr, Operands& ops) {
    const int64_t branches = instr.branch_count();
    if (branches < 1 || ops.size() != branches + 1) {
      return Invalid("conditional needs a selector and one operand per branch");
    }
    const Literal& selector = ops[0];
    if (selector.element_count() != 1) return Invalid("the branch selector must be a scalar");
    int64_t branch;
    if (selector.element_type() == PRED) {
      branch = selector.GetFirstElement<bool>() ? 0 : 1;
    } else {
      // Out-of-range indices run the last branch, as XLA does.
      branch = selector.GetAsInt64(0);
      if (branch < 0 || branch >= branches) branch = branches - 1;
    }
    if (branch >= branches) return Invalid("a pred conditional needs two branches");
    std::vector<Literal> args;
    args.push_back(ops.Take(branch + 1));
    return RunOwned(*instr.branch_computation(branch), std::move(args));
  }

  absl::StatusOr<Literal> Fusion(const HloInstruction& instr, const Operands& ops) {
    const HloComputation* fused = instr.fused_instructions_computation();
    if (fused == nullptr) return Invalid("fusion without a fused computation");
    if (const eval::FusedElementwisePlan* plan = FusionPlanFor(*fused)) {
      std::vector<Literal> materialized;
      if (!plan->materialized().empty()) {
        auto values = Execute(*fused, CallArgs{ops.all(), nullptr}, plan->materialized());
        if (!values.ok()) return values.status();
        materialized = *std::move(values);
      }
      std::vector<const Literal*> pointers;
      for (const Literal& l : materialized) pointers.push_back(&l);
      return plan->Run(ops.all(), pointers);
    }
    return RunBorrowed(*fused, ops.all());
  }

  absl::StatusOr<Literal> Collective(const HloInstruction& instr, const Operands& ops) {
    std::optional<ScalarFunction> reducer;
    const HloOpcode op = instr.opcode();
    if (op == HloOpcode::kAllReduce || op == HloOpcode::kAllReduceStart ||
        op == HloOpcode::kReduceScatter) {
      auto f = Compile(instr.to_apply());
      if (!f.ok()) return f.status();
      reducer.emplace(*std::move(f));
    }
    const int64_t execution = executions_[&instr]++;
    return eval::EvaluateCollective(instr, ops.all(), device_, execution,
                                    reducer ? &*reducer : nullptr);
  }

  // Dispatch, refusing values too large for the host and checking that the
  // value has the instruction's shape.
  absl::StatusOr<Literal> DispatchChecked(const HloInstruction& instr, Operands& ops) {
    const double bytes = ShapeBytes(instr.shape());
    if (bytes > double(value_limit_)) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "its value needs ", bytes / double(1 << 20), " MiB, over the evaluator's limit of ",
          value_limit_ >> 20, " MiB (EvaluatorOptions::max_value_bytes)"));
    }
    auto result = Dispatch(instr, ops);
    if (result.ok() && !SameDimensionsAndType(result->shape(), instr.shape())) {
      return absl::InternalError(absl::StrCat("computed ", result->shape().ToString(),
                                              " but the instruction's shape is ",
                                              instr.shape().ToString()));
    }
    return result;
  }

  absl::StatusOr<Literal> Dispatch(const HloInstruction& instr, Operands& ops) {
    const Shape& shape = instr.shape();
    const int arity = HloOpcodeArity(instr.opcode());
    if (arity != kHloOpcodeVariadic && ops.size() != arity) {
      return Invalid(absl::StrCat("expects ", arity, " operands, has ", ops.size()));
    }
    if (!ops.complete()) return absl::InternalError("an operand has no value");
    switch (instr.opcode()) {
      case HloOpcode::kParameter:
      case HloOpcode::kConstant:
        return Invalid("parameters and constants are not evaluated by dispatch");
      case HloOpcode::kTuple: {
        std::vector<Literal> elements;
        for (int64_t i = 0; i < ops.size(); ++i) elements.push_back(ops.Take(i));
        return Literal::MakeTuple(std::move(elements));
      }
      case HloOpcode::kGetTupleElement:
        return ops.TakeElement(0, instr.tuple_index());
      case HloOpcode::kAfterAll:
        return Literal(Shape::MakeToken());
      case HloOpcode::kAddDependency:
      case HloOpcode::kOptimizationBarrier:
      case HloOpcode::kDomain:
      case HloOpcode::kSetDimensionSize:
      case HloOpcode::kAsyncUpdate:
      case HloOpcode::kAllReduceDone:
        return ops.Take(0);
      case HloOpcode::kCopy:
        if (!shape.IsArray()) return ops.Take(0);
        return Elementwise(instr, ops);
      case HloOpcode::kBroadcast:
        return eval::Broadcast(ops[0], shape.dimensions(), instr.dimensions());
      case HloOpcode::kReshape:
      case HloOpcode::kDynamicReshape:
        return eval::Reshape(ops[0], shape.dimensions());
      case HloOpcode::kTranspose:
        return eval::Transpose(ops[0], instr.dimensions());
      case HloOpcode::kSlice:
        return eval::Slice(ops[0], instr.slice_starts(), instr.slice_limits(), instr.slice_strides());
      case HloOpcode::kReverse:
        return eval::Reverse(ops[0], instr.dimensions());
      case HloOpcode::kConcatenate:
        if (instr.dimensions().empty()) return Invalid("concatenate needs a dimension");
        return eval::Concatenate(ops.all(), instr.concatenate_dimension());
      case HloOpcode::kPad:
        return eval::Pad(ops[0], ops[1], instr.padding_config());
      case HloOpcode::kIota:
        if (instr.dimensions().empty()) return Invalid("iota needs a dimension");
        return eval::Iota(shape, instr.iota_dimension());
      case HloOpcode::kDynamicSlice: {
        if (ops.size() < 2) return Invalid("dynamic-slice needs start indices");
        auto starts = eval::ReadStartIndices(ops.range(1, ops.size()), ops[0].shape().rank());
        if (!starts.ok()) return starts.status();
        return eval::DynamicSlice(ops[0], *starts, instr.slice_sizes());
      }
      case HloOpcode::kDynamicUpdateSlice: {
        if (ops.size() < 3) return Invalid("dynamic-update-slice needs start indices");
        auto starts = eval::ReadStartIndices(ops.range(2, ops.size()), ops[0].shape().rank());
        if (!starts.ok()) return starts.status();
        return eval::DynamicUpdateSlice(ops[0], ops[1], *starts);
      }
      case HloOpcode::kBitcast:
        return eval::Bitcast(ops[0], instr.operand(0)->shape(), shape);
      case HloOpcode::kBitcastConvert:
        if (eval::HasElementwiseKernel(instr)) return Elementwise(instr, ops);
        return eval::BitcastConvert(ops[0], shape);
      case HloOpcode::kGetDimensionSize: {
        if (instr.dimensions().empty() || instr.dimensions(0) < 0 ||
            instr.dimensions(0) >= ops[0].shape().rank()) {
          return Invalid("get-dimension-size: the dimension is out of range");
        }
        Literal out(Shape(shape.element_type(), {}));
        out.SetFromInt64(0, ops[0].shape().dimensions(instr.dimensions(0)));
        return out;
      }
      case HloOpcode::kGather:
        if (auto s = ExpectOperands(instr, ops, 2); !s.ok()) return s;
        return eval::Gather(ops[0], ops[1], instr.gather_dimension_numbers(), instr.slice_sizes(),
                            shape.dimensions());
      case HloOpcode::kScatter: {
        if (ops.size() < 3 || ops.size() % 2 == 0) return Invalid("scatter needs 2N+1 operands");
        const int64_t n = (ops.size() - 1) / 2;
        auto f = Compile(instr.to_apply());
        if (!f.ok()) return f.status();
        return eval::Scatter(ops.range(0, n), ops[n], ops.range(n + 1, 2 * n + 1),
                             instr.scatter_dimension_numbers(), *f);
      }
      case HloOpcode::kDot: {
        if (auto s = ExpectOperands(instr, ops, 2); !s.ok()) return s;
        auto out = eval::DotGeneral(ops[0], ops[1], instr.dot_dimension_numbers(), shape.element_type());
        if (out.ok() && out->shape().dimensions() != shape.dimensions()) {
          return Invalid(absl::StrCat("dot computes ", out->shape().ToString(), ", not ",
                                      shape.ToString()));
        }
        return out;
      }
      case HloOpcode::kConvolution:
        if (auto s = ExpectOperands(instr, ops, 2); !s.ok()) return s;
        return eval::Convolution(ops[0], ops[1], instr.window(), instr.convolution_dimension_numbers(),
                                 instr.feature_group_count(), instr.batch_group_count(), shape);
      case HloOpcode::kReduce: {
        if (ops.size() < 2 || ops.size() % 2 != 0) return Invalid("reduce needs N inputs and N inits");
        const int64_t n = ops.size() / 2;
        auto f = Compile(instr.to_apply());
        if (!f.ok()) return f.status();
        return eval::Reduce(ops.range(0, n), ops.range(n, 2 * n), instr.dimensions(), *f);
      }
      case HloOpcode::kReduceWindow: {
        if (ops.size() < 2 || ops.size() % 2 != 0) {
          return Invalid("reduce-window needs N inputs and N inits");
        }
        const int64_t n = ops.size() / 2;
        auto f = Compile(instr.to_apply());
        if (!f.ok()) return f.status();
        return eval::ReduceWindow(ops.range(0, n), ops.range(n, 2 * n), instr.window(), *f);
      }
      case HloOpcode::kSelectAndScatter: {
        if (auto s = ExpectOperands(instr, ops, 3); !s.ok()) return s;
        if (instr.called_computations().size() != 2) return Invalid("needs select and scatter");
        auto select = Compile(instr.select());
        if (!select.ok()) return select.status();
        auto scatter = Compile(instr.scatter());
        if (!scatter.ok()) return scatter.status();
        return eval::SelectAndScatter(ops[0], ops[1], ops[2], instr.window(), *select, *scatter);
      }
      case HloOpcode::kSort: {
        if (instr.dimensions().empty()) return Invalid("sort needs a dimension");
        auto f = Compile(instr.to_apply());
        if (!f.ok()) return f.status();
        return eval::Sort(ops.all(), instr.dimensions(0), *f);
      }
      case HloOpcode::kTopK:
        return eval::TopK(ops[0], instr.k(), instr.largest());
      case HloOpcode::kMap:
        return Map(instr, ops);
      case HloOpcode::kCall: {
        if (instr.to_apply() == nullptr) return Invalid("call without a computation");
        std::vector<Literal> args;
        for (int64_t i = 0; i < ops.size(); ++i) args.push_back(ops.Take(i));
        return RunOwned(*instr.to_apply(), std::move(args));
      }
      case HloOpcode::kFusion:
        return Fusion(instr, ops);
      case HloOpcode::kWhile:
        return While(instr, ops);
      case HloOpcode::kConditional:
        return Conditional(instr, ops);
      case HloOpcode::kAsyncStart: {
        if (instr.async_wrapped_computation() == nullptr) return Invalid("async-start wraps nothing");
        auto result = RunBorrowed(*instr.async_wrapped_computation(), ops.all());
        if (!result.ok()) return result.status();
        std::vector<Literal> operands;
        for (int64_t i = 0; i < ops.size(); ++i) operands.push_back(ops[i].Clone());
        return StartTuple(shape, Literal::MakeTuple(std::move(operands)), *std::move(result));
      }
      case HloOpcode::kAsyncDone:
      case HloOpcode::kAllGatherDone:
      case HloOpcode::kCollectivePermuteDone:
        return ops.TakeElement(0, 1);
      case HloOpcode::kCopyStart: {
        Literal a = ops[0].Clone();
        return StartTuple(shape, std::move(a), ops.Take(0));
      }
      case HloOpcode::kCopyDone:
        return ops.TakeElement(0, 0);
      case HloOpcode::kReplicaId:
      case HloOpcode::kPartitionId: {
        Literal out(Shape(shape.element_type(), {}));
        out.SetFromInt64(0, instr.opcode() == HloOpcode::kReplicaId ? device_.replica_id
                                                                     : device_.partition_id);
        return out;
      }
      case HloOpcode::kAllReduce:
      case HloOpcode::kAllReduceStart:
      case HloOpcode::kAllGather:
      case HloOpcode::kReduceScatter:
      case HloOpcode::kAllToAll:
      case HloOpcode::kCollectivePermute:
      case HloOpcode::kCollectiveBroadcast:
        return Collective(instr, ops);
      case HloOpcode::kAllGatherStart:
      case HloOpcode::kCollectivePermuteStart: {
        auto result = Collective(instr, ops);
        if (!result.ok()) return result.status();
        Literal operands;
        if (instr.opcode() == HloOpcode::kCollectivePermuteStart || ops.size() == 1) {
          operands = ops[0].Clone();
        } else {
          std::vector<Literal> all;
          for (int64_t i = 0; i < ops.size(); ++i) all.push_back(ops[i].Clone());
          operands = Literal::MakeTuple(std::move(all));
        }
        return StartTuple(shape, std::move(operands), *std::move(result));
      }
      case HloOpcode::kRng:
        if (auto s = ExpectOperands(instr, ops, 2); !s.ok()) return s;
        return eval::Rng(instr.random_distribution(), ops[0], ops[1], shape, rng_);
      case HloOpcode::kRngBitGenerator:
        if (!shape.IsTuple() || shape.tuple_shapes_size() != 2) {
          return Invalid("rng-bit-generator must return (state, bits)");
        }
        return eval::RngBitGenerator(instr.random_algorithm(), ops[0], shape.tuple_shapes(1));
      case HloOpcode::kRngGetAndUpdateState: {
        Literal out(Shape(shape.element_type(), shape.dimensions()));
        if (out.element_count() > 0) out.SetFromInt64(0, int64_t(rng_state_));
        rng_state_ += uint64_t(instr.delta());
        return out;
      }
      case HloOpcode::kBatchNormTraining:
        if (auto s = ExpectOperands(instr, ops, 3); !s.ok()) return s;
        return eval::BatchNormTraining(ops[0], ops[1], ops[2], instr.epsilon(), instr.feature_index());
      case HloOpcode::kBatchNormInference:
        if (auto s = ExpectOperands(instr, ops, 5); !s.ok()) return s;
        return eval::BatchNormInference(ops[0], ops[1], ops[2], ops[3], ops[4], instr.epsilon(),
                                        instr.feature_index());
      case HloOpcode::kBatchNormGrad:
        if (auto s = ExpectOperands(instr, ops, 5); !s.ok()) return s;
        return eval::BatchNormGrad(ops[0], ops[1], ops[2], ops[3], ops[4], instr.epsilon(),
                                   instr.feature_index());
      case HloOpcode::kCholesky:
        return eval::Cholesky(ops[0], instr.lower());
      case HloOpcode::kTriangularSolve:
        if (auto s = ExpectOperands(instr, ops, 2); !s.ok()) return s;
        return eval::TriangularSolve(ops[0], ops[1], instr.left_side(), instr.lower(),
                                     instr.unit_diagonal(), instr.transpose_a());
      case HloOpcode::kFft:
        return eval::Fft(ops[0], instr.fft_type(), instr.fft_length(), shape);
      case HloOpcode::kCustomCall:
        // A sharding annotation says how to lay a value out, not what it is.
        if (IsShardingAnnotation(instr) && ops.size() == 1) return ops.Take(0);
        return absl::UnimplementedError(
            absl::StrCat("unsupported custom call target \"", instr.custom_call_target(), "\""));
      case HloOpcode::kInfeed:
      case HloOpcode::kOutfeed:
      case HloOpcode::kSend:
      case HloOpcode::kSendDone:
      case HloOpcode::kRecv:
      case HloOpcode::kRecvDone:
        return absl::UnimplementedError(absl::StrCat(
            HloOpcodeString(instr.opcode()), " talks to a host or another program; the evaluator has neither"));
      default:
        break;
    }
    if (eval::HasElementwiseKernel(instr)) return Elementwise(instr, ops);
    return absl::UnimplementedError(
        absl::StrCat("the evaluator does not run ", HloOpcodeString(instr.opcode())));
  }

  EvaluatorOptions options_;
  eval::DeviceContext device_;
  std::mt19937_64 rng_;
  uint64_t rng_state_;
  absl::flat_hash_map<const HloComputation*, std::unique_ptr<ComputationPlan>> plans_;
  absl::flat_hash_map<const HloComputation*, std::unique_ptr<eval::FusedElementwisePlan>>
      fusion_plans_;
  absl::flat_hash_map<const HloInstruction*, int64_t> executions_;
  int64_t value_limit_;
};

HloEvaluator::HloEvaluator(EvaluatorOptions options, eval::DeviceContext device)
    : impl_(std::make_unique<Impl>(options, device)) {}

HloEvaluator::~HloEvaluator() = default;

const EvaluatorOptions& HloEvaluator::options() const { return impl_->options(); }
const eval::DeviceContext& HloEvaluator::device() const { return impl_->device(); }

absl::StatusOr<Literal> HloEvaluator::Evaluate(const HloModule& module,
                                               absl::Span<const Literal* const> arguments) {
  const HloComputation* entry = module.entry_computation();
  if (entry == nullptr) return Invalid(absl::StrCat("module ", module.name(), " has no entry"));
  impl_->AdoptModuleDeviceCounts(module);
  // EvaluateSpmd plans for all its devices at once.
  if (impl_->device().rendezvous == nullptr) {
    if (absl::Status fits = eval::CheckEvaluationFits(module, 1); !fits.ok()) return fits;
  }
  return EvaluateComputation(*entry, arguments);
}

absl::StatusOr<Literal> HloEvaluator::Evaluate(const HloModule& module,
                                               const std::vector<Literal>& arguments) {
  std::vector<const Literal*> pointers;
  for (const Literal& l : arguments) pointers.push_back(&l);
  return Evaluate(module, pointers);
}

absl::StatusOr<Literal> HloEvaluator::EvaluateComputation(const HloComputation& computation,
                                                          absl::Span<const Literal* const> arguments) {
  if (int64_t(arguments.size()) != computation.num_parameters()) {
    return Invalid(absl::StrCat(computation.name(), " takes ", computation.num_parameters(),
                                " arguments, got ", arguments.size()));
  }
  for (int64_t i = 0; i < computation.num_parameters(); ++i) {
    const Shape& expected = computation.parameter_instruction(i)->shape();
    if (arguments[i] == nullptr || !SameDimensionsAndType(arguments[i]->shape(), expected)) {
      return Invalid(absl::StrCat("argument ", i, " (%", computation.parameter_instruction(i)->name(),
                                  ") must be ", expected.ToString(), ", got ",
                                  arguments[i] ? arguments[i]->shape().ToString() : "nothing"));
    }
  }
  try {
    return impl_->RunBorrowed(computation, arguments);
  } catch (const std::bad_alloc&) {
    return OutOfMemory();
  }
}

absl::StatusOr<Literal> HloEvaluator::EvaluateInstruction(const HloInstruction& instruction,
                                                          absl::Span<const Literal* const> operands) {
  try {
    return impl_->EvaluateInstruction(instruction, operands);
  } catch (const std::bad_alloc&) {
    return OutOfMemory();
  }
}

}  // namespace systolic
