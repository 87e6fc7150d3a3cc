#include "core/hlo/primitive_type.h"

#include <array>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace systolic::primitive_util {
namespace {

struct TypeInfo {
  absl::string_view name;
  int bit_width;
  int exponent_bits;   // floats only
  int mantissa_bits;   // explicit mantissa bits, floats only
  bool has_inf;
  bool has_negative_zero;
};

constexpr TypeInfo kInvalid{"invalid", 0, 0, 0, false, false};

const TypeInfo& Info(PrimitiveType type) {
  static const auto* table = [] {
    auto* t = new std::array<TypeInfo, PRIMITIVE_TYPE_COUNT>();
    t->fill(kInvalid);
    (*t)[PRED] = {"pred", 8, 0, 0, false, false};
    (*t)[S2] = {"s2", 2, 0, 0, false, false};
    (*t)[S4] = {"s4", 4, 0, 0, false, false};
    (*t)[S8] = {"s8", 8, 0, 0, false, false};
    (*t)[S16] = {"s16", 16, 0, 0, false, false};
    (*t)[S32] = {"s32", 32, 0, 0, false, false};
    (*t)[S64] = {"s64", 64, 0, 0, false, false};
    (*t)[U2] = {"u2", 2, 0, 0, false, false};
    (*t)[U4] = {"u4", 4, 0, 0, false, false};
    (*t)[U8] = {"u8", 8, 0, 0, false, false};
    (*t)[U16] = {"u16", 16, 0, 0, false, false};
    (*t)[U32] = {"u32", 32, 0, 0, false, false};
    (*t)[U64] = {"u64", 64, 0, 0, false, false};
    (*t)[F16] = {"f16", 16, 5, 10, true, true};
    (*t)[BF16] = {"bf16", 16, 8, 7, true, true};
    (*t)[F32] = {"f32", 32, 8, 23, true, true};
    (*t)[F64] = {"f64", 64, 11, 52, true, true};
    (*t)[C64] = {"c64", 64, 8, 23, true, true};
    (*t)[C128] = {"c128", 128, 11, 52, true, true};
    (*t)[F8E5M2] = {"f8e5m2", 8, 5, 2, true, true};
    (*t)[F8E4M3] = {"f8e4m3", 8, 4, 3, true, true};
    (*t)[F8E4M3FN] = {"f8e4m3fn", 8, 4, 3, false, true};
    (*t)[F8E4M3B11FNUZ] = {"f8e4m3b11fnuz", 8, 4, 3, false, false};
    (*t)[F8E5M2FNUZ] = {"f8e5m2fnuz", 8, 5, 2, false, false};
    (*t)[F8E4M3FNUZ] = {"f8e4m3fnuz", 8, 4, 3, false, false};
    (*t)[F8E3M4] = {"f8e3m4", 8, 3, 4, true, true};
    (*t)[F8E8M0FNU] = {"f8e8m0fnu", 8, 8, 0, false, false};
    (*t)[F4E2M1FN] = {"f4e2m1fn", 4, 2, 1, false, true};
    (*t)[F6E2M3FN] = {"f6e2m3fn", 6, 2, 3, false, true};
    (*t)[F6E3M2FN] = {"f6e3m2fn", 6, 3, 2, false, true};
    (*t)[TOKEN] = {"token", 0, 0, 0, false, false};
    (*t)[TUPLE] = {"tuple", 0, 0, 0, false, false};
    (*t)[OPAQUE_TYPE] = {"opaque", 0, 0, 0, false, false};
    return t;
  }();
  if (type >= PRIMITIVE_TYPE_COUNT) return kInvalid;
  return (*table)[type];
}

}  // namespace

absl::string_view LowercasePrimitiveTypeName(PrimitiveType type) { return Info(type).name; }

absl::StatusOr<PrimitiveType> StringToPrimitiveType(absl::string_view name) {
  static const auto* by_name = [] {
    auto* m = new absl::flat_hash_map<absl::string_view, PrimitiveType>();
    for (int i = PRED; i < PRIMITIVE_TYPE_COUNT; ++i) (*m)[Info(PrimitiveType(i)).name] = PrimitiveType(i);
    return m;
  }();
  auto it = by_name->find(name);
  if (it != by_name->end()) return it->second;
  return absl::InvalidArgumentError(absl::StrCat("unknown element type '", name, "'"));
}

bool IsArrayType(PrimitiveType t) {
  return t > PRIMITIVE_TYPE_INVALID && t < TOKEN;
}
bool IsF8Type(PrimitiveType t) { return t >= F8E5M2 && t <= F6E3M2FN; }
bool IsFloatingPointType(PrimitiveType t) {
  return t == F16 || t == BF16 || t == F32 || t == F64 || IsF8Type(t);
}
bool IsComplexType(PrimitiveType t) { return t == C64 || t == C128; }
bool IsSignedIntegralType(PrimitiveType t) { return t >= S2 && t <= S64; }
bool IsUnsignedIntegralType(PrimitiveType t) { return t >= U2 && t <= U64; }
bool IsIntegralType(PrimitiveType t) {
  return IsSignedIntegralType(t) || IsUnsignedIntegralType(t);
}
bool IsSubByteType(PrimitiveType t) {
  return t == S2 || t == S4 || t == U2 || t == U4 || t == F4E2M1FN || t == F6E2M3FN ||
         t == F6E3M2FN;
}

int BitWidth(PrimitiveType t) { return Info(t).bit_width; }
int ByteWidth(PrimitiveType t) {
  if (IsSubByteType(t)) return 1;
  return Info(t).bit_width / 8;
}

int ExponentWidth(PrimitiveType t) { return Info(t).exponent_bits; }
int SignificandWidth(PrimitiveType t) {
  if (!IsFloatingPointType(t) && !IsComplexType(t)) return 0;
  return Info(t).mantissa_bits + 1;
}
bool HasInfinity(PrimitiveType t) { return Info(t).has_inf; }
bool HasNegativeZero(PrimitiveType t) { return Info(t).has_negative_zero; }

PrimitiveType ComplexComponentType(PrimitiveType t) {
  if (t == C64) return F32;
  if (t == C128) return F64;
  return PRIMITIVE_TYPE_INVALID;
}

}  // namespace systolic::primitive_util
