// Maps element types to the C++ types that hold them on the host, and
// dispatches generic code over every array type.
#pragma once

#include <complex>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "core/hlo/float_types.h"
#include "core/hlo/primitive_type.h"

namespace systolic {

using complex64 = std::complex<float>;
using complex128 = std::complex<double>;

template <PrimitiveType kType>
struct NativeTypeOfImpl;
#define SYSTOLIC_NATIVE_TYPE(ENUM, TYPE)         \
  template <>                                    \
  struct NativeTypeOfImpl<ENUM> {                \
    using type = TYPE;                           \
  };
SYSTOLIC_NATIVE_TYPE(PRED, bool)
SYSTOLIC_NATIVE_TYPE(S2, int2)
SYSTOLIC_NATIVE_TYPE(S4, int4)
SYSTOLIC_NATIVE_TYPE(S8, int8_t)
SYSTOLIC_NATIVE_TYPE(S16, int16_t)
SYSTOLIC_NATIVE_TYPE(S32, int32_t)
SYSTOLIC_NATIVE_TYPE(S64, int64_t)
SYSTOLIC_NATIVE_TYPE(U2, uint2)
SYSTOLIC_NATIVE_TYPE(U4, uint4)
SYSTOLIC_NATIVE_TYPE(U8, uint8_t)
SYSTOLIC_NATIVE_TYPE(U16, uint16_t)
SYSTOLIC_NATIVE_TYPE(U32, uint32_t)
SYSTOLIC_NATIVE_TYPE(U64, uint64_t)
SYSTOLIC_NATIVE_TYPE(F16, half)
SYSTOLIC_NATIVE_TYPE(BF16, bfloat16)
SYSTOLIC_NATIVE_TYPE(F32, float)
SYSTOLIC_NATIVE_TYPE(F64, double)
SYSTOLIC_NATIVE_TYPE(C64, complex64)
SYSTOLIC_NATIVE_TYPE(C128, complex128)
SYSTOLIC_NATIVE_TYPE(F8E5M2, float8_e5m2)
SYSTOLIC_NATIVE_TYPE(F8E4M3, float8_e4m3)
SYSTOLIC_NATIVE_TYPE(F8E4M3FN, float8_e4m3fn)
SYSTOLIC_NATIVE_TYPE(F8E4M3B11FNUZ, float8_e4m3b11fnuz)
SYSTOLIC_NATIVE_TYPE(F8E5M2FNUZ, float8_e5m2fnuz)
SYSTOLIC_NATIVE_TYPE(F8E4M3FNUZ, float8_e4m3fnuz)
SYSTOLIC_NATIVE_TYPE(F8E3M4, float8_e3m4)
SYSTOLIC_NATIVE_TYPE(F8E8M0FNU, float8_e8m0fnu)
SYSTOLIC_NATIVE_TYPE(F4E2M1FN, float4_e2m1fn)
SYSTOLIC_NATIVE_TYPE(F6E2M3FN, float6_e2m3fn)
SYSTOLIC_NATIVE_TYPE(F6E3M2FN, float6_e3m2fn)
#undef SYSTOLIC_NATIVE_TYPE

template <PrimitiveType kType>
using NativeTypeOf = typename NativeTypeOfImpl<kType>::type;

template <typename T>
constexpr PrimitiveType NativeToPrimitiveType();
#define SYSTOLIC_PRIMITIVE_OF(TYPE, ENUM)                \
  template <>                                           \
  constexpr PrimitiveType NativeToPrimitiveType<TYPE>() { \
    return ENUM;                                        \
  }
SYSTOLIC_PRIMITIVE_OF(bool, PRED)
SYSTOLIC_PRIMITIVE_OF(int2, S2)
SYSTOLIC_PRIMITIVE_OF(int4, S4)
SYSTOLIC_PRIMITIVE_OF(int8_t, S8)
SYSTOLIC_PRIMITIVE_OF(int16_t, S16)
SYSTOLIC_PRIMITIVE_OF(int32_t, S32)
SYSTOLIC_PRIMITIVE_OF(int64_t, S64)
SYSTOLIC_PRIMITIVE_OF(uint2, U2)
SYSTOLIC_PRIMITIVE_OF(uint4, U4)
SYSTOLIC_PRIMITIVE_OF(uint8_t, U8)
SYSTOLIC_PRIMITIVE_OF(uint16_t, U16)
SYSTOLIC_PRIMITIVE_OF(uint32_t, U32)
SYSTOLIC_PRIMITIVE_OF(uint64_t, U64)
SYSTOLIC_PRIMITIVE_OF(half, F16)
SYSTOLIC_PRIMITIVE_OF(bfloat16, BF16)
SYSTOLIC_PRIMITIVE_OF(float, F32)
SYSTOLIC_PRIMITIVE_OF(double, F64)
SYSTOLIC_PRIMITIVE_OF(complex64, C64)
SYSTOLIC_PRIMITIVE_OF(complex128, C128)
SYSTOLIC_PRIMITIVE_OF(float8_e5m2, F8E5M2)
SYSTOLIC_PRIMITIVE_OF(float8_e4m3, F8E4M3)
SYSTOLIC_PRIMITIVE_OF(float8_e4m3fn, F8E4M3FN)
SYSTOLIC_PRIMITIVE_OF(float8_e4m3b11fnuz, F8E4M3B11FNUZ)
SYSTOLIC_PRIMITIVE_OF(float8_e5m2fnuz, F8E5M2FNUZ)
SYSTOLIC_PRIMITIVE_OF(float8_e4m3fnuz, F8E4M3FNUZ)
SYSTOLIC_PRIMITIVE_OF(float8_e3m4, F8E3M4)
SYSTOLIC_PRIMITIVE_OF(float8_e8m0fnu, F8E8M0FNU)
SYSTOLIC_PRIMITIVE_OF(float4_e2m1fn, F4E2M1FN)
SYSTOLIC_PRIMITIVE_OF(float6_e2m3fn, F6E2M3FN)
SYSTOLIC_PRIMITIVE_OF(float6_e3m2fn, F6E3M2FN)
#undef SYSTOLIC_PRIMITIVE_OF

// Tag passed to the callbacks of ArrayTypeSwitch: `decltype(tag)::kType`.
template <PrimitiveType T>
struct PrimitiveTypeTag {
  static constexpr PrimitiveType kType = T;
  using Native = NativeTypeOf<T>;
};

// Calls f(PrimitiveTypeTag<T>{}) for the array type `type`. Non-array types
// must be handled by the caller before dispatching.
template <typename F>
decltype(auto) ArrayTypeSwitch(PrimitiveType type, F&& f) {
  switch (type) {
#define SYSTOLIC_CASE(T) \
  case T:                \
    return f(PrimitiveTypeTag<T>{});
    SYSTOLIC_CASE(PRED)
    SYSTOLIC_CASE(S2)
    SYSTOLIC_CASE(S4)
    SYSTOLIC_CASE(S8)
    SYSTOLIC_CASE(S16)
    SYSTOLIC_CASE(S32)
    SYSTOLIC_CASE(S64)
    SYSTOLIC_CASE(U2)
    SYSTOLIC_CASE(U4)
    SYSTOLIC_CASE(U8)
    SYSTOLIC_CASE(U16)
    SYSTOLIC_CASE(U32)
    SYSTOLIC_CASE(U64)
    SYSTOLIC_CASE(F16)
    SYSTOLIC_CASE(BF16)
    SYSTOLIC_CASE(F32)
    SYSTOLIC_CASE(F64)
    SYSTOLIC_CASE(C64)
    SYSTOLIC_CASE(C128)
    SYSTOLIC_CASE(F8E5M2)
    SYSTOLIC_CASE(F8E4M3)
    SYSTOLIC_CASE(F8E4M3FN)
    SYSTOLIC_CASE(F8E4M3B11FNUZ)
    SYSTOLIC_CASE(F8E5M2FNUZ)
    SYSTOLIC_CASE(F8E4M3FNUZ)
    SYSTOLIC_CASE(F8E3M4)
    SYSTOLIC_CASE(F8E8M0FNU)
    SYSTOLIC_CASE(F4E2M1FN)
    SYSTOLIC_CASE(F6E2M3FN)
    SYSTOLIC_CASE(F6E3M2FN)
#undef SYSTOLIC_CASE
    default:
      break;
  }
  // Unreachable for array types; keep the return type of the callback.
  return f(PrimitiveTypeTag<F32>{});
}

}  // namespace systolic
