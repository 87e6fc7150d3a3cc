// One converter per StableHLO operation: attributes in MLIR form become the
// attributes of an HLO instruction.
#include <numeric>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/hlo/status_macros.h"
#include "core/stablehlo/bitcast_convert_ops.h"
#include "core/stablehlo/check_ops.h"
#include "core/stablehlo/chlo_decompositions.h"
#include "core/stablehlo/chlo_emitter.h"
#include "core/stablehlo/dynamic_shape_ops.h"
#include "core/stablehlo/import_context.h"
#include "core/stablehlo/quantized_ops.h"
#include "core/stablehlo/stablehlo_importer.h"

namespace systolic::stablehlo {
namespace {

using mlir::Attribute;
using mlir::Operation;

const Attribute* FindAttr(const Operation& op, std::initializer_list<absl::string_view> names) {
  for (absl::string_view n : names) {
    if (const Attribute* a = op.Attr(n)) return a;
  }
  return nullptr;
}

absl::StatusOr<std::vector<int64_t>> Ints(ComputationBuilder& b, const Operation& op,
                                          std::initializer_list<absl::string_view> names,
                                          bool required = true) {
  const Attribute* a = FindAttr(op, names);
  if (!a) {
    if (!required) return std::vector<int64_t>{};
    return b.Error(op, absl::StrCat(op.name, " needs attribute ", *names.begin()));
  }
  auto ints = a->AsInts();
  if (!ints.ok()) return b.Error(op, absl::StrCat(op.name, ": ", *names.begin(), ": ", ints.status().message()));
  return ints;
}

absl::StatusOr<int64_t> Int(ComputationBuilder& b, const Operation& op,
                            std::initializer_list<absl::string_view> names,
                            std::optional<int64_t> fallback = std::nullopt) {
  const Attribute* a = FindAttr(op, names);
  if (!a) {
    if (fallback) return *fallback;
    return b.Error(op, absl::StrCat(op.name, " needs attribute ", *names.begin()));
  }
  if (a->kind == Attribute::Kind::kInteger) return a->int_value;
  auto ints = a->AsInts();
  if (ints.ok() && ints->size() == 1) return (*ints)[0];
  return b.Error(op, absl::StrCat(op.name, ": ", *names.begin(), " must be an integer"));
}

bool Flag(const Operation& op, absl::string_view name) {
  const Attribute* a = op.Attr(name);
  if (!a) return false;
  if (a->kind == Attribute::Kind::kBool) return a->bool_value;
  return a->kind == Attribute::Kind::kUnit;
}

// Enum value as text: #stablehlo<precision DEFAULT> -> "DEFAULT", bare words,
// strings.
std::string EnumText(const Attribute* a) {
  if (!a) return "";
  if (a->kind == Attribute::Kind::kEnum || a->kind == Attribute::Kind::kString) return a->text;
  return "";
}

Results One(HloInstruction* instr) { return std::vector<HloInstruction*>{instr}; }

// Splits a tuple-shaped instruction into its elements.
std::vector<HloInstruction*> Unpack(ComputationBuilder& b, const Operation& op,
                                    HloInstruction* tuple) {
  std::vector<HloInstruction*> out;
  for (int64_t i = 0; i < tuple->shape().tuple_shapes_size(); ++i) {
    out.push_back(b.Add(HloInstruction::CreateGetTupleElement(tuple, i), op));
  }
  return out;
}

// The single result shape, or an error.
absl::StatusOr<Shape> Single(ComputationBuilder& b, const Operation& op, const Shapes& shapes) {
  if (shapes.size() != 1) {
    return b.Error(op, absl::StrCat(op.name, " must have one result type, found ", shapes.size()));
  }
  return shapes[0];
}

Shape TupleOf(const Shapes& shapes) { return Shape::MakeTuple(shapes); }

OpConverter Unary(HloOpcode opcode) {
  return [opcode](ComputationBuilder& b, const Operation& op, const Operands& ops,
                  const Shapes& shapes) -> Results {
    if (ops.size() != 1) return b.Error(op, absl::StrCat(op.name, " takes one operand"));
    SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
    return One(b.Add(HloInstruction::CreateUnary(s, opcode, ops[0]), op));
  };
}

OpConverter Binary(HloOpcode opcode) {
  return [opcode](ComputationBuilder& b, const Operation& op, const Operands& ops,
                  const Shapes& shapes) -> Results {
    if (ops.size() != 2) return b.Error(op, absl::StrCat(op.name, " takes two operands"));
    SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
    return One(b.Add(HloInstruction::CreateBinary(s, opcode, ops[0], ops[1]), op));
  };
}

// maximum / minimum; on complex numbers StableHLO orders (real, imag)
// lexicographically, which HLO spells with compares and a select.
OpConverter MinMax(HloOpcode opcode) {
  return [opcode](ComputationBuilder& b, const Operation& op, const Operands& ops,
                  const Shapes& shapes) -> Results {
    if (ops.size() != 2) return b.Error(op, absl::StrCat(op.name, " takes two operands"));
    SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
    if (!s.IsArray() || !primitive_util::IsComplexType(s.element_type())) {
      return One(b.Add(HloInstruction::CreateBinary(s, opcode, ops[0], ops[1]), op));
    }
    const Shape part(primitive_util::ComplexComponentType(s.element_type()), s.dimensions());
    const Shape pred(PRED, s.dimensions());
    auto unary = [&](HloOpcode o, HloInstruction* x) {
      return b.Add(HloInstruction::CreateUnary(part, o, x), op);
    };
    auto compare = [&](HloInstruction* x, HloInstruction* y, ComparisonDirection d) {
      return b.Add(HloInstruction::CreateCompare(pred, x, y, d, std::nullopt), op);
    };
    auto logical = [&](HloOpcode o, HloInstruction* x, HloInstruction* y) {
      return b.Add(HloInstruction::CreateBinary(pred, o, x, y), op);
    };
    const ComparisonDirection wins =
        opcode == HloOpcode::kMaximum ? ComparisonDirection::kGt : ComparisonDirection::kLt;
    HloInstruction* lhs_re = unary(HloOpcode::kReal, ops[0]);
    HloInstruction* rhs_re = unary(HloOpcode::kReal, ops[1]);
    HloInstruction* lhs_im = unary(HloOpcode::kImag, ops[0]);
    HloInstruction* rhs_im = unary(HloOpcode::kImag, ops[1]);
    HloInstruction* lhs_wins = logical(
        HloOpcode::kOr, compare(lhs_re, rhs_re, wins),
        logical(HloOpcode::kAnd, compare(lhs_re, rhs_re, ComparisonDirection::kEq),
                compare(lhs_im, rhs_im, wins)));
    return One(b.Add(
        HloInstruction::CreateTernary(s, HloOpcode::kSelect, lhs_wins, ops[0], ops[1]), op));
  };
}

OpConverter Nary(HloOpcode opcode, size_t arity) {
  return [opcode, arity](ComputationBuilder& b, const Operation& op, const Operands& ops,
                         const Shapes& shapes) -> Results {
    if (ops.size() != arity) {
      return b.Error(op, absl::StrCat(op.name, " takes ", arity, " operands"));
    }
    SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
    return One(b.Add(HloInstruction::Create(opcode, s, ops), op));
  };
}

absl::StatusOr<ComparisonDirection> Direction(ComputationBuilder& b, const Operation& op) {
  std::string text = EnumText(FindAttr(op, {"comparison_direction", "_word0"}));
  auto d = StringToComparisonDirection(text);
  if (!d) return b.Error(op, absl::StrCat("unknown comparison direction '", text, "'"));
  return *d;
}

Results ConvertCompare(ComputationBuilder& b, const Operation& op, const Operands& ops,
                       const Shapes& shapes) {
  if (ops.size() != 2) return b.Error(op, "stablehlo.compare takes two operands");
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  SYSTOLIC_ASSIGN_OR_RETURN(ComparisonDirection direction, Direction(b, op));
  std::optional<ComparisonType> type;
  std::string type_text = EnumText(FindAttr(op, {"compare_type", "_word1"}));
  if (!type_text.empty() && type_text != "NOTYPE") {
    type = StringToComparisonType(type_text);
    if (!type) return b.Error(op, absl::StrCat("unknown comparison type '", type_text, "'"));
    if (*type == DefaultComparisonType(ops[0]->shape().element_type())) type.reset();
  }
  return One(b.Add(HloInstruction::CreateCompare(s, ops[0], ops[1], direction, type), op));
}

Results ConvertConstant(ComputationBuilder& b, const Operation& op, const Operands&,
                        const Shapes& shapes) {
  const Attribute* value = op.Attr("value");
  if (!value || value->kind != Attribute::Kind::kDense || !value->dense) {
    return b.Error(op, "stablehlo.constant needs a dense value");
  }
  return One(b.Add(HloInstruction::CreateConstant(value->dense->Clone()), op));
}

Results ConvertIota(ComputationBuilder& b, const Operation& op, const Operands&,
                    const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  SYSTOLIC_ASSIGN_OR_RETURN(int64_t dim, Int(b, op, {"iota_dimension", "dim"}));
  return One(b.Add(HloInstruction::CreateIota(s, dim), op));
}

Results ConvertBroadcastInDim(ComputationBuilder& b, const Operation& op, const Operands& ops,
                              const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  SYSTOLIC_ASSIGN_OR_RETURN(auto dims, Ints(b, op, {"broadcast_dimensions", "dims"}));
  if (ops.size() != 1) return b.Error(op, "broadcast_in_dim takes one operand");
  HloInstruction* operand = ops[0];
  const Shape& in = operand->shape();
  if (in.IsArray() && int64_t(dims.size()) == in.rank()) {
    // StableHLO stretches a size-1 dimension to any size; HLO broadcast maps
    // sizes one to one, so such dimensions are reshaped away first.
    std::vector<int64_t> kept_sizes, kept_dims;
    for (int64_t i = 0; i < in.rank(); ++i) {
      const bool stretched = in.dimensions(i) == 1 && dims[i] >= 0 && dims[i] < s.rank() &&
                             s.dimensions(dims[i]) != 1;
      if (stretched) continue;
      kept_sizes.push_back(in.dimensions(i));
      kept_dims.push_back(dims[i]);
    }
    if (kept_dims.size() != dims.size()) {
      operand = b.Add(
          HloInstruction::CreateReshape(Shape(in.element_type(), kept_sizes), operand), op);
      dims = std::move(kept_dims);
    }
  }
  return One(b.Add(HloInstruction::CreateBroadcast(s, operand, dims), op));
}

Results ConvertBroadcast(ComputationBuilder& b, const Operation& op, const Operands& ops,
                         const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  if (ops.size() != 1) return b.Error(op, "broadcast takes one operand");
  // The new dimensions come first; the operand's dimensions are the last ones.
  int64_t rank = ops[0]->shape().rank();
  std::vector<int64_t> dims(rank);
  std::iota(dims.begin(), dims.end(), s.rank() - rank);
  return One(b.Add(HloInstruction::CreateBroadcast(s, ops[0], dims), op));
}

Results ConvertTranspose(ComputationBuilder& b, const Operation& op, const Operands& ops,
                         const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  if (ops.size() != 1) return b.Error(op, "transpose takes one operand");
  SYSTOLIC_ASSIGN_OR_RETURN(auto perm, Ints(b, op, {"permutation", "dims"}));
  return One(b.Add(HloInstruction::CreateTranspose(s, ops[0], perm), op));
}

Results ConvertReverse(ComputationBuilder& b, const Operation& op, const Operands& ops,
                       const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  SYSTOLIC_ASSIGN_OR_RETURN(auto dims, Ints(b, op, {"dimensions", "dims"}));
  auto instr = HloInstruction::Create(HloOpcode::kReverse, s, ops);
  instr->set_dimensions(dims);
  return One(b.Add(std::move(instr), op));
}

// `[1:3, 4:8:2]` (pretty) or start_indices / limit_indices / strides.
Results ConvertSlice(ComputationBuilder& b, const Operation& op, const Operands& ops,
                     const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  if (ops.size() != 1) return b.Error(op, "slice takes one operand");
  std::vector<int64_t> starts, limits, strides;
  if (const Attribute* ranges = op.Attr("_brackets")) {
    for (absl::string_view range : absl::StrSplit(ranges->text, ',')) {
      std::vector<absl::string_view> parts = absl::StrSplit(absl::StripAsciiWhitespace(range), ':');
      int64_t start = 0, limit = 0, stride = 1;
      if (parts.size() < 2 || parts.size() > 3 || !absl::SimpleAtoi(parts[0], &start) ||
          !absl::SimpleAtoi(parts[1], &limit) ||
          (parts.size() == 3 && !absl::SimpleAtoi(parts[2], &stride))) {
        return b.Error(op, absl::StrCat("bad slice range '", range, "'"));
      }
      starts.push_back(start);
      limits.push_back(limit);
      strides.push_back(stride);
    }
  } else {
    SYSTOLIC_ASSIGN_OR_RETURN(starts, Ints(b, op, {"start_indices"}));
    SYSTOLIC_ASSIGN_OR_RETURN(limits, Ints(b, op, {"limit_indices"}));
    SYSTOLIC_ASSIGN_OR_RETURN(strides, Ints(b, op, {"strides"}));
  }
  return One(b.Add(HloInstruction::CreateSlice(s, ops[0], starts, limits, strides), op));
}

Results ConvertDynamicSlice(ComputationBuilder& b, const Operation& op, const Operands& ops,
                            const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  SYSTOLIC_ASSIGN_OR_RETURN(auto sizes, Ints(b, op, {"slice_sizes", "sizes"}));
  auto instr = HloInstruction::Create(HloOpcode::kDynamicSlice, s, ops);
  instr->set_slice_sizes(sizes);
  return One(b.Add(std::move(instr), op));
}

Results ConvertConcatenate(ComputationBuilder& b, const Operation& op, const Operands& ops,
                           const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  SYSTOLIC_ASSIGN_OR_RETURN(int64_t dim, Int(b, op, {"dimension", "dim"}));
  return One(b.Add(HloInstruction::CreateConcatenate(s, ops, dim), op));
}

Results ConvertPad(ComputationBuilder& b, const Operation& op, const Operands& ops,
                   const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  SYSTOLIC_ASSIGN_OR_RETURN(auto low, Ints(b, op, {"edge_padding_low", "low"}));
  SYSTOLIC_ASSIGN_OR_RETURN(auto high, Ints(b, op, {"edge_padding_high", "high"}));
  SYSTOLIC_ASSIGN_OR_RETURN(auto interior, Ints(b, op, {"interior_padding", "interior"}));
  if (low.size() != high.size() || low.size() != interior.size() || ops.size() != 2) {
    return b.Error(op, "stablehlo.pad: low, high and interior need one value per dimension");
  }
  PaddingConfig config;
  for (size_t i = 0; i < low.size(); ++i) config.dimensions.push_back({low[i], high[i], interior[i]});
  return One(b.Add(HloInstruction::CreatePad(s, ops[0], ops[1], config), op));
}

Results ConvertGetTupleElement(ComputationBuilder& b, const Operation& op, const Operands& ops,
                               const Shapes& shapes) {
  int64_t index = -1;
  if (const Attribute* brackets = op.Attr("_brackets")) {
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(brackets->text), &index)) {
      return b.Error(op, "bad tuple index");
    }
  } else {
    SYSTOLIC_ASSIGN_OR_RETURN(index, Int(b, op, {"index"}));
  }
  if (ops.size() != 1 || !ops[0]->shape().IsTuple() || index < 0 ||
      index >= ops[0]->shape().tuple_shapes_size()) {
    return b.Error(op, absl::StrCat("tuple index ", index, " is out of range"));
  }
  return One(b.Add(HloInstruction::CreateGetTupleElement(ops[0], index), op));
}

