#include "core/stablehlo/mlir_parser.h"

#include <cctype>
#include <cmath>
#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/hlo/hlo_lexer.h"
#include "core/hlo/host_memory.h"
#include "core/hlo/status_macros.h"

namespace systolic::mlir {
namespace {

using Location = HloLexer::Location;

SourceLocation ToSource(const Location& l) { return {l.line, l.column}; }

bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' ||
         c == '-';
}

// Element types of MLIR builtin and StableHLO types.
absl::StatusOr<PrimitiveType> ElementTypeFromName(absl::string_view name) {
  static const auto* table = new absl::flat_hash_map<std::string, PrimitiveType>{
      {"i1", PRED},           {"i2", S2},        {"i4", S4},         {"i8", S8},
      {"i16", S16},           {"i32", S32},      {"i64", S64},       {"si2", S2},
      {"si4", S4},            {"si8", S8},       {"si16", S16},      {"si32", S32},
      {"si64", S64},          {"ui2", U2},       {"ui4", U4},        {"ui8", U8},
      {"ui16", U16},          {"ui32", U32},     {"ui64", U64},      {"f16", F16},
      {"bf16", BF16},         {"f32", F32},      {"f64", F64},       {"index", S64},
      {"f8E5M2", F8E5M2},     {"f8E4M3", F8E4M3}, {"f8E4M3FN", F8E4M3FN},
      {"f8E4M3FNUZ", F8E4M3FNUZ}, {"f8E5M2FNUZ", F8E5M2FNUZ},
      {"f8E4M3B11FNUZ", F8E4M3B11FNUZ}, {"f8E3M4", F8E3M4}, {"f8E8M0FNU", F8E8M0FNU},
      {"f4E2M1FN", F4E2M1FN}, {"f6E2M3FN", F6E2M3FN}, {"f6E3M2FN", F6E3M2FN},
      {"complex<f32>", C64},  {"complex<f64>", C128},
  };
  auto it = table->find(std::string(name));
  if (it == table->end()) {
    return absl::InvalidArgumentError(absl::StrCat("unknown element type '", name, "'"));
  }
  return it->second;
}

class MlirParser {
 public:
  MlirParser(absl::string_view text, const ParseOptions& options)
      : lex_(text, options.filename, options.first_line) {}

  absl::StatusOr<Module> Parse();

 private:
  absl::Status ParseModuleBody(Module* module, bool braced);
  absl::Status ParseFunction(Function* function);
  absl::Status ParseMesh(Module* module);
  // The generic forms: "builtin.module"() ({...}) and "func.func"() <{...}> ({...}).
  absl::Status ParseGenericTopLevel(Module* module);
  absl::Status AddGenericFunction(Operation& op, Module* module);
  absl::Status ParseRegion(Region* region, const std::vector<std::string>& entry_names = {},
                           const std::vector<Type>& entry_types = {});
  absl::Status ParseOperation(Operation* op);
  absl::Status ParseGenericOperation(Operation* op);
  absl::Status ParsePrettyOperation(Operation* op);
  absl::Status ParsePrettyDefault(Operation* op);
  // Whether the text ahead is the result names of an operation: `%x =`,
  // `%x:2 =` or `%a, %b =`.
  bool LooksAtResultNames();
  absl::Status ParsePrettyReduce(Operation* op);
  absl::Status ParsePrettyWhile(Operation* op);
  absl::Status ParsePrettyConvolution(Operation* op);
  absl::Status ParsePrettyCall(Operation* op, absl::string_view callee_attribute);
  absl::Status ParseResultTypes(Operation* op);
  absl::Status ParseOptionalLocation(Operation* op);
  void ApplyLocation(absl::string_view loc_text, Operation* op, int depth);
  void ResolveLocations(Region* region);

  absl::StatusOr<Type> ParseType();
  absl::StatusOr<Type> ParseTensorType(const Location& where);
  // `typed`: a number may carry a `: type` suffix (not in pretty keyword values,
  // where the colon starts the operation's types).
  absl::StatusOr<Attribute> ParseAttribute(bool typed = true);
  absl::StatusOr<Attribute> ParseHashAttribute();
  absl::Status ParseAttributeDictionary(AttributeList* out);
  absl::StatusOr<ValueRef> ParseValueRef();
  absl::StatusOr<std::string> ParseSymbol();
  absl::StatusOr<std::string> ParseBalanced(char open, char close, absl::string_view what);
  absl::StatusOr<std::vector<Attribute>> ParseAttributeList(char close);
  absl::StatusOr<std::vector<std::pair<std::string, Type>>> ParseArgumentList();

  HloLexer lex_;
  absl::flat_hash_map<std::string, std::string> location_aliases_;
};

absl::StatusOr<Module> MlirParser::Parse() {
  Module module;
  while (!lex_.AtEnd()) {
    if (lex_.Peek() == '#') {
      // Attribute alias: `#loc1 = loc("f.py":3:4)`.
      Location where = lex_.location();
      lex_.TryConsume('#');
      SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view alias, lex_.ParseName("an alias name"));
      std::string name(alias);
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after an attribute alias"));
      if (lex_.LooksAtKeyword("loc")) {
        lex_.TryConsumeKeyword("loc");
        SYSTOLIC_ASSIGN_OR_RETURN(std::string text, ParseBalanced('(', ')', "a location"));
        location_aliases_[name] = text;
      } else {
        auto value = ParseAttribute();
        if (!value.ok()) return lex_.Error(where, value.status().message());
      }
      continue;
    }
    if (lex_.TryConsumeKeyword("module")) {
      if (lex_.Peek() == '@') {
        SYSTOLIC_ASSIGN_OR_RETURN(module.name, ParseSymbol());
      }
      if (lex_.TryConsumeKeyword("attributes")) {
        SYSTOLIC_RETURN_IF_ERROR(ParseAttributeDictionary(&module.attributes));
      }
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open the module"));
      SYSTOLIC_RETURN_IF_ERROR(ParseModuleBody(&module, /*braced=*/true));
      if (lex_.LooksAtKeyword("loc")) {
        lex_.TryConsumeKeyword("loc");
        SYSTOLIC_RETURN_IF_ERROR(ParseBalanced('(', ')', "a location").status());
      }
      continue;
    }
    SYSTOLIC_RETURN_IF_ERROR(ParseModuleBody(&module, /*braced=*/false));
  }
  if (module.functions.empty()) return lex_.ErrorHere("the program has no function");
  for (Function& f : module.functions) ResolveLocations(&f.body);
  return module;
}

absl::Status MlirParser::ParseModuleBody(Module* module, bool braced) {
  while (true) {
    if (lex_.AtEnd()) {
      if (braced) return lex_.ErrorHere("the module is not closed by '}'");
      return absl::OkStatus();
    }
    if (braced && lex_.TryConsume('}')) return absl::OkStatus();
    if (!braced && (lex_.LooksAtKeyword("module") || lex_.Peek() == '#')) {
      return absl::OkStatus();
    }
    if (lex_.LooksAtKeyword("func.func") || lex_.LooksAtKeyword("func")) {
      Function f;
      SYSTOLIC_RETURN_IF_ERROR(ParseFunction(&f));
      if (module->FindFunction(f.name)) {
        return lex_.Error({0, f.where.line, f.where.column},
                          absl::StrCat("function @", f.name, " is defined twice"));
      }
      module->functions.push_back(std::move(f));
      continue;
    }
    if (lex_.LooksAtKeyword("sdy.mesh")) {
      SYSTOLIC_RETURN_IF_ERROR(ParseMesh(module));
      continue;
    }
    if (lex_.Peek() == '"') {
      SYSTOLIC_RETURN_IF_ERROR(ParseGenericTopLevel(module));
      continue;
    }
    return lex_.ErrorHere("expected func.func, sdy.mesh or the end of the module");
  }
}

