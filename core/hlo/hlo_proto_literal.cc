#include "core/hlo/hlo_proto_literal.h"

#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_proto_shape.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

using hlo_proto::LiteralProto;

// The name of the bytes field that holds elements of `type`, for the types
// XLA stores as raw little-endian bytes (one element per byte below 8 bits,
// as a Literal holds them); null for the types with a repeated field.
const char* BytesFieldName(PrimitiveType type) {
  switch (type) {
    case S2: return "s2s";
    case S4: return "s4s";
    case S8: return "s8s";
    case U2: return "u2s";
    case U4: return "u4s";
    case U8: return "u8s";
    case S16: return "s16s";
    case U16: return "u16s";
    case F16: return "f16s";
    case BF16: return "bf16s";
    case F4E2M1FN: return "f4e2m1fns";
    case F6E2M3FN: return "f6e2m3fns";
    case F6E3M2FN: return "f6e3m2fns";
    case F8E3M4: return "f8e3m4s";
    case F8E4M3B11FNUZ: return "f8e4m3b11fnuzs";
    case F8E4M3FN: return "f8e4m3fns";
    case F8E4M3FNUZ: return "f8e4m3fnuzs";
    case F8E4M3: return "f8e4m3s";
    case F8E5M2FNUZ: return "f8e5m2fnuzs";
    case F8E5M2: return "f8e5m2s";
    case F8E8M0FNU: return "f8e8m0fnus";
    default: return nullptr;
  }
}

const google::protobuf::FieldDescriptor* BytesField(PrimitiveType type) {
  const char* name = BytesFieldName(type);
  return name ? LiteralProto::descriptor()->FindFieldByName(name) : nullptr;
}

template <typename T, typename Field>
void AppendAll(absl::Span<const T> values, Field* field) {
  field->Reserve(int(values.size()));
  for (const T& v : values) field->Add(v);
}

template <typename T, typename Field>
absl::Status CopyInto(const Field& field, int64_t expected, Literal* literal) {
  if (field.size() != expected) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a ", literal->shape().ToString(), " literal has ", field.size(), " values instead of ",
        expected));
  }
  absl::Span<T> out = literal->data<T>();
  for (int64_t i = 0; i < expected; ++i) out[i] = T(field.Get(int(i)));
  return absl::OkStatus();
}

}  // namespace

LiteralProto LiteralToProto(const Literal& literal) {
  LiteralProto proto;
  *proto.mutable_shape() = ShapeToProto(literal.shape());
  const PrimitiveType type = literal.element_type();
  if (type == TUPLE) {
    for (int64_t i = 0; i < literal.tuple_size(); ++i) {
      *proto.add_tuple_literals() = LiteralToProto(literal.tuple_element(i));
    }
    return proto;
  }
  if (!literal.shape().IsArray()) return proto;
  if (const google::protobuf::FieldDescriptor* field = BytesField(type)) {
    proto.GetReflection()->SetString(
        &proto, field,
        std::string(static_cast<const char*>(literal.untyped_data()), size_t(literal.size_bytes())));
    return proto;
  }
  switch (type) {
    case PRED:
      for (uint8_t v : absl::Span<const uint8_t>(
               static_cast<const uint8_t*>(literal.untyped_data()), size_t(literal.element_count()))) {
        proto.add_preds(v != 0);
      }
      break;
    case S32: AppendAll(literal.data<int32_t>(), proto.mutable_s32s()); break;
    case S64: AppendAll(literal.data<int64_t>(), proto.mutable_s64s()); break;
    case U32: AppendAll(literal.data<uint32_t>(), proto.mutable_u32s()); break;
    case U64: AppendAll(literal.data<uint64_t>(), proto.mutable_u64s()); break;
    case F32: AppendAll(literal.data<float>(), proto.mutable_f32s()); break;
    case F64: AppendAll(literal.data<double>(), proto.mutable_f64s()); break;
    case C64:
      for (const complex64& v : literal.data<complex64>()) {
        proto.add_c64s(v.real());
        proto.add_c64s(v.imag());
      }
      break;
    case C128:
      for (const complex128& v : literal.data<complex128>()) {
        proto.add_c128s(v.real());
        proto.add_c128s(v.imag());
      }
      break;
    default:
      break;  // every array type is covered above
  }
  return proto;
}