Results ConvertTuple(ComputationBuilder& b, const Operation& op, const Operands& ops,
                     const Shapes&) {
  return One(b.Add(HloInstruction::CreateTuple(ops), op));
}

absl::StatusOr<PrecisionConfig> Precision(ComputationBuilder& b, const Operation& op) {
  PrecisionConfig config;
  const Attribute* p = FindAttr(op, {"precision_config", "precision"});
  if (p && p->kind == Attribute::Kind::kArray) {
    bool all_default = true;
    for (const Attribute& e : p->elements) {
      std::string text = absl::AsciiStrToLower(EnumText(&e));
      auto precision = StringToPrecision(text);
      if (!precision) return b.Error(op, absl::StrCat("unknown precision '", e.text, "'"));
      all_default &= *precision == systolic::Precision::kDefault;
      config.operand_precision.push_back(*precision);
    }
    if (all_default) config.operand_precision.clear();
  }
  if (const Attribute* algorithm = op.Attr("algorithm")) {
    // <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, ...>
    auto field = [&](absl::string_view name) {
      const Attribute* f = algorithm->Field(name);
      return f ? absl::AsciiStrToLower(EnumText(f)) : std::string();
    };
    std::string lhs = field("lhs_precision_type"), acc = field("accumulation_type");
    if (!lhs.empty()) {
      config.algorithm = absl::StrCat("dot_", lhs, "_", field("rhs_precision_type"), "_", acc);
      if (const Attribute* n = algorithm->Field("num_primitive_operations");
          n && n->kind == Attribute::Kind::kInteger && n->int_value > 1) {
        absl::StrAppend(&config.algorithm, "_x", n->int_value);
      }
    }
  }
  return config;
}

