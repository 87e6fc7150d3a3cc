#include "tests/core/lazy/host_interpreter_backend.h"

#include <cmath>
#include <cstring>
#include <functional>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/status_macros.h"

namespace systolic::lazy::testing {
namespace {

class HostBuffer : public DeviceBuffer {
 public:
  HostBuffer(Literal value, int64_t device) : value_(std::move(value)), device_(device) {}
  const Shape& shape() const override { return value_.shape(); }
  int64_t device() const override { return device_; }
  const Literal& value() const { return value_; }

 private:
  Literal value_;
  int64_t device_;
};

class HostExecutable : public BackendExecutable {
 public:
  explicit HostExecutable(std::unique_ptr<HloModule> module) : module_(std::move(module)) {}
  const HloModule& module() const override { return *module_; }

 private:
  std::unique_ptr<HloModule> module_;
};

using Index = std::vector<int64_t>;

std::vector<int64_t> Strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int64_t i = int64_t(dims.size()) - 2; i >= 0; --i) strides[i] = strides[i + 1] * dims[i + 1];
  return strides;
}

int64_t Linear(const Index& index, const std::vector<int64_t>& strides) {
  int64_t l = 0;
  for (size_t i = 0; i < index.size(); ++i) l += index[i] * strides[i];
  return l;
}

// Calls fn for every index of `dims` in row-major order.
void ForEachIndex(const std::vector<int64_t>& dims, const std::function<void(const Index&)>& fn) {
  for (int64_t d : dims) {
    if (d == 0) return;
  }
  Index index(dims.size(), 0);
  while (true) {
    fn(index);
    int64_t k = int64_t(dims.size()) - 1;
    for (; k >= 0; --k) {
      if (++index[k] < dims[k]) break;
      index[k] = 0;
    }
    if (k < 0) return;
  }
}

std::vector<double> ToDoubles(const Literal& l) {
  std::vector<double> out(l.element_count());
  for (int64_t i = 0; i < l.element_count(); ++i) out[i] = l.GetAsDouble(i);
  return out;
}

Literal FromDoubles(const Shape& shape, const std::vector<double>& values) {
  Literal out(Shape(shape.element_type(), shape.dimensions()));
  for (int64_t i = 0; i < out.element_count(); ++i) {
    if (shape.element_type() == PRED) {
      out.SetFromInt64(i, values[i] != 0);
    } else {
      out.SetFromDouble(i, values[i]);
    }
  }
  return out;
}

uint64_t GetBits(const Literal& l, int64_t i) { return static_cast<uint64_t>(l.GetAsInt64(i)); }

using ScalarFn = std::function<double(double, double)>;

absl::StatusOr<ScalarFn> ScalarFunction(const HloComputation* c) {
  if (c == nullptr) return absl::InvalidArgumentError("missing called computation");
  const HloInstruction* root = c->root_instruction();
  switch (root->opcode()) {
    case HloOpcode::kAdd:
      return ScalarFn([](double a, double b) { return a + b; });
    case HloOpcode::kMultiply:
      return ScalarFn([](double a, double b) { return a * b; });
    case HloOpcode::kMaximum:
      return ScalarFn([](double a, double b) { return std::isnan(a) ? a : std::max(a, b); });
    case HloOpcode::kMinimum:
      return ScalarFn([](double a, double b) { return std::isnan(a) ? a : std::min(a, b); });
    case HloOpcode::kCompare:
      if (root->comparison_direction() == ComparisonDirection::kGe) {
        return ScalarFn([](double a, double b) { return a >= b ? 1.0 : 0.0; });
      }
      break;
    default:
      break;
  }
  return absl::UnimplementedError(absl::StrCat("test interpreter: computation ", c->name()));
}

double Unary(HloOpcode op, double x) {
  switch (op) {
    case HloOpcode::kNegate: return -x;
    case HloOpcode::kExp: return std::exp(x);
    case HloOpcode::kLog: return std::log(x);
    case HloOpcode::kTanh: return std::tanh(x);
    case HloOpcode::kLogistic: return 1.0 / (1.0 + std::exp(-x));
    case HloOpcode::kSqrt: return std::sqrt(x);
    case HloOpcode::kRsqrt: return 1.0 / std::sqrt(x);
    case HloOpcode::kAbs: return std::abs(x);
    case HloOpcode::kErf: return std::erf(x);
    case HloOpcode::kSin: return std::sin(x);
    case HloOpcode::kCos: return std::cos(x);
    case HloOpcode::kSign: return x > 0 ? 1.0 : (x < 0 ? -1.0 : x);
    case HloOpcode::kNot: return x == 0 ? 1.0 : 0.0;
    case HloOpcode::kCopy: return x;
    default: return std::nan("");
  }
}

