#include "core/eval/elementwise_kernel.h"

#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"

namespace systolic::eval {
namespace {

bool IsUnaryKernelOpcode(HloOpcode op) {
  switch (op) {
    case HloOpcode::kAbs:
    case HloOpcode::kSign:
    case HloOpcode::kNegate:
    case HloOpcode::kNot:
    case HloOpcode::kPopulationCount:
    case HloOpcode::kClz:
    case HloOpcode::kCeil:
    case HloOpcode::kFloor:
    case HloOpcode::kRoundNearestAfz:
    case HloOpcode::kRoundNearestEven:
    case HloOpcode::kErf:
    case HloOpcode::kIsFinite:
    case HloOpcode::kReal:
    case HloOpcode::kImag:
    case HloOpcode::kCbrt:
    case HloOpcode::kCos:
    case HloOpcode::kSin:
    case HloOpcode::kTan:
    case HloOpcode::kTanh:
    case HloOpcode::kExp:
    case HloOpcode::kExpm1:
    case HloOpcode::kLog:
    case HloOpcode::kLog1p:
    case HloOpcode::kLogistic:
    case HloOpcode::kSqrt:
    case HloOpcode::kRsqrt:
      return true;
    default:
      return false;
  }
}

bool IsBinaryKernelOpcode(HloOpcode op) {
  switch (op) {
    case HloOpcode::kAdd:
    case HloOpcode::kSubtract:
    case HloOpcode::kMultiply:
    case HloOpcode::kDivide:
    case HloOpcode::kPower:
    case HloOpcode::kRemainder:
    case HloOpcode::kMaximum:
    case HloOpcode::kMinimum:
    case HloOpcode::kAtan2:
    case HloOpcode::kAnd:
    case HloOpcode::kOr:
    case HloOpcode::kXor:
    case HloOpcode::kShiftLeft:
    case HloOpcode::kShiftRightArithmetic:
    case HloOpcode::kShiftRightLogical:
    case HloOpcode::kComplex:
      return true;
    default:
      return false;
  }
}

void FillRepeated(uint8_t* dst, const uint8_t* value, int64_t width, int64_t count) {
  for (int64_t i = 0; i < count; ++i) std::memcpy(dst + i * width, value, size_t(width));
}

}  // namespace

bool HasElementwiseKernel(const HloInstruction& instruction) {
  HloOpcode op = instruction.opcode();
  if (!instruction.shape().IsArray()) return false;
  if (IsUnaryKernelOpcode(op) || IsBinaryKernelOpcode(op)) return true;
  switch (op) {
    case HloOpcode::kCopy:
    case HloOpcode::kCompare:
    case HloOpcode::kSelect:
    case HloOpcode::kClamp:
    case HloOpcode::kConvert:
    case HloOpcode::kReducePrecision:
    case HloOpcode::kStochasticConvert:
      return true;
    case HloOpcode::kBitcastConvert:
      return instruction.operand_count() == 1 && instruction.operand(0)->shape().IsArray() &&
             primitive_util::BitWidth(instruction.operand(0)->shape().element_type()) ==
                 primitive_util::BitWidth(instruction.shape().element_type());
    default:
      return false;
  }
}

absl::StatusOr<ElementwiseKernel> MakeElementwiseKernel(const HloInstruction& instruction) {
  if (!HasElementwiseKernel(instruction)) {
    return absl::InvalidArgumentError(
        absl::StrCat(HloOpcodeString(instruction.opcode()), " has no elementwise kernel"));
  }
  for (const HloInstruction* operand : instruction.operands()) {
    if (!operand->shape().IsArray()) {
      return absl::InvalidArgumentError(absl::StrCat(HloOpcodeString(instruction.opcode()),
                                                     " needs array operands, got ",
                                                     operand->shape().ToString()));
    }
  }
  const HloOpcode op = instruction.opcode();
  const PrimitiveType result = instruction.shape().element_type();
  const PrimitiveType operand0 =
      instruction.operand_count() > 0 ? instruction.operand(0)->shape().element_type() : result;
  absl::StatusOr<ElementwiseKernel> kernel;
  if (IsUnaryKernelOpcode(op)) {
    kernel = MakeUnaryKernel(op, operand0);
  } else if (IsBinaryKernelOpcode(op)) {
    kernel = MakeBinaryKernel(op, operand0);
  } else {
    switch (op) {
      case HloOpcode::kCopy:
        kernel = MakeCopyKernel(result);
        break;
      case HloOpcode::kCompare:
        kernel = MakeCompareKernel(operand0, instruction.comparison_direction(),
                                   instruction.comparison_type());
        break;
      case HloOpcode::kSelect:
        kernel = MakeSelectKernel(result);
        break;
      case HloOpcode::kClamp:
        kernel = MakeClampKernel(result);
        break;
      case HloOpcode::kConvert:
        kernel = MakeConvertKernel(operand0, result);
        break;
      case HloOpcode::kBitcastConvert:
        kernel = MakeBitcastConvertKernel(operand0, result);
        break;
      case HloOpcode::kReducePrecision:
        kernel = MakeReducePrecisionKernel(result, int(instruction.exponent_bits()),
                                           int(instruction.mantissa_bits()));
        break;
      case HloOpcode::kStochasticConvert:
        kernel = MakeStochasticConvertKernel(operand0, instruction.operand(1)->shape().element_type(),
                                             result);
        break;
      default:
        break;
    }
  }
  if (!kernel.ok()) return kernel.status();
  if (kernel->result_type() != result) {
    return absl::InvalidArgumentError(absl::StrCat(
        HloOpcodeString(op), " of ", primitive_util::LowercasePrimitiveTypeName(operand0),
        " gives ", primitive_util::LowercasePrimitiveTypeName(kernel->result_type()),
        ", but the instruction's shape is ", instruction.shape().ToString()));
  }
  return kernel;
}

absl::Status RunElementwise(const ElementwiseKernel& kernel,
                            absl::Span<const Literal* const> operands, Literal* out) {
  const int64_t n = out->element_count();
  if (int64_t(operands.size()) != kernel.arity()) {
    return absl::InvalidArgumentError(
        absl::StrCat("elementwise kernel takes ", kernel.arity(), " operands, got ", operands.size()));
  }
  const int64_t out_width = primitive_util::ByteWidth(out->element_type());
  std::vector<const uint8_t*> base(operands.size());
  std::vector<int64_t> width(operands.size());
  std::vector<std::vector<uint8_t>> broadcast(operands.size());
  bool any_broadcast = false;
  for (size_t i = 0; i < operands.size(); ++i) {
    const Literal& operand = *operands[i];
    width[i] = primitive_util::ByteWidth(operand.element_type());
    base[i] = static_cast<const uint8_t*>(operand.untyped_data());
    if (operand.element_count() == n) continue;
    if (operand.element_count() != 1) {
      return absl::InvalidArgumentError(absl::StrCat("operand ", i, " has shape ",
                                                     operand.shape().ToString(), ", the result ",
                                                     out->shape().ToString()));
    }
    any_broadcast = true;
    broadcast[i].resize(size_t(width[i] * std::min(n, kElementwiseChunk)));
    FillRepeated(broadcast[i].data(), base[i], width[i], std::min(n, kElementwiseChunk));
  }
  uint8_t* out_base = static_cast<uint8_t*>(out->untyped_data());
  std::vector<const void*> in(base.begin(), base.end());
  if (!any_broadcast) {
    kernel.Run(in.data(), out_base, n);
    return absl::OkStatus();
  }
  for (int64_t start = 0; start < n; start += kElementwiseChunk) {
    const int64_t count = std::min(kElementwiseChunk, n - start);
    for (size_t i = 0; i < operands.size(); ++i) {
      in[i] = broadcast[i].empty() ? base[i] + start * width[i] : broadcast[i].data();
    }
    kernel.Run(in.data(), out_base + start * out_width, count);
  }
  return absl::OkStatus();
}

}  // namespace systolic::eval