Results ConvertDotGeneral(ComputationBuilder& b, const Operation& op, const Operands& ops,
                          const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  if (ops.size() != 2) return b.Error(op, absl::StrCat(op.name, " takes two operands"));
  DotDimensionNumbers d;
  if (const Attribute* dnums = op.Attr("dot_dimension_numbers")) {
    auto list = [&](absl::string_view name) -> std::vector<int64_t> {
      const Attribute* f = dnums->Field(name);
      if (!f) return {};
      auto ints = f->AsInts();
      return ints.ok() ? *ints : std::vector<int64_t>{};
    };
    d.lhs_batch_dimensions = list("lhs_batching_dimensions");
    d.rhs_batch_dimensions = list("rhs_batching_dimensions");
    d.lhs_contracting_dimensions = list("lhs_contracting_dimensions");
    d.rhs_contracting_dimensions = list("rhs_contracting_dimensions");
  } else {
    auto pair = [&](absl::string_view name, std::vector<int64_t>* lhs,
                    std::vector<int64_t>* rhs) -> absl::Status {
      const Attribute* p = op.Attr(name);
      if (!p) return absl::OkStatus();
      if (p->kind != Attribute::Kind::kPairs) return b.Error(op, absl::StrCat(name, " must be [..] x [..]"));
      SYSTOLIC_ASSIGN_OR_RETURN(*lhs, p->elements[0].AsInts());
      SYSTOLIC_ASSIGN_OR_RETURN(*rhs, p->elements[1].AsInts());
      return absl::OkStatus();
    };
    SYSTOLIC_RETURN_IF_ERROR(pair("batching_dims", &d.lhs_batch_dimensions, &d.rhs_batch_dimensions));
    SYSTOLIC_RETURN_IF_ERROR(
        pair("contracting_dims", &d.lhs_contracting_dimensions, &d.rhs_contracting_dimensions));
  }
  SYSTOLIC_ASSIGN_OR_RETURN(PrecisionConfig precision, Precision(b, op));
  return One(b.Add(HloInstruction::CreateDot(s, ops[0], ops[1], d, precision), op));
}

Results ConvertDot(ComputationBuilder& b, const Operation& op, const Operands& ops,
                   const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  if (ops.size() != 2) return b.Error(op, "stablehlo.dot takes two operands");
  DotDimensionNumbers d;
  d.lhs_contracting_dimensions = {ops[0]->shape().rank() - 1};
  d.rhs_contracting_dimensions = {0};
  SYSTOLIC_ASSIGN_OR_RETURN(PrecisionConfig precision, Precision(b, op));
  return One(b.Add(HloInstruction::CreateDot(s, ops[0], ops[1], d, precision), op));
}

// "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]" as dimension numbers.
absl::StatusOr<ConvolutionDimensionNumbers> ParseConvDimNumbers(absl::string_view text) {
  std::vector<std::string> groups;
  size_t pos = 0;
  while ((pos = text.find('[', pos)) != absl::string_view::npos) {
    size_t end = text.find(']', pos);
    if (end == absl::string_view::npos) break;
    groups.push_back(std::string(text.substr(pos + 1, end - pos - 1)));
    pos = end + 1;
  }
  if (groups.size() != 3) {
    return absl::InvalidArgumentError(absl::StrCat("bad convolution dim_numbers '", text, "'"));
  }
  // Translate to XLA's dim_labels (b01f_01io->b01f) and reuse its parser.
  std::string labels[3];
  for (int g = 0; g < 3; ++g) {
    for (absl::string_view item : absl::StrSplit(groups[g], ',')) {
      item = absl::StripAsciiWhitespace(item);
      if (item.size() != 1) {
        return absl::InvalidArgumentError(absl::StrCat("bad dimension label '", item, "'"));
      }
      labels[g] += item[0];
    }
  }
  return ConvolutionDimensionNumbers::FromDimLabels(
      absl::StrCat(labels[0], "_", labels[1], "->", labels[2]));
}

// Window attributes shared by convolution, reduce_window and select_and_scatter.
absl::StatusOr<Window> WindowFromAttributes(ComputationBuilder& b, const Operation& op,
                                            int64_t rank, bool convolution) {
  std::vector<int64_t> size, stride, lhs, rhs, reversal, padding;
  const Attribute* pretty = op.Attr("window");
  auto get = [&](std::initializer_list<absl::string_view> generic,
                 absl::string_view pretty_name) -> absl::StatusOr<std::vector<int64_t>> {
    if (pretty && pretty->kind == Attribute::Kind::kDictionary) {
      const Attribute* f = pretty->Field(pretty_name);
      if (!f) return std::vector<int64_t>{};
      if (f->kind == Attribute::Kind::kArray) {
        std::vector<int64_t> out;
        for (const Attribute& e : f->elements) {
          if (e.kind == Attribute::Kind::kArray) {
            for (const Attribute& inner : e.elements) out.push_back(inner.int_value);
          } else if (e.kind == Attribute::Kind::kBool) {
            out.push_back(e.bool_value ? 1 : 0);
          } else {
            out.push_back(e.int_value);
          }
        }
        return out;
      }
      return f->AsInts();
    }
    return Ints(b, op, generic, /*required=*/false);
  };
  if (!convolution) {
    SYSTOLIC_ASSIGN_OR_RETURN(size, Ints(b, op, {"window_dimensions"}));
  }
  SYSTOLIC_ASSIGN_OR_RETURN(stride, get({"window_strides"}, "stride"));
  SYSTOLIC_ASSIGN_OR_RETURN(padding, get({"padding"}, "pad"));
  SYSTOLIC_ASSIGN_OR_RETURN(lhs, get({"lhs_dilation", "base_dilations"}, "lhs_dilate"));
  SYSTOLIC_ASSIGN_OR_RETURN(rhs, get({"rhs_dilation", "window_dilations"}, "rhs_dilate"));
  SYSTOLIC_ASSIGN_OR_RETURN(reversal, get({"window_reversal"}, "reverse"));
  if (convolution) size.assign(rank, 1);
  auto check = [&](const std::vector<int64_t>& v, size_t n, absl::string_view name) -> absl::Status {
    if (!v.empty() && v.size() != n) {
      return b.Error(op, absl::StrCat(op.name, ": ", name, " has ", v.size(), " values, expected ", n));
    }
    return absl::OkStatus();
  };
  size_t r = size.size();
  SYSTOLIC_RETURN_IF_ERROR(check(stride, r, "window strides"));
  SYSTOLIC_RETURN_IF_ERROR(check(padding, 2 * r, "padding"));
  SYSTOLIC_RETURN_IF_ERROR(check(lhs, r, "lhs dilation"));
  SYSTOLIC_RETURN_IF_ERROR(check(rhs, r, "rhs dilation"));
  SYSTOLIC_RETURN_IF_ERROR(check(reversal, r, "window reversal"));
  Window w;
  for (size_t i = 0; i < r; ++i) {
    WindowDimension d;
    d.size = size[i];
    if (!stride.empty()) d.stride = stride[i];
    if (!padding.empty()) {
      d.padding_low = padding[2 * i];
      d.padding_high = padding[2 * i + 1];
    }
    if (!lhs.empty()) d.base_dilation = lhs[i];
    if (!rhs.empty()) d.window_dilation = rhs[i];
    if (!reversal.empty()) d.window_reversal = reversal[i] != 0;
    w.dimensions.push_back(d);
  }
  return w;
}