double Binary(HloOpcode op, double a, double b) {
  switch (op) {
    case HloOpcode::kAdd: return a + b;
    case HloOpcode::kSubtract: return a - b;
    case HloOpcode::kMultiply: return a * b;
    case HloOpcode::kDivide: return a / b;
    case HloOpcode::kMaximum: return std::isnan(a) || std::isnan(b) ? std::nan("") : std::max(a, b);
    case HloOpcode::kMinimum: return std::isnan(a) || std::isnan(b) ? std::nan("") : std::min(a, b);
    case HloOpcode::kPower: return std::pow(a, b);
    default: return std::nan("");
  }
}

bool Compare(ComparisonDirection d, double a, double b) {
  switch (d) {
    case ComparisonDirection::kEq: return a == b;
    case ComparisonDirection::kNe: return a != b;
    case ComparisonDirection::kGe: return a >= b;
    case ComparisonDirection::kGt: return a > b;
    case ComparisonDirection::kLe: return a <= b;
    case ComparisonDirection::kLt: return a < b;
  }
  return false;
}

// The position in the base (input) of window element `k` of output
// position `o`, or -1 when it falls into padding or a dilation hole.
int64_t BasePosition(int64_t o, int64_t k, const WindowDimension& w, int64_t base_size) {
  const int64_t dilated = o * w.stride + k * w.window_dilation - w.padding_low;
  if (dilated < 0 || dilated % w.base_dilation != 0) return -1;
  const int64_t pos = dilated / w.base_dilation;
  return pos < base_size ? pos : -1;
}

absl::StatusOr<Literal> Dot(const HloInstruction& instr, const Literal& lhs, const Literal& rhs) {
  const DotDimensionNumbers& dn = instr.dot_dimension_numbers();
  const auto& ld = lhs.shape().dimensions();
  const auto& rd = rhs.shape().dimensions();
  auto free_dims = [](int64_t rank, const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    std::vector<int64_t> out;
    for (int64_t i = 0; i < rank; ++i) {
      if (std::find(a.begin(), a.end(), i) == a.end() && std::find(b.begin(), b.end(), i) == b.end())
        out.push_back(i);
    }
    return out;
  };
  const auto lf = free_dims(int64_t(ld.size()), dn.lhs_batch_dimensions, dn.lhs_contracting_dimensions);
  const auto rf = free_dims(int64_t(rd.size()), dn.rhs_batch_dimensions, dn.rhs_contracting_dimensions);
  std::vector<int64_t> contract_dims;
  for (int64_t c : dn.lhs_contracting_dimensions) contract_dims.push_back(ld[c]);
  const auto a = ToDoubles(lhs), b = ToDoubles(rhs);
  const auto ls = Strides(ld), rs = Strides(rd);
  std::vector<double> out(instr.shape().num_elements());
  const auto os = Strides(instr.shape().dimensions());
  ForEachIndex(instr.shape().dimensions(), [&](const Index& o) {
    Index li(ld.size(), 0), ri(rd.size(), 0);
    size_t p = 0;
    for (size_t i = 0; i < dn.lhs_batch_dimensions.size(); ++i, ++p) {
      li[dn.lhs_batch_dimensions[i]] = o[p];
      ri[dn.rhs_batch_dimensions[i]] = o[p];
    }
    for (int64_t d : lf) li[d] = o[p++];
    for (int64_t d : rf) ri[d] = o[p++];
    double sum = 0;
    ForEachIndex(contract_dims, [&](const Index& c) {
      for (size_t i = 0; i < c.size(); ++i) {
        li[dn.lhs_contracting_dimensions[i]] = c[i];
        ri[dn.rhs_contracting_dimensions[i]] = c[i];
      }
      sum += a[Linear(li, ls)] * b[Linear(ri, rs)];
    });
    if (contract_dims.empty()) sum = a[Linear(li, ls)] * b[Linear(ri, rs)];
    out[Linear(o, os)] = sum;
  });
  return FromDoubles(instr.shape(), out);
}