absl::Status MlirParser::ParseGenericTopLevel(Module* module) {
  Location where = lex_.location();
  Operation op;
  SYSTOLIC_RETURN_IF_ERROR(ParseOperation(&op));
  if (op.name == "func.func") return AddGenericFunction(op, module);
  if (op.name != "builtin.module") {
    return lex_.Error(where, absl::StrCat("expected a function or a module, not \"", op.name, "\""));
  }
  if (const Attribute* name = op.Attr("sym_name"); name && name->kind == Attribute::Kind::kString) {
    module->name = name->text;
  }
  for (auto& [key, value] : op.attributes) {
    if (key != "sym_name") module->attributes.push_back({key, value});
  }
  if (op.regions.size() != 1 || op.regions[0].blocks.size() != 1) {
    return lex_.Error(where, "a module has one region of one block");
  }
  for (Operation& inner : op.regions[0].blocks[0].operations) {
    if (inner.name == "func.func") {
      SYSTOLIC_RETURN_IF_ERROR(AddGenericFunction(inner, module));
    } else if (inner.name != "sdy.mesh") {
      return lex_.Error({0, inner.where.line, inner.where.column},
                        absl::StrCat("expected a function in the module, not \"", inner.name, "\""));
    }
  }
  return absl::OkStatus();
}

// A function from its generic operation: its name, type and visibility are
// attributes, its arguments the entry block's.
absl::Status MlirParser::AddGenericFunction(Operation& op, Module* module) {
  const Location where{0, op.where.line, op.where.column};
  const Attribute* name = op.Attr("sym_name");
  const Attribute* type = op.Attr("function_type");
  if (name == nullptr || name->kind != Attribute::Kind::kString || type == nullptr ||
      type->kind != Attribute::Kind::kType || !type->type || type->type->kind != Type::Kind::kFunction) {
    return lex_.Error(where, "a generic func.func needs sym_name and function_type");
  }
  if (op.regions.size() != 1 || op.regions[0].blocks.empty()) {
    return lex_.Error(where, absl::StrCat("@", name->text, " has no body"));
  }
  Function f;
  f.name = name->text;
  f.where = op.where;
  f.visibility = "public";
  if (const Attribute* v = op.Attr("sym_visibility"); v && v->kind == Attribute::Kind::kString) {
    f.visibility = v->text;
  }
  const Block& entry = op.regions[0].blocks[0];
  if (entry.argument_types.size() != type->type->elements.size()) {
    return lex_.Error(where, absl::StrCat("@", f.name, " takes ", type->type->elements.size(),
                                          " arguments but its block has ", entry.argument_types.size()));
  }
  f.argument_names = entry.argument_names;
  f.argument_types = type->type->elements;
  f.argument_attributes.resize(f.argument_types.size());
  f.result_types = type->type->results;
  f.result_attributes.resize(f.result_types.size());
  for (auto& [key, value] : op.attributes) {
    if (key != "sym_name" && key != "function_type" && key != "sym_visibility") f.attributes.push_back({key, value});
  }
  f.body = std::move(op.regions[0]);
  if (module->FindFunction(f.name)) {
    return lex_.Error(where, absl::StrCat("function @", f.name, " is defined twice"));
  }
  module->functions.push_back(std::move(f));
  return absl::OkStatus();
}

absl::Status MlirParser::ParseMesh(Module* module) {
  lex_.TryConsumeKeyword("sdy.mesh");
  SYSTOLIC_ASSIGN_OR_RETURN(std::string name, ParseSymbol());
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after the mesh name"));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('<', "to open the mesh"));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('[', "to open the mesh axes"));
  std::vector<std::pair<std::string, int64_t>> axes;
  if (!lex_.TryConsume(']')) {
    do {
      SYSTOLIC_ASSIGN_OR_RETURN(std::string axis, lex_.ParseString("a mesh axis name"));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after a mesh axis name"));
      SYSTOLIC_ASSIGN_OR_RETURN(int64_t size, lex_.ParseInt("a mesh axis size"));
      axes.push_back({axis, size});
    } while (lex_.TryConsume(','));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(']', "to close the mesh axes"));
  }
  // Optional device ids: `, device_ids=[...]`.
  if (lex_.TryConsume(',')) SYSTOLIC_RETURN_IF_ERROR(ParseBalanced('[', ']', "device ids").status());
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('>', "to close the mesh"));
  module->meshes.push_back({name, std::move(axes)});
  return absl::OkStatus();
}

absl::Status MlirParser::ParseFunction(Function* f) {
  Location where = lex_.location();
  if (!lex_.TryConsumeKeyword("func.func")) lex_.TryConsumeKeyword("func");
  f->where = ToSource(where);
  f->visibility = "public";
  for (const char* v : {"public", "private", "nested"}) {
    if (lex_.TryConsumeKeyword(v)) f->visibility = v;
  }
  SYSTOLIC_ASSIGN_OR_RETURN(f->name, ParseSymbol());
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "to open the function arguments"));
  if (!lex_.TryConsume(')')) {
    do {
      SYSTOLIC_ASSIGN_OR_RETURN(ValueRef arg, ParseValueRef());
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(':', "after an argument name"));
      SYSTOLIC_ASSIGN_OR_RETURN(Type type, ParseType());
      AttributeList attrs;
      if (lex_.Peek() == '{') SYSTOLIC_RETURN_IF_ERROR(ParseAttributeDictionary(&attrs));
      if (lex_.LooksAtKeyword("loc")) {
        lex_.TryConsumeKeyword("loc");
        SYSTOLIC_RETURN_IF_ERROR(ParseBalanced('(', ')', "a location").status());
      }
      f->argument_names.push_back(arg.name);
      f->argument_types.push_back(std::move(type));
      f->argument_attributes.push_back(std::move(attrs));
    } while (lex_.TryConsume(','));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close the function arguments"));
  }
  if (lex_.TryConsume("->")) {
    // Result attributes appear only inside parentheses: -> (T {attrs}).
    auto parse_result = [&](bool parenthesized) -> absl::Status {
      SYSTOLIC_ASSIGN_OR_RETURN(Type type, ParseType());
      AttributeList attrs;
      if (parenthesized && lex_.Peek() == '{') {
        SYSTOLIC_RETURN_IF_ERROR(ParseAttributeDictionary(&attrs));
      }
      f->result_types.push_back(std::move(type));
      f->result_attributes.push_back(std::move(attrs));
      return absl::OkStatus();
    };
    if (lex_.TryConsume('(')) {
      if (!lex_.TryConsume(')')) {
        do {
          SYSTOLIC_RETURN_IF_ERROR(parse_result(true));
        } while (lex_.TryConsume(','));
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close the function results"));
      }
    } else {
      SYSTOLIC_RETURN_IF_ERROR(parse_result(false));
    }
  }
  if (lex_.TryConsumeKeyword("attributes")) {
    SYSTOLIC_RETURN_IF_ERROR(ParseAttributeDictionary(&f->attributes));
  }
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', absl::StrCat("to open the body of @", f->name)));
  SYSTOLIC_RETURN_IF_ERROR(ParseRegion(&f->body, f->argument_names, f->argument_types));
  if (lex_.LooksAtKeyword("loc")) {
    lex_.TryConsumeKeyword("loc");
    SYSTOLIC_RETURN_IF_ERROR(ParseBalanced('(', ')', "a location").status());
  }
  return absl::OkStatus();
}

// After the '{': blocks of operations until the matching '}'.
absl::Status MlirParser::ParseRegion(Region* region, const std::vector<std::string>& entry_names,
                                     const std::vector<Type>& entry_types) {
  Location open = lex_.location();
  region->blocks.emplace_back();
  region->blocks.back().argument_names = entry_names;
  region->blocks.back().argument_types = entry_types;
  while (!lex_.TryConsume('}')) {
    if (lex_.AtEnd()) return lex_.Error(open, "region is not closed by '}'");
    if (lex_.Peek() == '^') {
      // Block label: ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      Location where = lex_.location();
      lex_.TryConsume('^');
      SYSTOLIC_RETURN_IF_ERROR(lex_.ParseName("a block label").status());
      Block* block = &region->blocks.back();
      if (!block->operations.empty()) {
        return lex_.Error(where, "regions with several blocks are not supported");
      }
      block->argument_names.clear();
      block->argument_types.clear();
      if (lex_.TryConsume('(')) {
        SYSTOLIC_ASSIGN_OR_RETURN(auto args, ParseArgumentList());
        for (auto& [name, type] : args) {
          block->argument_names.push_back(name);
          block->argument_types.push_back(std::move(type));
        }
      }
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(':', "after a block label"));
      continue;
    }
    Operation op;
    SYSTOLIC_RETURN_IF_ERROR(ParseOperation(&op));
    region->blocks.back().operations.push_back(std::move(op));
  }
  return absl::OkStatus();
}

