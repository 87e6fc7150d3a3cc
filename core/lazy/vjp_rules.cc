#include "core/lazy/vjp_rules.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/convolution_vjp.h"
#include "core/lazy/graph_ops.h"
#include "core/lazy/scan.h"

namespace systolic::lazy {
namespace {

using graph::Binary;

absl::StatusOr<NodePtr> Mul(const NodePtr& a, const NodePtr& b) {
  return Binary(HloOpcode::kMultiply, a, b, "mul");
}
absl::StatusOr<NodePtr> Div(const NodePtr& a, const NodePtr& b) {
  return Binary(HloOpcode::kDivide, a, b, "div");
}
absl::StatusOr<NodePtr> Sub(const NodePtr& a, const NodePtr& b) {
  return Binary(HloOpcode::kSubtract, a, b, "sub");
}
absl::StatusOr<NodePtr> Neg(const NodePtr& a) { return graph::Unary(HloOpcode::kNegate, a, "neg"); }
absl::StatusOr<NodePtr> Like(const NodePtr& x, double value) {
  return graph::Full(value, x->shape(), "constant");
}
// `value` where `mask`, else zero.
absl::StatusOr<NodePtr> Masked(const NodePtr& mask, const NodePtr& value, bool keep_where_true) {
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr zero, Like(value, 0));
  return keep_where_true ? graph::Select(mask, value, zero, "select")
                         : graph::Select(mask, zero, value, "select");
}

std::vector<int64_t> Inverse(absl::Span<const int64_t> permutation) {
  std::vector<int64_t> inverse(permutation.size());
  for (size_t i = 0; i < permutation.size(); ++i) inverse[permutation[i]] = int64_t(i);
  return inverse;
}

// Dimensions of `rank` not in `excluded`, increasing.
std::vector<int64_t> Remaining(int64_t rank, absl::Span<const int64_t> a,
                               absl::Span<const int64_t> b = {}) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < rank; ++i) {
    if (std::find(a.begin(), a.end(), i) == a.end() &&
        std::find(b.begin(), b.end(), i) == b.end()) {
      out.push_back(i);
    }
  }
  return out;
}

// Cotangent of a broadcast's operand: summed over the new dimensions.
absl::StatusOr<NodePtr> UnBroadcast(const Node& node, const NodePtr& g) {
  const std::vector<int64_t>& dims = node.proto().dimensions();
  const std::vector<int64_t> summed = Remaining(node.shape().rank(), dims);
  NodePtr reduced = g;
  if (!summed.empty()) {
    SYSTOLIC_ASSIGN_OR_RETURN(reduced, graph::Reduce(g, summed, ScalarComputation::kAdd, "sum"));
  }
  // The kept dimensions come out in increasing order; operand dimension i
  // is output dimension dims[i].
  std::vector<int64_t> sorted = dims;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> permutation(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    permutation[i] = std::find(sorted.begin(), sorted.end(), dims[i]) - sorted.begin();
  }
  SYSTOLIC_ASSIGN_OR_RETURN(reduced, graph::Transpose(reduced, permutation));
  return graph::Reshape(reduced, node.operand(0)->shape().dimensions());
}