absl::StatusOr<Literal> Convolution(const HloInstruction& instr, const Literal& lhs,
                                    const Literal& rhs) {
  if (instr.feature_group_count() != 1 || instr.batch_group_count() != 1) {
    return absl::UnimplementedError("test interpreter: grouped convolution");
  }
  const ConvolutionDimensionNumbers& dn = instr.convolution_dimension_numbers();
  const auto& win = instr.window().dimensions;
  const auto& ld = lhs.shape().dimensions();
  const auto& kd = rhs.shape().dimensions();
  const auto a = ToDoubles(lhs), k = ToDoubles(rhs);
  const auto ls = Strides(ld), ks = Strides(kd);
  const auto os = Strides(instr.shape().dimensions());
  const int64_t in_features = ld[dn.input_feature_dimension];
  std::vector<int64_t> kernel_spatial;
  for (int64_t d : dn.kernel_spatial_dimensions) kernel_spatial.push_back(kd[d]);
  std::vector<double> out(instr.shape().num_elements());
  ForEachIndex(instr.shape().dimensions(), [&](const Index& o) {
    Index li(ld.size(), 0), ki(kd.size(), 0);
    li[dn.input_batch_dimension] = o[dn.output_batch_dimension];
    ki[dn.kernel_output_feature_dimension] = o[dn.output_feature_dimension];
    double sum = 0;
    ForEachIndex(kernel_spatial, [&](const Index& kk) {
      for (size_t s = 0; s < kk.size(); ++s) {
        const WindowDimension& w = win[s];
        const int64_t pos = BasePosition(o[dn.output_spatial_dimensions[s]], kk[s], w,
                                         ld[dn.input_spatial_dimensions[s]]);
        if (pos < 0) return;
        li[dn.input_spatial_dimensions[s]] = pos;
        ki[dn.kernel_spatial_dimensions[s]] = w.window_reversal ? w.size - 1 - kk[s] : kk[s];
      }
      for (int64_t f = 0; f < in_features; ++f) {
        li[dn.input_feature_dimension] = f;
        ki[dn.kernel_input_feature_dimension] = f;
        sum += a[Linear(li, ls)] * k[Linear(ki, ks)];
      }
    });
    out[Linear(o, os)] = sum;
  });
  return FromDoubles(instr.shape(), out);
}

absl::StatusOr<Literal> ReduceWindow(const HloInstruction& instr, const Literal& x,
                                     const Literal& init) {
  SYSTOLIC_ASSIGN_OR_RETURN(ScalarFn fn, ScalarFunction(instr.to_apply()));
  const auto& win = instr.window().dimensions;
  const auto& xd = x.shape().dimensions();
  const auto a = ToDoubles(x);
  const auto xs = Strides(xd);
  const auto os = Strides(instr.shape().dimensions());
  std::vector<int64_t> sizes;
  for (const auto& w : win) sizes.push_back(w.size);
  const double init_value = init.GetAsDouble(0);
  std::vector<double> out(instr.shape().num_elements());
  ForEachIndex(instr.shape().dimensions(), [&](const Index& o) {
    double acc = init_value;
    Index xi(xd.size());
    ForEachIndex(sizes, [&](const Index& kk) {
      for (size_t d = 0; d < kk.size(); ++d) {
        const int64_t pos = BasePosition(o[d], kk[d], win[d], xd[d]);
        if (pos < 0) return;
        xi[d] = pos;
      }
      acc = fn(acc, a[Linear(xi, xs)]);
    });
    out[Linear(o, os)] = acc;
  });
  return FromDoubles(instr.shape(), out);
}