// After '(': `%a: type, %b: type)`.
absl::StatusOr<std::vector<std::pair<std::string, Type>>> MlirParser::ParseArgumentList() {
  std::vector<std::pair<std::string, Type>> args;
  if (lex_.TryConsume(')')) return args;
  do {
    SYSTOLIC_ASSIGN_OR_RETURN(ValueRef v, ParseValueRef());
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(':', "after an argument name"));
    SYSTOLIC_ASSIGN_OR_RETURN(Type t, ParseType());
    if (lex_.LooksAtKeyword("loc")) {
      lex_.TryConsumeKeyword("loc");
      SYSTOLIC_RETURN_IF_ERROR(ParseBalanced('(', ')', "a location").status());
    }
    args.push_back({v.name, std::move(t)});
  } while (lex_.TryConsume(','));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close the arguments"));
  return args;
}

absl::Status MlirParser::ParseOperation(Operation* op) {
  Location where = lex_.location();
  op->where = ToSource(where);
  // Results: `%a, %b =` or `%a:2 =`.
  if (lex_.Peek() == '%') {
    do {
      SYSTOLIC_ASSIGN_OR_RETURN(ValueRef r, ParseValueRef());
      if (lex_.TryConsume(':')) {
        Location count_where = lex_.location();
        SYSTOLIC_ASSIGN_OR_RETURN(int64_t count, lex_.ParseInt("a result count"));
        if (count < 1 || count > 4096) return lex_.Error(count_where, "bad result count");
        for (int64_t i = 0; i < count; ++i) op->results.push_back(absl::StrCat(r.name, "#", i));
      } else {
        op->results.push_back(r.name);
      }
    } while (lex_.TryConsume(','));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after the results of an operation"));
  }
  if (lex_.Peek() == '"') {
    SYSTOLIC_ASSIGN_OR_RETURN(op->name, lex_.ParseString("an operation name"));
    SYSTOLIC_RETURN_IF_ERROR(ParseGenericOperation(op));
  } else {
    absl::string_view name = lex_.ScanWhile(IsIdentChar);
    if (name.empty()) return lex_.Error(where, "expected an operation");
    op->name = std::string(name);
    SYSTOLIC_RETURN_IF_ERROR(ParsePrettyOperation(op));
  }
  return ParseOptionalLocation(op);
}

absl::Status MlirParser::ParseGenericOperation(Operation* op) {
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "to open the operands"));
  if (!lex_.TryConsume(')')) {
    do {
      SYSTOLIC_ASSIGN_OR_RETURN(ValueRef v, ParseValueRef());
      op->operands.push_back(std::move(v));
    } while (lex_.TryConsume(','));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close the operands"));
  }
  // Properties: <{dimension = 0 : i64}>
  if (lex_.Peek() == '<' && lex_.PeekAt(1) == '{') {
    lex_.TryConsume('<');
    SYSTOLIC_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('>', "to close the properties"));
  }
  if (lex_.Peek() == '(' && lex_.PeekAt(1) == '{') {
    lex_.TryConsume('(');
    do {
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open a region"));
      op->regions.emplace_back();
      SYSTOLIC_RETURN_IF_ERROR(ParseRegion(&op->regions.back()));
    } while (lex_.TryConsume(','));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close the regions"));
  }
  if (lex_.Peek() == '{') SYSTOLIC_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(':', "before the type of a generic operation"));
  SYSTOLIC_ASSIGN_OR_RETURN(Type type, ParseType());
  if (type.kind != Type::Kind::kFunction) {
    return lex_.ErrorHere("a generic operation needs a function type (operands) -> results");
  }
  op->result_types = std::move(type.results);
  return absl::OkStatus();
}

absl::Status MlirParser::ParsePrettyOperation(Operation* op) {
  const std::string& name = op->name;
  if (name == "stablehlo.reduce") return ParsePrettyReduce(op);
  if (name == "stablehlo.while") return ParsePrettyWhile(op);
  if (name == "stablehlo.convolution") return ParsePrettyConvolution(op);
  if (name == "stablehlo.custom_call") return ParsePrettyCall(op, "call_target_name");
  if (name == "call" || name == "func.call") {
    op->name = "func.call";
    return ParsePrettyCall(op, "callee");
  }
  if (name == "return" || name == "func.return" || name == "stablehlo.return") {
    if (name == "return") op->name = "func.return";
    if (lex_.Peek() == '%') {
      do {
        SYSTOLIC_ASSIGN_OR_RETURN(ValueRef v, ParseValueRef());
        op->operands.push_back(std::move(v));
      } while (lex_.TryConsume(','));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(':', "before the returned types"));
      do {
        SYSTOLIC_RETURN_IF_ERROR(ParseType().status());
      } while (lex_.TryConsume(','));
    }
    return absl::OkStatus();
  }
  if (name == "stablehlo.constant") {
    if (lex_.Peek() == '{') SYSTOLIC_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
    SYSTOLIC_ASSIGN_OR_RETURN(Attribute value, ParseAttribute());
    if (value.kind != Attribute::Kind::kDense) {
      return lex_.ErrorHere("stablehlo.constant needs a dense<...> : tensor<...> value");
    }
    op->result_types.push_back(*value.type);
    op->attributes.push_back({"value", std::move(value)});
    return absl::OkStatus();
  }
  return ParsePrettyDefault(op);
}

bool MlirParser::LooksAtResultNames() {
  size_t k = 0;
  while (lex_.PeekAt(k) == '%') {
    ++k;
    while (IsIdentChar(lex_.PeekAt(k)) || lex_.PeekAt(k) == ':' || lex_.PeekAt(k) == '#') ++k;
    while (lex_.PeekAt(k) == ' ' || lex_.PeekAt(k) == '\t') ++k;
    if (lex_.PeekAt(k) == '=') return lex_.PeekAt(k + 1) != '=';
    if (lex_.PeekAt(k) != ',') return false;
    ++k;
    while (lex_.PeekAt(k) == ' ' || lex_.PeekAt(k) == '\t') ++k;
  }
  return false;
}

// Operands, positional words, `key = value` attributes, an optional
// attribute dictionary and the trailing types, as most ops print.
absl::Status MlirParser::ParsePrettyDefault(Operation* op) {
  int words = 0;
  bool first = true;
  // CHLO's call-like form: chlo.top_k(%x, k = 2).
  bool parenthesized = lex_.Peek() == '(' && lex_.PeekAt(1) == '%';
  if (parenthesized) lex_.TryConsume('(');
  while (true) {
    char c = lex_.Peek();
    if (parenthesized && c == ')') {
      lex_.TryConsume(')');
      parenthesized = false;
      continue;
    }
    if (c == ':' || c == '\0' || c == '}') break;
    if (c == '{') {
      SYSTOLIC_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
      continue;
    }
    if (!first && c == ',') {
      lex_.TryConsume(',');
      continue;
    }
    first = false;
    Location where = lex_.location();
    if (c == '%') {
      // `%r = ...` (or `%a, %b = ...`) starts the next operation: an op
      // without results, such as a check, ends at its last operand or
      // typed attribute.
      if (LooksAtResultNames()) break;
      // A following `[...]` belongs to the operand: an index or slice ranges.
      SYSTOLIC_ASSIGN_OR_RETURN(ValueRef v, ParseValueRef());
      op->operands.push_back(std::move(v));
      if (lex_.Peek() == '[') {
        SYSTOLIC_ASSIGN_OR_RETURN(std::string ranges, ParseBalanced('[', ']', "an index"));
        Attribute a;
        a.kind = Attribute::Kind::kString;
        a.text = ranges;
        a.where = ToSource(where);
        op->attributes.push_back({"_brackets", std::move(a)});
      }
      continue;
    }
    if (c == '[') {
      SYSTOLIC_ASSIGN_OR_RETURN(std::string ranges, ParseBalanced('[', ']', "slice ranges"));
      Attribute a;
      a.kind = Attribute::Kind::kString;
      a.text = ranges;
      a.where = ToSource(where);
      op->attributes.push_back({"_brackets", std::move(a)});
      continue;
    }
    if (c == '"') {
      SYSTOLIC_ASSIGN_OR_RETURN(std::string s, lex_.ParseString("a string"));
      Attribute a;
      a.kind = Attribute::Kind::kString;
      a.text = s;
      op->attributes.push_back({absl::StrCat("_word", words++), std::move(a)});
      continue;
    }
    if (c == 'd' && lex_.LooksAtKeyword("dense")) {
      SYSTOLIC_ASSIGN_OR_RETURN(Attribute a, ParseAttribute());
      op->attributes.push_back({"value", std::move(a)});
      continue;
    }
    absl::string_view word = lex_.PeekIdentifier();
    if (word.empty()) {
      return lex_.ErrorHere(absl::StrCat("unexpected text in ", op->name));
    }
    // Keyword values never hold a dot; `dialect.op` starts the next
    // operation (an op without results, such as a check, ends at its last
    // operand or typed attribute).
    if (absl::StrContains(word, '.')) break;
    lex_.ParseIdentifier("a word").IgnoreError();
    if (lex_.TryConsume('=')) {
      SYSTOLIC_ASSIGN_OR_RETURN(Attribute value, ParseAttribute(/*typed=*/false));
      // `[0] x [1]` pairs of dimension lists.
      if (value.kind == Attribute::Kind::kArray && lex_.LooksAtKeyword("x")) {
        lex_.TryConsumeKeyword("x");
        SYSTOLIC_ASSIGN_OR_RETURN(Attribute rhs, ParseAttribute());
        Attribute pair;
        pair.kind = Attribute::Kind::kPairs;
        pair.elements = {std::move(value), std::move(rhs)};
        value = std::move(pair);
      }
      value.where = ToSource(where);
      op->attributes.push_back({std::string(word), std::move(value)});
    } else {
      Attribute a;
      a.kind = Attribute::Kind::kEnum;
      a.text = std::string(word);
      a.where = ToSource(where);
      op->attributes.push_back({absl::StrCat("_word", words++), std::move(a)});
    }
  }
  if (lex_.TryConsume(':')) return ParseResultTypes(op);
  return absl::OkStatus();
}

