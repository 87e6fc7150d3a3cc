#include "core/stablehlo/check_runner.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/eval/hlo_evaluator.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/status_macros.h"
#include "core/stablehlo/mlir_parser.h"
#include "core/stablehlo/stablehlo_importer.h"

namespace systolic::stablehlo {
namespace {

// A test case's loops are small; a runaway loop is a failure, not a hang.
constexpr int64_t kMaxWhileIterations = 10'000'000;

std::string IndexText(const Shape& shape, int64_t linear) {
  std::vector<int64_t> index(shape.rank());
  for (int64_t d = shape.rank() - 1; d >= 0; --d) {
    index[d] = linear % shape.dimensions(d);
    linear /= shape.dimensions(d);
  }
  return absl::StrCat("[", absl::StrJoin(index, ", "), "]");
}

std::string ShapeMismatch(const Literal& actual, const Literal& expected) {
  if (actual.shape().IsTuple() || expected.shape().IsTuple()) {
    return absl::StrCat("cannot compare ", actual.shape().ToString(), " with ",
                        expected.shape().ToString());
  }
  if (actual.element_type() != expected.element_type() ||
      actual.shape().dimensions() != expected.shape().dimensions()) {
    return absl::StrCat("shape ", actual.shape().ToString(), " differs from the expected ",
                        expected.shape().ToString());
  }
  return "";
}

std::string Mismatch(const Literal& actual, const Literal& expected, int64_t i,
                     absl::string_view extra = "") {
  return absl::StrCat("first mismatch at index ", IndexText(actual.shape(), i), ": actual ",
                      actual.ElementToString(i), ", expected ", expected.ElementToString(i), extra);
}

bool IsNan(const complex128& c) { return std::isnan(c.real()) || std::isnan(c.imag()); }

// A float's bits as an integer that orders like the float (for ULP
// distances): sign and magnitude become a two's complement value.
int64_t OrderedFromBits(uint64_t bits, int width, bool has_sign) {
  const uint64_t all = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  bits &= all;
  if (!has_sign) return int64_t(bits);
  const uint64_t magnitude = bits & (all >> 1);
  return (bits >> (width - 1)) & 1 ? -int64_t(magnitude) : int64_t(magnitude);
}

// Element i of a real float literal, ordered; sub-byte floats sit in the low
// bits of their byte.
int64_t OrderedBits(const Literal& l, int64_t i) {
  const PrimitiveType type = l.element_type();
  const int bytes = primitive_util::ByteWidth(type);
  uint64_t bits = 0;
  std::memcpy(&bits, static_cast<const uint8_t*>(l.untyped_data()) + i * bytes, bytes);
  return OrderedFromBits(bits, primitive_util::BitWidth(type), type != F8E8M0FNU);
}

// One component of a complex number, ordered at the component's width.
int64_t OrderedComponent(double value, PrimitiveType component) {
  if (component == F32) {
    return OrderedFromBits(std::bit_cast<uint32_t>(float(value)), 32, true);
  }
  return OrderedFromBits(std::bit_cast<uint64_t>(value), 64, true);
}

// ULP distance of two values of one component type; NaN with NaN is 0 and
// NaN with a number is unbounded.
int64_t ComponentDistance(double x, double y, PrimitiveType component) {
  if (std::isnan(x) || std::isnan(y)) {
    return std::isnan(x) && std::isnan(y) ? 0 : std::numeric_limits<int64_t>::max();
  }
  if (x == y) return 0;  // +0 and -0
  return std::llabs(OrderedComponent(x, component) - OrderedComponent(y, component));
}

}  // namespace

std::string CompareExact(const Literal& actual, const Literal& expected) {
  if (std::string s = ShapeMismatch(actual, expected); !s.empty()) return s;
  bool floating = primitive_util::IsFloatingPointType(actual.element_type()) ||
                  primitive_util::IsComplexType(actual.element_type());
  int width = primitive_util::ByteWidth(actual.element_type());
  const auto* a = static_cast<const uint8_t*>(actual.untyped_data());
  const auto* e = static_cast<const uint8_t*>(expected.untyped_data());
  for (int64_t i = 0; i < actual.element_count(); ++i) {
    if (std::memcmp(a + i * width, e + i * width, width) == 0) continue;
    if (floating) {
      complex128 x = actual.GetAsComplex128(i), y = expected.GetAsComplex128(i);
      if (x == y || (IsNan(x) && IsNan(y))) continue;
    }
    return Mismatch(actual, expected, i);
  }
  return "";
}

std::string CompareAlmostEqual(const Literal& actual, const Literal& expected, double tolerance) {
  if (std::string s = ShapeMismatch(actual, expected); !s.empty()) return s;
  PrimitiveType type = actual.element_type();
  if (!primitive_util::IsFloatingPointType(type) && !primitive_util::IsComplexType(type)) {
    return CompareExact(actual, expected);
  }
  for (int64_t i = 0; i < actual.element_count(); ++i) {
    complex128 x = actual.GetAsComplex128(i), y = expected.GetAsComplex128(i);
    if (IsNan(x) || IsNan(y)) {
      if (IsNan(x) && IsNan(y)) continue;
      return Mismatch(actual, expected, i);
    }
    bool inf = std::isinf(x.real()) || std::isinf(y.real()) || std::isinf(x.imag()) ||
               std::isinf(y.imag());
    if (inf) {
      if (x == y) continue;
      return Mismatch(actual, expected, i);
    }
    double diff = std::abs(x - y);
    if (diff > tolerance) {
      return Mismatch(actual, expected, i, absl::StrCat(" (difference ", diff, " > tolerance ",
                                                        tolerance, ")"));
    }
  }
  return "";
}

std::string CompareUlps(const Literal& actual, const Literal& expected, int64_t min_ulp,
                        int64_t max_ulp) {
  if (std::string s = ShapeMismatch(actual, expected); !s.empty()) return s;
  PrimitiveType type = actual.element_type();
  const bool complex = primitive_util::IsComplexType(type);
  if (!primitive_util::IsFloatingPointType(type) && !complex) return CompareExact(actual, expected);
  for (int64_t i = 0; i < actual.element_count(); ++i) {
    int64_t distance;
    if (complex) {
      // Each component in ULPs of the component type; the farther one counts.
      const PrimitiveType component = primitive_util::ComplexComponentType(type);
      const complex128 x = actual.GetAsComplex128(i), y = expected.GetAsComplex128(i);
      distance = std::max(ComponentDistance(x.real(), y.real(), component),
                          ComponentDistance(x.imag(), y.imag(), component));
    } else {
      double x = actual.GetAsDouble(i), y = expected.GetAsDouble(i);
      if (std::isnan(x) || std::isnan(y)) {
        if (std::isnan(x) && std::isnan(y)) continue;
        return Mismatch(actual, expected, i);
      }
      distance = std::llabs(OrderedBits(actual, i) - OrderedBits(expected, i));
      if (x == y) distance = 0;  // +0 and -0
    }
    if (distance == std::numeric_limits<int64_t>::max()) return Mismatch(actual, expected, i);
    if (distance < min_ulp || distance > max_ulp) {
      return Mismatch(actual, expected, i,
                      absl::StrCat(" (", distance, " ulp, allowed ", min_ulp, "..", max_ulp, ")"));
    }
  }
  return "";
}

namespace {

std::string CheckOne(const CheckProbe& probe, const Literal& actual, const Literal& expected) {
  switch (probe.kind) {
    case CheckProbe::Kind::kEqual:
    case CheckProbe::Kind::kEqualReturnsPred:
      return CompareExact(actual, expected);
    case CheckProbe::Kind::kAlmostEqual:
      return CompareAlmostEqual(actual, expected, probe.tolerance);
    case CheckProbe::Kind::kClose:
      return CompareUlps(actual, expected, probe.min_ulp, probe.max_ulp);
  }
  return "unknown check";
}

const mlir::Function* RunFunction(const mlir::Module& module) {
  if (const mlir::Function* main = module.FindFunction("main")) return main;
  if (module.functions.size() == 1) return &module.functions[0];
  return nullptr;
}

bool HasRunParallel(const mlir::Function& f) {
  for (const mlir::Block& b : f.body.blocks) {
    for (const mlir::Operation& op : b.operations) {
      if (op.name == "interpreter.run_parallel") return true;
    }
  }
  return false;
}

// A case whose checks are compiled into the module as probes.
CheckCaseResult RunProbedCase(const mlir::Module& syntax, const mlir::Function& run,
                              const std::string& filename, CheckCaseResult result) {
  ModuleImporter importer(syntax, filename);
  std::vector<CheckProbe> probes;
  auto module = importer.Import(run.name, &probes);
  if (!module.ok()) {
    result.message = std::string(module.status().message());
    return result;
  }
  if (!run.argument_types.empty()) {
    result.message = absl::StrCat("@", run.name, " takes arguments; test cases take none");
    return result;
  }
  EvaluatorOptions options;
  options.max_while_iterations = kMaxWhileIterations;
  HloEvaluator evaluator(options);
  auto output = evaluator.Evaluate(**module, std::vector<Literal>{});
  if (!output.ok()) {
    result.message = std::string(output.status().message());
    return result;
  }
  // The module returns (results..., probed values...) as a tuple, or the one
  // value alone.
  std::vector<Literal> outputs;
  if (output->shape().IsTuple()) {
    outputs = std::move(*output).DecomposeTuple();
  } else {
    outputs.push_back(*std::move(output));
  }
  size_t base = run.result_types.size();
  for (const CheckProbe& probe : probes) {
    ++result.checks;
    const size_t actual_index = base + probe.actual_output;
    const size_t expected_index = base + probe.expected_output;
    if (actual_index >= outputs.size() ||
        (!probe.expected_constant && expected_index >= outputs.size())) {
      result.message = absl::StrCat(filename, ":", probe.where.line, ": ", probe.op_name,
                                    ": the checked value is missing from the program's outputs");
      return result;
    }
    const Literal& actual = outputs[actual_index];
    const Literal& expected =
        probe.expected_constant ? *probe.expected_constant : outputs[expected_index];
    std::string failure = CheckOne(probe, actual, expected);
    if (!failure.empty()) {
      result.message = absl::StrCat(filename, ":", probe.where.line, ": ", probe.op_name, ": ",
                                    failure);
      return result;
    }
  }
  result.passed = true;
  return result;
}

// main() { %in = constants; %r:N = "interpreter.run_parallel"(%in...) {programs=[[@f]...]};
// check.* on %r#k }: the program runs on replicas x partitions.
CheckCaseResult RunParallelCase(const mlir::Module& syntax, const mlir::Function& main,
                                const std::string& filename, CheckCaseResult result) {
  absl::flat_hash_map<std::string, std::shared_ptr<Literal>> values;
  auto fail = [&](const mlir::Operation& op, absl::string_view message) {
    result.message = absl::StrCat(filename, ":", op.where.line, ":", op.where.column, ": ", message);
    return result;
  };
  auto value_of = [&](const mlir::ValueRef& ref) -> std::shared_ptr<Literal> {
    std::string key = ref.index >= 0 ? absl::StrCat(ref.name, "#", ref.index) : ref.name;
    auto it = values.find(key);
    return it == values.end() ? nullptr : it->second;
  };
  for (const mlir::Operation& op : main.body.blocks.at(0).operations) {
    if (op.name == "stablehlo.constant") {
      const mlir::Attribute* v = op.Attr("value");
      if (!v || !v->dense || op.results.size() != 1) return fail(op, "bad constant");
      values[op.results[0]] = v->dense;
      continue;
    }
    if (op.name == "interpreter.run_parallel") {
      const mlir::Attribute* programs = op.Attr("programs");
      if (!programs || programs->kind != mlir::Attribute::Kind::kArray || programs->elements.empty()) {
        return fail(op, "run_parallel needs programs=[[@f, ...], ...]");
      }
      int64_t replicas = int64_t(programs->elements.size());
      int64_t partitions = int64_t(programs->elements[0].elements.size());
      std::string program;
      for (const mlir::Attribute& row : programs->elements) {
        if (int64_t(row.elements.size()) != partitions) return fail(op, "ragged programs list");
        for (const mlir::Attribute& p : row.elements) {
          if (program.empty()) program = p.text;
          if (p.text != program) {
            return fail(op, "every process must run the same program (SPMD)");
          }
        }
      }
      const mlir::Function* f = syntax.FindFunction(program);
      if (!f) return fail(op, absl::StrCat("no function @", program));
      ModuleImporter importer(syntax, filename);
      auto module = importer.Import(program);
      if (!module.ok()) return fail(op, module.status().message());
      (*module)->set_replica_count(replicas);
      (*module)->set_num_partitions(partitions);
      size_t per_process = f->argument_types.size();
      int64_t processes = replicas * partitions;
      if (op.operands.size() != per_process * size_t(processes)) {
        return fail(op, absl::StrCat("run_parallel gives ", op.operands.size(), " inputs for ",
                                     processes, " processes of ", per_process, " arguments"));
      }
      std::vector<std::vector<Literal>> args(processes);
      for (int64_t p = 0; p < processes; ++p) {
        for (size_t a = 0; a < per_process; ++a) {
          auto v = value_of(op.operands[p * per_process + a]);
          if (!v) return fail(op, "run_parallel inputs must be constants of @main");
          args[p].push_back(v->Clone());
        }
      }
      EvaluatorOptions options;
      options.max_while_iterations = kMaxWhileIterations;
      auto outputs = EvaluateSpmd(**module, args, replicas, partitions, options);
      if (!outputs.ok()) return fail(op, outputs.status().message());
      // Results: each process's outputs in order.
      size_t next = 0;
      for (Literal& out : *outputs) {
        std::vector<Literal> parts;
        if (f->result_types.size() == 1) {
          parts.push_back(std::move(out));
        } else {
          parts = std::move(out).DecomposeTuple();
        }
        for (Literal& part : parts) {
          if (next >= op.results.size()) return fail(op, "more results than names");
          values[op.results[next++]] = std::make_shared<Literal>(std::move(part));
        }
      }
      continue;
    }
    if (op.name.rfind("check.", 0) == 0) {
      ++result.checks;
      std::shared_ptr<Literal> actual = op.operands.empty() ? nullptr : value_of(op.operands[0]);
      if (!actual) return fail(op, "checked value is not available");
      std::shared_ptr<Literal> expected;
      if (const mlir::Attribute* v = op.Attr("value")) expected = v->dense;
      if (!expected && op.operands.size() > 1) expected = value_of(op.operands[1]);
      if (!expected) return fail(op, "no expected value");
      CheckProbe probe;
      probe.kind = op.name.find("almost") != std::string::npos ? CheckProbe::Kind::kAlmostEqual
                                                               : CheckProbe::Kind::kEqual;
      if (const mlir::Attribute* t = op.Attr("tolerance")) probe.tolerance = t->float_value;
      std::string failure = CheckOne(probe, *actual, *expected);
      if (!failure.empty()) return fail(op, absl::StrCat(op.name, ": ", failure));
      continue;
    }
    if (op.name == "func.return") break;
    return fail(op, absl::StrCat(op.name, " is not supported around run_parallel"));
  }
  result.passed = true;
  return result;
}

}  // namespace

CheckCaseResult RunCheckCase(absl::string_view text, const std::string& filename, int first_line) {
  CheckCaseResult result;
  result.first_line = first_line;
  auto syntax = mlir::ParseModule(text, {filename, first_line});
  if (!syntax.ok()) {
    result.message = std::string(syntax.status().message());
    return result;
  }
  const mlir::Function* run = RunFunction(*syntax);
  if (!run) {
    result.message = absl::StrCat(filename, ":", first_line,
                                  ": a case needs @main or a single function to run");
    return result;
  }
  result.name = syntax->name.empty() ? run->name : absl::StrCat(syntax->name, ".", run->name);
  if (HasRunParallel(*run)) return RunParallelCase(*syntax, *run, filename, std::move(result));
  return RunProbedCase(*syntax, *run, filename, std::move(result));
}

absl::StatusOr<std::vector<CheckCaseResult>> RunCheckFile(const std::string& path) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::string text, ReadTextFile(path));
  std::vector<CheckCaseResult> results;
  for (const HloTextChunk& chunk : SplitHloText(text)) {
    results.push_back(RunCheckCase(chunk.text, path, chunk.first_line));
  }
  return results;
}

}  // namespace systolic::stablehlo