std::vector<int64_t> StructInts(const Attribute* s, absl::string_view name) {
  if (!s) return {};
  const Attribute* f = s->Field(name);
  if (!f) return {};
  auto ints = f->AsInts();
  return ints.ok() ? *ints : std::vector<int64_t>{};
}

// dim_numbers as text ([b, 0, 1, f]x...) or as the fields of #stablehlo.conv<raw ...>.
absl::StatusOr<ConvolutionDimensionNumbers> ConvDimensionNumbers(ComputationBuilder& b,
                                                                 const Operation& op) {
  const Attribute* dn = FindAttr(op, {"dim_numbers", "dimension_numbers"});
  if (!dn) return b.Error(op, "stablehlo.convolution needs dim_numbers");
  if (dn->kind == Attribute::Kind::kString) {
    auto d = ParseConvDimNumbers(dn->text);
    if (!d.ok()) return b.Error(op, d.status().message());
    return *d;
  }
  if (const Attribute* raw = dn->Field("_raw")) {
    auto d = ParseConvDimNumbers(raw->text);
    if (!d.ok()) return b.Error(op, d.status().message());
    return *d;
  }
  auto one = [&](absl::string_view name) -> int64_t {
    const Attribute* f = dn->Field(name);
    return f ? f->int_value : 0;
  };
  ConvolutionDimensionNumbers d;
  d.input_batch_dimension = one("input_batch_dimension");
  d.input_feature_dimension = one("input_feature_dimension");
  d.input_spatial_dimensions = StructInts(dn, "input_spatial_dimensions");
  d.kernel_input_feature_dimension = one("kernel_input_feature_dimension");
  d.kernel_output_feature_dimension = one("kernel_output_feature_dimension");
  d.kernel_spatial_dimensions = StructInts(dn, "kernel_spatial_dimensions");
  d.output_batch_dimension = one("output_batch_dimension");
  d.output_feature_dimension = one("output_feature_dimension");
  d.output_spatial_dimensions = StructInts(dn, "output_spatial_dimensions");
  return d;
}

Results ConvertConvolution(ComputationBuilder& b, const Operation& op, const Operands& ops,
                           const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  if (ops.size() != 2) return b.Error(op, "stablehlo.convolution takes two operands");
  SYSTOLIC_ASSIGN_OR_RETURN(ConvolutionDimensionNumbers dnums, ConvDimensionNumbers(b, op));
  int64_t spatial = int64_t(dnums.input_spatial_dimensions.size());
  if (int64_t(dnums.kernel_spatial_dimensions.size()) != spatial) {
    return b.Error(op, "convolution: kernel and input spatial ranks differ");
  }
  SYSTOLIC_ASSIGN_OR_RETURN(Window w, WindowFromAttributes(b, op, spatial, true));
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t kd = dnums.kernel_spatial_dimensions[i];
    if (kd < 0 || kd >= ops[1]->shape().rank()) return b.Error(op, "bad kernel spatial dimension");
    w.dimensions[i].size = ops[1]->shape().dimensions(kd);
  }
  auto instr = HloInstruction::Create(HloOpcode::kConvolution, s, ops);
  instr->set_convolution_dimension_numbers(std::move(dnums));
  instr->set_window(std::move(w));
  SYSTOLIC_ASSIGN_OR_RETURN(int64_t fgc, Int(b, op, {"feature_group_count"}, 1));
  SYSTOLIC_ASSIGN_OR_RETURN(int64_t bgc, Int(b, op, {"batch_group_count"}, 1));
  instr->set_feature_group_count(fgc);
  instr->set_batch_group_count(bgc);
  SYSTOLIC_ASSIGN_OR_RETURN(*instr->mutable_precision_config(), Precision(b, op));
  return One(b.Add(std::move(instr), op));
}

absl::StatusOr<HloComputation*> Region(ComputationBuilder& b, const Operation& op, size_t index,
                                       absl::string_view hint) {
  if (op.regions.size() <= index) {
    return b.Error(op, absl::StrCat(op.name, " needs ", index + 1, " region(s)"));
  }
  return b.importer().IsolatedRegionComputation(op.regions[index], hint, op);
}

// Multi-result ops produce a tuple; single results stay arrays.
Results MaybeUnpack(ComputationBuilder& b, const Operation& op, HloInstruction* instr) {
  if (instr->shape().IsTuple()) return Unpack(b, op, instr);
  return One(instr);
}

Results ConvertReduce(ComputationBuilder& b, const Operation& op, const Operands& ops,
                      const Shapes& shapes) {
  if (ops.size() % 2 != 0 || ops.empty()) return b.Error(op, "stablehlo.reduce needs inputs and inits");
  SYSTOLIC_ASSIGN_OR_RETURN(auto dims, Ints(b, op, {"dimensions"}));
  SYSTOLIC_ASSIGN_OR_RETURN(HloComputation * reducer, Region(b, op, 0, "reducer"));
  size_t n = ops.size() / 2;
  Shape shape = n == 1 ? shapes.at(0) : TupleOf(shapes);
  absl::Span<HloInstruction* const> all(ops);
  return MaybeUnpack(b, op, b.Add(HloInstruction::CreateReduce(shape, all.subspan(0, n),
                                                               all.subspan(n), dims, reducer),
                                  op));
}

Results ConvertReduceWindow(ComputationBuilder& b, const Operation& op, const Operands& ops,
                            const Shapes& shapes) {
  if (ops.size() % 2 != 0 || ops.empty()) return b.Error(op, "reduce_window needs inputs and inits");
  SYSTOLIC_ASSIGN_OR_RETURN(Window w, WindowFromAttributes(b, op, ops[0]->shape().rank(), false));
  SYSTOLIC_ASSIGN_OR_RETURN(HloComputation * reducer, Region(b, op, 0, "reducer"));
  Shape shape = ops.size() == 2 ? shapes.at(0) : TupleOf(shapes);
  auto instr = HloInstruction::Create(HloOpcode::kReduceWindow, shape, ops);
  instr->set_window(std::move(w));
  instr->AppendCalledComputation(reducer);
  return MaybeUnpack(b, op, b.Add(std::move(instr), op));
}

Results ConvertSelectAndScatter(ComputationBuilder& b, const Operation& op, const Operands& ops,
                                const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  if (ops.size() != 3) return b.Error(op, "select_and_scatter takes three operands");
  SYSTOLIC_ASSIGN_OR_RETURN(Window w, WindowFromAttributes(b, op, ops[0]->shape().rank(), false));
  SYSTOLIC_ASSIGN_OR_RETURN(HloComputation * select, Region(b, op, 0, "select"));
  SYSTOLIC_ASSIGN_OR_RETURN(HloComputation * scatter, Region(b, op, 1, "scatter"));
  auto instr = HloInstruction::Create(HloOpcode::kSelectAndScatter, s, ops);
  instr->set_window(std::move(w));
  instr->AppendCalledComputation(select);
  instr->AppendCalledComputation(scatter);
  return One(b.Add(std::move(instr), op));
}

Results ConvertGather(ComputationBuilder& b, const Operation& op, const Operands& ops,
                      const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  const Attribute* dn = op.Attr("dimension_numbers");
  if (!dn) return b.Error(op, "stablehlo.gather needs dimension_numbers");
  GatherDimensionNumbers g;
  g.offset_dims = StructInts(dn, "offset_dims");
  g.collapsed_slice_dims = StructInts(dn, "collapsed_slice_dims");
  g.operand_batching_dims = StructInts(dn, "operand_batching_dims");
  g.start_indices_batching_dims = StructInts(dn, "start_indices_batching_dims");
  g.start_index_map = StructInts(dn, "start_index_map");
  auto ivd = StructInts(dn, "index_vector_dim");
  g.index_vector_dim = ivd.empty() ? 0 : ivd[0];
  SYSTOLIC_ASSIGN_OR_RETURN(auto sizes, Ints(b, op, {"slice_sizes"}));
  auto instr = HloInstruction::Create(HloOpcode::kGather, s, ops);
  instr->set_gather_dimension_numbers(std::move(g));
  instr->set_slice_sizes(sizes);
  instr->set_indices_are_sorted(Flag(op, "indices_are_sorted"));
  return One(b.Add(std::move(instr), op));
}