// `: T`, `: A, B` (the last ones are the results), `: (A, B) -> R`, or
// `: A -> R` (CHLO's short form: operand types, then the results').
absl::Status MlirParser::ParseResultTypes(Operation* op) {
  std::vector<Type> types;
  do {
    SYSTOLIC_ASSIGN_OR_RETURN(Type t, ParseType());
    types.push_back(std::move(t));
  } while (lex_.TryConsume(','));
  if (lex_.TryConsume("->")) {
    types.clear();
    // Several results are parenthesized: `-> (A, B)`.
    const bool listed = lex_.TryConsume('(');
    do {
      SYSTOLIC_ASSIGN_OR_RETURN(Type t, ParseType());
      types.push_back(std::move(t));
    } while (lex_.TryConsume(','));
    if (listed) SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close the result types"));
  }
  if (types.size() == 1 && types[0].kind == Type::Kind::kFunction) {
    op->result_types = std::move(types[0].results);
    return absl::OkStatus();
  }
  size_t n = std::max<size_t>(1, op->results.size());
  if (op->results.empty()) return absl::OkStatus();
  if (types.size() < n) return lex_.ErrorHere("fewer types than results");
  op->result_types.assign(types.end() - n, types.end());
  return absl::OkStatus();
}

// stablehlo.reduce(%a init: %b), (%c init: %d) applies stablehlo.add across dimensions = [1] : T
// or ... across dimensions = [1] : (..) -> (..) reducer(%x: t, %y: t) (%z: t, %w: t) { ... }
absl::Status MlirParser::ParsePrettyReduce(Operation* op) {
  std::vector<ValueRef> inputs, inits;
  do {
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "before a reduce input"));
    SYSTOLIC_ASSIGN_OR_RETURN(ValueRef input, ParseValueRef());
    if (!lex_.TryConsumeKeyword("init")) return lex_.ErrorHere("expected 'init:' in stablehlo.reduce");
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(':', "after init"));
    SYSTOLIC_ASSIGN_OR_RETURN(ValueRef init, ParseValueRef());
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "after a reduce input"));
    inputs.push_back(std::move(input));
    inits.push_back(std::move(init));
  } while (lex_.TryConsume(','));
  op->operands = inputs;
  op->operands.insert(op->operands.end(), inits.begin(), inits.end());
  std::string applied;
  if (lex_.TryConsumeKeyword("applies")) {
    absl::string_view name = lex_.ScanWhile(IsIdentChar);
    if (name.empty()) return lex_.ErrorHere("expected the applied operation");
    applied = std::string(name);
  }
  if (!lex_.TryConsumeKeyword("across")) return lex_.ErrorHere("expected 'across dimensions ='");
  if (!lex_.TryConsumeKeyword("dimensions")) return lex_.ErrorHere("expected 'dimensions ='");
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after dimensions"));
  SYSTOLIC_ASSIGN_OR_RETURN(Attribute dims, ParseAttribute(/*typed=*/false));
  op->attributes.push_back({"dimensions", std::move(dims)});
  if (lex_.Peek() == '{') SYSTOLIC_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(':', "before the reduce types"));
  SYSTOLIC_RETURN_IF_ERROR(ParseResultTypes(op));
  op->regions.emplace_back();
  Block& block = op->regions.back().blocks.emplace_back();
  size_t n = inputs.size();
  if (!applied.empty()) {
    // A region applying one binary op per input: (acc..., x...) -> op(acc_i, x_i).
    if (op->result_types.size() != n) return lex_.ErrorHere("reduce result count mismatch");
    Operation ret;
    ret.name = "stablehlo.return";
    for (size_t i = 0; i < n; ++i) {
      Type scalar = op->result_types[i];
      scalar.dimensions.clear();
      scalar.bounds.clear();
      block.argument_names.push_back(absl::StrCat("acc", i));
      block.argument_types.push_back(scalar);
    }
    for (size_t i = 0; i < n; ++i) {
      block.argument_names.push_back(absl::StrCat("x", i));
      block.argument_types.push_back(block.argument_types[i]);
    }
    for (size_t i = 0; i < n; ++i) {
      Operation apply;
      apply.name = applied;
      apply.results = {absl::StrCat("r", i)};
      apply.operands = {{absl::StrCat("acc", i), -1, {}}, {absl::StrCat("x", i), -1, {}}};
      apply.result_types = {block.argument_types[i]};
      apply.where = op->where;
      block.operations.push_back(std::move(apply));
      ret.operands.push_back({absl::StrCat("r", i), -1, {}});
    }
    block.operations.push_back(std::move(ret));
    return absl::OkStatus();
  }
  if (!lex_.TryConsumeKeyword("reducer")) return lex_.ErrorHere("expected 'applies' or 'reducer'");
  // reducer(%acc0: t, %x0: t) (%acc1: t, %x1: t) { ... }: one group per input.
  std::vector<std::vector<std::pair<std::string, Type>>> groups;
  while (lex_.TryConsume('(')) {
    SYSTOLIC_ASSIGN_OR_RETURN(auto group, ParseArgumentList());
    if (group.size() != 2) return lex_.ErrorHere("each reducer group takes two arguments");
    groups.push_back(std::move(group));
  }
  for (int half = 0; half < 2; ++half) {
    for (auto& group : groups) {
      block.argument_names.push_back(group[half].first);
      block.argument_types.push_back(group[half].second);
    }
  }
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open the reducer"));
  Region body;
  SYSTOLIC_RETURN_IF_ERROR(ParseRegion(&body, block.argument_names, block.argument_types));
  op->regions.back() = std::move(body);
  return absl::OkStatus();
}

// stablehlo.while(%a = %init, ...) : T, ... cond { ... } do { ... }
absl::Status MlirParser::ParsePrettyWhile(Operation* op) {
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "to open the loop variables"));
  std::vector<std::string> names;
  if (!lex_.TryConsume(')')) {
    do {
      SYSTOLIC_ASSIGN_OR_RETURN(ValueRef var, ParseValueRef());
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after a loop variable"));
      SYSTOLIC_ASSIGN_OR_RETURN(ValueRef init, ParseValueRef());
      names.push_back(var.name);
      op->operands.push_back(std::move(init));
    } while (lex_.TryConsume(','));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close the loop variables"));
  }
  if (lex_.Peek() == '{') SYSTOLIC_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(':', "before the loop types"));
  std::vector<Type> types;
  do {
    SYSTOLIC_ASSIGN_OR_RETURN(Type t, ParseType());
    types.push_back(std::move(t));
  } while (lex_.TryConsume(','));
  if (types.size() != names.size()) return lex_.ErrorHere("while: one type per loop variable");
  op->result_types = types;
  for (const char* part : {"cond", "do"}) {
    if (!lex_.TryConsumeKeyword(part)) {
      return lex_.ErrorHere(absl::StrCat("expected '", part, "' in stablehlo.while"));
    }
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open a while region"));
    op->regions.emplace_back();
    SYSTOLIC_RETURN_IF_ERROR(ParseRegion(&op->regions.back(), names, types));
  }
  return absl::OkStatus();
}

// stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
//   window = {stride = [..], pad = [[..], ..], lhs_dilate = [..], rhs_dilate = [..], reverse = [..]}
//   {attrs} : (..) -> ..
absl::Status MlirParser::ParsePrettyConvolution(Operation* op) {
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "to open the convolution operands"));
  do {
    SYSTOLIC_ASSIGN_OR_RETURN(ValueRef v, ParseValueRef());
    op->operands.push_back(std::move(v));
  } while (lex_.TryConsume(','));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close the convolution operands"));
  while (lex_.PeekIdentifier() == "dim_numbers" || lex_.PeekIdentifier() == "window") {
    Location where = lex_.location();
    std::string key(lex_.PeekIdentifier());
    lex_.ParseIdentifier("a convolution attribute").IgnoreError();
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after a convolution attribute"));
    Attribute a;
    a.where = ToSource(where);
    if (key == "dim_numbers") {
      std::string text;
      for (int part = 0; part < 3; ++part) {
        if (part == 1 && !lex_.TryConsumeKeyword("x")) {
          // `]x[` may lex as part of the next bracket group.
          if (!lex_.TryConsume('x')) return lex_.ErrorHere("expected 'x' in dim_numbers");
        }
        if (part == 2 && !lex_.TryConsume("->")) return lex_.ErrorHere("expected '->' in dim_numbers");
        SYSTOLIC_ASSIGN_OR_RETURN(std::string group, ParseBalanced('[', ']', "dim_numbers"));
        absl::StrAppend(&text, part == 0 ? "" : (part == 1 ? "x" : "->"), "[", group, "]");
      }
      a.kind = Attribute::Kind::kString;
      a.text = text;
    } else {
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open the window"));
      a.kind = Attribute::Kind::kDictionary;
      while (!lex_.TryConsume('}')) {
        SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view field, lex_.ParseIdentifier("a window field"));
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after a window field"));
        SYSTOLIC_ASSIGN_OR_RETURN(Attribute value, ParseAttribute());
        a.fields.push_back({std::string(field), std::move(value)});
        lex_.TryConsume(',');
        if (lex_.AtEnd()) return lex_.Error(where, "window is not closed");
      }
    }
    op->attributes.push_back({key, std::move(a)});
    lex_.TryConsume(',');
  }
  if (lex_.Peek() == '{') SYSTOLIC_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(':', "before the convolution types"));
  return ParseResultTypes(op);
}

// stablehlo.custom_call @target(%a) {attrs} : (..) -> .. / call @f(%a) : (..) -> ..
absl::Status MlirParser::ParsePrettyCall(Operation* op, absl::string_view callee_attribute) {
  Location where = lex_.location();
  SYSTOLIC_ASSIGN_OR_RETURN(std::string callee, ParseSymbol());
  Attribute target;
  target.kind = Attribute::Kind::kSymbol;
  target.text = callee;
  target.where = ToSource(where);
  op->attributes.push_back({std::string(callee_attribute), std::move(target)});
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "to open the call operands"));
  if (!lex_.TryConsume(')')) {
    do {
      SYSTOLIC_ASSIGN_OR_RETURN(ValueRef v, ParseValueRef());
      op->operands.push_back(std::move(v));
    } while (lex_.TryConsume(','));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close the call operands"));
  }
  if (lex_.Peek() == '{') SYSTOLIC_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(':', "before the call types"));
  return ParseResultTypes(op);
}

absl::Status MlirParser::ParseOptionalLocation(Operation* op) {
  if (!lex_.LooksAtKeyword("loc")) return absl::OkStatus();
  lex_.TryConsumeKeyword("loc");
  // Aliases (#loc3) may be defined after their use; resolved at the end.
  SYSTOLIC_ASSIGN_OR_RETURN(op->raw_location, ParseBalanced('(', ')', "a location"));
  return absl::OkStatus();
}

void MlirParser::ResolveLocations(Region* region) {
  for (Block& block : region->blocks) {
    for (Operation& op : block.operations) {
      if (!op.raw_location.empty()) ApplyLocation(op.raw_location, &op, 0);
      for (Region& nested : op.regions) ResolveLocations(&nested);
    }
  }
}

// Takes the op name and source position from a location such as
// "jit(f)/add"("x.py":3:7) or #loc12 (an alias).
void MlirParser::ApplyLocation(absl::string_view text, Operation* op, int depth) {
  if (depth > 16) return;
  text = absl::StripAsciiWhitespace(text);
  if (absl::ConsumePrefix(&text, "#")) {
    auto it = location_aliases_.find(std::string(text));
    if (it != location_aliases_.end()) ApplyLocation(it->second, op, depth + 1);
    return;
  }
  if (absl::ConsumePrefix(&text, "callsite(")) text = text.substr(0, text.find(" at "));
  if (absl::ConsumePrefix(&text, "fused[")) {
    size_t end = text.find(']');
    if (end != absl::string_view::npos) text = text.substr(0, end);
    text = text.substr(0, text.find(','));
  }
  if (!absl::ConsumePrefix(&text, "\"")) return;
  size_t end = text.find('"');
  if (end == absl::string_view::npos) return;
  std::string first(text.substr(0, end));
  absl::string_view rest = text.substr(end + 1);
  if (absl::ConsumePrefix(&rest, ":")) {
    // "file":line:col
    std::vector<absl::string_view> parts = absl::StrSplit(rest, ':');
    int line = 0;
    if (!parts.empty() && absl::SimpleAtoi(parts[0], &line) && op->source_file.empty()) {
      op->source_file = first;
      op->source_line = line;
    }
    return;
  }
  if (op->location_name.empty()) op->location_name = first;
  if (absl::ConsumePrefix(&rest, "(")) {
    if (absl::EndsWith(rest, ")")) rest.remove_suffix(1);
    ApplyLocation(rest, op, depth + 1);
  }
}

absl::StatusOr<ValueRef> MlirParser::ParseValueRef() {
  Location where = lex_.location();
  if (!lex_.TryConsume('%')) return lex_.ErrorHere("expected a value such as %0");
  absl::string_view name = lex_.ScanWhile([](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' ||
           c == '-';
  });
  if (name.empty()) return lex_.Error(where, "expected a value name after '%'");
  ValueRef v;
  v.name = std::string(name);
  v.where = ToSource(where);
  if (lex_.PeekAt(0) == '#' && std::isdigit(static_cast<unsigned char>(lex_.PeekAt(1)))) {
    lex_.TryConsume('#');
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t index, lex_.ParseInt("a result index"));
    v.index = int(index);
  }
  return v;
}

absl::StatusOr<std::string> MlirParser::ParseSymbol() {
  if (!lex_.TryConsume('@')) return lex_.ErrorHere("expected a symbol such as @main");
  if (lex_.Peek() == '"') return lex_.ParseString("a symbol name");
  absl::string_view name = lex_.ScanWhile(IsIdentChar);
  if (name.empty()) return lex_.ErrorHere("expected a symbol name after '@'");
  std::string out(name);
  // Nested references @a::@b keep only the last part.
  while (lex_.TryConsume("::")) {
    lex_.TryConsume('@');
    out = std::string(lex_.ScanWhile(IsIdentChar));
  }
  return out;
}

// Raw text between balanced `open` and `close` (strings respected); the
// cursor starts at `open`.
absl::StatusOr<std::string> MlirParser::ParseBalanced(char open, char close,
                                                      absl::string_view what) {
  Location where = lex_.location();
  if (!lex_.TryConsume(open)) {
    return lex_.ErrorHere(absl::StrCat("expected '", std::string(1, open), "' for ", what));
  }
  int depth = 1;
  std::string out;
  bool in_string = false;
  char previous = open;
  while (true) {
    Location here = lex_.raw_location();
    absl::string_view chunk = lex_.ScanWhile([&](char c) {
      const char before = previous;
      previous = c;
      if (in_string) {
        if (c == '"') in_string = false;
        return true;
      }
      if (c == '"') {
        in_string = true;
        return true;
      }
      if (c == open) ++depth;
      // The arrow of `[b, 0, f]x[0, i, o]->[b, 0, f]` closes nothing.
      if (c == close && !(close == '>' && before == '-') && --depth == 0) return false;
      return c != '\n';
    });
    out += std::string(chunk);
    if (depth == 0) {
      lex_.TryConsume(close);
      return out;
    }
    if (lex_.AtEnd()) return lex_.Error(where, absl::StrCat("unbalanced ", what));
    out += ' ';  // a newline was skipped
    (void)here;
  }
}

