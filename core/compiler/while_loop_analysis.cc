#include "core/compiler/while_loop_analysis.h"

#include <string>

#include "absl/strings/numbers.h"
#include "core/compiler/scalar_value.h"
#include "core/hlo/hlo_computation.h"
#include "nlohmann/json.hpp"

namespace systolic {
namespace {

// Iterations past this are not believed: a loop that would run longer is
// treated as unknown rather than simulated for ever.
constexpr int64_t kMaxProvenTripCount = int64_t{1} << 40;

// Null-safe, for the operands looked up below.
std::optional<int64_t> ScalarConstant(const HloInstruction* instr) {
  if (instr == nullptr) return std::nullopt;
  return ScalarConstantValue(*instr);
}

// The tuple index i when `instr` is element i of the loop state `state`
// (the body's or condition's parameter).
std::optional<int64_t> LoopStateIndex(const HloInstruction* instr, const HloInstruction* state) {
  // Look through everything but the final get-tuple-element of the state.
  for (int hops = 0; hops < 64 && instr != nullptr; ++hops) {
    if (instr->opcode() == HloOpcode::kGetTupleElement && instr->operand(0) == state) {
      return instr->tuple_index();
    }
    const HloInstruction* next = LookThroughPlumbing(instr);
    if (next == instr) {
      if (instr->opcode() != HloOpcode::kGetTupleElement) return std::nullopt;
      // get-tuple-element of something that is the state once looked through.
      const HloInstruction* tuple = LookThroughPlumbing(instr->operand(0));
      if (tuple != state) return std::nullopt;
      return instr->tuple_index();
    }
    instr = next;
  }
  return std::nullopt;
}

// Element `index` of the loop's initial state.
const HloInstruction* InitElement(const HloInstruction& while_loop, int64_t index) {
  const HloInstruction* init = LookThroughPlumbing(while_loop.operand(0));
  if (init == nullptr || init->opcode() != HloOpcode::kTuple || index >= init->operand_count()) {
    return nullptr;
  }
  return init->operand(index);
}

// How much element `index` changes per iteration, when the body adds or
// subtracts a constant.
std::optional<int64_t> StepOf(const HloComputation& body, int64_t index) {
  const HloInstruction* root = LookThroughPlumbing(body.root_instruction());
  if (root == nullptr || root->opcode() != HloOpcode::kTuple || index >= root->operand_count()) {
    return std::nullopt;
  }
  const HloInstruction* state = body.parameter_instruction(0);
  const HloInstruction* next = LookThroughPlumbing(root->operand(index));
  if (next == nullptr || next->operand_count() != 2) return std::nullopt;
  const HloInstruction* lhs = next->operand(0);
  const HloInstruction* rhs = next->operand(1);
  if (next->opcode() == HloOpcode::kAdd) {
    if (LoopStateIndex(lhs, state) == index) return ScalarConstant(rhs);
    if (LoopStateIndex(rhs, state) == index) return ScalarConstant(lhs);
  }
  if (next->opcode() == HloOpcode::kSubtract && LoopStateIndex(lhs, state) == index) {
    if (std::optional<int64_t> step = ScalarConstant(rhs)) return -*step;
  }
  return std::nullopt;
}

ComparisonDirection Mirrored(ComparisonDirection d) {
  switch (d) {
    case ComparisonDirection::kLt: return ComparisonDirection::kGt;
    case ComparisonDirection::kLe: return ComparisonDirection::kGe;
    case ComparisonDirection::kGt: return ComparisonDirection::kLt;
    case ComparisonDirection::kGe: return ComparisonDirection::kLe;
    default: return d;
  }
}

// Iterations of `for (i = init; i <direction> bound; i += step)`.
std::optional<int64_t> CountIterations(int64_t init, int64_t bound, int64_t step,
                                       ComparisonDirection direction) {
  auto ceil_div = [](__int128 a, __int128 b) -> __int128 { return (a + b - 1) / b; };
  __int128 count = -1;
  const __int128 distance = __int128(bound) - __int128(init);
  switch (direction) {
    case ComparisonDirection::kLt:
      if (distance <= 0) return 0;
      if (step > 0) count = ceil_div(distance, step);
      break;
    case ComparisonDirection::kLe:
      if (distance < 0) return 0;
      if (step > 0) count = distance / step + 1;
      break;
    case ComparisonDirection::kGt:
      if (distance >= 0) return 0;
      if (step < 0) count = ceil_div(-distance, -__int128(step));
      break;
    case ComparisonDirection::kGe:
      if (distance > 0) return 0;
      if (step < 0) count = -distance / -__int128(step) + 1;
      break;
    case ComparisonDirection::kNe:
      if (distance == 0) return 0;
      if (step != 0 && distance % step == 0 && distance / step > 0) count = distance / step;
      break;
    case ComparisonDirection::kEq:
      if (distance != 0) return 0;
      break;  // runs while i == bound: once unless step is 0
  }
  if (direction == ComparisonDirection::kEq) {
    if (step != 0) return 1;
    return std::nullopt;
  }
  if (count < 0 || count > kMaxProvenTripCount) return std::nullopt;
  return int64_t(count);
}

std::optional<int64_t> InductionTripCount(const HloInstruction& while_loop) {
  const HloComputation* condition = while_loop.while_condition();
  const HloComputation* body = while_loop.while_body();
  if (condition == nullptr || body == nullptr || condition->parameter_instructions().empty() ||
      body->parameter_instructions().empty()) {
    return std::nullopt;
  }
  const HloInstruction* compare = LookThroughPlumbing(condition->root_instruction());
  if (compare == nullptr || compare->opcode() != HloOpcode::kCompare) return std::nullopt;
  const HloInstruction* state = condition->parameter_instruction(0);
  ComparisonDirection direction = compare->comparison_direction();
  std::optional<int64_t> index = LoopStateIndex(compare->operand(0), state);
  const HloInstruction* bound_instr = compare->operand(1);
  if (!index) {
    index = LoopStateIndex(compare->operand(1), state);
    bound_instr = compare->operand(0);
    direction = Mirrored(direction);
  }
  if (!index) return std::nullopt;
  std::optional<int64_t> bound = ScalarConstant(bound_instr);
  if (!bound) {
    // A bound carried in the loop state unchanged from a constant start.
    if (std::optional<int64_t> bound_index = LoopStateIndex(bound_instr, state)) {
      const HloInstruction* root = LookThroughPlumbing(body->root_instruction());
      if (root != nullptr && root->opcode() == HloOpcode::kTuple &&
          *bound_index < root->operand_count() &&
          LoopStateIndex(root->operand(*bound_index), body->parameter_instruction(0)) ==
              *bound_index) {
        if (const HloInstruction* init = InitElement(while_loop, *bound_index)) {
          bound = ScalarConstant(init);
        }
      }
    }
  }
  if (!bound) return std::nullopt;
  const HloInstruction* init_instr = InitElement(while_loop, *index);
  if (init_instr == nullptr) return std::nullopt;
  std::optional<int64_t> init = ScalarConstant(init_instr);
  std::optional<int64_t> step = StepOf(*body, *index);
  if (!init || !step) return std::nullopt;
  return CountIterations(*init, *bound, *step, direction);
}

}  // namespace

std::optional<int64_t> KnownTripCount(const HloInstruction& while_loop) {
  const std::string& config = while_loop.backend_config();
  if (config.find("known_trip_count") == std::string::npos) return std::nullopt;
  const nlohmann::json json = nlohmann::json::parse(config, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) return std::nullopt;
  auto known = json.find("known_trip_count");
  if (known == json.end() || !known->is_object()) return std::nullopt;
  auto n = known->find("n");
  if (n == known->end()) return std::nullopt;
  int64_t count = 0;
  // Proto JSON writes int64 as a string.
  if (n->is_string()) {
    if (!absl::SimpleAtoi(n->get<std::string>(), &count)) return std::nullopt;
  } else if (n->is_number_integer()) {
    count = n->get<int64_t>();
  } else {
    return std::nullopt;
  }
  if (count < 0) return std::nullopt;
  return count;
}

std::optional<WhileTripCount> ComputeWhileTripCount(const HloInstruction& while_loop) {
  if (while_loop.opcode() != HloOpcode::kWhile) return std::nullopt;
  if (std::optional<int64_t> known = KnownTripCount(while_loop)) {
    return WhileTripCount{*known, "known_trip_count"};
  }
  if (std::optional<int64_t> proven = InductionTripCount(while_loop)) {
    return WhileTripCount{*proven, "induction variable"};
  }
  return std::nullopt;
}

}  // namespace systolic
