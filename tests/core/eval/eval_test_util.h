// Helpers for the evaluator tests: modules from HLO text, single-op modules,
// and literal builders / comparisons.
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/eval/hlo_evaluator.h"
#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"

namespace systolic::eval_test {

// Parses (and verifies, unless `verify` is false) one module.
inline std::unique_ptr<HloModule> Parse(const std::string& text, bool verify = true) {
  auto module = verify ? ParseAndReturnVerifiedModule(text) : ParseAndReturnUnverifiedModule(text);
  EXPECT_TRUE(module.ok()) << module.status().message() << "\n" << text;
  if (!module.ok()) return nullptr;
  return *std::move(module);
}

inline absl::StatusOr<Literal> RunHlo(const std::string& text, const std::vector<Literal>& args,
                                   EvaluatorOptions options = {}, bool verify = true) {
  auto module = Parse(text, verify);
  if (module == nullptr) return absl::InvalidArgumentError("the module does not parse");
  HloEvaluator evaluator(options);
  return evaluator.Evaluate(*module, args);
}

// Runs and expects success; an empty tuple on failure (after failing the test).
inline Literal RunOk(const std::string& text, const std::vector<Literal>& args = {},
                     EvaluatorOptions options = {}) {
  auto result = RunHlo(text, args, options);
  EXPECT_TRUE(result.ok()) << result.status().message();
  if (!result.ok()) return Literal();
  return *std::move(result);
}

// A module whose entry takes `args` as parameters and returns
// `result_shape op(p0, p1, ...)` followed by `attributes`.
inline std::string OpModule(const std::string& op, const std::vector<const Literal*>& args,
                            const std::string& result_shape, const std::string& attributes = "",
                            const std::string& extra_computations = "") {
  std::string text = absl::StrCat("HloModule op\n", extra_computations, "\nENTRY e {\n");
  std::vector<std::string> names;
  for (size_t i = 0; i < args.size(); ++i) {
    absl::StrAppend(&text, "  p", i, " = ", args[i]->shape().ToString(), " parameter(", i, ")\n");
    names.push_back(absl::StrCat("p", i));
  }
  absl::StrAppend(&text, "  ROOT r = ", result_shape, " ", op, "(", absl::StrJoin(names, ", "), ")",
                  attributes.empty() ? "" : ", ", attributes, "\n}\n");
  return text;
}

inline Literal RunOp(const std::string& op, const std::vector<const Literal*>& args,
                     const std::string& result_shape, const std::string& attributes = "",
                     const std::string& extra_computations = "") {
  std::vector<Literal> copies;
  for (const Literal* l : args) copies.push_back(l->Clone());
  return RunOk(OpModule(op, args, result_shape, attributes, extra_computations), copies);
}

// A vector of literals (initializer lists cannot hold move-only values).
template <typename... Ls>
std::vector<Literal> Args(Ls&&... literals) {
  std::vector<Literal> v;
  (v.push_back(std::move(literals)), ...);
  return v;
}

template <typename T>
Literal R1(std::initializer_list<T> values) {
  return Literal::CreateR1<T>(values);
}

template <typename T>
Literal R0(T value) {
  return Literal::CreateR0<T>(value);
}

// An array of `type` and `dims` from doubles, converted as C++ would.
inline Literal FromDoubles(PrimitiveType type, std::vector<int64_t> dims,
                           const std::vector<double>& values) {
  Literal l(Shape(type, dims));
  for (size_t i = 0; i < values.size() && int64_t(i) < l.element_count(); ++i) {
    l.SetFromDouble(int64_t(i), values[i]);
  }
  return l;
}

inline std::vector<double> ToDoubles(const Literal& l) {
  std::vector<double> v;
  for (int64_t i = 0; i < l.element_count(); ++i) v.push_back(l.GetAsDouble(i));
  return v;
}

inline std::vector<int64_t> ToInts(const Literal& l) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < l.element_count(); ++i) v.push_back(l.GetAsInt64(i));
  return v;
}

inline void ExpectNear(const Literal& actual, const std::vector<double>& expected,
                       double tolerance = 1e-5) {
  ASSERT_EQ(actual.element_count(), int64_t(expected.size())) << actual.ToString();
  for (size_t i = 0; i < expected.size(); ++i) {
    const double a = actual.GetAsDouble(int64_t(i));
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(a)) << "element " << i << " of " << actual.ToString();
    } else if (std::isinf(expected[i])) {
      EXPECT_EQ(a, expected[i]) << "element " << i << " of " << actual.ToString();
    } else {
      EXPECT_NEAR(a, expected[i], tolerance * std::max(1.0, std::fabs(expected[i])))
          << "element " << i << " of " << actual.ToString();
    }
  }
}

}  // namespace systolic::eval_test
