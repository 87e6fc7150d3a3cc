// Element types of HLO values, with XLA's names and properties.
#pragma once

#include <cstdint>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"

namespace systolic {

enum PrimitiveType : uint8_t {
  PRIMITIVE_TYPE_INVALID = 0,
  PRED,
  S2,
  S4,
  S8,
  S16,
  S32,
  S64,
  U2,
  U4,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64,
  C64,
  C128,
  F8E5M2,
  F8E4M3,
  F8E4M3FN,
  F8E4M3B11FNUZ,
  F8E5M2FNUZ,
  F8E4M3FNUZ,
  F8E3M4,
  F8E8M0FNU,
  F4E2M1FN,
  F6E2M3FN,
  F6E3M2FN,
  TOKEN,
  TUPLE,
  OPAQUE_TYPE,
  PRIMITIVE_TYPE_COUNT,
};

namespace primitive_util {

// Name as printed in HLO text ("f32", "pred", "f8e4m3fn", "opaque").
absl::string_view LowercasePrimitiveTypeName(PrimitiveType type);
absl::StatusOr<PrimitiveType> StringToPrimitiveType(absl::string_view name);

bool IsArrayType(PrimitiveType type);  // not token / tuple / opaque / invalid
bool IsFloatingPointType(PrimitiveType type);  // real floats, f4 and f8 included
bool IsF8Type(PrimitiveType type);              // the sub-16-bit floats
bool IsComplexType(PrimitiveType type);
bool IsSignedIntegralType(PrimitiveType type);
bool IsUnsignedIntegralType(PrimitiveType type);
bool IsIntegralType(PrimitiveType type);  // signed or unsigned, not pred
bool IsSubByteType(PrimitiveType type);   // s2/s4/u2/u4/f4/f6: one element per byte in a Literal

// Width of one element in bits (XLA's BitWidth: pred is 8, s4 is 4, c64 is 64).
int BitWidth(PrimitiveType type);
// Bytes one element occupies in a Literal and in device memory (s4 takes 1).
int ByteWidth(PrimitiveType type);

// For floating types: exponent and mantissa (explicit) bits; 0 otherwise.
int ExponentWidth(PrimitiveType type);
int SignificandWidth(PrimitiveType type);  // includes the implicit bit
bool HasInfinity(PrimitiveType type);
bool HasNegativeZero(PrimitiveType type);

// The real component type of a complex type (c64 -> f32).
PrimitiveType ComplexComponentType(PrimitiveType type);

}  // namespace primitive_util
}  // namespace systolic
