#include "core/hlo/hlo_proto_shape.h"

#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

// The project's types and XLA's numbers for them, side by side.
struct TypePair {
  PrimitiveType type;
  hlo_proto::PrimitiveType proto;
};
constexpr TypePair kTypes[] = {
    {PRIMITIVE_TYPE_INVALID, hlo_proto::PRIMITIVE_TYPE_INVALID},
    {PRED, hlo_proto::PRED},
    {S2, hlo_proto::S2},
    {S4, hlo_proto::S4},
    {S8, hlo_proto::S8},
    {S16, hlo_proto::S16},
    {S32, hlo_proto::S32},
    {S64, hlo_proto::S64},
    {U2, hlo_proto::U2},
    {U4, hlo_proto::U4},
    {U8, hlo_proto::U8},
    {U16, hlo_proto::U16},
    {U32, hlo_proto::U32},
    {U64, hlo_proto::U64},
    {F16, hlo_proto::F16},
    {BF16, hlo_proto::BF16},
    {F32, hlo_proto::F32},
    {F64, hlo_proto::F64},
    {C64, hlo_proto::C64},
    {C128, hlo_proto::C128},
    {F8E5M2, hlo_proto::F8E5M2},
    {F8E4M3, hlo_proto::F8E4M3},
    {F8E4M3FN, hlo_proto::F8E4M3FN},
    {F8E4M3B11FNUZ, hlo_proto::F8E4M3B11FNUZ},
    {F8E5M2FNUZ, hlo_proto::F8E5M2FNUZ},
    {F8E4M3FNUZ, hlo_proto::F8E4M3FNUZ},
    {F8E3M4, hlo_proto::F8E3M4},
    {F8E8M0FNU, hlo_proto::F8E8M0FNU},
    {F4E2M1FN, hlo_proto::F4E2M1FN},
    {F6E2M3FN, hlo_proto::F6E2M3FN},
    {F6E3M2FN, hlo_proto::F6E3M2FN},
    {TOKEN, hlo_proto::TOKEN},
    {TUPLE, hlo_proto::TUPLE},
    {OPAQUE_TYPE, hlo_proto::OPAQUE_TYPE},
};

// Sparse level types as the layout prints them ("D", "C", "S", "L") with
// XLA's enum; a "+" / "~" suffix (not unique / not ordered) goes to
// dim_unique / dim_ordered.
constexpr std::pair<char, hlo_proto::DimLevelType> kLevelTypes[] = {
    {'D', hlo_proto::DIM_DENSE},
    {'C', hlo_proto::DIM_COMPRESSED},
    {'S', hlo_proto::DIM_SINGLETON},
    {'H', hlo_proto::DIM_LOOSE_COMPRESSED},
};

}  // namespace

hlo_proto::PrimitiveType PrimitiveTypeToProto(PrimitiveType type) {
  for (const TypePair& pair : kTypes) {
    if (pair.type == type) return pair.proto;
  }
  return hlo_proto::PRIMITIVE_TYPE_INVALID;
}

absl::StatusOr<PrimitiveType> PrimitiveTypeFromProto(int type) {
  for (const TypePair& pair : kTypes) {
    if (int(pair.proto) == type) return pair.type;
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown element type number ", type));
}

hlo_proto::LayoutProto LayoutToProto(const Layout& layout) {
  hlo_proto::LayoutProto proto;
  for (int64_t d : layout.minor_to_major()) proto.add_minor_to_major(d);
  bool any_not_unique = false, any_not_ordered = false;
  for (const std::string& level : layout.dim_level_types()) {
    any_not_unique |= absl::StrContains(level, '+');
    any_not_ordered |= absl::StrContains(level, '~');
  }
  for (const std::string& level : layout.dim_level_types()) {
    hlo_proto::DimLevelType type = hlo_proto::DIM_DENSE;
    for (const auto& [letter, proto_type] : kLevelTypes) {
      if (!level.empty() && level[0] == letter) type = proto_type;
    }
    proto.add_dim_level_types(type);
    if (any_not_unique) proto.add_dim_unique(!absl::StrContains(level, '+'));
    if (any_not_ordered) proto.add_dim_ordered(!absl::StrContains(level, '~'));
  }
  for (const Tile& tile : layout.tiles()) {
    hlo_proto::TileProto* t = proto.add_tiles();
    for (int64_t d : tile.dimensions) t->add_dimensions(d);
  }
  if (layout.tail_padding_alignment_in_elements() != 1) {
    proto.set_tail_padding_alignment_in_elements(layout.tail_padding_alignment_in_elements());
  }
  proto.set_element_size_in_bits(layout.element_size_in_bits());
  proto.set_memory_space(layout.memory_space());
  proto.set_index_primitive_type(PrimitiveTypeToProto(layout.index_primitive_type()));
  proto.set_pointer_primitive_type(PrimitiveTypeToProto(layout.pointer_primitive_type()));
  proto.set_dynamic_shape_metadata_prefix_bytes(layout.dynamic_shape_metadata_prefix_bytes());
  return proto;
}

absl::StatusOr<Layout> LayoutFromProto(const hlo_proto::LayoutProto& proto) {
  Layout layout(std::vector<int64_t>(proto.minor_to_major().begin(), proto.minor_to_major().end()));
  for (int i = 0; i < proto.dim_level_types_size(); ++i) {
    std::string level = "D";
    for (const auto& [letter, proto_type] : kLevelTypes) {
      if (proto.dim_level_types(i) == proto_type) level = std::string(1, letter);
    }
    if (i < proto.dim_unique_size() && !proto.dim_unique(i)) level += '+';
    if (i < proto.dim_ordered_size() && !proto.dim_ordered(i)) level += '~';
    layout.mutable_dim_level_types()->push_back(std::move(level));
  }
  for (const hlo_proto::TileProto& t : proto.tiles()) {
    layout.mutable_tiles()->push_back(Tile{{t.dimensions().begin(), t.dimensions().end()}});
  }
  layout.set_tail_padding_alignment_in_elements(
      proto.tail_padding_alignment_in_elements() == 0 ? 1
                                                      : proto.tail_padding_alignment_in_elements());
  layout.set_element_size_in_bits(proto.element_size_in_bits());
  layout.set_memory_space(proto.memory_space());
  SYSTOLIC_ASSIGN_OR_RETURN(PrimitiveType index_type,
                            PrimitiveTypeFromProto(proto.index_primitive_type()));
  SYSTOLIC_ASSIGN_OR_RETURN(PrimitiveType pointer_type,
                            PrimitiveTypeFromProto(proto.pointer_primitive_type()));
  layout.set_index_primitive_type(index_type);
  layout.set_pointer_primitive_type(pointer_type);
  layout.set_dynamic_shape_metadata_prefix_bytes(proto.dynamic_shape_metadata_prefix_bytes());
  return layout;
}

hlo_proto::ShapeProto ShapeToProto(const Shape& shape) {
  hlo_proto::ShapeProto proto;
  proto.set_element_type(PrimitiveTypeToProto(shape.element_type()));
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) *proto.add_tuple_shapes() = ShapeToProto(element);
    return proto;
  }
  for (int64_t i = 0; i < shape.rank(); ++i) {
    proto.add_dimensions(shape.dimensions(i));
    proto.add_is_dynamic_dimension(shape.is_dynamic_dimension(i));
  }
  if (shape.has_layout()) *proto.mutable_layout() = LayoutToProto(shape.layout());
  return proto;
}

