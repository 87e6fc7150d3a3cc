#include "core/eval/linear_algebra.h"

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <limits>

#include "absl/strings/str_cat.h"

namespace systolic::eval {
namespace {

// The type the math runs in, and the literal converted to it.
PrimitiveType ComputeType(PrimitiveType t) {
  switch (t) {
    case F64:
    case C64:
    case C128:
      return t;
    default:
      return F32;
  }
}

template <typename S>
using RowMatrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <typename S>
void CholeskyBatch(S* data, int64_t batch, int64_t n, bool lower) {
  for (int64_t b = 0; b < batch; ++b) {
    Eigen::Map<RowMatrix<S>> m(data + b * n * n, n, n);
    RowMatrix<S> result = RowMatrix<S>::Zero(n, n);
    bool ok;
    if (lower) {
      Eigen::LLT<RowMatrix<S>, Eigen::Lower> llt(m);
      ok = llt.info() == Eigen::Success;
      if (ok) result = llt.matrixL();
    } else {
      Eigen::LLT<RowMatrix<S>, Eigen::Upper> llt(m);
      ok = llt.info() == Eigen::Success;
      if (ok) result = llt.matrixU();
    }
    if (!ok) {
      using R = typename Eigen::NumTraits<S>::Real;
      result.setConstant(S(std::numeric_limits<R>::quiet_NaN()));
    }
    m = result;
  }
}

template <int kMode, typename S>
void Solve(const Eigen::Map<const RowMatrix<S>>& a, Eigen::Map<RowMatrix<S>>& b, bool left,
           TriangularSolveTranspose t) {
  const auto tri = a.template triangularView<kMode>();
  if (t == TriangularSolveTranspose::kNoTranspose) {
    if (left) {
      tri.solveInPlace(b);
    } else {
      tri.template solveInPlace<Eigen::OnTheRight>(b);
    }
  } else if (t == TriangularSolveTranspose::kTranspose) {
    if (left) {
      tri.transpose().solveInPlace(b);
    } else {
      tri.transpose().template solveInPlace<Eigen::OnTheRight>(b);
    }
  } else {
    if (left) {
      tri.adjoint().solveInPlace(b);
    } else {
      tri.adjoint().template solveInPlace<Eigen::OnTheRight>(b);
    }
  }
}

template <typename S>
void TriangularSolveBatch(const S* a, S* b, int64_t batch, int64_t m, int64_t n, bool left,
                          bool lower, bool unit, TriangularSolveTranspose t) {
  const int64_t k = left ? m : n;
  for (int64_t i = 0; i < batch; ++i) {
    Eigen::Map<const RowMatrix<S>> am(a + i * k * k, k, k);
    Eigen::Map<RowMatrix<S>> bm(b + i * m * n, m, n);
    if (lower && unit) Solve<Eigen::UnitLower>(am, bm, left, t);
    if (lower && !unit) Solve<Eigen::Lower>(am, bm, left, t);
    if (!lower && unit) Solve<Eigen::UnitUpper>(am, bm, left, t);
    if (!lower && !unit) Solve<Eigen::Upper>(am, bm, left, t);
  }
}

absl::StatusOr<Literal> ToComputeLiteral(const Literal& l) {
  PrimitiveType t = ComputeType(l.element_type());
  if (t == l.element_type()) return l.Clone();
  return l.Convert(t);
}

}  // namespace

absl::StatusOr<Literal> Cholesky(const Literal& a, bool lower) {
  const Shape& s = a.shape();
  if (!s.IsArray() || s.rank() < 2 || s.dimensions(s.rank() - 1) != s.dimensions(s.rank() - 2) ||
      !(primitive_util::IsFloatingPointType(s.element_type()) ||
        primitive_util::IsComplexType(s.element_type()))) {
    return absl::InvalidArgumentError(
        absl::StrCat("cholesky needs square float matrices, got ", s.ToString()));
  }
  const int64_t n = s.dimensions(s.rank() - 1);
  const int64_t batch = n == 0 ? 0 : s.num_elements() / (n * n);
  auto work = ToComputeLiteral(a);
  if (!work.ok()) return work.status();
  switch (work->element_type()) {
    case F32:
      CholeskyBatch(work->data<float>().data(), batch, n, lower);
      break;
    case F64:
      CholeskyBatch(work->data<double>().data(), batch, n, lower);
      break;
    case C64:
      CholeskyBatch(work->data<complex64>().data(), batch, n, lower);
      break;
    default:
      CholeskyBatch(work->data<complex128>().data(), batch, n, lower);
      break;
  }
  if (work->element_type() == s.element_type()) return work;
  return work->Convert(s.element_type());
}

absl::StatusOr<Literal> TriangularSolve(const Literal& a, const Literal& b, bool left_side,
                                        bool lower, bool unit_diagonal,
                                        TriangularSolveTranspose transpose_a) {
  const Shape& as = a.shape();
  const Shape& bs = b.shape();
  if (!as.IsArray() || !bs.IsArray() || as.rank() < 2 || as.rank() != bs.rank() ||
      as.element_type() != bs.element_type()) {
    return absl::InvalidArgumentError("triangular-solve needs two arrays of one type and rank");
  }
  const int64_t r = as.rank();
  const int64_t m = bs.dimensions(r - 2), n = bs.dimensions(r - 1);
  const int64_t k = left_side ? m : n;
  if (as.dimensions(r - 1) != k || as.dimensions(r - 2) != k) {
    return absl::InvalidArgumentError(absl::StrCat("triangular-solve: a ", as.ToString(),
                                                   " does not match b ", bs.ToString()));
  }
  for (int64_t d = 0; d < r - 2; ++d) {
    if (as.dimensions(d) != bs.dimensions(d)) {
      return absl::InvalidArgumentError("triangular-solve: batch dimensions differ");
    }
  }
  const int64_t batch = (m == 0 || n == 0) ? 0 : bs.num_elements() / (m * n);
  auto aw = ToComputeLiteral(a);
  if (!aw.ok()) return aw.status();
  auto bw = ToComputeLiteral(b);
  if (!bw.ok()) return bw.status();
  switch (aw->element_type()) {
    case F32:
      TriangularSolveBatch(aw->data<float>().data(), bw->data<float>().data(), batch, m, n,
                           left_side, lower, unit_diagonal, transpose_a);
      break;
    case F64:
      TriangularSolveBatch(aw->data<double>().data(), bw->data<double>().data(), batch, m, n,
                           left_side, lower, unit_diagonal, transpose_a);
      break;
    case C64:
      TriangularSolveBatch(aw->data<complex64>().data(), bw->data<complex64>().data(), batch, m, n,
                           left_side, lower, unit_diagonal, transpose_a);
      break;
    default:
      TriangularSolveBatch(aw->data<complex128>().data(), bw->data<complex128>().data(), batch, m,
                           n, left_side, lower, unit_diagonal, transpose_a);
      break;
  }
  if (bw->element_type() == bs.element_type()) return bw;
  return bw->Convert(bs.element_type());
}

}  // namespace systolic::eval