absl::StatusOr<Literal> SelectAndScatter(const HloInstruction& instr, const Literal& operand,
                                         const Literal& source, const Literal& init) {
  SYSTOLIC_ASSIGN_OR_RETURN(ScalarFn select, ScalarFunction(instr.select()));
  SYSTOLIC_ASSIGN_OR_RETURN(ScalarFn scatter, ScalarFunction(instr.scatter()));
  const auto& win = instr.window().dimensions;
  const auto& xd = operand.shape().dimensions();
  const auto a = ToDoubles(operand), s = ToDoubles(source);
  const auto xs = Strides(xd);
  const auto ss = Strides(source.shape().dimensions());
  std::vector<int64_t> sizes;
  for (const auto& w : win) sizes.push_back(w.size);
  std::vector<double> out(operand.element_count(), init.GetAsDouble(0));
  ForEachIndex(source.shape().dimensions(), [&](const Index& o) {
    int64_t selected = -1;
    Index xi(xd.size());
    ForEachIndex(sizes, [&](const Index& kk) {
      for (size_t d = 0; d < kk.size(); ++d) {
        const int64_t pos = BasePosition(o[d], kk[d], win[d], xd[d]);
        if (pos < 0) return;
        xi[d] = pos;
      }
      const int64_t l = Linear(xi, xs);
      if (selected < 0 || select(a[selected], a[l]) == 0) selected = l;
    });
    if (selected >= 0) out[selected] = scatter(out[selected], s[Linear(o, ss)]);
  });
  return FromDoubles(operand.shape(), out);
}

absl::StatusOr<Literal> Gather(const HloInstruction& instr, const Literal& operand,
                               const Literal& indices) {
  const GatherDimensionNumbers& dn = instr.gather_dimension_numbers();
  const auto& xd = operand.shape().dimensions();
  const auto& id = indices.shape().dimensions();
  const auto& od = instr.shape().dimensions();
  const auto a = ToDoubles(operand);
  const auto xs = Strides(xd);
  const auto os = Strides(od);
  std::vector<int64_t> batch_dims;  // output dims that index the indices
  for (int64_t i = 0; i < int64_t(od.size()); ++i) {
    if (std::find(dn.offset_dims.begin(), dn.offset_dims.end(), i) == dn.offset_dims.end())
      batch_dims.push_back(i);
  }
  std::vector<int64_t> window_operand_dims;  // operand dims the offsets run over
  for (int64_t i = 0; i < int64_t(xd.size()); ++i) {
    if (std::find(dn.collapsed_slice_dims.begin(), dn.collapsed_slice_dims.end(), i) ==
        dn.collapsed_slice_dims.end())
      window_operand_dims.push_back(i);
  }
  const bool implicit_vector = dn.index_vector_dim == int64_t(id.size());
  const auto is = Strides(id);
  std::vector<double> out(instr.shape().num_elements());
  ForEachIndex(od, [&](const Index& o) {
    Index start(xd.size(), 0);
    for (size_t k = 0; k < dn.start_index_map.size(); ++k) {
      Index ii;
      size_t b = 0;
      for (int64_t d = 0; d < int64_t(id.size()) + (implicit_vector ? 1 : 0); ++d) {
        if (d == dn.index_vector_dim) {
          if (!implicit_vector) ii.push_back(int64_t(k));
        } else {
          ii.push_back(o[batch_dims[b++]]);
        }
      }
      const int64_t operand_dim = dn.start_index_map[k];
      const int64_t raw = indices.GetAsInt64(Linear(ii, is));
      start[operand_dim] =
          std::clamp<int64_t>(raw, 0, xd[operand_dim] - instr.slice_sizes()[operand_dim]);
    }
    Index xi = start;
    for (size_t w = 0; w < window_operand_dims.size(); ++w) {
      xi[window_operand_dims[w]] += o[dn.offset_dims[w]];
    }
    out[Linear(o, os)] = a[Linear(xi, xs)];
  });
  return FromDoubles(instr.shape(), out);
}