Results ConvertScatter(ComputationBuilder& b, const Operation& op, const Operands& ops,
                       const Shapes& shapes) {
  const Attribute* dn = op.Attr("scatter_dimension_numbers");
  if (!dn) return b.Error(op, "stablehlo.scatter needs scatter_dimension_numbers");
  ScatterDimensionNumbers d;
  d.update_window_dims = StructInts(dn, "update_window_dims");
  d.inserted_window_dims = StructInts(dn, "inserted_window_dims");
  d.input_batching_dims = StructInts(dn, "input_batching_dims");
  d.scatter_indices_batching_dims = StructInts(dn, "scatter_indices_batching_dims");
  d.scatter_dims_to_operand_dims = StructInts(dn, "scatter_dims_to_operand_dims");
  auto ivd = StructInts(dn, "index_vector_dim");
  d.index_vector_dim = ivd.empty() ? 0 : ivd[0];
  SYSTOLIC_ASSIGN_OR_RETURN(HloComputation * combiner, Region(b, op, 0, "update"));
  Shape shape = shapes.size() == 1 ? shapes[0] : TupleOf(shapes);
  auto instr = HloInstruction::Create(HloOpcode::kScatter, shape, ops);
  instr->set_scatter_dimension_numbers(std::move(d));
  instr->set_indices_are_sorted(Flag(op, "indices_are_sorted"));
  instr->set_unique_indices(Flag(op, "unique_indices"));
  instr->AppendCalledComputation(combiner);
  return MaybeUnpack(b, op, b.Add(std::move(instr), op));
}

Results ConvertSort(ComputationBuilder& b, const Operation& op, const Operands& ops,
                    const Shapes& shapes) {
  if (ops.empty()) return b.Error(op, "sort takes at least one operand");
  SYSTOLIC_ASSIGN_OR_RETURN(int64_t dim, Int(b, op, {"dimension"}, -1));
  if (dim < 0) dim += ops[0]->shape().rank();
  SYSTOLIC_ASSIGN_OR_RETURN(HloComputation * comparator, Region(b, op, 0, "comparator"));
  Shape shape = shapes.size() == 1 ? shapes[0] : TupleOf(shapes);
  auto instr = HloInstruction::Create(HloOpcode::kSort, shape, ops);
  instr->set_dimensions({dim});
  instr->set_is_stable(Flag(op, "is_stable"));
  instr->AppendCalledComputation(comparator);
  return MaybeUnpack(b, op, b.Add(std::move(instr), op));
}

Results ConvertMap(ComputationBuilder& b, const Operation& op, const Operands& ops,
                   const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  SYSTOLIC_ASSIGN_OR_RETURN(HloComputation * fn, Region(b, op, 0, "map"));
  auto instr = HloInstruction::Create(HloOpcode::kMap, s, ops);
  instr->AppendCalledComputation(fn);
  return One(b.Add(std::move(instr), op));
}

// while: loop variables plus captured values travel in one tuple.
Results ConvertWhile(ComputationBuilder& b, const Operation& op, const Operands& ops,
                     const Shapes& shapes) {
  if (op.regions.size() != 2) return b.Error(op, "stablehlo.while needs cond and body regions");
  std::vector<std::string> names;
  std::vector<Shape> state_shapes;
  for (const HloInstruction* init : ops) state_shapes.push_back(init->shape());
  // Generic form: the block arguments name the loop variables.
  names = op.regions[1].blocks.at(0).argument_names;
  if (names.size() != ops.size()) return b.Error(op, "while: one block argument per loop variable");
  std::vector<std::string> captured = ModuleImporter::FreeValues(op.regions[0]);
  for (const std::string& v : ModuleImporter::FreeValues(op.regions[1])) {
    if (std::find(captured.begin(), captured.end(), v) == captured.end()) captured.push_back(v);
  }
  // Block arguments are bound inside; they are not captures.
  std::vector<std::string> real_captures;
  for (const std::string& v : captured) {
    bool is_arg = false;
    for (const mlir::Region& r : op.regions) {
      const auto& args = r.blocks.at(0).argument_names;
      is_arg |= std::find(args.begin(), args.end(), v) != args.end();
    }
    if (!is_arg) real_captures.push_back(v);
  }
  auto& importer = b.importer();
  const auto& cond_args = op.regions[0].blocks.at(0).argument_names;
  SYSTOLIC_ASSIGN_OR_RETURN(auto cond, importer.CapturingRegionComputation(
                                           op.regions[0], "while_cond", state_shapes, cond_args,
                                           real_captures, b, op, false));
  SYSTOLIC_ASSIGN_OR_RETURN(auto body, importer.CapturingRegionComputation(
                                           op.regions[1], "while_body", state_shapes, names,
                                           real_captures, b, op, true));
  std::vector<HloInstruction*> init = ops;
  for (const std::string& name : real_captures) {
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * v, b.Lookup({name, -1, op.where}));
    init.push_back(v);
  }
  HloInstruction* init_tuple = b.Add(HloInstruction::CreateTuple(init), op);
  HloInstruction* loop = b.Add(HloInstruction::CreateWhile(init_tuple->shape(), cond.computation,
                                                           body.computation, init_tuple),
                               op);
  std::vector<HloInstruction*> results;
  for (size_t i = 0; i < ops.size(); ++i) {
    results.push_back(b.Add(HloInstruction::CreateGetTupleElement(loop, int64_t(i)), op));
  }
  return results;
}

// if / case: each branch gets the captured values as one tuple operand.
Results ConvertConditional(ComputationBuilder& b, const Operation& op, const Operands& ops,
                           const Shapes& shapes) {
  if (ops.size() != 1) return b.Error(op, absl::StrCat(op.name, " takes one operand"));
  if (op.regions.empty()) return b.Error(op, absl::StrCat(op.name, " needs regions"));
  std::vector<std::string> captured;
  for (const mlir::Region& r : op.regions) {
    for (const std::string& v : ModuleImporter::FreeValues(r)) {
      if (std::find(captured.begin(), captured.end(), v) == captured.end()) captured.push_back(v);
    }
  }
  std::vector<HloInstruction*> captured_values;
  for (const std::string& name : captured) {
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * v, b.Lookup({name, -1, op.where}));
    captured_values.push_back(v);
  }
  HloInstruction* operand = b.Add(HloInstruction::CreateTuple(captured_values), op);
  Shape shape = shapes.size() == 1 ? shapes[0] : TupleOf(shapes);
  std::vector<HloInstruction*> operands = {ops[0]};
  std::vector<HloComputation*> branches;
  for (size_t i = 0; i < op.regions.size(); ++i) {
    SYSTOLIC_ASSIGN_OR_RETURN(auto branch, b.importer().CapturingRegionComputation(
                                               op.regions[i], absl::StrCat("branch", i), {}, {},
                                               captured, b, op, false));
    branches.push_back(branch.computation);
    operands.push_back(operand);
  }
  if (op.name == "stablehlo.if") {
    if (branches.size() != 2) return b.Error(op, "stablehlo.if needs two regions");
  }
  auto instr = HloInstruction::Create(HloOpcode::kConditional, shape, operands);
  for (HloComputation* c : branches) instr->AppendCalledComputation(c);
  return MaybeUnpack(b, op, b.Add(std::move(instr), op));
}

Results ConvertCall(ComputationBuilder& b, const Operation& op, const Operands& ops,
                    const Shapes& shapes) {
  const Attribute* callee = FindAttr(op, {"callee", "decomposition"});
  if (!callee) return b.Error(op, "call needs a callee");
  SYSTOLIC_ASSIGN_OR_RETURN(HloComputation * target,
                            b.importer().FunctionComputation(callee->text, op.where));
  Shape shape = shapes.size() == 1 ? shapes[0] : TupleOf(shapes);
  if (shapes.empty()) shape = Shape::MakeTuple({});
  return MaybeUnpack(b, op, b.Add(HloInstruction::CreateCall(shape, ops, target), op));
}

