#include "core/compiler/differential_check.h"

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "core/compiler/spmd/partitioned_execution.h"
#include "core/compiler/spmd/spmd_partitioner.h"
#include "core/eval/hlo_evaluator.h"
#include "core/eval/random_arguments.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

bool Close(double a, double b, const DifferentialOptions& o) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= o.absolute_tolerance + o.relative_tolerance * std::abs(a);
}

}  // namespace

std::string FirstDifference(const Literal& original, const Literal& compiled,
                            const std::string& where, const DifferentialOptions& o) {
  if (original.shape().IsTuple() != compiled.shape().IsTuple()) {
    return absl::StrCat(where, ": one result is a tuple, the other is not");
  }
  if (original.shape().IsTuple()) {
    if (original.tuple_size() != compiled.tuple_size()) {
      return absl::StrCat(where, ": tuples of ", original.tuple_size(), " and ",
                          compiled.tuple_size(), " elements");
    }
    for (int64_t i = 0; i < original.tuple_size(); ++i) {
      std::string diff = FirstDifference(original.tuple_element(i), compiled.tuple_element(i),
                                 absl::StrCat(where, "{", i, "}"), o);
      if (!diff.empty()) return diff;
    }
    return "";
  }
  if (original.shape().dimensions() != compiled.shape().dimensions() ||
      original.element_type() != compiled.element_type()) {
    return absl::StrCat(where, ": shapes ", original.shape().ToString(), " and ",
                        compiled.shape().ToString());
  }
  if (original == compiled) return "";
  const PrimitiveType type = original.element_type();
  const bool floating =
      primitive_util::IsFloatingPointType(type) || primitive_util::IsComplexType(type);
  const int width = primitive_util::ByteWidth(type);
  const auto* a_bytes = static_cast<const uint8_t*>(original.untyped_data());
  const auto* b_bytes = static_cast<const uint8_t*>(compiled.untyped_data());
  for (int64_t i = 0; i < original.element_count(); ++i) {
    bool same;
    if (o.exact || !floating) {
      same = std::memcmp(a_bytes + i * width, b_bytes + i * width, width) == 0 ||
             (floating && !primitive_util::IsComplexType(type) &&
              std::isnan(original.GetAsDouble(i)) && std::isnan(compiled.GetAsDouble(i)));
    } else if (primitive_util::IsComplexType(type)) {
      same = Close(original.GetAsComplex128(i).real(), compiled.GetAsComplex128(i).real(), o) &&
             Close(original.GetAsComplex128(i).imag(), compiled.GetAsComplex128(i).imag(), o);
    } else {
      same = Close(original.GetAsDouble(i), compiled.GetAsDouble(i), o);
    }
    if (!same) {
      return absl::StrCat(where, " element ", i, ": original ", original.ElementToString(i),
                          ", compiled ", compiled.ElementToString(i));
    }
  }
  // Equal element by element but not as literals: NaN payloads differ.
  return o.exact ? absl::StrCat(where, ": the bits of a NaN differ") : "";
}

absl::StatusOr<DifferentialResult> CheckSameResults(const HloModule& original,
                                                    const HloModule& compiled,
                                                    const DifferentialOptions& options) {
  if (original.entry_computation() == nullptr || compiled.entry_computation() == nullptr) {
    return absl::InvalidArgumentError("a module has no entry computation");
  }
  SYSTOLIC_RETURN_IF_ERROR(
      CheckArgumentsFit(*original.entry_computation(), options.max_host_bytes));
  std::vector<Literal> arguments = MakeRandomArguments(*original.entry_computation(), options.seed);
  EvaluatorOptions eval_options;
  eval_options.max_while_iterations = options.max_while_iterations;
  eval_options.max_value_bytes = options.max_host_bytes;
  HloEvaluator before(eval_options);
  SYSTOLIC_ASSIGN_OR_RETURN(Literal expected, before.Evaluate(original, arguments));
  // A partitioned program runs on every partition with its shards of the
  // same arguments; its result is gathered whole.
  SYSTOLIC_ASSIGN_OR_RETURN(std::optional<SpmdSignature> signature,
                            SpmdSignatureOf(original, compiled.num_partitions()));
  absl::StatusOr<Literal> actual;
  if (signature && !SpmdPartitioner::NeedsPartitioning(compiled)) {
    auto gathered = EvaluatePartitioned(compiled, *signature, arguments, 1, eval_options);
    if (gathered.ok()) {
      actual = std::move((*gathered)[0]);
    } else {
      actual = gathered.status();
    }
  } else {
    HloEvaluator after(eval_options);
    actual = after.Evaluate(compiled, arguments);
  }
  if (!actual.ok()) {
    return absl::Status(actual.status().code(),
                        absl::StrCat("the compiled module fails to run: ", actual.status().message()));
  }
  DifferentialResult result;
  result.mismatch = FirstDifference(expected, *actual, "result", options);
  result.same = result.mismatch.empty();
  return result;
}

}  // namespace systolic
