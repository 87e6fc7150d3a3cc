#include "core/runtime/buffer_type.h"

#include <array>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"

namespace systolic::runtime {
namespace {

constexpr std::array<std::pair<PrimitiveType, SYSTOLIC_Buffer_Type>, 32> kBufferTypes{{
    {PRED, SYSTOLIC_Buffer_Type_PRED},
    {S2, SYSTOLIC_Buffer_Type_S2},
    {S4, SYSTOLIC_Buffer_Type_S4},
    {S8, SYSTOLIC_Buffer_Type_S8},
    {S16, SYSTOLIC_Buffer_Type_S16},
    {S32, SYSTOLIC_Buffer_Type_S32},
    {S64, SYSTOLIC_Buffer_Type_S64},
    {U2, SYSTOLIC_Buffer_Type_U2},
    {U4, SYSTOLIC_Buffer_Type_U4},
    {U8, SYSTOLIC_Buffer_Type_U8},
    {U16, SYSTOLIC_Buffer_Type_U16},
    {U32, SYSTOLIC_Buffer_Type_U32},
    {U64, SYSTOLIC_Buffer_Type_U64},
    {F16, SYSTOLIC_Buffer_Type_F16},
    {BF16, SYSTOLIC_Buffer_Type_BF16},
    {F32, SYSTOLIC_Buffer_Type_F32},
    {F64, SYSTOLIC_Buffer_Type_F64},
    {C64, SYSTOLIC_Buffer_Type_C64},
    {C128, SYSTOLIC_Buffer_Type_C128},
    {F8E5M2, SYSTOLIC_Buffer_Type_F8E5M2},
    {F8E4M3, SYSTOLIC_Buffer_Type_F8E4M3},
    {F8E4M3FN, SYSTOLIC_Buffer_Type_F8E4M3FN},
    {F8E4M3B11FNUZ, SYSTOLIC_Buffer_Type_F8E4M3B11FNUZ},
    {F8E5M2FNUZ, SYSTOLIC_Buffer_Type_F8E5M2FNUZ},
    {F8E4M3FNUZ, SYSTOLIC_Buffer_Type_F8E4M3FNUZ},
    {F8E3M4, SYSTOLIC_Buffer_Type_F8E3M4},
    {F8E8M0FNU, SYSTOLIC_Buffer_Type_F8E8M0FNU},
    {F4E2M1FN, SYSTOLIC_Buffer_Type_F4E2M1FN},
    {TOKEN, SYSTOLIC_Buffer_Type_TOKEN},
    {F6E2M3FN, SYSTOLIC_Buffer_Type_F6E2M3FN},
    {F6E3M2FN, SYSTOLIC_Buffer_Type_F6E3M2FN},
    {PRIMITIVE_TYPE_INVALID, SYSTOLIC_Buffer_Type_INVALID},
}};

}  // namespace

SYSTOLIC_Buffer_Type BufferTypeOf(PrimitiveType type) {
  for (const auto& [ir, abi] : kBufferTypes) {
    if (ir == type) return abi;
  }
  return SYSTOLIC_Buffer_Type_INVALID;
}

absl::StatusOr<PrimitiveType> PrimitiveTypeOf(SYSTOLIC_Buffer_Type type) {
  for (const auto& [ir, abi] : kBufferTypes) {
    if (abi == type && ir != PRIMITIVE_TYPE_INVALID) return ir;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "element type ", int(type), " is not defined by version ", SYSTOLIC_API_MAJOR, ".",
      SYSTOLIC_API_MINOR, " of the runtime's C ABI"));
}

absl::StatusOr<Shape> ShapeOfBuffer(SYSTOLIC_Buffer_Type type, const int64_t* dims,
                                    size_t num_dims) {
  absl::StatusOr<PrimitiveType> element = PrimitiveTypeOf(type);
  if (!element.ok()) return element.status();
  if (*element == TOKEN) return Shape::MakeToken();
  return Shape(*element, absl::MakeConstSpan(dims, num_dims));
}

}  // namespace systolic::runtime