// Replica groups written as a dense 2-D tensor.
absl::StatusOr<CollectiveDeviceList> ReplicaGroups(ComputationBuilder& b, const Operation& op) {
  const Attribute* a = op.Attr("replica_groups");
  if (!a) return CollectiveDeviceList();
  if (a->kind != Attribute::Kind::kDense || !a->dense || a->dense->shape().rank() != 2) {
    return b.Error(op, "replica_groups must be a 2-D dense tensor");
  }
  const Literal& l = *a->dense;
  std::vector<std::vector<int64_t>> groups;
  for (int64_t g = 0; g < l.shape().dimensions(0); ++g) {
    std::vector<int64_t> group;
    for (int64_t i = 0; i < l.shape().dimensions(1); ++i) {
      int64_t id = l.GetAsInt64(g * l.shape().dimensions(1) + i);
      if (id >= 0) group.push_back(id);  // -1 pads ragged groups
    }
    groups.push_back(std::move(group));
  }
  return CollectiveDeviceList(std::move(groups));
}

absl::Status SetCollectiveAttributes(ComputationBuilder& b, const Operation& op,
                                     HloInstruction* instr) {
  SYSTOLIC_ASSIGN_OR_RETURN(CollectiveDeviceList groups, ReplicaGroups(b, op));
  instr->set_device_list(std::move(groups));
  if (const Attribute* ch = op.Attr("channel_handle")) {
    const Attribute* handle = ch->Field("handle");
    // Handle 0 means "no channel" (cross-replica); others name a channel.
    if (handle && handle->int_value > 0) instr->set_channel_id(handle->int_value);
  }
  instr->set_use_global_device_ids(Flag(op, "use_global_device_ids"));
  return absl::OkStatus();
}

Results ConvertAllReduce(ComputationBuilder& b, const Operation& op, const Operands& ops,
                         const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(HloComputation * reducer, Region(b, op, 0, "sum"));
  Shape shape = shapes.size() == 1 ? shapes[0] : TupleOf(shapes);
  auto instr = HloInstruction::Create(HloOpcode::kAllReduce, shape, ops);
  SYSTOLIC_RETURN_IF_ERROR(SetCollectiveAttributes(b, op, instr.get()));
  instr->AppendCalledComputation(reducer);
  return MaybeUnpack(b, op, b.Add(std::move(instr), op));
}

Results ConvertAllGather(ComputationBuilder& b, const Operation& op, const Operands& ops,
                         const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(int64_t dim, Int(b, op, {"all_gather_dim"}));
  Shape shape = shapes.size() == 1 ? shapes[0] : TupleOf(shapes);
  auto instr = HloInstruction::Create(HloOpcode::kAllGather, shape, ops);
  SYSTOLIC_RETURN_IF_ERROR(SetCollectiveAttributes(b, op, instr.get()));
  instr->set_dimensions({dim});
  return MaybeUnpack(b, op, b.Add(std::move(instr), op));
}

Results ConvertReduceScatter(ComputationBuilder& b, const Operation& op, const Operands& ops,
                             const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(int64_t dim, Int(b, op, {"scatter_dimension"}));
  SYSTOLIC_ASSIGN_OR_RETURN(HloComputation * reducer, Region(b, op, 0, "sum"));
  Shape shape = shapes.size() == 1 ? shapes[0] : TupleOf(shapes);
  auto instr = HloInstruction::Create(HloOpcode::kReduceScatter, shape, ops);
  SYSTOLIC_RETURN_IF_ERROR(SetCollectiveAttributes(b, op, instr.get()));
  instr->set_dimensions({dim});
  instr->AppendCalledComputation(reducer);
  return MaybeUnpack(b, op, b.Add(std::move(instr), op));
}

// StableHLO's all_to_all splits one dimension and concatenates along another;
// HLO's array form uses one dimension for both, so a different concat
// dimension is expressed with the tuple form plus a concatenate.
absl::StatusOr<HloInstruction*> AllToAllOne(ComputationBuilder& b, const Operation& op,
                                            HloInstruction* operand, const Shape& result,
                                            int64_t split, int64_t concat, int64_t count) {
  const Shape& in = operand->shape();
  if (!in.IsArray() || split < 0 || split >= in.rank() || concat < 0 || concat >= in.rank() ||
      count <= 0 || in.dimensions(split) % count != 0) {
    return b.Error(op, "all_to_all: bad split/concat dimensions or split_count");
  }
  if (split == concat) {
    auto instr = HloInstruction::Create(HloOpcode::kAllToAll, result, {operand});
    SYSTOLIC_RETURN_IF_ERROR(SetCollectiveAttributes(b, op, instr.get()));
    instr->set_dimensions({split});
    return b.Add(std::move(instr), op);
  }
  // Split into `count` pieces, exchange them as a tuple, concatenate.
  std::vector<HloInstruction*> pieces;
  int64_t piece = in.dimensions(split) / count;
  for (int64_t i = 0; i < count; ++i) {
    std::vector<int64_t> starts(in.rank(), 0), limits = in.dimensions(), strides(in.rank(), 1);
    starts[split] = i * piece;
    limits[split] = (i + 1) * piece;
    Shape ps = in;
    ps.clear_layout();
    ps.set_dimensions(split, piece);
    pieces.push_back(b.Add(HloInstruction::CreateSlice(ps, operand, starts, limits, strides), op));
  }
  std::vector<Shape> piece_shapes(count, pieces[0]->shape());
  auto exchange = HloInstruction::Create(HloOpcode::kAllToAll, TupleOf(piece_shapes), pieces);
  SYSTOLIC_RETURN_IF_ERROR(SetCollectiveAttributes(b, op, exchange.get()));
  HloInstruction* exchanged = b.Add(std::move(exchange), op);
  std::vector<HloInstruction*> received = Unpack(b, op, exchanged);
  return b.Add(HloInstruction::CreateConcatenate(result, received, concat), op);
}

// Several operands exchange independently over the same groups.
Results ConvertAllToAll(ComputationBuilder& b, const Operation& op, const Operands& ops,
                        const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(int64_t split, Int(b, op, {"split_dimension"}));
  SYSTOLIC_ASSIGN_OR_RETURN(int64_t concat, Int(b, op, {"concat_dimension"}));
  SYSTOLIC_ASSIGN_OR_RETURN(int64_t count, Int(b, op, {"split_count"}));
  if (ops.empty() || ops.size() != shapes.size()) {
    return b.Error(op, "all_to_all needs one result per operand");
  }
  std::vector<HloInstruction*> results;
  for (size_t i = 0; i < ops.size(); ++i) {
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * r,
                              AllToAllOne(b, op, ops[i], shapes[i], split, concat, count));
    results.push_back(r);
  }
  return results;
}

Results ConvertCollectivePermute(ComputationBuilder& b, const Operation& op, const Operands& ops,
                                 const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  const Attribute* pairs = op.Attr("source_target_pairs");
  if (!pairs || !pairs->dense || pairs->dense->shape().rank() != 2 ||
      pairs->dense->shape().dimensions(1) != 2) {
    return b.Error(op, "collective_permute needs source_target_pairs as an Nx2 tensor");
  }
  std::vector<std::pair<int64_t, int64_t>> list;
  for (int64_t i = 0; i < pairs->dense->shape().dimensions(0); ++i) {
    list.push_back({pairs->dense->GetAsInt64(2 * i), pairs->dense->GetAsInt64(2 * i + 1)});
  }
  auto instr = HloInstruction::Create(HloOpcode::kCollectivePermute, s, ops);
  if (const Attribute* ch = op.Attr("channel_handle")) {
    const Attribute* handle = ch->Field("handle");
    if (handle && handle->int_value > 0) instr->set_channel_id(handle->int_value);
  }
  instr->set_source_target_pairs(std::move(list));
  return One(b.Add(std::move(instr), op));
}