// Cotangents of a dot's operands: dots of the cotangent with the other
// operand, transposed back to the operand's dimension order.
absl::StatusOr<NodePtr> DotOperandCotangent(const Node& node, const NodePtr& g, bool for_lhs) {
  const DotDimensionNumbers& dn = node.proto().dot_dimension_numbers();
  const NodePtr& lhs = node.operand(0);
  const NodePtr& rhs = node.operand(1);
  const std::vector<int64_t> lhs_free =
      Remaining(lhs->shape().rank(), dn.lhs_batch_dimensions, dn.lhs_contracting_dimensions);
  const std::vector<int64_t> rhs_free =
      Remaining(rhs->shape().rank(), dn.rhs_batch_dimensions, dn.rhs_contracting_dimensions);
  const int64_t nb = int64_t(dn.lhs_batch_dimensions.size());

  // This operand's and the other's roles.
  const NodePtr& self = for_lhs ? lhs : rhs;
  const NodePtr& other = for_lhs ? rhs : lhs;
  const auto& self_batch = for_lhs ? dn.lhs_batch_dimensions : dn.rhs_batch_dimensions;
  const auto& other_batch = for_lhs ? dn.rhs_batch_dimensions : dn.lhs_batch_dimensions;
  const auto& self_contracting =
      for_lhs ? dn.lhs_contracting_dimensions : dn.rhs_contracting_dimensions;
  const auto& other_contracting =
      for_lhs ? dn.rhs_contracting_dimensions : dn.lhs_contracting_dimensions;
  const std::vector<int64_t>& self_free = for_lhs ? lhs_free : rhs_free;
  const std::vector<int64_t>& other_free = for_lhs ? rhs_free : lhs_free;
  // Where the other operand's free dimensions sit in the cotangent.
  const int64_t other_free_start = for_lhs ? nb + int64_t(lhs_free.size()) : nb;

  DotDimensionNumbers t;
  for (int64_t i = 0; i < nb; ++i) t.lhs_batch_dimensions.push_back(i);
  t.rhs_batch_dimensions = other_batch;
  for (size_t j = 0; j < other_free.size(); ++j) {
    t.lhs_contracting_dimensions.push_back(other_free_start + int64_t(j));
  }
  t.rhs_contracting_dimensions = other_free;

  // Result: batch, this operand's free dimensions, then the other's
  // contracting dimensions in increasing order, which pair with this
  // operand's contracting dimensions.
  std::vector<int64_t> meaning(self_batch.begin(), self_batch.end());
  meaning.insert(meaning.end(), self_free.begin(), self_free.end());
  std::vector<int64_t> other_contracting_sorted = other_contracting;
  std::sort(other_contracting_sorted.begin(), other_contracting_sorted.end());
  for (int64_t d : other_contracting_sorted) {
    const size_t k = std::find(other_contracting.begin(), other_contracting.end(), d) -
                     other_contracting.begin();
    meaning.push_back(self_contracting[k]);
  }

  const PrimitiveType type = self->shape().element_type();
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr cot, graph::Convert(g, type, "convert"));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr other_typed, graph::Convert(other, type, "convert"));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr product, graph::Dot(cot, other_typed, t, std::nullopt, "dot"));
  return graph::Transpose(product, Inverse(meaning));
}

// Cotangent of a max / min reduction: shared equally by the elements that
// attained the extreme.
absl::StatusOr<NodePtr> ExtremeReduceCotangent(const NodePtr& y, const NodePtr& g) {
  const Node& node = *y;
  const NodePtr& x = node.operand(0);
  const std::vector<int64_t> kept = Remaining(x->shape().rank(), node.proto().dimensions());
  const auto& dims = x->shape().dimensions();
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr y_b, graph::Broadcast(y, dims, kept));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr hit, graph::Compare(x, y_b, ComparisonDirection::kEq));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr ones, graph::Convert(hit, x->shape().element_type()));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr count, graph::Reduce(ones, node.proto().dimensions(),
                                                         ScalarComputation::kAdd, "count"));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr share, Div(g, count));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr share_b, graph::Broadcast(share, dims, kept));
  return Masked(hit, share_b, true);
}

absl::StatusOr<NodePtr> SliceCotangent(const Node& node, const NodePtr& g) {
  const Shape& in = node.operand(0)->shape();
  PaddingConfig padding;
  for (int64_t i = 0; i < in.rank(); ++i) {
    const int64_t start = node.proto().slice_starts()[i];
    const int64_t stride = node.proto().slice_strides()[i];
    const int64_t out = node.shape().dimensions(i);
    PaddingDimension p;
    p.edge_padding_low = start;
    p.interior_padding = stride - 1;
    p.edge_padding_high = out == 0 ? in.dimensions(i) - start
                                   : in.dimensions(i) - 1 - (start + (out - 1) * stride);
    padding.dimensions.push_back(p);
  }
  return graph::Pad(g, graph::ScalarConstant(0, g->shape().element_type(), "zero"), padding,
                    "pad");
}

absl::StatusOr<NodePtr> PadOperandCotangent(const Node& node, const NodePtr& g) {
  const Shape& in = node.operand(0)->shape();
  std::vector<int64_t> starts, limits, strides;
  for (int64_t i = 0; i < in.rank(); ++i) {
    const PaddingDimension& p = node.proto().padding_config().dimensions[i];
    if (p.edge_padding_low < 0 || p.edge_padding_high < 0) {
      return absl::UnimplementedError(absl::StrCat(
          "no gradient for ", node.metadata().op_name, ": negative padding is not supported"));
    }
    starts.push_back(p.edge_padding_low);
    strides.push_back(p.interior_padding + 1);
    limits.push_back(p.edge_padding_low + (in.dimensions(i) - 1) * (p.interior_padding + 1) + 1);
  }
  return graph::Slice(g, starts, limits, strides, "slice");
}

