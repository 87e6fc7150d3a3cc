// Shapes and layouts to and from XLA's ShapeProto / LayoutProto /
// ProgramShapeProto.
#pragma once

#include "absl/status/statusor.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.pb.h"
#include "core/hlo/layout.h"
#include "core/hlo/shape.h"

namespace systolic {

hlo_proto::PrimitiveType PrimitiveTypeToProto(PrimitiveType type);
// Errors: a type number this project does not know.
absl::StatusOr<PrimitiveType> PrimitiveTypeFromProto(int type);

hlo_proto::LayoutProto LayoutToProto(const Layout& layout);
absl::StatusOr<Layout> LayoutFromProto(const hlo_proto::LayoutProto& proto);

hlo_proto::ShapeProto ShapeToProto(const Shape& shape);
// Errors: unknown element types, dynamic flags that do not match the
// dimensions, arrays with tuple elements.
absl::StatusOr<Shape> ShapeFromProto(const hlo_proto::ShapeProto& proto);

hlo_proto::ProgramShapeProto ProgramShapeToProto(const ProgramShape& shape);
absl::StatusOr<ProgramShape> ProgramShapeFromProto(const hlo_proto::ProgramShapeProto& proto);

}  // namespace systolic