absl::StatusOr<Type> MlirParser::ParseType() {
  Location where = lex_.location();
  char c = lex_.Peek();
  if (c == '(') {
    // Function type (A, B) -> R / (A) -> (R1, R2)
    lex_.TryConsume('(');
    Type f;
    f.kind = Type::Kind::kFunction;
    if (!lex_.TryConsume(')')) {
      do {
        SYSTOLIC_ASSIGN_OR_RETURN(Type t, ParseType());
        f.elements.push_back(std::move(t));
      } while (lex_.TryConsume(','));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close the argument types"));
    }
    if (!lex_.TryConsume("->")) return lex_.ErrorHere("expected '->' in a function type");
    if (lex_.TryConsume('(')) {
      if (!lex_.TryConsume(')')) {
        do {
          SYSTOLIC_ASSIGN_OR_RETURN(Type t, ParseType());
          f.results.push_back(std::move(t));
        } while (lex_.TryConsume(','));
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close the result types"));
      }
    } else {
      SYSTOLIC_ASSIGN_OR_RETURN(Type t, ParseType());
      f.results.push_back(std::move(t));
    }
    return f;
  }
  if (c == '!') {
    lex_.TryConsume('!');
    absl::string_view name = lex_.ScanWhile(IsIdentChar);
    Type t;
    t.text = absl::StrCat("!", name);
    if (name == "stablehlo.token" || name == "mhlo.token") {
      t.kind = Type::Kind::kToken;
      return t;
    }
    return lex_.Error(where, absl::StrCat("unsupported type !", name));
  }
  absl::string_view word = lex_.PeekIdentifier();
  if (word == "tensor") {
    lex_.ParseIdentifier("tensor").IgnoreError();
    return ParseTensorType(where);
  }
  if (word == "tuple") {
    lex_.ParseIdentifier("tuple").IgnoreError();
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('<', "after tuple"));
    Type t;
    t.kind = Type::Kind::kTuple;
    if (!lex_.TryConsume('>')) {
      do {
        SYSTOLIC_ASSIGN_OR_RETURN(Type e, ParseType());
        t.elements.push_back(std::move(e));
      } while (lex_.TryConsume(','));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('>', "to close the tuple type"));
    }
    t.text = "tuple<...>";
    return t;
  }
  if (word == "complex") {
    lex_.ParseIdentifier("complex").IgnoreError();
    SYSTOLIC_ASSIGN_OR_RETURN(std::string inner, ParseBalanced('<', '>', "a complex type"));
    Type t;
    t.kind = Type::Kind::kScalar;
    t.text = absl::StrCat("complex<", inner, ">");
    SYSTOLIC_ASSIGN_OR_RETURN(t.element_type, ElementTypeFromName(t.text));
    return t;
  }
  if (!word.empty()) {
    auto element = ElementTypeFromName(word);
    if (element.ok()) {
      lex_.ParseIdentifier("a type").IgnoreError();
      Type t;
      t.kind = Type::Kind::kScalar;
      t.element_type = *element;
      t.text = std::string(word);
      return t;
    }
    if (word == "none") {
      lex_.ParseIdentifier("none").IgnoreError();
      Type t;
      t.text = "none";
      return t;
    }
  }
  return lex_.ErrorHere("expected a type such as tensor<2x3xf32>");
}

// After `tensor`: <2x?x3xf32, #stablehlo.bounds<?, 4, ?>>
absl::StatusOr<Type> MlirParser::ParseTensorType(const Location& where) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::string body, ParseBalanced('<', '>', "a tensor type"));
  Type t;
  t.kind = Type::Kind::kTensor;
  t.text = absl::StrCat("tensor<", body, ">");
  absl::string_view rest = absl::StripAsciiWhitespace(body);
  std::string encoding;
  // Split off an encoding after the first top-level comma.
  int depth = 0;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '<') ++depth;
    if (rest[i] == '>') --depth;
    if (rest[i] == ',' && depth == 0) {
      encoding = std::string(absl::StripAsciiWhitespace(rest.substr(i + 1)));
      rest = rest.substr(0, i);
      break;
    }
  }
  while (!rest.empty() && (std::isdigit(static_cast<unsigned char>(rest[0])) || rest[0] == '?')) {
    size_t x = rest.find('x');
    if (x == absl::string_view::npos) return lex_.Error(where, absl::StrCat("bad tensor type ", t.text));
    absl::string_view dim = rest.substr(0, x);
    int64_t size;
    if (dim == "?") {
      size = -1;
    } else if (!absl::SimpleAtoi(dim, &size) || size < 0) {
      return lex_.Error(where, absl::StrCat("bad dimension '", dim, "' in ", t.text));
    }
    t.dimensions.push_back(size);
    rest = rest.substr(x + 1);
  }
  absl::string_view element_name = absl::StripAsciiWhitespace(rest);
  if (absl::ConsumePrefix(&element_name, "!quant.")) {
    absl::StatusOr<QuantType> quant = ParseQuantType(element_name);
    if (!quant.ok()) return lex_.Error(where, absl::StrCat(quant.status().message(), " in ", t.text));
    if (quant->per_axis() &&
        (quant->axis >= int64_t(t.dimensions.size()) ||
         (t.dimensions[size_t(quant->axis)] >= 0 &&
          int64_t(quant->scales.size()) != t.dimensions[size_t(quant->axis)]))) {
      return lex_.Error(where, absl::StrCat(t.text, ": ", quant->scales.size(),
                                            " scales do not match the size of the quantized axis ",
                                            quant->axis));
    }
    t.element_type = quant->storage;
    t.quant = std::make_shared<const QuantType>(*std::move(quant));
    return t;
  }
  auto element = ElementTypeFromName(element_name);
  if (!element.ok()) return lex_.Error(where, absl::StrCat(element.status().message(), " in ", t.text));
  t.element_type = *element;
  if (absl::StartsWith(encoding, "#stablehlo.bounds<") || absl::StartsWith(encoding, "#mhlo.type_extensions<")) {
    absl::string_view inner = encoding;
    inner = inner.substr(inner.find('<') + 1);
    inner = inner.substr(0, inner.rfind('>'));
    absl::ConsumePrefix(&inner, "bounds = [");
    absl::ConsumeSuffix(&inner, "]");
    for (absl::string_view b : absl::StrSplit(inner, ',')) {
      b = absl::StripAsciiWhitespace(b);
      int64_t bound = -1;
      if (b != "?" && !absl::SimpleAtoi(b, &bound)) {
        return lex_.Error(where, absl::StrCat("bad bound '", b, "' in ", t.text));
      }
      t.bounds.push_back(bound);
    }
  }
  return t;
}

absl::StatusOr<std::vector<Attribute>> MlirParser::ParseAttributeList(char close) {
  std::vector<Attribute> out;
  if (lex_.TryConsume(close)) return out;
  do {
    SYSTOLIC_ASSIGN_OR_RETURN(Attribute a, ParseAttribute());
    out.push_back(std::move(a));
  } while (lex_.TryConsume(','));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(close, "to close a list"));
  return out;
}

absl::Status MlirParser::ParseAttributeDictionary(AttributeList* out) {
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open an attribute dictionary"));
  if (lex_.TryConsume('}')) return absl::OkStatus();
  do {
    Location where = lex_.location();
    std::string key;
    if (lex_.Peek() == '"') {
      SYSTOLIC_ASSIGN_OR_RETURN(key, lex_.ParseString("an attribute name"));
    } else {
      absl::string_view k = lex_.ScanWhile(IsIdentChar);
      if (k.empty()) return lex_.ErrorHere("expected an attribute name");
      key = std::string(k);
    }
    Attribute value;  // unit when there is no `= value`
    if (lex_.TryConsume('=')) {
      SYSTOLIC_ASSIGN_OR_RETURN(value, ParseAttribute());
    }
    value.where = ToSource(where);
    out->push_back({std::move(key), std::move(value)});
  } while (lex_.TryConsume(','));
  return lex_.Expect('}', "to close an attribute dictionary");
}