absl::StatusOr<Literal> LiteralFromProto(const LiteralProto& proto) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape, ShapeFromProto(proto.shape()));
  if (shape.IsTuple()) {
    if (proto.tuple_literals_size() != shape.tuple_shapes_size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a ", shape.ToString(), " literal has ", proto.tuple_literals_size(), " elements"));
    }
    std::vector<Literal> elements;
    for (const LiteralProto& element : proto.tuple_literals()) {
      SYSTOLIC_ASSIGN_OR_RETURN(Literal l, LiteralFromProto(element));
      elements.push_back(std::move(l));
    }
    return Literal::MakeTuple(std::move(elements));
  }
  if (!shape.IsArray()) return Literal(shape);
  if (!shape.is_static()) {
    return absl::InvalidArgumentError(absl::StrCat("a literal of dynamic shape ", shape.ToString()));
  }
  Literal literal(shape);
  const int64_t count = literal.element_count();
  const PrimitiveType type = shape.element_type();
  if (const google::protobuf::FieldDescriptor* field = BytesField(type)) {
    std::string scratch;
    const std::string* bytes = &proto.GetReflection()->GetStringReference(proto, field, &scratch);
    if (int64_t(bytes->size()) != literal.size_bytes()) {
      return absl::InvalidArgumentError(absl::StrCat("a ", shape.ToString(), " literal has ",
                                                     bytes->size(), " bytes instead of ",
                                                     literal.size_bytes()));
    }
    if (!bytes->empty()) std::memcpy(literal.untyped_data(), bytes->data(), bytes->size());
    return literal;
  }
  switch (type) {
    case PRED: SYSTOLIC_RETURN_IF_ERROR((CopyInto<uint8_t>(proto.preds(), count, &literal))); break;
    case S32: SYSTOLIC_RETURN_IF_ERROR((CopyInto<int32_t>(proto.s32s(), count, &literal))); break;
    case S64: SYSTOLIC_RETURN_IF_ERROR((CopyInto<int64_t>(proto.s64s(), count, &literal))); break;
    case U32: SYSTOLIC_RETURN_IF_ERROR((CopyInto<uint32_t>(proto.u32s(), count, &literal))); break;
    case U64: SYSTOLIC_RETURN_IF_ERROR((CopyInto<uint64_t>(proto.u64s(), count, &literal))); break;
    case F32: SYSTOLIC_RETURN_IF_ERROR((CopyInto<float>(proto.f32s(), count, &literal))); break;
    case F64: SYSTOLIC_RETURN_IF_ERROR((CopyInto<double>(proto.f64s(), count, &literal))); break;
    case C64:
    case C128: {
      const bool is64 = type == C64;
      const int64_t values = is64 ? proto.c64s_size() : proto.c128s_size();
      if (values != 2 * count) {
        return absl::InvalidArgumentError(absl::StrCat("a ", shape.ToString(), " literal has ",
                                                       values, " values instead of ", 2 * count));
      }
      for (int64_t i = 0; i < count; ++i) {
        const int r = int(2 * i), im = int(2 * i + 1);
        if (is64) {
          literal.data<complex64>()[i] = complex64(proto.c64s(r), proto.c64s(im));
        } else {
          literal.data<complex128>()[i] = complex128(proto.c128s(r), proto.c128s(im));
        }
      }
      break;
    }
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("a literal of element type ", shape.ToString(), " cannot be read"));
  }
  return literal;
}

}  // namespace systolic