absl::StatusOr<Literal> Scatter(const HloInstruction& instr, const Literal& operand,
                                const Literal& indices, const Literal& updates) {
  SYSTOLIC_ASSIGN_OR_RETURN(ScalarFn fn, ScalarFunction(instr.to_apply()));
  const ScatterDimensionNumbers& dn = instr.scatter_dimension_numbers();
  const auto& xd = operand.shape().dimensions();
  const auto& id = indices.shape().dimensions();
  const auto& ud = updates.shape().dimensions();
  std::vector<double> out = ToDoubles(operand);
  const auto u = ToDoubles(updates);
  const auto xs = Strides(xd), us = Strides(ud), is = Strides(id);
  std::vector<int64_t> scatter_dims;
  for (int64_t i = 0; i < int64_t(ud.size()); ++i) {
    if (std::find(dn.update_window_dims.begin(), dn.update_window_dims.end(), i) ==
        dn.update_window_dims.end())
      scatter_dims.push_back(i);
  }
  std::vector<int64_t> window_operand_dims;
  for (int64_t i = 0; i < int64_t(xd.size()); ++i) {
    if (std::find(dn.inserted_window_dims.begin(), dn.inserted_window_dims.end(), i) ==
        dn.inserted_window_dims.end())
      window_operand_dims.push_back(i);
  }
  const bool implicit_vector = dn.index_vector_dim == int64_t(id.size());
  ForEachIndex(ud, [&](const Index& ui) {
    Index xi(xd.size(), 0);
    for (size_t k = 0; k < dn.scatter_dims_to_operand_dims.size(); ++k) {
      Index ii;
      size_t b = 0;
      for (int64_t d = 0; d < int64_t(id.size()) + (implicit_vector ? 1 : 0); ++d) {
        if (d == dn.index_vector_dim) {
          if (!implicit_vector) ii.push_back(int64_t(k));
        } else {
          ii.push_back(ui[scatter_dims[b++]]);
        }
      }
      xi[dn.scatter_dims_to_operand_dims[k]] = indices.GetAsInt64(Linear(ii, is));
    }
    for (size_t w = 0; w < window_operand_dims.size(); ++w) {
      xi[window_operand_dims[w]] += ui[dn.update_window_dims[w]];
    }
    for (size_t d = 0; d < xd.size(); ++d) {
      if (xi[d] < 0 || xi[d] >= xd[d]) return;  // out of bounds: skipped
    }
    const int64_t l = Linear(xi, xs);
    out[l] = fn(out[l], u[Linear(ui, us)]);
  });
  return FromDoubles(operand.shape(), out);
}