Results ConvertCollectiveBroadcast(ComputationBuilder& b, const Operation& op,
                                   const Operands& ops, const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  auto instr = HloInstruction::Create(HloOpcode::kCollectiveBroadcast, s, ops);
  SYSTOLIC_RETURN_IF_ERROR(SetCollectiveAttributes(b, op, instr.get()));
  return One(b.Add(std::move(instr), op));
}

Results ConvertIdOp(HloOpcode opcode, ComputationBuilder& b, const Operation& op) {
  // replica_id / partition_id: u32[] in HLO, tensor<ui32> in StableHLO.
  return One(b.Add(HloInstruction::Create(opcode, Shape(U32, {}), {}), op));
}

Results ConvertOptimizationBarrier(ComputationBuilder& b, const Operation& op, const Operands& ops,
                                   const Shapes& shapes) {
  HloInstruction* tuple = b.Add(HloInstruction::CreateTuple(ops), op);
  HloInstruction* barrier =
      b.Add(HloInstruction::Create(HloOpcode::kOptimizationBarrier, tuple->shape(), {tuple}), op);
  return Unpack(b, op, barrier);
}

Results ConvertRngBitGenerator(ComputationBuilder& b, const Operation& op, const Operands& ops,
                               const Shapes& shapes) {
  std::string algorithm = EnumText(FindAttr(op, {"rng_algorithm", "algorithm"}));
  auto instr = HloInstruction::Create(HloOpcode::kRngBitGenerator, TupleOf(shapes), ops);
  if (algorithm == "THREE_FRY") {
    instr->set_random_algorithm(RandomAlgorithm::kThreeFry);
  } else if (algorithm == "PHILOX") {
    instr->set_random_algorithm(RandomAlgorithm::kPhilox);
  } else if (algorithm != "DEFAULT" && !algorithm.empty()) {
    return b.Error(op, absl::StrCat("unknown rng algorithm ", algorithm));
  }
  return Unpack(b, op, b.Add(std::move(instr), op));
}

Results ConvertRng(ComputationBuilder& b, const Operation& op, const Operands& ops,
                   const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  if (ops.size() != 3) return b.Error(op, "stablehlo.rng takes a, b and a shape");
  std::string dist = EnumText(FindAttr(op, {"rng_distribution", "distribution"}));
  auto instr = HloInstruction::Create(HloOpcode::kRng, s, {ops[0], ops[1]});
  instr->set_random_distribution(dist == "NORMAL" ? RandomDistribution::kNormal
                                                  : RandomDistribution::kUniform);
  return One(b.Add(std::move(instr), op));
}

OpConverter BatchNorm(HloOpcode opcode) {
  return [opcode](ComputationBuilder& b, const Operation& op, const Operands& ops,
                  const Shapes& shapes) -> Results {
    const Attribute* eps = op.Attr("epsilon");
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t feature, Int(b, op, {"feature_index"}));
    Shape shape = shapes.size() == 1 ? shapes[0] : TupleOf(shapes);
    auto instr = HloInstruction::Create(opcode, shape, ops);
    instr->set_epsilon(eps ? float(eps->float_value) : 0.001f);
    instr->set_feature_index(feature);
    return MaybeUnpack(b, op, b.Add(std::move(instr), op));
  };
}

Results ConvertReducePrecision(ComputationBuilder& b, const Operation& op, const Operands& ops,
                               const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  int64_t exponent = 0, mantissa = 0;
  if (const Attribute* format = op.Attr("format")) {
    // Pretty form: format = e5m10
    absl::string_view f = format->text;
    size_t m = f.find('m');
    if (!absl::ConsumePrefix(&f, "e") || m == absl::string_view::npos ||
        !absl::SimpleAtoi(f.substr(0, m - 1), &exponent) ||
        !absl::SimpleAtoi(f.substr(m), &mantissa)) {
      return b.Error(op, absl::StrCat("bad format ", format->text));
    }
  } else {
    SYSTOLIC_ASSIGN_OR_RETURN(exponent, Int(b, op, {"exponent_bits"}));
    SYSTOLIC_ASSIGN_OR_RETURN(mantissa, Int(b, op, {"mantissa_bits"}));
  }
  auto instr = HloInstruction::Create(HloOpcode::kReducePrecision, s, ops);
  instr->set_reduce_precision(exponent, mantissa);
  return One(b.Add(std::move(instr), op));
}

Results ConvertCholesky(ComputationBuilder& b, const Operation& op, const Operands& ops,
                        const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  auto instr = HloInstruction::Create(HloOpcode::kCholesky, s, ops);
  instr->set_lower(Flag(op, "lower"));
  return One(b.Add(std::move(instr), op));
}

Results ConvertTriangularSolve(ComputationBuilder& b, const Operation& op, const Operands& ops,
                               const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  auto instr = HloInstruction::Create(HloOpcode::kTriangularSolve, s, ops);
  instr->set_left_side(Flag(op, "left_side"));
  instr->set_lower(Flag(op, "lower"));
  instr->set_unit_diagonal(Flag(op, "unit_diagonal"));
  std::string t = EnumText(op.Attr("transpose_a"));
  instr->set_transpose_a(t == "TRANSPOSE"  ? TriangularSolveTranspose::kTranspose
                         : t == "ADJOINT" ? TriangularSolveTranspose::kAdjoint
                                          : TriangularSolveTranspose::kNoTranspose);
  return One(b.Add(std::move(instr), op));
}

Results ConvertFft(ComputationBuilder& b, const Operation& op, const Operands& ops,
                   const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
  // The generic form's names, then the pretty form's (`type = FFT, length = [4]`).
  std::string t = EnumText(FindAttr(op, {"fft_type", "type"}));
  SYSTOLIC_ASSIGN_OR_RETURN(auto length, Ints(b, op, {"fft_length", "length"}));
  auto instr = HloInstruction::Create(HloOpcode::kFft, s, ops);
  instr->set_fft_type(t == "IFFT"    ? FftType::kIfft
                      : t == "RFFT"  ? FftType::kRfft
                      : t == "IRFFT" ? FftType::kIrfft
                                     : FftType::kFft);
  instr->set_fft_length(length);
  return One(b.Add(std::move(instr), op));
}

Results ConvertGetDimensionSize(ComputationBuilder& b, const Operation& op, const Operands& ops,
                                const Shapes& shapes) {
  SYSTOLIC_ASSIGN_OR_RETURN(int64_t dim, Int(b, op, {"dimension", "dim"}));
  auto instr = HloInstruction::Create(HloOpcode::kGetDimensionSize, Shape(S32, {}), ops);
  instr->set_dimensions({dim});
  return One(b.Add(std::move(instr), op));
}

Results ConvertAfterAll(ComputationBuilder& b, const Operation& op, const Operands& ops,
                        const Shapes&) {
  return One(b.Add(HloInstruction::Create(HloOpcode::kAfterAll, Shape::MakeToken(), ops), op));
}

Results ConvertCustomCall(ComputationBuilder& b, const Operation& op, const Operands& ops,
                          const Shapes& shapes) {
  const Attribute* target = FindAttr(op, {"call_target_name"});
  if (!target) return b.Error(op, "custom_call needs a target");
  if (absl::StartsWith(target->text, "check.")) {
    return RecordCheckCustomCall(b, op, ops);
  }
  Shape shape = shapes.size() == 1 ? shapes[0] : TupleOf(shapes);
  auto instr = HloInstruction::Create(HloOpcode::kCustomCall, shape, ops);
  CustomCallOptions* cc = instr->mutable_custom_call();
  cc->target = target->text;
  cc->has_side_effect = Flag(op, "has_side_effect");
  if (const Attribute* config = op.Attr("backend_config")) {
    if (config->kind == Attribute::Kind::kString) instr->set_backend_config(config->text);
  }
  if (const Attribute* sharding = op.Attr("mhlo.sharding")) {
    auto s = ShardingFromAttribute(*sharding, b.importer().syntax());
    if (!s.ok()) return b.Error(op, s.status().message());
    instr->set_sharding(*std::move(s));
  }
  HloInstruction* added = b.Add(std::move(instr), op);
  if (shapes.empty()) return std::vector<HloInstruction*>{};
  return MaybeUnpack(b, op, added);
}

Results ConvertRealDynamicUnsupported(ComputationBuilder& b, const Operation& op, const Operands&,
                                      const Shapes&) {
  return b.Error(op, absl::StrCat(op.name,
                                  " needs dynamic shapes, which this compiler does not support"));
}

