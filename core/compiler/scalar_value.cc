#include "core/compiler/scalar_value.h"

#include "core/hlo/hlo_computation.h"

namespace systolic {
namespace {

bool IsIntegerOrPred(PrimitiveType type) {
  return primitive_util::IsIntegralType(type) || type == PrimitiveType::PRED;
}

bool Compare(int64_t lhs, int64_t rhs, ComparisonDirection direction) {
  switch (direction) {
    case ComparisonDirection::kEq: return lhs == rhs;
    case ComparisonDirection::kNe: return lhs != rhs;
    case ComparisonDirection::kGe: return lhs >= rhs;
    case ComparisonDirection::kGt: return lhs > rhs;
    case ComparisonDirection::kLe: return lhs <= rhs;
    case ComparisonDirection::kLt: return lhs < rhs;
  }
  return false;
}

// Evaluates one device's scalar expression; `budget` bounds the visits so a
// deep shared expression cannot take exponential time.
class DeviceScalarEvaluator {
 public:
  // Without ids, only what constants determine has a value.
  explicit DeviceScalarEvaluator(std::optional<DeviceIds> ids) : ids_(ids) {}

  std::optional<int64_t> Value(const HloInstruction* instr) {
    if (--budget_ < 0) return std::nullopt;
    instr = LookThroughPlumbing(instr);
    if (instr == nullptr || !instr->shape().IsScalar() ||
        !IsIntegerOrPred(instr->shape().element_type())) {
      return std::nullopt;
    }
    switch (instr->opcode()) {
      case HloOpcode::kConstant: {
        if (!instr->has_literal()) return std::nullopt;
        const Literal& literal = instr->literal();
        if (!literal.shape().IsScalar() || !IsIntegerOrPred(literal.element_type())) {
          return std::nullopt;
        }
        return literal.GetAsInt64(0);
      }
      case HloOpcode::kPartitionId:
        if (!ids_) return std::nullopt;
        return ids_->partition;
      case HloOpcode::kReplicaId:
        if (!ids_) return std::nullopt;
        return ids_->replica;
      case HloOpcode::kConvert: {  // to pred: plumbing passes the others
        std::optional<int64_t> x = Value(instr->operand(0));
        if (!x) return std::nullopt;
        return int64_t(*x != 0);
      }
      case HloOpcode::kNot: {
        std::optional<int64_t> x = Value(instr->operand(0));
        if (!x) return std::nullopt;
        return instr->shape().element_type() == PrimitiveType::PRED ? int64_t(*x == 0) : ~*x;
      }
      case HloOpcode::kNegate: {
        std::optional<int64_t> x = Value(instr->operand(0));
        if (!x) return std::nullopt;
        return -*x;
      }
      case HloOpcode::kSelect: {
        std::optional<int64_t> predicate = Value(instr->operand(0));
        if (!predicate) return std::nullopt;
        return Value(instr->operand(*predicate != 0 ? 1 : 2));
      }
      case HloOpcode::kCompare: {
        // Compare may take operands of another type than its pred result.
        std::optional<int64_t> lhs = Value(instr->operand(0));
        std::optional<int64_t> rhs = Value(instr->operand(1));
        if (!lhs || !rhs) return std::nullopt;
        return int64_t(Compare(*lhs, *rhs, instr->comparison_direction()));
      }
      default: break;
    }
    if (instr->operand_count() != 2) return std::nullopt;
    std::optional<int64_t> lhs = Value(instr->operand(0));
    std::optional<int64_t> rhs = Value(instr->operand(1));
    if (!lhs || !rhs) return std::nullopt;
    switch (instr->opcode()) {
      case HloOpcode::kAdd: return *lhs + *rhs;
      case HloOpcode::kSubtract: return *lhs - *rhs;
      case HloOpcode::kMultiply: return *lhs * *rhs;
      // Division by zero has a value in XLA, but no shard index needs it.
      case HloOpcode::kDivide:
        if (*rhs == 0) return std::nullopt;
        return *lhs / *rhs;
      case HloOpcode::kRemainder:
        if (*rhs == 0) return std::nullopt;
        return *lhs % *rhs;
      case HloOpcode::kMaximum: return std::max(*lhs, *rhs);
      case HloOpcode::kMinimum: return std::min(*lhs, *rhs);
      case HloOpcode::kAnd: return *lhs & *rhs;
      case HloOpcode::kOr: return *lhs | *rhs;
      case HloOpcode::kXor: return *lhs ^ *rhs;
      default: return std::nullopt;
    }
  }

 private:
  std::optional<DeviceIds> ids_;
  int budget_ = 10'000;
};

}  // namespace

const HloInstruction* LookThroughPlumbing(const HloInstruction* instr) {
  for (int hops = 0; hops < 64 && instr != nullptr; ++hops) {
    switch (instr->opcode()) {
      case HloOpcode::kFusion:
        instr = instr->fused_expression_root();
        continue;
      case HloOpcode::kParameter: {
        const HloComputation* parent = instr->parent();
        if (parent == nullptr || !parent->IsFusionComputation()) return instr;
        instr = parent->FusionInstruction()->operand(instr->parameter_number());
        continue;
      }
      case HloOpcode::kCopy:
      case HloOpcode::kBitcast:
      case HloOpcode::kReshape:
      case HloOpcode::kConvert:
        if (!instr->shape().IsScalar()) return instr;
        // A convert to pred is a compare with zero, not plumbing.
        if (instr->opcode() == HloOpcode::kConvert &&
            instr->shape().element_type() == PrimitiveType::PRED &&
            instr->operand(0)->shape().element_type() != PrimitiveType::PRED) {
          return instr;
        }
        instr = instr->operand(0);
        continue;
      case HloOpcode::kGetTupleElement: {
        const HloInstruction* tuple = LookThroughPlumbing(instr->operand(0));
        if (tuple == nullptr || tuple->opcode() != HloOpcode::kTuple) return instr;
        instr = tuple->operand(instr->tuple_index());
        continue;
      }
      default: return instr;
    }
  }
  return instr;
}

std::optional<int64_t> ScalarConstantValue(const HloInstruction& instruction) {
  return DeviceScalarEvaluator(std::nullopt).Value(&instruction);
}

std::optional<int64_t> ScalarValueOnDevice(const HloInstruction& instruction,
                                           const DeviceIds& ids) {
  return DeviceScalarEvaluator(ids).Value(&instruction);
}

}  // namespace systolic
