// Kernels of compare: every direction, with the float, total-order, signed and
// unsigned comparison types.
#include "absl/strings/str_cat.h"
#include "core/eval/element_ops.h"
#include "core/eval/elementwise_kernel.h"

namespace systolic::eval {
namespace {

using Dir = ComparisonDirection;

template <Dir kDir, typename K>
inline bool Compare(K a, K b) {
  if constexpr (kDir == Dir::kEq) return a == b;
  if constexpr (kDir == Dir::kNe) return a != b;
  if constexpr (kDir == Dir::kLt) return a < b;
  if constexpr (kDir == Dir::kLe) return a <= b;
  if constexpr (kDir == Dir::kGt) return a > b;
  if constexpr (kDir == Dir::kGe) return a >= b;
}

// How the elements of T are turned into comparable keys.
enum class KeyKind { kFloat, kTotalOrder, kSigned, kUnsigned, kComplex };

template <KeyKind kKind, typename T>
inline auto KeyOf(T v) {
  if constexpr (kKind == KeyKind::kFloat) return ToCompute(v);
  if constexpr (kKind == KeyKind::kTotalOrder) return TotalOrderKey(v);
  if constexpr (kKind == KeyKind::kSigned) return SignExtend(v);
  if constexpr (kKind == KeyKind::kUnsigned) return ToBits64(v) & IntegerMask<T>();
  if constexpr (kKind == KeyKind::kComplex) return v;
}

template <Dir kDir, KeyKind kKind, typename T>
void CompareLoop(const void* const* in, void* out, int64_t n, const ElementwiseParams&) {
  const T* a = static_cast<const T*>(in[0]);
  const T* b = static_cast<const T*>(in[1]);
  bool* o = static_cast<bool*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = Compare<kDir>(KeyOf<kKind>(a[i]), KeyOf<kKind>(b[i]));
}

template <KeyKind kKind, typename T>
ElementwiseKernel::Fn CompareFn(Dir direction) {
  if constexpr (kKind == KeyKind::kComplex) {
    // Complex numbers are only equal or not.
    if (direction == Dir::kEq) return &CompareLoop<Dir::kEq, kKind, T>;
    if (direction == Dir::kNe) return &CompareLoop<Dir::kNe, kKind, T>;
    return nullptr;
  } else {
  switch (direction) {
    case Dir::kEq:
      return &CompareLoop<Dir::kEq, kKind, T>;
    case Dir::kNe:
      return &CompareLoop<Dir::kNe, kKind, T>;
    case Dir::kLt:
      return &CompareLoop<Dir::kLt, kKind, T>;
    case Dir::kLe:
      return &CompareLoop<Dir::kLe, kKind, T>;
    case Dir::kGt:
      return &CompareLoop<Dir::kGt, kKind, T>;
    case Dir::kGe:
      return &CompareLoop<Dir::kGe, kKind, T>;
  }
  return nullptr;
  }
}

}  // namespace

absl::StatusOr<ElementwiseKernel> MakeCompareKernel(PrimitiveType type, ComparisonDirection direction,
                                                    ComparisonType comparison_type) {
  if (!primitive_util::IsArrayType(type)) {
    return absl::InvalidArgumentError("compare needs array operands");
  }
  auto unsupported = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat("compare direction=", ComparisonDirectionToString(direction),
                     " type=", ComparisonTypeToString(comparison_type), " does not apply to ",
                     primitive_util::LowercasePrimitiveTypeName(type)));
  };
  return ArrayTypeSwitch(type, [&](auto tag) -> absl::StatusOr<ElementwiseKernel> {
    using T = typename decltype(tag)::Native;
    ElementwiseKernel::Fn fn = nullptr;
    if constexpr (kIsComplex<T>) {
      if (direction != Dir::kEq && direction != Dir::kNe) return unsupported();
      fn = CompareFn<KeyKind::kComplex, T>(direction);
    } else if constexpr (kIsFloat<T>) {
      if (comparison_type == ComparisonType::kFloatTotalOrder) {
        fn = CompareFn<KeyKind::kTotalOrder, T>(direction);
      } else {
        fn = CompareFn<KeyKind::kFloat, T>(direction);
      }
    } else {
      // Integers and pred: the explicit type may reinterpret the sign.
      bool as_signed = comparison_type == ComparisonType::kSigned ||
                       (comparison_type != ComparisonType::kUnsigned && kIsSigned<T>);
      fn = as_signed ? CompareFn<KeyKind::kSigned, T>(direction)
                     : CompareFn<KeyKind::kUnsigned, T>(direction);
    }
    return ElementwiseKernel(fn, 2, PRED);
  });
}

}  // namespace systolic::eval
