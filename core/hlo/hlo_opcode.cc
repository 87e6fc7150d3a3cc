#include "core/hlo/hlo_opcode.h"

#include "absl/container/flat_hash_map.h"

namespace systolic {
namespace {

struct OpcodeInfo {
  absl::string_view name;
  int arity;
};

constexpr OpcodeInfo kOpcodeInfo[] = {
#define SYSTOLIC_INFO(enum_name, text_name, arity) {text_name, arity},
    SYSTOLIC_HLO_OPCODE_LIST(SYSTOLIC_INFO)
#undef SYSTOLIC_INFO
};

}  // namespace

absl::string_view HloOpcodeString(HloOpcode opcode) { return kOpcodeInfo[int(opcode)].name; }

std::optional<HloOpcode> StringToHloOpcode(absl::string_view name) {
  static const auto* by_name = [] {
    auto* m = new absl::flat_hash_map<absl::string_view, HloOpcode>();
    for (int i = 0; i < kHloOpcodeCount; ++i) (*m)[kOpcodeInfo[i].name] = HloOpcode(i);
    return m;
  }();
  auto it = by_name->find(name);
  if (it == by_name->end()) return std::nullopt;
  return it->second;
}

int HloOpcodeArity(HloOpcode opcode) { return kOpcodeInfo[int(opcode)].arity; }

bool HloOpcodeIsTranscendental(HloOpcode op) {
  switch (op) {
    case HloOpcode::kExp:
    case HloOpcode::kExpm1:
    case HloOpcode::kLog:
    case HloOpcode::kLog1p:
    case HloOpcode::kLogistic:
    case HloOpcode::kTanh:
    case HloOpcode::kSin:
    case HloOpcode::kCos:
    case HloOpcode::kTan:
    case HloOpcode::kAtan2:
    case HloOpcode::kPower:
    case HloOpcode::kSqrt:
    case HloOpcode::kRsqrt:
    case HloOpcode::kCbrt:
    case HloOpcode::kErf:
      return true;
    default:
      return false;
  }
}

bool HloOpcodeIsElementwiseUnary(HloOpcode op) {
  switch (op) {
    case HloOpcode::kAbs:
    case HloOpcode::kCbrt:
    case HloOpcode::kCeil:
    case HloOpcode::kClz:
    case HloOpcode::kConvert:
    case HloOpcode::kCopy:
    case HloOpcode::kCos:
    case HloOpcode::kErf:
    case HloOpcode::kExp:
    case HloOpcode::kExpm1:
    case HloOpcode::kFloor:
    case HloOpcode::kImag:
    case HloOpcode::kIsFinite:
    case HloOpcode::kLog:
    case HloOpcode::kLog1p:
    case HloOpcode::kLogistic:
    case HloOpcode::kNegate:
    case HloOpcode::kNot:
    case HloOpcode::kPopulationCount:
    case HloOpcode::kReal:
    case HloOpcode::kReducePrecision:
    case HloOpcode::kRoundNearestAfz:
    case HloOpcode::kRoundNearestEven:
    case HloOpcode::kRsqrt:
    case HloOpcode::kSign:
    case HloOpcode::kSin:
    case HloOpcode::kSqrt:
    case HloOpcode::kTan:
    case HloOpcode::kTanh:
      return true;
    default:
      return false;
  }
}

bool HloOpcodeIsElementwiseBinary(HloOpcode op) {
  switch (op) {
    case HloOpcode::kAdd:
    case HloOpcode::kAnd:
    case HloOpcode::kAtan2:
    case HloOpcode::kCompare:
    case HloOpcode::kComplex:
    case HloOpcode::kDivide:
    case HloOpcode::kMaximum:
    case HloOpcode::kMinimum:
    case HloOpcode::kMultiply:
    case HloOpcode::kOr:
    case HloOpcode::kPower:
    case HloOpcode::kRemainder:
    case HloOpcode::kShiftLeft:
    case HloOpcode::kShiftRightArithmetic:
    case HloOpcode::kShiftRightLogical:
    case HloOpcode::kSubtract:
    case HloOpcode::kXor:
      return true;
    default:
      return false;
  }
}

bool HloOpcodeIsComparison(HloOpcode op) { return op == HloOpcode::kCompare; }

bool HloOpcodeIsCollective(HloOpcode op) {
  switch (op) {
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart:
    case HloOpcode::kAllToAll:
    case HloOpcode::kRaggedAllToAll:
    case HloOpcode::kCollectiveBroadcast:
    case HloOpcode::kCollectivePermute:
    case HloOpcode::kCollectivePermuteStart:
    case HloOpcode::kReduceScatter:
      return true;
    default:
      return false;
  }
}

bool HloOpcodeIsAsyncStart(HloOpcode op) {
  return op == HloOpcode::kAsyncStart || op == HloOpcode::kAllGatherStart ||
         op == HloOpcode::kAllReduceStart || op == HloOpcode::kCollectivePermuteStart ||
         op == HloOpcode::kCopyStart || op == HloOpcode::kSend || op == HloOpcode::kRecv;
}

bool HloOpcodeIsAsyncDone(HloOpcode op) {
  return op == HloOpcode::kAsyncDone || op == HloOpcode::kAllGatherDone ||
         op == HloOpcode::kAllReduceDone || op == HloOpcode::kCollectivePermuteDone ||
         op == HloOpcode::kCopyDone || op == HloOpcode::kSendDone || op == HloOpcode::kRecvDone;
}

}  // namespace systolic
