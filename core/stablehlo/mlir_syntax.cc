#include "core/stablehlo/mlir_syntax.h"

#include "absl/strings/str_cat.h"

namespace systolic::mlir {

Attribute::Attribute() = default;
Attribute::~Attribute() = default;
Attribute::Attribute(const Attribute&) = default;
Attribute::Attribute(Attribute&&) noexcept = default;
Attribute& Attribute::operator=(const Attribute&) = default;
Attribute& Attribute::operator=(Attribute&&) noexcept = default;


absl::StatusOr<Shape> Type::ToShape(bool allow_unbounded) const {
  switch (kind) {
    case Kind::kTensor: {
      Shape shape(element_type, {});
      for (size_t i = 0; i < dimensions.size(); ++i) {
        int64_t bound = i < bounds.size() ? bounds[i] : -1;
        if (dimensions[i] < 0) {
          if (bound < 0 && allow_unbounded) {
            shape.add_dimensions(Shape::kUnboundedSize, /*dynamic=*/true);
            continue;
          }
          if (bound < 0) {
            return absl::UnimplementedError(
                absl::StrCat("type ", text, " has an unbounded dynamic dimension"));
          }
          shape.add_dimensions(bound, /*dynamic=*/true);
        } else {
          shape.add_dimensions(dimensions[i]);
        }
      }
      return shape;
    }
    case Kind::kScalar:
      return Shape(element_type, {});
    case Kind::kTuple: {
      std::vector<Shape> shapes;
      for (const Type& e : elements) {
        auto s = e.ToShape(allow_unbounded);
        if (!s.ok()) return s.status();
        shapes.push_back(*std::move(s));
      }
      return Shape::MakeTuple(std::move(shapes));
    }
    case Kind::kToken:
      return Shape::MakeToken();
    default:
      return absl::InvalidArgumentError(absl::StrCat("type ", text, " is not a value type"));
  }
}

const Attribute* Attribute::Field(absl::string_view name) const {
  for (const auto& [key, value] : fields) {
    if (key == name) return &value;
  }
  return nullptr;
}

absl::StatusOr<std::vector<int64_t>> Attribute::AsInts() const {
  switch (kind) {
    case Kind::kDenseArray:
      return ints;
    case Kind::kInteger:
      return std::vector<int64_t>{int_value};
    case Kind::kArray: {
      std::vector<int64_t> out;
      for (const Attribute& e : elements) {
        if (e.kind != Kind::kInteger) return absl::InvalidArgumentError("expected integers");
        out.push_back(e.int_value);
      }
      return out;
    }
    case Kind::kDense: {
      std::vector<int64_t> out;
      if (!dense || !primitive_util::IsIntegralType(dense->element_type())) {
        return absl::InvalidArgumentError("expected an integer dense attribute");
      }
      for (int64_t i = 0; i < dense->element_count(); ++i) out.push_back(dense->GetAsInt64(i));
      return out;
    }
    default:
      return absl::InvalidArgumentError("expected a list of integers");
  }
}

std::string ValueRef::ToString() const {
  return index >= 0 ? absl::StrCat("%", name, "#", index) : absl::StrCat("%", name);
}

const Attribute* Operation::Attr(absl::string_view name) const {
  for (const auto& [key, value] : attributes) {
    if (key == name) return &value;
  }
  return nullptr;
}

const Function* Module::FindFunction(absl::string_view name) const {
  for (const Function& f : functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

}  // namespace systolic::mlir