absl::StatusOr<Shape> ShapeFromProto(const hlo_proto::ShapeProto& proto) {
  SYSTOLIC_ASSIGN_OR_RETURN(PrimitiveType type, PrimitiveTypeFromProto(proto.element_type()));
  if (type == TUPLE) {
    std::vector<Shape> elements;
    for (const hlo_proto::ShapeProto& element : proto.tuple_shapes()) {
      SYSTOLIC_ASSIGN_OR_RETURN(Shape shape, ShapeFromProto(element));
      elements.push_back(std::move(shape));
    }
    return Shape::MakeTuple(std::move(elements));
  }
  if (type == TOKEN) return Shape::MakeToken();
  if (type == OPAQUE_TYPE) return Shape::MakeOpaque();
  if (type == PRIMITIVE_TYPE_INVALID) return absl::InvalidArgumentError("a shape has no element type");
  if (proto.tuple_shapes_size() > 0) {
    return absl::InvalidArgumentError("an array shape has tuple elements");
  }
  if (proto.is_dynamic_dimension_size() != 0 &&
      proto.is_dynamic_dimension_size() != proto.dimensions_size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a shape has ", proto.dimensions_size(), " dimensions but ",
        proto.is_dynamic_dimension_size(), " dynamic-dimension flags"));
  }
  Shape shape(type, {});
  for (int i = 0; i < proto.dimensions_size(); ++i) {
    const int64_t size = proto.dimensions(i);
    if (size < 0 && size != Shape::kUnboundedSize) {
      return absl::InvalidArgumentError(absl::StrCat("a shape has a negative dimension ", size));
    }
    shape.add_dimensions(size, i < proto.is_dynamic_dimension_size() && proto.is_dynamic_dimension(i));
  }
  if (proto.has_layout()) {
    SYSTOLIC_ASSIGN_OR_RETURN(Layout layout, LayoutFromProto(proto.layout()));
    if (int64_t(layout.minor_to_major().size()) != shape.rank()) {
      return absl::InvalidArgumentError(absl::StrCat("a layout of ", layout.minor_to_major().size(),
                                                     " dimensions on a shape of rank ", shape.rank()));
    }
    shape.set_layout(std::move(layout));
  }
  return shape;
}

hlo_proto::ProgramShapeProto ProgramShapeToProto(const ProgramShape& shape) {
  hlo_proto::ProgramShapeProto proto;
  for (const Shape& parameter : shape.parameters) *proto.add_parameters() = ShapeToProto(parameter);
  for (const std::string& name : shape.parameter_names) proto.add_parameter_names(name);
  *proto.mutable_result() = ShapeToProto(shape.result);
  return proto;
}

absl::StatusOr<ProgramShape> ProgramShapeFromProto(const hlo_proto::ProgramShapeProto& proto) {
  ProgramShape shape;
  for (const hlo_proto::ShapeProto& parameter : proto.parameters()) {
    SYSTOLIC_ASSIGN_OR_RETURN(Shape s, ShapeFromProto(parameter));
    shape.parameters.push_back(std::move(s));
  }
  shape.parameter_names.assign(proto.parameter_names().begin(), proto.parameter_names().end());
  SYSTOLIC_ASSIGN_OR_RETURN(shape.result, ShapeFromProto(proto.result()));
  return shape;
}

}  // namespace systolic
