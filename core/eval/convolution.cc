#include "core/eval/convolution.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "core/eval/dot_general.h"
#include "core/eval/shape_ops.h"
#include "core/eval/strided_copy.h"

namespace systolic::eval {
namespace {

// Upper bound on the elements of one im2col block, so large convolutions
// stream through a bounded buffer.
constexpr int64_t kIm2colBlockElements = int64_t{4} << 20;

absl::StatusOr<Literal> ToType(Literal l, PrimitiveType type) {
  if (l.element_type() == type) return l;
  return l.Convert(type);
}

}  // namespace

absl::StatusOr<Literal> Convolution(const Literal& lhs, const Literal& rhs, const Window& window,
                                    const ConvolutionDimensionNumbers& dnums,
                                    int64_t feature_group_count, int64_t batch_group_count,
                                    const Shape& result_shape) {
  const Shape& ls = lhs.shape();
  const Shape& ks = rhs.shape();
  const int64_t spatial = int64_t(dnums.input_spatial_dimensions.size());
  if (!ls.IsArray() || !ks.IsArray() || !result_shape.IsArray() || ls.rank() != spatial + 2 ||
      ks.rank() != spatial + 2 || result_shape.rank() != spatial + 2 ||
      int64_t(dnums.kernel_spatial_dimensions.size()) != spatial ||
      int64_t(dnums.output_spatial_dimensions.size()) != spatial ||
      int64_t(window.dimensions.size()) != spatial) {
    return absl::InvalidArgumentError("convolution: dimension numbers do not match the ranks");
  }
  const int64_t fg = std::max<int64_t>(feature_group_count, 1);
  const int64_t bg = std::max<int64_t>(batch_group_count, 1);
  const int64_t N = ls.dimensions(dnums.input_batch_dimension);
  const int64_t C = ls.dimensions(dnums.input_feature_dimension);
  const int64_t I = ks.dimensions(dnums.kernel_input_feature_dimension);
  const int64_t O = ks.dimensions(dnums.kernel_output_feature_dimension);
  if (C % fg != 0 || I * fg != C || O % fg != 0 || N % bg != 0 || O % bg != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "convolution: features ", C, " / kernel ", I, "x", O, " do not fit feature_group_count=",
        fg, " batch_group_count=", bg, " with batch ", N));
  }
  const int64_t groups = std::max(fg, bg);
  const int64_t Nout = N / bg;   // output batch
  const int64_t Og = O / groups;  // output features per group

  // Canonical layouts in the accumulation type: input [N, S..., C], kernel
  // [K..., I, O].
  const PrimitiveType acc = AccumulationType(result_shape.element_type());
  std::vector<int64_t> in_order = {dnums.input_batch_dimension};
  for (int64_t d : dnums.input_spatial_dimensions) in_order.push_back(d);
  in_order.push_back(dnums.input_feature_dimension);
  std::vector<int64_t> k_order(dnums.kernel_spatial_dimensions);
  k_order.push_back(dnums.kernel_input_feature_dimension);
  k_order.push_back(dnums.kernel_output_feature_dimension);
  auto input_t = Transpose(lhs, in_order);
  if (!input_t.ok()) return input_t.status();
  auto input = ToType(*std::move(input_t), acc);
  if (!input.ok()) return input.status();
  auto kernel_t = Transpose(rhs, k_order);
  if (!kernel_t.ok()) return kernel_t.status();
  auto kernel = ToType(*std::move(kernel_t), acc);
  if (!kernel.ok()) return kernel.status();

  // Base dilation and padding materialised (negative padding crops).
  PaddingConfig pad;
  pad.dimensions.push_back({0, 0, 0});
  std::vector<int64_t> reversed;
  for (int64_t s = 0; s < spatial; ++s) {
    const WindowDimension& w = window.dimensions[s];
    if (w.base_dilation < 1 || w.window_dilation < 1 || w.stride < 1) {
      return absl::InvalidArgumentError("convolution: strides and dilations must be positive");
    }
    if (w.size != kernel->shape().dimensions(s)) {
      return absl::InvalidArgumentError(absl::StrCat("convolution: window size ", w.size,
                                                     " does not match kernel dimension ",
                                                     kernel->shape().dimensions(s)));
    }
    pad.dimensions.push_back({w.padding_low, w.padding_high, w.base_dilation - 1});
    if (w.window_reversal) reversed.push_back(s);
  }
  pad.dimensions.push_back({0, 0, 0});
  Literal zero(Shape(acc, {}));
  auto padded = Pad(*input, zero, pad);
  if (!padded.ok()) return padded.status();
  if (!reversed.empty()) {
    auto r = Reverse(*kernel, reversed);
    if (!r.ok()) return r.status();
    kernel = *std::move(r);
  }

  // Output spatial sizes and the window walk in the padded input.
  std::vector<int64_t> out_spatial(spatial), kernel_spatial(spatial);
  int64_t out_positions = 1, window_positions = 1;
  for (int64_t s = 0; s < spatial; ++s) {
    const WindowDimension& w = window.dimensions[s];
    const int64_t padded_size = padded->shape().dimensions(s + 1);
    const int64_t dilated_window = (w.size - 1) * w.window_dilation + 1;
    out_spatial[s] =
        padded_size < dilated_window ? 0 : (padded_size - dilated_window) / w.stride + 1;
    kernel_spatial[s] = w.size;
    out_positions *= out_spatial[s];
    window_positions *= w.size;
  }
  std::vector<int64_t> canonical_out_dims = {Nout};
  canonical_out_dims.insert(canonical_out_dims.end(), out_spatial.begin(), out_spatial.end());
  canonical_out_dims.push_back(O);
  Literal out(Shape(acc, canonical_out_dims));

  const int64_t bytes = primitive_util::ByteWidth(acc);
  const int64_t Cg = C / fg;
  const int64_t cols = window_positions * Cg;
  const std::vector<int64_t> p_strides = RowMajorStrides(padded->shape().dimensions());
  const uint8_t* p_data = static_cast<const uint8_t*>(padded->untyped_data());
  const int64_t rows_total = Nout * out_positions;
  const int64_t block_rows =
      std::max<int64_t>(1, std::min<int64_t>(rows_total, kIm2colBlockElements / std::max<int64_t>(cols, 1)));
  std::vector<uint8_t> patches(size_t(block_rows * cols * bytes));
  std::vector<uint8_t> products(size_t(block_rows * Og * bytes));
  std::vector<int64_t> out_strides = RowMajorStrides(canonical_out_dims);

  for (int64_t g = 0; g < groups; ++g) {
    const int64_t batch_base = bg > 1 ? g * Nout : 0;
    const int64_t channel_base = fg > 1 ? g * Cg : 0;
    // The kernel's [K..., Cg, Og] block of this group as a [cols, Og] matrix.
    std::vector<int64_t> starts(spatial + 2, 0), limits = kernel->shape().dimensions(),
                                                  strides(spatial + 2, 1);
    starts[spatial + 1] = g * Og;
    limits[spatial + 1] = (g + 1) * Og;
    auto kernel_block = Slice(*kernel, starts, limits, strides);
    if (!kernel_block.ok()) return kernel_block.status();

    for (int64_t row0 = 0; row0 < rows_total; row0 += block_rows) {
      const int64_t rows = std::min(block_rows, rows_total - row0);
      // im2col: one row per (batch, output position), Cg channels per
      // window position.
      std::vector<int64_t> out_index(spatial, 0), win(spatial, 0);
      for (int64_t r = 0; r < rows; ++r) {
        int64_t row = row0 + r;
        const int64_t n = row / std::max<int64_t>(out_positions, 1);
        int64_t pos = row % std::max<int64_t>(out_positions, 1);
        for (int64_t s = spatial - 1; s >= 0; --s) {
          out_index[s] = pos % out_spatial[s];
          pos /= out_spatial[s];
        }
        int64_t base = (batch_base + n) * p_strides[0] + channel_base;
        for (int64_t s = 0; s < spatial; ++s) {
          base += out_index[s] * window.dimensions[s].stride * p_strides[s + 1];
        }
        uint8_t* dst = patches.data() + r * cols * bytes;
        std::fill(win.begin(), win.end(), 0);
        for (int64_t w = 0; w < window_positions; ++w) {
          int64_t offset = base;
          for (int64_t s = 0; s < spatial; ++s) {
            offset += win[s] * window.dimensions[s].window_dilation * p_strides[s + 1];
          }
          std::memcpy(dst + w * Cg * bytes, p_data + offset * bytes, size_t(Cg * bytes));
          for (int64_t s = spatial - 1; s >= 0; --s) {
            if (++win[s] < kernel_spatial[s]) break;
            win[s] = 0;
          }
        }
      }
      auto status = BatchMatMul(acc, patches.data(), kernel_block->untyped_data(), products.data(), 1,
                                rows, cols, Og);
      if (!status.ok()) return status;
      // Rows are (batch, position) in output order: scatter the [rows, Og]
      // block into the output features of this group.
      const std::vector<int64_t> dims = {rows, Og};
      const std::vector<int64_t> src_strides = {Og, 1};
      const std::vector<int64_t> dst_strides = {out_strides[spatial], 1};
      StridedCopy(dims, products.data(), 0, src_strides, out.untyped_data(),
                  row0 * out_strides[spatial] + g * Og, dst_strides, bytes);
    }
  }

  // Back to the result's dimension order and type.
  std::vector<int64_t> result_order(spatial + 2);
  result_order[dnums.output_batch_dimension] = 0;
  for (int64_t s = 0; s < spatial; ++s) result_order[dnums.output_spatial_dimensions[s]] = s + 1;
  result_order[dnums.output_feature_dimension] = spatial + 1;
  auto result = Transpose(out, result_order);
  if (!result.ok()) return result.status();
  for (int64_t d = 0; d < result_shape.rank(); ++d) {
    if (result->shape().dimensions(d) != result_shape.dimensions(d)) {
      return absl::InvalidArgumentError(absl::StrCat("convolution computes ",
                                                     result->shape().ToString(), " but the result is ",
                                                     result_shape.ToString()));
    }
  }
  return ToType(*std::move(result), result_shape.element_type());
}

}  // namespace systolic::eval