// One instruction on one replica (collectives are handled by the caller).
absl::StatusOr<Literal> Evaluate(const HloInstruction& instr,
                                 const std::vector<const Literal*>& ops) {
  const Shape& shape = instr.shape();
  const HloOpcode op = instr.opcode();
  if (HloOpcodeIsElementwiseUnary(op) || op == HloOpcode::kCopy) {
    if (op == HloOpcode::kConvert) {
      return FromDoubles(shape, ToDoubles(*ops[0]));
    }
    if (op == HloOpcode::kBitcastConvert) {
      Literal out(Shape(shape.element_type(), shape.dimensions()));
      if (out.size_bytes() != ops[0]->size_bytes()) {
        return absl::UnimplementedError("test interpreter: bitcast-convert of another width");
      }
      std::memcpy(out.untyped_data(), ops[0]->untyped_data(), out.size_bytes());
      return out;
    }
    std::vector<double> v = ToDoubles(*ops[0]);
    for (double& x : v) x = Unary(op, x);
    return FromDoubles(shape, v);
  }
  switch (op) {
    case HloOpcode::kConstant:
      return instr.literal().Clone();
    case HloOpcode::kAdd:
    case HloOpcode::kSubtract:
    case HloOpcode::kMultiply:
    case HloOpcode::kDivide:
    case HloOpcode::kMaximum:
    case HloOpcode::kMinimum:
    case HloOpcode::kPower: {
      std::vector<double> a = ToDoubles(*ops[0]);
      const std::vector<double> b = ToDoubles(*ops[1]);
      for (size_t i = 0; i < a.size(); ++i) a[i] = Binary(op, a[i], b[i]);
      return FromDoubles(shape, a);
    }
    case HloOpcode::kShiftRightLogical:
    case HloOpcode::kOr:
    case HloOpcode::kAnd: {
      Literal out(Shape(shape.element_type(), shape.dimensions()));
      for (int64_t i = 0; i < out.element_count(); ++i) {
        const uint64_t a = GetBits(*ops[0], i), b = GetBits(*ops[1], i);
        const uint64_t r = op == HloOpcode::kOr ? (a | b) : op == HloOpcode::kAnd ? (a & b) : (a >> b);
        out.SetFromInt64(i, int64_t(r));
      }
      return out;
    }
    case HloOpcode::kCompare: {
      const std::vector<double> a = ToDoubles(*ops[0]), b = ToDoubles(*ops[1]);
      std::vector<double> r(a.size());
      for (size_t i = 0; i < a.size(); ++i) r[i] = Compare(instr.comparison_direction(), a[i], b[i]);
      return FromDoubles(shape, r);
    }
    case HloOpcode::kSelect: {
      const std::vector<double> p = ToDoubles(*ops[0]), a = ToDoubles(*ops[1]),
                                b = ToDoubles(*ops[2]);
      std::vector<double> r(a.size());
      for (size_t i = 0; i < a.size(); ++i) r[i] = (p.size() == 1 ? p[0] : p[i]) != 0 ? a[i] : b[i];
      return FromDoubles(shape, r);
    }
    case HloOpcode::kBroadcast: {
      const auto in = ToDoubles(*ops[0]);
      const auto is = Strides(ops[0]->shape().dimensions());
      const auto os = Strides(shape.dimensions());
      std::vector<double> out(shape.num_elements());
      ForEachIndex(shape.dimensions(), [&](const Index& o) {
        Index i(instr.dimensions().size());
        for (size_t k = 0; k < i.size(); ++k) i[k] = o[instr.dimensions(k)];
        out[Linear(o, os)] = in[Linear(i, is)];
      });
      return FromDoubles(shape, out);
    }
    case HloOpcode::kReshape:
      return ops[0]->Reshape(shape.dimensions());
    case HloOpcode::kTranspose:
    case HloOpcode::kReverse:
    case HloOpcode::kSlice: {
      const auto in = ToDoubles(*ops[0]);
      const auto& id = ops[0]->shape().dimensions();
      const auto is = Strides(id);
      const auto os = Strides(shape.dimensions());
      std::vector<double> out(shape.num_elements());
      ForEachIndex(shape.dimensions(), [&](const Index& o) {
        Index i(id.size());
        for (size_t k = 0; k < id.size(); ++k) {
          if (op == HloOpcode::kTranspose) {
            i[instr.dimensions(k)] = o[k];
          } else if (op == HloOpcode::kReverse) {
            const auto& ds = instr.dimensions();
            i[k] = std::find(ds.begin(), ds.end(), int64_t(k)) != ds.end() ? id[k] - 1 - o[k] : o[k];
          } else {
            i[k] = instr.slice_starts()[k] + o[k] * instr.slice_strides()[k];
          }
        }
        out[Linear(o, os)] = in[Linear(i, is)];
      });
      return FromDoubles(shape, out);
    }
    case HloOpcode::kConcatenate: {
      const int64_t dim = instr.concatenate_dimension();
      const auto os = Strides(shape.dimensions());
      std::vector<double> out(shape.num_elements());
      int64_t offset = 0;
      for (const Literal* part : ops) {
        const auto in = ToDoubles(*part);
        const auto is = Strides(part->shape().dimensions());
        ForEachIndex(part->shape().dimensions(), [&](const Index& i) {
          Index o = i;
          o[dim] += offset;
          out[Linear(o, os)] = in[Linear(i, is)];
        });
        offset += part->shape().dimensions(dim);
      }
      return FromDoubles(shape, out);
    }
    case HloOpcode::kPad: {
      const auto in = ToDoubles(*ops[0]);
      const auto& id = ops[0]->shape().dimensions();
      const auto is = Strides(id);
      const auto os = Strides(shape.dimensions());
      std::vector<double> out(shape.num_elements(), ops[1]->GetAsDouble(0));
      ForEachIndex(id, [&](const Index& i) {
        Index o(i.size());
        for (size_t k = 0; k < i.size(); ++k) {
          const PaddingDimension& p = instr.padding_config().dimensions[k];
          o[k] = p.edge_padding_low + i[k] * (p.interior_padding + 1);
          if (o[k] < 0 || o[k] >= shape.dimensions(k)) return;
        }
        out[Linear(o, os)] = in[Linear(i, is)];
      });
      return FromDoubles(shape, out);
    }
    case HloOpcode::kIota: {
      const auto os = Strides(shape.dimensions());
      std::vector<double> out(shape.num_elements());
      ForEachIndex(shape.dimensions(), [&](const Index& o) {
        out[Linear(o, os)] = double(o[instr.iota_dimension()]);
      });
      return FromDoubles(shape, out);
    }
    case HloOpcode::kReduce: {
      SYSTOLIC_ASSIGN_OR_RETURN(ScalarFn fn, ScalarFunction(instr.to_apply()));
      const auto in = ToDoubles(*ops[0]);
      const auto& id = ops[0]->shape().dimensions();
      const auto is = Strides(id);
      const auto os = Strides(shape.dimensions());
      std::vector<double> out(shape.num_elements(), ops[1]->GetAsDouble(0));
      const auto& reduced = instr.dimensions();
      ForEachIndex(id, [&](const Index& i) {
        Index o;
        for (size_t k = 0; k < i.size(); ++k) {
          if (std::find(reduced.begin(), reduced.end(), int64_t(k)) == reduced.end()) o.push_back(i[k]);
        }
        const int64_t l = Linear(o, os);
        out[l] = fn(out[l], in[Linear(i, is)]);
      });
      return FromDoubles(shape, out);
    }
    case HloOpcode::kDot:
      return Dot(instr, *ops[0], *ops[1]);
    case HloOpcode::kConvolution:
      return Convolution(instr, *ops[0], *ops[1]);
    case HloOpcode::kReduceWindow:
      return ReduceWindow(instr, *ops[0], *ops[1]);
    case HloOpcode::kSelectAndScatter:
      return SelectAndScatter(instr, *ops[0], *ops[1], *ops[2]);
    case HloOpcode::kGather:
      return Gather(instr, *ops[0], *ops[1]);
    case HloOpcode::kScatter:
      return Scatter(instr, *ops[0], *ops[1], *ops[2]);
    case HloOpcode::kTuple: {
      std::vector<Literal> elements;
      for (const Literal* e : ops) elements.push_back(e->Clone());
      return Literal::MakeTuple(std::move(elements));
    }
    case HloOpcode::kGetTupleElement:
      return ops[0]->tuple_element(instr.tuple_index()).Clone();
    case HloOpcode::kCustomCall:
      if (instr.custom_call_target() == "Sharding") return ops[0]->Clone();
      break;
    case HloOpcode::kRngBitGenerator: {
      // splitmix64 over (state0, counter); a stand-in for three-fry.
      const Literal& state = *ops[0];
      const uint64_t key = state.data<uint64_t>()[0];
      uint64_t counter = state.data<uint64_t>()[1];
      const Shape& bits_shape = shape.tuple_shapes(1);
      Literal bits(Shape(bits_shape.element_type(), bits_shape.dimensions()));
      for (int64_t i = 0; i < bits.element_count(); ++i) {
        uint64_t z = key + 0x9E3779B97F4A7C15ull * (++counter);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        bits.SetFromInt64(i, int64_t(z & 0xFFFFFFFFull));
      }
      Literal new_state(state.shape());
      new_state.data<uint64_t>()[0] = key;
      new_state.data<uint64_t>()[1] = counter;
      return Literal::MakeTupleOwned(std::move(new_state), std::move(bits));
    }
    default:
      break;
  }
  return absl::UnimplementedError(
      absl::StrCat("test interpreter: ", HloOpcodeString(op), " (", instr.name(), ")"));
}