absl::StatusOr<Attribute> MlirParser::ParseAttribute(bool typed) {
  Location where = lex_.location();
  Attribute a;
  a.where = ToSource(where);
  char c = lex_.Peek();
  if (c == '"') {
    a.kind = Attribute::Kind::kString;
    SYSTOLIC_ASSIGN_OR_RETURN(a.text, lex_.ParseString("a string attribute"));
    return a;
  }
  if (c == '@') {
    a.kind = Attribute::Kind::kSymbol;
    SYSTOLIC_ASSIGN_OR_RETURN(a.text, ParseSymbol());
    return a;
  }
  if (c == '[') {
    lex_.TryConsume('[');
    a.kind = Attribute::Kind::kArray;
    SYSTOLIC_ASSIGN_OR_RETURN(a.elements, ParseAttributeList(']'));
    return a;
  }
  if (c == '{') {
    a.kind = Attribute::Kind::kDictionary;
    SYSTOLIC_RETURN_IF_ERROR(ParseAttributeDictionary(&a.fields));
    return a;
  }
  if (c == '#') return ParseHashAttribute();
  if (c == '<') {
    // An inline struct, e.g. algorithm = <lhs_precision_type = tf32, ...>.
    SYSTOLIC_ASSIGN_OR_RETURN(std::string body, ParseBalanced('<', '>', "an attribute"));
    a.kind = Attribute::Kind::kStruct;
    std::string wrapped = absl::StrCat("{", body, "}");
    MlirParser reparse(wrapped, {lex_.filename(), where.line});
    absl::Status st = reparse.ParseAttributeDictionary(&a.fields);
    if (!st.ok()) return lex_.Error(where, st.message());
    return a;
  }
  if (c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c))) {
    SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view number, lex_.ParseNumberText("a number"));
    int64_t i;
    if (absl::SimpleAtoi(number, &i)) {
      a.kind = Attribute::Kind::kInteger;
      a.int_value = i;
    } else if (absl::StartsWith(number, "0x")) {
      uint64_t bits;
      if (!absl::SimpleHexAtoi(number.substr(2), &bits)) {
        return lex_.Error(where, absl::StrCat("bad number '", number, "'"));
      }
      a.kind = Attribute::Kind::kInteger;
      a.int_value = int64_t(bits);
    } else {
      double d;
      if (!absl::SimpleAtod(number, &d)) return lex_.Error(where, absl::StrCat("bad number '", number, "'"));
      a.kind = Attribute::Kind::kFloat;
      a.float_value = d;
    }
    if (typed && lex_.Peek() == ':' && lex_.PeekAt(1) != ':') {
      lex_.TryConsume(':');
      SYSTOLIC_ASSIGN_OR_RETURN(Type t, ParseType());
      if (a.kind == Attribute::Kind::kInteger && primitive_util::IsFloatingPointType(t.element_type)) {
        // Float written as its bit pattern, e.g. 0x7F800000 : f32.
        Literal bits(Shape(t.element_type, {}));
        uint64_t raw = uint64_t(a.int_value);
        std::memcpy(bits.untyped_data(), &raw, primitive_util::ByteWidth(t.element_type));
        a.kind = Attribute::Kind::kFloat;
        a.float_value = bits.GetAsDouble(0);
      }
      a.type = std::make_shared<Type>(std::move(t));
    }
    return a;
  }
  absl::string_view word = lex_.PeekIdentifier();
  if (word == "true" || word == "false") {
    lex_.ParseIdentifier("a boolean").IgnoreError();
    a.kind = Attribute::Kind::kBool;
    a.bool_value = word == "true";
    return a;
  }
  if (word == "unit") {
    lex_.ParseIdentifier("unit").IgnoreError();
    return a;
  }
  if (word == "dense") {
    lex_.ParseIdentifier("dense").IgnoreError();
    SYSTOLIC_ASSIGN_OR_RETURN(std::string content, ParseBalanced('<', '>', "a dense attribute"));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(':', "before the type of a dense attribute"));
    SYSTOLIC_ASSIGN_OR_RETURN(Type t, ParseType());
    auto literal = DecodeDenseElements(content, t);
    if (!literal.ok()) return lex_.Error(where, literal.status().message());
    a.kind = Attribute::Kind::kDense;
    a.dense = std::make_shared<Literal>(*std::move(literal));
    a.type = std::make_shared<Type>(std::move(t));
    return a;
  }
  if (word == "array") {
    lex_.ParseIdentifier("array").IgnoreError();
    SYSTOLIC_ASSIGN_OR_RETURN(std::string body, ParseBalanced('<', '>', "an array attribute"));
    a.kind = Attribute::Kind::kDenseArray;
    size_t colon = body.find(':');
    if (colon != std::string::npos) {
      for (absl::string_view item : absl::StrSplit(body.substr(colon + 1), ',')) {
        item = absl::StripAsciiWhitespace(item);
        int64_t v;
        if (item == "true") {
          v = 1;
        } else if (item == "false") {
          v = 0;
        } else if (!absl::SimpleAtoi(item, &v)) {
          return lex_.Error(where, absl::StrCat("bad array element '", item, "'"));
        }
        a.ints.push_back(v);
      }
    }
    return a;
  }
  // A type: `tensor<...>`, or a function type `(A, B) -> R` (a generic
  // func.func's function_type).
  if (word == "tensor" || word == "tuple" || word == "complex" || (word.empty() && lex_.Peek() == '(')) {
    a.kind = Attribute::Kind::kType;
    SYSTOLIC_ASSIGN_OR_RETURN(Type t, ParseType());
    a.type = std::make_shared<Type>(std::move(t));
    return a;
  }
  if (!word.empty()) {
    // Bare words: enum values in pretty syntax (DEFAULT, GT) or scalar types.
    lex_.ParseIdentifier("a word").IgnoreError();
    a.kind = Attribute::Kind::kEnum;
    a.text = std::string(word);
    return a;
  }
  return lex_.ErrorHere("expected an attribute value");
}

// #dialect<enum VALUE>, #dialect.name<k = v, ...>, #dialect.name<raw text>, #alias
absl::StatusOr<Attribute> MlirParser::ParseHashAttribute() {
  Location where = lex_.location();
  lex_.TryConsume('#');
  absl::string_view name = lex_.ScanWhile(IsIdentChar);
  Attribute a;
  a.where = ToSource(where);
  a.text = std::string(name);
  if (lex_.Peek() != '<') {
    a.kind = Attribute::Kind::kEnum;  // an alias reference
    return a;
  }
  SYSTOLIC_ASSIGN_OR_RETURN(std::string body, ParseBalanced('<', '>', "an attribute"));
  absl::string_view inner = absl::StripAsciiWhitespace(body);
  if (name == "stablehlo" || name == "mhlo" || name == "chlo") {
    // #stablehlo<precision DEFAULT>: keep the last word as the value.
    a.kind = Attribute::Kind::kEnum;
    size_t space = inner.rfind(' ');
    a.text = std::string(space == absl::string_view::npos ? inner : inner.substr(space + 1));
    return a;
  }
  a.kind = Attribute::Kind::kStruct;
  a.text = std::string(name);
  absl::ConsumePrefix(&inner, "raw ");
  // Structs whose body is `key = value, ...` parse as fields; others
  // (conv dim_numbers, sdy shardings) keep their raw text.
  size_t eq = inner.find('=');
  size_t bracket = inner.find_first_of("[<@");
  if (eq != absl::string_view::npos && (bracket == absl::string_view::npos || eq < bracket)) {
    std::string wrapped = absl::StrCat("{", inner, "}");
    MlirParser reparse(wrapped, {lex_.filename(), where.line});
    absl::Status st = reparse.ParseAttributeDictionary(&a.fields);
    if (!st.ok()) return lex_.Error(where, st.message());
  } else {
    Attribute raw;
    raw.kind = Attribute::Kind::kString;
    raw.text = std::string(inner);
    a.fields.push_back({"_raw", std::move(raw)});
  }
  return a;
}

// --- dense<...> ---------------------------------------------------------------

