// The syntax tree of MLIR text as StableHLO programs use it: a module of
// functions whose bodies are operations with operands, results, attributes
// and regions. Pretty and generic forms parse to the same tree.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/hlo/literal.h"
#include "core/hlo/shape.h"
#include "core/stablehlo/quant_type.h"

namespace systolic::mlir {

struct SourceLocation {
  int line = 0;
  int column = 0;
};

struct Type {
  enum class Kind { kTensor, kTuple, kToken, kFunction, kScalar, kOther };
  Kind kind = Kind::kOther;
  PrimitiveType element_type = PRIMITIVE_TYPE_INVALID;  // tensor and scalar
  std::vector<int64_t> dimensions;                       // tensor; -1 when dynamic
  std::vector<int64_t> bounds;        // from #stablehlo.bounds<...>; -1 = none
  std::vector<Type> elements;         // tuple members / function inputs
  std::vector<Type> results;          // function results
  std::string text;                   // as written, for messages
  // A tensor of !quant.uniform elements: element_type is its storage type.
  std::shared_ptr<const QuantType> quant;

  bool IsTensor() const { return kind == Kind::kTensor; }
  // The HLO shape of a tensor, tuple or token type.
  // An unbounded `?` dimension is an error unless `allow_unbounded`, which
  // gives Shape::kUnboundedSize for an op's converter to resolve.
  absl::StatusOr<Shape> ToShape(bool allow_unbounded = false) const;
};

struct Attribute;
using AttributeList = std::vector<std::pair<std::string, Attribute>>;

struct Attribute {
  enum class Kind {
    kUnit,
    kBool,
    kInteger,
    kFloat,
    kString,
    kArray,       // [a, b, ...]
    kDenseArray,  // array<i64: 1, 2>
    kDense,       // dense<...> : tensor<...> (decoded to a literal)
    kSymbol,      // @name
    kType,
    kDictionary,  // {a = 1, b = 2}
    kEnum,        // #stablehlo<precision DEFAULT>, #stablehlo<comparison_direction GT>, bare words
    kStruct,      // #stablehlo.gather<offset_dims = [..], ...>
    kPairs,       // [0] x [1]: the lhs and rhs lists of dot dimension numbers
  };
  // Defined where Attribute is complete: `fields` holds pairs of
  // Attributes, which some compilers cannot instantiate inside the class.
  Attribute();
  ~Attribute();
  Attribute(const Attribute&);
  Attribute(Attribute&&) noexcept;
  Attribute& operator=(const Attribute&);
  Attribute& operator=(Attribute&&) noexcept;

  Kind kind = Kind::kUnit;
  bool bool_value = false;
  int64_t int_value = 0;
  double float_value = 0;
  std::string text;  // string, symbol, enum word, struct name
  std::vector<Attribute> elements;
  std::vector<int64_t> ints;  // dense arrays and integer lists
  AttributeList fields;       // dictionary / struct fields
  std::shared_ptr<Literal> dense;
  std::shared_ptr<Type> type;  // type of a dense / integer / float attribute
  SourceLocation where;

  const Attribute* Field(absl::string_view name) const;
  // The integers of an array, dense array, or integer dense literal.
  absl::StatusOr<std::vector<int64_t>> AsInts() const;
};

struct ValueRef {
  std::string name;  // without '%', e.g. "0", "arg1", "results"
  int index = -1;    // `#index` of a multi-result group, -1 when absent
  SourceLocation where;
  std::string ToString() const;
};

struct Block;

struct Region {
  std::vector<Block> blocks;
};

struct Operation {
  std::string name;  // "stablehlo.add", "func.return", "check.expect_eq_const"
  // Result names as the ops using them refer to them ("0", "1#0", "res").
  std::vector<std::string> results;
  std::vector<ValueRef> operands;
  std::vector<Type> result_types;
  AttributeList attributes;
  std::vector<Region> regions;
  SourceLocation where;
  std::string raw_location;   // loc(...) as written, resolved after parsing
  std::string location_name;  // from loc("name"(...)), for metadata
  std::string source_file;
  int source_line = 0;

  const Attribute* Attr(absl::string_view name) const;
};

struct Block {
  std::vector<std::string> argument_names;
  std::vector<Type> argument_types;
  std::vector<Operation> operations;
};

struct Function {
  std::string name;
  std::string visibility;  // "public" (default), "private", "nested"
  std::vector<std::string> argument_names;
  std::vector<Type> argument_types;
  std::vector<AttributeList> argument_attributes;
  std::vector<Type> result_types;
  std::vector<AttributeList> result_attributes;
  AttributeList attributes;
  Region body;
  SourceLocation where;
};

struct Module {
  std::string name;
  AttributeList attributes;
  std::vector<Function> functions;
  // sdy.mesh @name = <["x"=2, "y"=4]>: axis names and sizes.
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, int64_t>>>> meshes;

  const Function* FindFunction(absl::string_view name) const;
};

}  // namespace systolic::mlir