// The replicas of `groups` that `replica` exchanges with, in group order.
std::vector<int64_t> GroupOf(const HloInstruction& instr, int64_t replica, int64_t replicas) {
  for (const auto& group : instr.replica_groups()) {
    if (std::find(group.begin(), group.end(), replica) != group.end()) return group;
  }
  std::vector<int64_t> all(replicas);
  for (int64_t i = 0; i < replicas; ++i) all[i] = i;
  return all;
}

absl::StatusOr<std::vector<Literal>> Collective(const HloInstruction& instr,
                                                const std::vector<const Literal*>& inputs) {
  const int64_t replicas = int64_t(inputs.size());
  std::vector<Literal> out;
  for (int64_t r = 0; r < replicas; ++r) {
    const std::vector<int64_t> group = GroupOf(instr, r, replicas);
    const int64_t rank = std::find(group.begin(), group.end(), r) - group.begin();
    if (instr.opcode() == HloOpcode::kAllGather) {
      std::vector<const Literal*> parts;
      for (int64_t g : group) parts.push_back(inputs[g]);
      auto concat = HloInstruction::Create(HloOpcode::kConcatenate, instr.shape(), {});
      concat->set_dimensions({instr.dimensions(0)});
      SYSTOLIC_ASSIGN_OR_RETURN(Literal gathered, Evaluate(*concat, parts));
      out.push_back(std::move(gathered));
      continue;
    }
    SYSTOLIC_ASSIGN_OR_RETURN(ScalarFn fn, ScalarFunction(instr.to_apply()));
    std::vector<double> sum = ToDoubles(*inputs[group[0]]);
    for (size_t g = 1; g < group.size(); ++g) {
      const auto v = ToDoubles(*inputs[group[g]]);
      for (size_t i = 0; i < sum.size(); ++i) sum[i] = fn(sum[i], v[i]);
    }
    Literal reduced = FromDoubles(inputs[r]->shape(), sum);
    if (instr.opcode() == HloOpcode::kAllReduce) {
      out.push_back(std::move(reduced));
      continue;
    }
    // reduce-scatter: this replica's part along the dimension.
    const int64_t dim = instr.dimensions(0);
    const int64_t part = instr.shape().dimensions(dim);
    auto slice = HloInstruction::Create(HloOpcode::kSlice, instr.shape(), {});
    std::vector<int64_t> starts(instr.shape().rank(), 0), limits = reduced.shape().dimensions(),
                                                          strides(instr.shape().rank(), 1);
    starts[dim] = rank * part;
    limits[dim] = (rank + 1) * part;
    slice->set_slice(starts, limits, strides);
    SYSTOLIC_ASSIGN_OR_RETURN(Literal mine, Evaluate(*slice, {&reduced}));
    out.push_back(std::move(mine));
  }
  return out;
}

}  // namespace

