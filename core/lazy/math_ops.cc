#include "core/lazy/math_ops.h"

#include <numeric>

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/broadcasting.h"
#include "core/lazy/graph_ops.h"

namespace systolic::lazy {
namespace {

Tensor BinaryOp(HloOpcode opcode, const Tensor& a, const Tensor& b, absl::string_view name) {
  return RecordOp({a, b}, [&]() -> absl::StatusOr<NodePtr> {
    SYSTOLIC_ASSIGN_OR_RETURN(auto pair, BroadcastPair(a.node(), b.node()));
    return graph::Binary(opcode, pair.first, pair.second, name);
  });
}

Tensor UnaryOp(HloOpcode opcode, const Tensor& x, absl::string_view name) {
  return RecordOp({x}, [&] { return graph::Unary(opcode, x.node(), name); });
}

Tensor CompareOp(ComparisonDirection direction, const Tensor& a, const Tensor& b,
                 absl::string_view name) {
  return RecordOp({a, b}, [&]() -> absl::StatusOr<NodePtr> {
    SYSTOLIC_ASSIGN_OR_RETURN(auto pair, BroadcastPair(a.node(), b.node()));
    return graph::Compare(pair.first, pair.second, direction, name);
  });
}

}  // namespace

Tensor Add(const Tensor& a, const Tensor& b) { return BinaryOp(HloOpcode::kAdd, a, b, "add"); }
Tensor Sub(const Tensor& a, const Tensor& b) { return BinaryOp(HloOpcode::kSubtract, a, b, "sub"); }
Tensor Mul(const Tensor& a, const Tensor& b) { return BinaryOp(HloOpcode::kMultiply, a, b, "mul"); }
Tensor Div(const Tensor& a, const Tensor& b) { return BinaryOp(HloOpcode::kDivide, a, b, "div"); }
Tensor Maximum(const Tensor& a, const Tensor& b) {
  return BinaryOp(HloOpcode::kMaximum, a, b, "maximum");
}
Tensor Minimum(const Tensor& a, const Tensor& b) {
  return BinaryOp(HloOpcode::kMinimum, a, b, "minimum");
}
Tensor Pow(const Tensor& a, const Tensor& b) { return BinaryOp(HloOpcode::kPower, a, b, "pow"); }

Tensor ScalarLike(const Tensor& x, double value) {
  return RecordOp({x}, [&] { return graph::Full(value, x.shape(), "scalar"); });
}

Tensor Neg(const Tensor& x) { return UnaryOp(HloOpcode::kNegate, x, "neg"); }
Tensor Exp(const Tensor& x) { return UnaryOp(HloOpcode::kExp, x, "exp"); }
Tensor Log(const Tensor& x) { return UnaryOp(HloOpcode::kLog, x, "log"); }
Tensor Tanh(const Tensor& x) { return UnaryOp(HloOpcode::kTanh, x, "tanh"); }
Tensor Sigmoid(const Tensor& x) { return UnaryOp(HloOpcode::kLogistic, x, "sigmoid"); }
Tensor Sqrt(const Tensor& x) { return UnaryOp(HloOpcode::kSqrt, x, "sqrt"); }
Tensor Rsqrt(const Tensor& x) { return UnaryOp(HloOpcode::kRsqrt, x, "rsqrt"); }
Tensor Abs(const Tensor& x) { return UnaryOp(HloOpcode::kAbs, x, "abs"); }
Tensor Erf(const Tensor& x) { return UnaryOp(HloOpcode::kErf, x, "erf"); }
Tensor Cos(const Tensor& x) { return UnaryOp(HloOpcode::kCos, x, "cos"); }
Tensor Square(const Tensor& x) { return BinaryOp(HloOpcode::kMultiply, x, x, "square"); }

Tensor Equal(const Tensor& a, const Tensor& b) {
  return CompareOp(ComparisonDirection::kEq, a, b, "eq");
}
Tensor Greater(const Tensor& a, const Tensor& b) {
  return CompareOp(ComparisonDirection::kGt, a, b, "gt");
}
Tensor GreaterEqual(const Tensor& a, const Tensor& b) {
  return CompareOp(ComparisonDirection::kGe, a, b, "ge");
}
Tensor Less(const Tensor& a, const Tensor& b) {
  return CompareOp(ComparisonDirection::kLt, a, b, "lt");
}

Tensor Where(const Tensor& condition, const Tensor& on_true, const Tensor& on_false) {
  return RecordOp({condition, on_true, on_false}, [&]() -> absl::StatusOr<NodePtr> {
    SYSTOLIC_ASSIGN_OR_RETURN(auto values, BroadcastPair(on_true.node(), on_false.node()));
    SYSTOLIC_ASSIGN_OR_RETURN(NodePtr pred,
                              BroadcastNodeTo(condition.node(), values.first->shape().dimensions()));
    return graph::Select(pred, values.first, values.second, "where");
  });
}

Tensor Cast(const Tensor& x, PrimitiveType type) {
  return RecordOp({x}, [&] { return graph::Convert(x.node(), type, "cast"); });
}

Tensor MatMul(const Tensor& a, const Tensor& b) {
  return RecordOp({a, b}, [&]() -> absl::StatusOr<NodePtr> {
    const int64_t ra = a.rank(), rb = b.rank();
    DotDimensionNumbers dnums;
    if (ra >= 2 && rb == 2) {
      dnums.lhs_contracting_dimensions = {ra - 1};
      dnums.rhs_contracting_dimensions = {0};
    } else if (ra >= 3 && ra == rb) {
      for (int64_t i = 0; i < ra - 2; ++i) {
        dnums.lhs_batch_dimensions.push_back(i);
        dnums.rhs_batch_dimensions.push_back(i);
      }
      dnums.lhs_contracting_dimensions = {ra - 1};
      dnums.rhs_contracting_dimensions = {rb - 2};
    } else {
      return absl::InvalidArgumentError(absl::StrCat("matmul of ", a.shape().ToString(), " and ",
                                                     b.shape().ToString(),
                                                     " is not supported: expected [..., M, K] x "
                                                     "[K, N] or batched operands of equal rank"));
    }
    return graph::Dot(a.node(), b.node(), dnums, std::nullopt, "matmul");
  });
}

Tensor operator+(const Tensor& a, const Tensor& b) { return Add(a, b); }
Tensor operator-(const Tensor& a, const Tensor& b) { return Sub(a, b); }
Tensor operator*(const Tensor& a, const Tensor& b) { return Mul(a, b); }
Tensor operator/(const Tensor& a, const Tensor& b) { return Div(a, b); }
Tensor operator-(const Tensor& x) { return Neg(x); }
Tensor operator+(const Tensor& a, double b) { return Add(a, ScalarLike(a, b)); }
Tensor operator-(const Tensor& a, double b) { return Sub(a, ScalarLike(a, b)); }
Tensor operator*(const Tensor& a, double b) { return Mul(a, ScalarLike(a, b)); }
Tensor operator/(const Tensor& a, double b) { return Div(a, ScalarLike(a, b)); }
Tensor operator+(double a, const Tensor& b) { return Add(ScalarLike(b, a), b); }
Tensor operator-(double a, const Tensor& b) { return Sub(ScalarLike(b, a), b); }
Tensor operator*(double a, const Tensor& b) { return Mul(ScalarLike(b, a), b); }
Tensor operator/(double a, const Tensor& b) { return Div(ScalarLike(b, a), b); }

}  // namespace systolic::lazy
