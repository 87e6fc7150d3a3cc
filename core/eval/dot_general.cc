#include "core/eval/dot_general.h"

#include <Eigen/Core>
#include <algorithm>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "core/eval/shape_ops.h"

namespace systolic::eval {
namespace {

template <typename T>
void Gemm(const T* a, const T* b, T* c, int64_t m, int64_t k, int64_t n) {
  using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<Matrix> out(c, m, n);
  if (k == 0) {
    out.setZero();
    return;
  }
  Eigen::Map<const Matrix> lhs(a, m, k);
  Eigen::Map<const Matrix> rhs(b, k, n);
  out.noalias() = lhs * rhs;
}

// An operand with its dimensions permuted to `order`, in `type`: the
// operand's own buffer when nothing changes.
struct Canonical {
  Literal storage;
  const void* data = nullptr;
};

absl::StatusOr<Canonical> Canonicalize(const Literal& operand, const std::vector<int64_t>& order,
                                       PrimitiveType type) {
  bool identity = true;
  for (size_t i = 0; i < order.size(); ++i) identity = identity && order[i] == int64_t(i);
  Canonical c;
  if (identity && operand.element_type() == type) {
    c.data = operand.untyped_data();
    return c;
  }
  const Literal* source = &operand;
  if (!identity) {
    auto moved = Transpose(operand, order);
    if (!moved.ok()) return moved.status();
    c.storage = *std::move(moved);
    source = &c.storage;
  }
  if (source->element_type() != type) {
    auto converted = source->Convert(type);
    if (!converted.ok()) return converted.status();
    c.storage = *std::move(converted);
  }
  c.data = c.storage.untyped_data();
  return c;
}

std::vector<int64_t> FreeDims(int64_t rank, const std::vector<int64_t>& batch,
                              const std::vector<int64_t>& contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contracting.begin(), contracting.end(), d) == contracting.end()) {
      free.push_back(d);
    }
  }
  return free;
}

int64_t Product(const Shape& shape, const std::vector<int64_t>& dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= shape.dimensions(d);
  return p;
}

}  // namespace

PrimitiveType AccumulationType(PrimitiveType result_type) {
  switch (result_type) {
    case F64:
    case C64:
    case C128:
      return result_type;
    default:
      break;
  }
  if (primitive_util::IsFloatingPointType(result_type)) return F32;
  return U64;  // integers and pred: wrap-around arithmetic on 64 bits
}

absl::Status BatchMatMul(PrimitiveType type, const void* lhs, const void* rhs, void* out,
                         int64_t batch, int64_t m, int64_t k, int64_t n) {
  auto run = [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    const T* a = static_cast<const T*>(lhs);
    const T* b = static_cast<const T*>(rhs);
    T* c = static_cast<T*>(out);
    for (int64_t i = 0; i < batch; ++i) Gemm(a + i * m * k, b + i * k * n, c + i * m * n, m, k, n);
  };
  switch (type) {
    case F32:
      run(static_cast<float*>(nullptr));
      return absl::OkStatus();
    case F64:
      run(static_cast<double*>(nullptr));
      return absl::OkStatus();
    case C64:
      run(static_cast<complex64*>(nullptr));
      return absl::OkStatus();
    case C128:
      run(static_cast<complex128*>(nullptr));
      return absl::OkStatus();
    case U64:
      run(static_cast<uint64_t*>(nullptr));
      return absl::OkStatus();
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "no matrix product for ", primitive_util::LowercasePrimitiveTypeName(type)));
  }
}

absl::StatusOr<Literal> DotGeneral(const Literal& lhs, const Literal& rhs,
                                   const DotDimensionNumbers& dnums, PrimitiveType result_type) {
  if (!lhs.shape().IsArray() || !rhs.shape().IsArray()) {
    return absl::InvalidArgumentError("dot needs array operands");
  }
  const Shape& ls = lhs.shape();
  const Shape& rs = rhs.shape();
  const auto& lb = dnums.lhs_batch_dimensions;
  const auto& lc = dnums.lhs_contracting_dimensions;
  const auto& rb = dnums.rhs_batch_dimensions;
  const auto& rc = dnums.rhs_contracting_dimensions;
  if (lb.size() != rb.size() || lc.size() != rc.size()) {
    return absl::InvalidArgumentError("dot: batch / contracting dimension counts differ");
  }
  for (size_t i = 0; i < lb.size(); ++i) {
    if (lb[i] < 0 || lb[i] >= ls.rank() || rb[i] < 0 || rb[i] >= rs.rank() ||
        ls.dimensions(lb[i]) != rs.dimensions(rb[i])) {
      return absl::InvalidArgumentError(absl::StrCat("dot: batch dimensions ", i, " do not match"));
    }
  }
  for (size_t i = 0; i < lc.size(); ++i) {
    if (lc[i] < 0 || lc[i] >= ls.rank() || rc[i] < 0 || rc[i] >= rs.rank() ||
        ls.dimensions(lc[i]) != rs.dimensions(rc[i])) {
      return absl::InvalidArgumentError(
          absl::StrCat("dot: contracting dimensions ", i, " do not match"));
    }
  }
  std::vector<int64_t> lf = FreeDims(ls.rank(), lb, lc);
  std::vector<int64_t> rf = FreeDims(rs.rank(), rb, rc);
  const int64_t batch = Product(ls, lb), m = Product(ls, lf), k = Product(ls, lc),
                n = Product(rs, rf);

  std::vector<int64_t> lhs_order = lb, rhs_order = rb;
  lhs_order.insert(lhs_order.end(), lf.begin(), lf.end());
  lhs_order.insert(lhs_order.end(), lc.begin(), lc.end());
  rhs_order.insert(rhs_order.end(), rc.begin(), rc.end());
  rhs_order.insert(rhs_order.end(), rf.begin(), rf.end());

  const PrimitiveType acc = AccumulationType(result_type);
  auto a = Canonicalize(lhs, lhs_order, acc);
  if (!a.ok()) return a.status();
  auto b = Canonicalize(rhs, rhs_order, acc);
  if (!b.ok()) return b.status();

  std::vector<int64_t> out_dims;
  for (int64_t d : lb) out_dims.push_back(ls.dimensions(d));
  for (int64_t d : lf) out_dims.push_back(ls.dimensions(d));
  for (int64_t d : rf) out_dims.push_back(rs.dimensions(d));
  Literal product(Shape(acc, out_dims));
  auto status = BatchMatMul(acc, a->data, b->data, product.untyped_data(), batch, m, k, n);
  if (!status.ok()) return status;
  if (acc == result_type) return product;
  return product.Convert(result_type);
}

}  // namespace systolic::eval