absl::StatusOr<BufferPtr> HostInterpreterBackend::TransferToDevice(const Literal& literal,
                                                                   int64_t device) {
  if (device < 0 || device >= device_count_) {
    return absl::InvalidArgumentError(absl::StrCat("no device ", device));
  }
  return std::make_shared<HostBuffer>(literal.Clone(), device);
}

absl::StatusOr<Literal> HostInterpreterBackend::TransferToHost(const DeviceBuffer& buffer) {
  return static_cast<const HostBuffer&>(buffer).value().Clone();
}

absl::StatusOr<BackendCompileResult> HostInterpreterBackend::Compile(
    std::unique_ptr<HloModule> module, const BackendCompileOptions& options) {
  ++compile_count_;
  BackendCompileResult result;
  result.executable = std::make_shared<HostExecutable>(std::move(module));
  return result;
}

absl::StatusOr<std::vector<std::vector<BufferPtr>>> HostInterpreterBackend::Execute(
    const BackendExecutable& executable, absl::Span<const std::vector<BufferPtr>> arguments) {
  ++execute_count_;
  const HloComputation& entry = *executable.module().entry_computation();
  const int64_t replicas = int64_t(arguments.size());
  absl::flat_hash_map<const HloInstruction*, std::vector<Literal>> values;
  for (HloInstruction* instr : entry.MakeInstructionPostOrder()) {
    std::vector<Literal> results;
    if (instr->opcode() == HloOpcode::kParameter) {
      for (int64_t r = 0; r < replicas; ++r) {
        const auto& buffer = static_cast<const HostBuffer&>(*arguments[r][instr->parameter_number()]);
        results.push_back(buffer.value().Clone());
      }
    } else if (instr->opcode() == HloOpcode::kAllReduce ||
               instr->opcode() == HloOpcode::kAllGather ||
               instr->opcode() == HloOpcode::kReduceScatter) {
      std::vector<const Literal*> inputs;
      for (int64_t r = 0; r < replicas; ++r) inputs.push_back(&values.at(instr->operand(0))[r]);
      SYSTOLIC_ASSIGN_OR_RETURN(results, Collective(*instr, inputs));
    } else {
      for (int64_t r = 0; r < replicas; ++r) {
        std::vector<const Literal*> ops;
        for (const HloInstruction* operand : instr->operands()) ops.push_back(&values.at(operand)[r]);
        SYSTOLIC_ASSIGN_OR_RETURN(Literal value, Evaluate(*instr, ops));
        results.push_back(std::move(value));
      }
    }
    values[instr] = std::move(results);
  }
  std::vector<std::vector<BufferPtr>> outputs(replicas);
  std::vector<Literal>& root = values.at(entry.root_instruction());
  for (int64_t r = 0; r < replicas; ++r) {
    if (root[r].shape().IsTuple()) {
      std::vector<Literal> elements = std::move(root[r]).DecomposeTuple();
      for (Literal& e : elements) outputs[r].push_back(std::make_shared<HostBuffer>(std::move(e), r));
    } else {
      outputs[r].push_back(std::make_shared<HostBuffer>(std::move(root[r]), r));
    }
  }
  return outputs;
}

}  // namespace systolic::lazy::testing