// Splits dense contents into element tokens, in row-major order.
absl::Status TokenizeDense(absl::string_view content, std::vector<std::string>* tokens) {
  size_t i = 0;
  while (i < content.size()) {
    char c = content[i];
    if (c == '[' || c == ']' || c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '(') {
      size_t end = content.find(')', i);
      if (end == absl::string_view::npos) return absl::InvalidArgumentError("unbalanced '(' in dense");
      tokens->push_back(std::string(content.substr(i, end - i + 1)));
      i = end + 1;
      continue;
    }
    if (c == '"') {
      size_t end = content.find('"', i + 1);
      if (end == absl::string_view::npos) return absl::InvalidArgumentError("unterminated string in dense");
      tokens->push_back(std::string(content.substr(i, end - i + 1)));
      i = end + 1;
      continue;
    }
    size_t start = i;
    while (i < content.size() && content[i] != ',' && content[i] != ']' && content[i] != '[' &&
           !std::isspace(static_cast<unsigned char>(content[i]))) {
      ++i;
    }
    tokens->push_back(std::string(content.substr(start, i - start)));
  }
  return absl::OkStatus();
}

// One part of a complex value: a number, or the bit pattern of an f32 (c64)
// or f64 (c128) as 0x... (so that -0.0 and NaN payloads survive).
bool ParseComplexPart(absl::string_view text, bool wide, double* out) {
  text = absl::StripAsciiWhitespace(text);
  if (absl::StartsWith(text, "0x") || absl::StartsWith(text, "0X")) {
    uint64_t bits;
    if (!absl::SimpleHexAtoi(text.substr(2), &bits)) return false;
    if (wide) {
      std::memcpy(out, &bits, sizeof(double));
    } else {
      const uint32_t narrow = uint32_t(bits);
      float f;
      std::memcpy(&f, &narrow, sizeof(float));
      *out = f;
    }
    return true;
  }
  return absl::SimpleAtod(text, out);
}

absl::Status SetElement(Literal* literal, int64_t index, absl::string_view token) {
  PrimitiveType type = literal->element_type();
  auto bad = [&]() {
    return absl::InvalidArgumentError(absl::StrCat("bad ", primitive_util::LowercasePrimitiveTypeName(type),
                                                   " value '", token, "'"));
  };
  if (type == PRED) {
    if (token == "true" || token == "1") {
      literal->data<bool>()[index] = true;
    } else if (token == "false" || token == "0") {
      literal->data<bool>()[index] = false;
    } else {
      return bad();
    }
    return absl::OkStatus();
  }
  if (primitive_util::IsComplexType(type)) {
    absl::string_view inner = token;
    if (!absl::ConsumePrefix(&inner, "(") || !absl::ConsumeSuffix(&inner, ")")) return bad();
    std::vector<absl::string_view> parts = absl::StrSplit(inner, ',');
    const bool wide = type == C128;
    double re, im;
    if (parts.size() != 2 || !ParseComplexPart(parts[0], wide, &re) ||
        !ParseComplexPart(parts[1], wide, &im)) {
      return bad();
    }
    literal->SetFromComplex128(index, complex128(re, im));
    return absl::OkStatus();
  }
  if (absl::StartsWith(token, "0x") || absl::StartsWith(token, "0X")) {
    // A bit pattern of the element.
    uint64_t bits;
    if (!absl::SimpleHexAtoi(token.substr(2), &bits)) return bad();
    int width = primitive_util::ByteWidth(type);
    std::memcpy(static_cast<uint8_t*>(literal->untyped_data()) + index * width, &bits, width);
    return absl::OkStatus();
  }
  if (primitive_util::IsFloatingPointType(type)) {
    double d;
    if (token == "inf" || token == "+inf") {
      d = INFINITY;
    } else if (token == "-inf") {
      d = -INFINITY;
    } else if (token == "nan" || token == "-nan") {
      d = std::nan("");
    } else if (!absl::SimpleAtod(token, &d)) {
      return bad();
    }
    if (type == F32) {
      literal->data<float>()[index] = std::strtof(std::string(token).c_str(), nullptr);
      if (token == "inf" || token == "-inf" || token == "nan" || token == "+inf" || token == "-nan") {
        literal->data<float>()[index] = float(d);
      }
    } else {
      literal->SetFromDouble(index, d);
    }
    return absl::OkStatus();
  }
  if (primitive_util::IsUnsignedIntegralType(type)) {
    uint64_t v;
    if (!absl::SimpleAtoi(token, &v)) return bad();
    // Values above INT64_MAX only fit a u64 as they are.
    if (type == U64) {
      literal->data<uint64_t>()[index] = v;
    } else {
      literal->SetFromInt64(index, int64_t(v));
    }
    return absl::OkStatus();
  }
  int64_t v;
  if (!absl::SimpleAtoi(token, &v)) {
    if (token == "true") {
      v = 1;
    } else if (token == "false") {
      v = 0;
    } else {
      return bad();
    }
  }
  literal->SetFromInt64(index, v);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Literal> DecodeDenseElements(absl::string_view content, const Type& type) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape, type.ToShape());
  if (!shape.IsArray()) {
    return absl::InvalidArgumentError(absl::StrCat("dense<> of non-tensor type ", type.text));
  }
  shape = Shape(shape.element_type(), shape.dimensions());
  // A constant is held whole: one larger than the host may use is an error,
  // not an allocation that fails.
  SYSTOLIC_RETURN_IF_ERROR(
      CheckValueFitsHost(ShapeBytes(shape), absl::StrCat("dense<> of ", type.text)));
  Literal literal(shape);
  content = absl::StripAsciiWhitespace(content);
  int64_t count = literal.element_count();
  int width = primitive_util::ByteWidth(shape.element_type());
  // Hex string: raw little-endian bytes of every element, or of one (splat).
  if (absl::StartsWith(content, "\"0x") || absl::StartsWith(content, "\"0X")) {
    absl::string_view hex = content.substr(3, content.size() - 4);
    if (hex.size() % 2 != 0) return absl::InvalidArgumentError("odd number of hex digits in dense");
    std::string bytes;
    bytes.reserve(hex.size() / 2);
    for (size_t i = 0; i < hex.size(); i += 2) {
      int hi = std::isdigit(static_cast<unsigned char>(hex[i])) ? hex[i] - '0' : std::tolower(hex[i]) - 'a' + 10;
      int lo = std::isdigit(static_cast<unsigned char>(hex[i + 1])) ? hex[i + 1] - '0'
                                                               : std::tolower(hex[i + 1]) - 'a' + 10;
      if (hi < 0 || hi > 15 || lo < 0 || lo > 15) {
        return absl::InvalidArgumentError("bad hex digit in dense");
      }
      bytes.push_back(char(hi * 16 + lo));
    }
    auto* out = static_cast<uint8_t*>(literal.untyped_data());
    if (int64_t(bytes.size()) == count * width) {
      std::memcpy(out, bytes.data(), bytes.size());
    } else if (int64_t(bytes.size()) == width) {
      for (int64_t i = 0; i < count; ++i) std::memcpy(out + i * width, bytes.data(), width);
    } else {
      return absl::InvalidArgumentError(absl::StrCat("dense hex data has ", bytes.size(),
                                                     " bytes; ", type.text, " needs ",
                                                     count * width));
    }
    if (shape.element_type() == PRED) {
      for (int64_t i = 0; i < count; ++i) out[i] = out[i] != 0;
    }
    return literal;
  }
  std::vector<std::string> tokens;
  absl::Status tokenized = TokenizeDense(content, &tokens);
  if (!tokenized.ok()) return tokenized;
  if (tokens.size() == 1 && count != 1) {
    // Splat.
    if (count > 0) {
      absl::Status st = SetElement(&literal, 0, tokens[0]);
      if (!st.ok()) return st;
      auto* out = static_cast<uint8_t*>(literal.untyped_data());
      for (int64_t i = 1; i < count; ++i) std::memcpy(out + i * width, out, width);
    }
    return literal;
  }
  if (int64_t(tokens.size()) != count) {
    return absl::InvalidArgumentError(absl::StrCat("dense has ", tokens.size(), " elements but ",
                                                   type.text, " has ", count));
  }
  for (int64_t i = 0; i < count; ++i) {
    absl::Status st = SetElement(&literal, i, tokens[i]);
    if (!st.ok()) return st;
  }
  return literal;
}

absl::StatusOr<Module> ParseModule(absl::string_view text, const ParseOptions& options) {
  return MlirParser(text, options).Parse();
}

}  // namespace systolic::mlir