const absl::flat_hash_map<std::string, OpConverter>& Converters() {
  static const auto* table = [] {
    auto* t = new absl::flat_hash_map<std::string, OpConverter>();
    auto& m = *t;
    const std::pair<const char*, HloOpcode> unary[] = {
        {"abs", HloOpcode::kAbs},
        {"cbrt", HloOpcode::kCbrt},
        {"ceil", HloOpcode::kCeil},
        {"count_leading_zeros", HloOpcode::kClz},
        {"cosine", HloOpcode::kCos},
        {"exponential", HloOpcode::kExp},
        {"exponential_minus_one", HloOpcode::kExpm1},
        {"floor", HloOpcode::kFloor},
        {"imag", HloOpcode::kImag},
        {"is_finite", HloOpcode::kIsFinite},
        {"log", HloOpcode::kLog},
        {"log_plus_one", HloOpcode::kLog1p},
        {"logistic", HloOpcode::kLogistic},
        {"negate", HloOpcode::kNegate},
        {"not", HloOpcode::kNot},
        {"popcnt", HloOpcode::kPopulationCount},
        {"real", HloOpcode::kReal},
        {"round_nearest_afz", HloOpcode::kRoundNearestAfz},
        {"round_nearest_even", HloOpcode::kRoundNearestEven},
        {"rsqrt", HloOpcode::kRsqrt},
        {"sign", HloOpcode::kSign},
        {"sine", HloOpcode::kSin},
        {"sqrt", HloOpcode::kSqrt},
        {"tan", HloOpcode::kTan},
        {"tanh", HloOpcode::kTanh},
        {"convert", HloOpcode::kConvert},
        {"reshape", HloOpcode::kReshape},
    };
    for (const auto& [name, opcode] : unary) m[absl::StrCat("stablehlo.", name)] = Unary(opcode);
    const std::pair<const char*, HloOpcode> binary[] = {
        {"add", HloOpcode::kAdd},
        {"and", HloOpcode::kAnd},
        {"atan2", HloOpcode::kAtan2},
        {"complex", HloOpcode::kComplex},
        {"divide", HloOpcode::kDivide},
        {"multiply", HloOpcode::kMultiply},
        {"or", HloOpcode::kOr},
        {"power", HloOpcode::kPower},
        {"remainder", HloOpcode::kRemainder},
        {"shift_left", HloOpcode::kShiftLeft},
        {"shift_right_arithmetic", HloOpcode::kShiftRightArithmetic},
        {"shift_right_logical", HloOpcode::kShiftRightLogical},
        {"subtract", HloOpcode::kSubtract},
        {"xor", HloOpcode::kXor},
    };
    for (const auto& [name, opcode] : binary) m[absl::StrCat("stablehlo.", name)] = Binary(opcode);
    m["stablehlo.maximum"] = MinMax(HloOpcode::kMaximum);
    m["stablehlo.minimum"] = MinMax(HloOpcode::kMinimum);
    m["stablehlo.select"] = Nary(HloOpcode::kSelect, 3);
    m["stablehlo.clamp"] = Nary(HloOpcode::kClamp, 3);
    m["stablehlo.dynamic_update_slice"] = [](ComputationBuilder& b, const Operation& op,
                                              const Operands& ops, const Shapes& shapes) -> Results {
      SYSTOLIC_ASSIGN_OR_RETURN(Shape s, Single(b, op, shapes));
      return One(b.Add(HloInstruction::Create(HloOpcode::kDynamicUpdateSlice, s, ops), op));
    };
    m["stablehlo.compare"] = ConvertCompare;
    m["stablehlo.constant"] = ConvertConstant;
    m["stablehlo.iota"] = ConvertIota;
    m["stablehlo.broadcast_in_dim"] = ConvertBroadcastInDim;
    m["stablehlo.broadcast"] = ConvertBroadcast;
    m["stablehlo.transpose"] = ConvertTranspose;
    m["stablehlo.reverse"] = ConvertReverse;
    m["stablehlo.slice"] = ConvertSlice;
    m["stablehlo.dynamic_slice"] = ConvertDynamicSlice;
    m["stablehlo.concatenate"] = ConvertConcatenate;
    m["stablehlo.pad"] = ConvertPad;
    m["stablehlo.get_tuple_element"] = ConvertGetTupleElement;
    m["stablehlo.tuple"] = ConvertTuple;
    m["stablehlo.dot_general"] = ConvertDotGeneral;
    m["stablehlo.dot"] = ConvertDot;
    m["stablehlo.convolution"] = ConvertConvolution;
    m["stablehlo.reduce"] = ConvertReduce;
    m["stablehlo.reduce_window"] = ConvertReduceWindow;
    m["stablehlo.select_and_scatter"] = ConvertSelectAndScatter;
    m["stablehlo.gather"] = ConvertGather;
    m["stablehlo.scatter"] = ConvertScatter;
    m["stablehlo.sort"] = ConvertSort;
    m["stablehlo.map"] = ConvertMap;
    m["stablehlo.while"] = ConvertWhile;
    m["stablehlo.if"] = ConvertConditional;
    m["stablehlo.case"] = ConvertConditional;
    m["func.call"] = ConvertCall;
    m["stablehlo.composite"] = ConvertCall;
    m["stablehlo.all_reduce"] = ConvertAllReduce;
    m["stablehlo.all_gather"] = ConvertAllGather;
    m["stablehlo.reduce_scatter"] = ConvertReduceScatter;
    m["stablehlo.all_to_all"] = ConvertAllToAll;
    m["stablehlo.collective_permute"] = ConvertCollectivePermute;
    m["stablehlo.collective_broadcast"] = ConvertCollectiveBroadcast;
    m["stablehlo.replica_id"] = [](ComputationBuilder& b, const Operation& op, const Operands&,
                                   const Shapes&) { return ConvertIdOp(HloOpcode::kReplicaId, b, op); };
    m["stablehlo.partition_id"] = [](ComputationBuilder& b, const Operation& op, const Operands&,
                                      const Shapes&) {
      return ConvertIdOp(HloOpcode::kPartitionId, b, op);
    };
    m["stablehlo.optimization_barrier"] = ConvertOptimizationBarrier;
    m["stablehlo.rng_bit_generator"] = ConvertRngBitGenerator;
    m["stablehlo.rng"] = ConvertRng;
    m["stablehlo.batch_norm_training"] = BatchNorm(HloOpcode::kBatchNormTraining);
    m["stablehlo.batch_norm_inference"] = BatchNorm(HloOpcode::kBatchNormInference);
    m["stablehlo.batch_norm_grad"] = BatchNorm(HloOpcode::kBatchNormGrad);
    m["stablehlo.reduce_precision"] = ConvertReducePrecision;
    m["stablehlo.cholesky"] = ConvertCholesky;
    m["stablehlo.triangular_solve"] = ConvertTriangularSolve;
    m["stablehlo.fft"] = ConvertFft;
    m["stablehlo.get_dimension_size"] = ConvertGetDimensionSize;
    m["stablehlo.after_all"] = ConvertAfterAll;
    m["stablehlo.create_token"] = ConvertAfterAll;
    m["stablehlo.custom_call"] = ConvertCustomCall;
    for (const char* dynamic : {"dynamic_conv", "dynamic_gather", "dynamic_pad", "real_dynamic_slice"}) {
      m[absl::StrCat("stablehlo.", dynamic)] = ConvertRealDynamicUnsupported;
    }
    AddDynamicShapeConverters(&m);
    AddBitcastConvertConverter(&m);
    AddQuantizedConverters(&m);
    m["stablehlo.square"] = ChloElementwise(EmitSquare);
    AddChloConverters(&m);
    AddCheckConverters(&m);
    return t;
  }();
  return *table;
}

}  // namespace

const OpConverter* FindOpConverter(absl::string_view op_name) {
  const auto& table = Converters();
  auto it = table.find(std::string(op_name));
  return it == table.end() ? nullptr : &it->second;
}

std::vector<std::string> SupportedOpNames() {
  std::vector<std::string> names;
  for (const auto& [name, converter] : Converters()) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace systolic::stablehlo