absl::StatusOr<NodePtr> GatherOperandCotangent(const Node& node, const NodePtr& g) {
  const GatherDimensionNumbers& gd = node.proto().gather_dimension_numbers();
  if (!gd.operand_batching_dims.empty()) {
    return absl::UnimplementedError(absl::StrCat("no gradient for ", node.metadata().op_name,
                                                 ": batched gathers are not supported"));
  }
  ScatterDimensionNumbers sd;
  sd.update_window_dims = gd.offset_dims;
  sd.inserted_window_dims = gd.collapsed_slice_dims;
  sd.scatter_dims_to_operand_dims = gd.start_index_map;
  sd.index_vector_dim = gd.index_vector_dim;
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr zeros, Like(node.operand(0), 0));
  return graph::ScatterAdd(zeros, node.operand(1), g, sd, "scatter_add");
}

// dq, dk and dv from the backward kernel, one slice of its stacked result
// each.
absl::StatusOr<std::vector<NodePtr>> FlashAttentionCotangents(const NodePtr& y, const NodePtr& g,
                                                              const std::vector<bool>& needed) {
  const Node& node = *y;
  SYSTOLIC_ASSIGN_OR_RETURN(
      NodePtr stacked,
      graph::FlashAttentionBackward(node.operand(0), node.operand(1), node.operand(2), y, g,
                                    graph::IsCausalFlashAttention(node)));
  const std::vector<int64_t>& dims = node.shape().dimensions();
  std::vector<NodePtr> out(3);
  for (int64_t i = 0; i < 3; ++i) {
    if (i >= int64_t(needed.size()) || !needed[size_t(i)]) continue;
    std::vector<int64_t> starts = {i, 0, 0, 0, 0};
    std::vector<int64_t> limits = {i + 1};
    limits.insert(limits.end(), dims.begin(), dims.end());
    SYSTOLIC_ASSIGN_OR_RETURN(NodePtr part,
                              graph::Slice(stacked, starts, limits, {1, 1, 1, 1, 1}));
    SYSTOLIC_ASSIGN_OR_RETURN(out[size_t(i)], graph::Reshape(part, dims));
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<NodePtr>> OperandCotangents(const NodePtr& y, const NodePtr& g,
                                                       const std::vector<bool>& needed) {
  const Node& node = *y;
  std::vector<NodePtr> out(node.operand_count());
  auto a = [&](int64_t i) -> const NodePtr& { return node.operand(i); };
  auto want = [&](int64_t i) { return i < int64_t(needed.size()) && needed[i]; };
  const HloInstruction& proto = node.proto();

  if (node.scan()) return graph::ScanCotangents(y, g, needed);
  switch (node.opcode()) {
    case HloOpcode::kAdd:
      out = {g, g};
      break;
    case HloOpcode::kSubtract:
      out[0] = g;
      if (want(1)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[1], Neg(g));
      }
      break;
    case HloOpcode::kMultiply:
      if (want(0)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[0], Mul(g, a(1)));
      }
      if (want(1)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[1], Mul(g, a(0)));
      }
      break;
    case HloOpcode::kDivide:
      if (want(0)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[0], Div(g, a(1)));
      }
      if (want(1)) {
        SYSTOLIC_ASSIGN_OR_RETURN(NodePtr gy, Mul(g, y));
        SYSTOLIC_ASSIGN_OR_RETURN(NodePtr q, Div(gy, a(1)));
        SYSTOLIC_ASSIGN_OR_RETURN(out[1], Neg(q));
      }
      break;
    case HloOpcode::kNegate: {
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], Neg(g));
      break;
    }
    case HloOpcode::kExp: {
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], Mul(g, y));
      break;
    }
    case HloOpcode::kLog: {
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], Div(g, a(0)));
      break;
    }
    case HloOpcode::kTanh: {  // 1 - y^2
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr y2, Mul(y, y));
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr one, Like(y, 1));
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr d, Sub(one, y2));
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], Mul(g, d));
      break;
    }
    case HloOpcode::kLogistic: {  // y (1 - y)
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr one, Like(y, 1));
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr rest, Sub(one, y));
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr d, Mul(y, rest));
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], Mul(g, d));
      break;
    }
    case HloOpcode::kSqrt: {  // 1 / (2 y)
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr half, Like(y, 0.5));
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr d, Div(half, y));
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], Mul(g, d));
      break;
    }
    case HloOpcode::kRsqrt: {  // -y / (2 x)
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr minus_half, Like(y, -0.5));
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr t, Mul(minus_half, y));
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr d, Div(t, a(0)));
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], Mul(g, d));
      break;
    }
    case HloOpcode::kAbs: {
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr sign, graph::Unary(HloOpcode::kSign, a(0), "sign"));
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], Mul(g, sign));
      break;
    }
    case HloOpcode::kErf: {  // 2/sqrt(pi) exp(-x^2)
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr x2, Mul(a(0), a(0)));
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr neg, Neg(x2));
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr e, graph::Unary(HloOpcode::kExp, neg, "exp"));
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr k, Like(e, 2.0 / std::sqrt(M_PI)));
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr d, Mul(k, e));
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], Mul(g, d));
      break;
    }
    case HloOpcode::kSin: {
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr c, graph::Unary(HloOpcode::kCos, a(0), "cos"));
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], Mul(g, c));
      break;
    }
    case HloOpcode::kCos: {
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr s, graph::Unary(HloOpcode::kSin, a(0), "sin"));
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr gs, Mul(g, s));
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], Neg(gs));
      break;
    }
    case HloOpcode::kPower:
      if (want(0)) {  // b x^(b-1)
        SYSTOLIC_ASSIGN_OR_RETURN(NodePtr one, Like(a(1), 1));
        SYSTOLIC_ASSIGN_OR_RETURN(NodePtr b1, Sub(a(1), one));
        SYSTOLIC_ASSIGN_OR_RETURN(NodePtr p, Binary(HloOpcode::kPower, a(0), b1, "pow"));
        SYSTOLIC_ASSIGN_OR_RETURN(NodePtr d, Mul(a(1), p));
        SYSTOLIC_ASSIGN_OR_RETURN(out[0], Mul(g, d));
      }
      if (want(1)) {  // y log x
        SYSTOLIC_ASSIGN_OR_RETURN(NodePtr l, graph::Unary(HloOpcode::kLog, a(0), "log"));
        SYSTOLIC_ASSIGN_OR_RETURN(NodePtr d, Mul(y, l));
        SYSTOLIC_ASSIGN_OR_RETURN(out[1], Mul(g, d));
      }
      break;
    case HloOpcode::kMaximum:
    case HloOpcode::kMinimum: {
      // Ties go to the second operand (relu = max(x, 0) has gradient 0 at 0).
      const ComparisonDirection strict = node.opcode() == HloOpcode::kMaximum
                                             ? ComparisonDirection::kGt
                                             : ComparisonDirection::kLt;
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr first_wins, graph::Compare(a(0), a(1), strict));
      if (want(0)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[0], Masked(first_wins, g, true));
      }
      if (want(1)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[1], Masked(first_wins, g, false));
      }
      break;
    }
    case HloOpcode::kSelect:
      if (want(1)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[1], Masked(a(0), g, true));
      }
      if (want(2)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[2], Masked(a(0), g, false));
      }
      break;
    case HloOpcode::kConvert:
      if (primitive_util::IsFloatingPointType(a(0)->shape().element_type())) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[0], graph::Convert(g, a(0)->shape().element_type()));
      }
      break;
    case HloOpcode::kCopy:
      out[0] = g;
      break;
    case HloOpcode::kCustomCall:
      if (graph::IsFlashAttention(node)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out, FlashAttentionCotangents(y, g, needed));
        break;
      }
      if (proto.custom_call_target() != "Sharding") {
        return absl::UnimplementedError(absl::StrCat("no gradient for custom-call ",
                                                     proto.custom_call_target()));
      }
      out[0] = g;
      break;
    case HloOpcode::kBroadcast: {
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], UnBroadcast(node, g));
      break;
    }
    case HloOpcode::kReshape: {
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], graph::Reshape(g, a(0)->shape().dimensions()));
      break;
    }
    case HloOpcode::kTranspose: {
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], graph::Transpose(g, Inverse(proto.dimensions())));
      break;
    }
    case HloOpcode::kReverse: {
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], graph::Reverse(g, proto.dimensions()));
      break;
    }
    case HloOpcode::kSlice: {
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], SliceCotangent(node, g));
      break;
    }
    case HloOpcode::kPad:
      if (want(0)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[0], PadOperandCotangent(node, g));
      }
      if (want(1)) {  // every padded position
        SYSTOLIC_ASSIGN_OR_RETURN(NodePtr total, graph::Reduce(g, Remaining(g->shape().rank(), {}),
                                                               ScalarComputation::kAdd, "sum"));
        SYSTOLIC_ASSIGN_OR_RETURN(NodePtr inner, PadOperandCotangent(node, g));
        SYSTOLIC_ASSIGN_OR_RETURN(
            NodePtr inner_total, graph::Reduce(inner, Remaining(inner->shape().rank(), {}),
                                               ScalarComputation::kAdd, "sum"));
        SYSTOLIC_ASSIGN_OR_RETURN(out[1], Sub(total, inner_total));
      }
      break;
    case HloOpcode::kConcatenate: {
      const int64_t dim = proto.concatenate_dimension();
      int64_t offset = 0;
      for (int64_t i = 0; i < node.operand_count(); ++i) {
        const int64_t size = a(i)->shape().dimensions(dim);
        if (want(i)) {
          std::vector<int64_t> starts(g->shape().rank(), 0), limits = g->shape().dimensions(),
                                                             strides(g->shape().rank(), 1);
          starts[dim] = offset;
          limits[dim] = offset + size;
          SYSTOLIC_ASSIGN_OR_RETURN(out[i], graph::Slice(g, starts, limits, strides, "slice"));
        }
        offset += size;
      }
      break;
    }
    case HloOpcode::kReduce:
      if (node.operand_count() != 2) {
        return absl::UnimplementedError("no gradient for variadic reduce");
      }
      if (node.computations()[0] == ScalarComputation::kAdd) {
        SYSTOLIC_ASSIGN_OR_RETURN(
            out[0], graph::Broadcast(g, a(0)->shape().dimensions(),
                                     Remaining(a(0)->shape().rank(), proto.dimensions())));
      } else {
        SYSTOLIC_ASSIGN_OR_RETURN(out[0], ExtremeReduceCotangent(y, g));
      }
      break;
    case HloOpcode::kDot:
      if (want(0)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[0], DotOperandCotangent(node, g, true));
      }
      if (want(1)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[1], DotOperandCotangent(node, g, false));
      }
      break;
    case HloOpcode::kConvolution:
      if (want(0)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[0], ConvolutionInputGradient(node, g));
      }
      if (want(1)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[1], ConvolutionKernelGradient(node, g));
      }
      break;
    case HloOpcode::kReduceWindow:
      if (want(0)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[0], ReduceWindowInputGradient(node, g));
      }
      break;
    case HloOpcode::kGather:
      if (want(0)) {
        SYSTOLIC_ASSIGN_OR_RETURN(out[0], GatherOperandCotangent(node, g));
      }
      break;
    case HloOpcode::kAllReduce: {
      SYSTOLIC_ASSIGN_OR_RETURN(out[0], graph::AllReduce(g, proto.replica_groups()));
      break;
    }
    case HloOpcode::kAllGather: {
      SYSTOLIC_ASSIGN_OR_RETURN(
          out[0], graph::ReduceScatter(g, proto.dimensions(0), proto.replica_groups()));
      break;
    }
    case HloOpcode::kReduceScatter: {
      SYSTOLIC_ASSIGN_OR_RETURN(out[0],
                                graph::AllGather(g, proto.dimensions(0), proto.replica_groups()));
      break;
    // No gradient flows into indices, predicates, random bits or constants.
    }
    case HloOpcode::kGetTupleElement:
      // A scan of layers takes its carry's cotangent as its own (scan.h);
      // its saved inputs get none.
      if (a(0)->scan() && a(0)->scan()->saves_carry_inputs && proto.tuple_index() == 0) {
        out[0] = g;
      }
      break;
    case HloOpcode::kCompare:
    case HloOpcode::kIota:
    case HloOpcode::kConstant:
    case HloOpcode::kRngBitGenerator:
    case HloOpcode::kBitcastConvert:
    case HloOpcode::kShiftRightLogical:
    case HloOpcode::kOr:
    case HloOpcode::kAnd:
    case HloOpcode::kNot:
    case HloOpcode::kSign:
      break;
    default:
      return absl::UnimplementedError(absl::StrCat("autodiff has no rule for `",
                                                   HloOpcodeString(node.opcode()), "` (",
                                                   node.metadata().op_name, ")"));
  }
  for (size_t i = 0; i < out.size(); ++i) {
    if (!want(int64_t(i))) out[i] = nullptr;
  }
  return out;
}

}  // namespace systolic::lazy
