#include "core/lazy/convolution_vjp.h"

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/graph_ops.h"

namespace systolic::lazy {
namespace {

// Windows with dilation, reversal or grouping are never recorded by the
// front end; their gradients are not needed.
absl::Status CheckPlainWindow(const Node& node) {
  for (const WindowDimension& d : node.proto().window().dimensions) {
    if (d.base_dilation != 1 || d.window_dilation != 1 || d.window_reversal) {
      return absl::UnimplementedError(
          absl::StrCat("no gradient for ", node.metadata().op_name,
                       ": dilated or reversed windows are not supported"));
    }
  }
  if (node.opcode() == HloOpcode::kConvolution &&
      (node.proto().feature_group_count() != 1 || node.proto().batch_group_count() != 1)) {
    return absl::UnimplementedError(absl::StrCat(
        "no gradient for ", node.metadata().op_name, ": grouped convolutions are not supported"));
  }
  return absl::OkStatus();
}

// High padding that makes a stride-1 window of `size` over the
// (Y-1)*stride+1 dilated positions of the gradient give back X positions.
int64_t TransposedHighPadding(int64_t input_size, int64_t output_size, const WindowDimension& d) {
  return input_size - 1 - (output_size - 1) * d.stride + d.padding_low;
}

}  // namespace

absl::StatusOr<NodePtr> ConvolutionInputGradient(const Node& conv, const NodePtr& g) {
  SYSTOLIC_RETURN_IF_ERROR(CheckPlainWindow(conv));
  const ConvolutionDimensionNumbers& dn = conv.proto().convolution_dimension_numbers();
  const NodePtr& input = conv.operand(0);
  const NodePtr& kernel = conv.operand(1);
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr reversed,
                            graph::Reverse(kernel, dn.kernel_spatial_dimensions, "reverse_kernel"));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr cot,
                            graph::Convert(g, input->shape().element_type(), "convert"));

  ConvolutionDimensionNumbers t;
  t.input_batch_dimension = dn.output_batch_dimension;
  t.input_feature_dimension = dn.output_feature_dimension;
  t.input_spatial_dimensions = dn.output_spatial_dimensions;
  t.kernel_input_feature_dimension = dn.kernel_output_feature_dimension;
  t.kernel_output_feature_dimension = dn.kernel_input_feature_dimension;
  t.kernel_spatial_dimensions = dn.kernel_spatial_dimensions;
  t.output_batch_dimension = dn.input_batch_dimension;
  t.output_feature_dimension = dn.input_feature_dimension;
  t.output_spatial_dimensions = dn.input_spatial_dimensions;

  Window window;
  const auto& forward = conv.proto().window().dimensions;
  for (size_t i = 0; i < forward.size(); ++i) {
    const WindowDimension& f = forward[i];
    const int64_t x = input->shape().dimensions(dn.input_spatial_dimensions[i]);
    const int64_t y = conv.shape().dimensions(dn.output_spatial_dimensions[i]);
    WindowDimension d;
    d.size = f.size;
    d.stride = 1;
    d.base_dilation = f.stride;
    d.padding_low = f.size - 1 - f.padding_low;
    d.padding_high = TransposedHighPadding(x, y, f);
    window.dimensions.push_back(d);
  }
  return graph::Convolution(cot, reversed, window, t, std::nullopt, "input_gradient");
}

absl::StatusOr<NodePtr> ConvolutionKernelGradient(const Node& conv, const NodePtr& g) {
  SYSTOLIC_RETURN_IF_ERROR(CheckPlainWindow(conv));
  const ConvolutionDimensionNumbers& dn = conv.proto().convolution_dimension_numbers();
  const NodePtr& input = conv.operand(0);
  const NodePtr& kernel = conv.operand(1);
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr cot,
                            graph::Convert(g, kernel->shape().element_type(), "convert"));

  // The batch is contracted: it plays the input's feature dimension.
  ConvolutionDimensionNumbers t;
  t.input_batch_dimension = dn.input_feature_dimension;
  t.input_feature_dimension = dn.input_batch_dimension;
  t.input_spatial_dimensions = dn.input_spatial_dimensions;
  t.kernel_input_feature_dimension = dn.output_batch_dimension;
  t.kernel_output_feature_dimension = dn.output_feature_dimension;
  t.kernel_spatial_dimensions = dn.output_spatial_dimensions;
  t.output_batch_dimension = dn.kernel_input_feature_dimension;
  t.output_feature_dimension = dn.kernel_output_feature_dimension;
  t.output_spatial_dimensions = dn.kernel_spatial_dimensions;

  Window window;
  const auto& forward = conv.proto().window().dimensions;
  for (size_t i = 0; i < forward.size(); ++i) {
    const WindowDimension& f = forward[i];
    const int64_t x = input->shape().dimensions(dn.input_spatial_dimensions[i]);
    const int64_t y = conv.shape().dimensions(dn.output_spatial_dimensions[i]);
    WindowDimension d;
    d.size = y;
    d.stride = 1;
    d.window_dilation = f.stride;
    d.padding_low = f.padding_low;
    d.padding_high = f.size - x - f.padding_low + (y - 1) * f.stride;
    window.dimensions.push_back(d);
  }
  return graph::Convolution(input, cot, window, t, std::nullopt, "kernel_gradient");
}

absl::StatusOr<NodePtr> ReduceWindowInputGradient(const Node& reduce_window, const NodePtr& g) {
  SYSTOLIC_RETURN_IF_ERROR(CheckPlainWindow(reduce_window));
  const NodePtr& input = reduce_window.operand(0);
  const Window& forward = reduce_window.proto().window();
  switch (reduce_window.computations().at(0)) {
    case ScalarComputation::kMax:
      // Each window's gradient goes to the element it selected.
      return graph::SelectAndScatter(input, g, forward, "input_gradient");
    case ScalarComputation::kAdd: {
      // Every element gets the gradients of the windows covering it: dilate
      // the gradient by the stride, pad, and sum stride-1 windows.
      PaddingConfig padding;
      Window window;
      for (size_t i = 0; i < forward.dimensions.size(); ++i) {
        const WindowDimension& f = forward.dimensions[i];
        const int64_t x = input->shape().dimensions(i);
        const int64_t y = reduce_window.shape().dimensions(i);
        PaddingDimension p;
        p.edge_padding_low = f.size - 1 - f.padding_low;
        p.edge_padding_high = TransposedHighPadding(x, y, f);
        p.interior_padding = f.stride - 1;
        padding.dimensions.push_back(p);
        WindowDimension d;
        d.size = f.size;
        window.dimensions.push_back(d);
      }
      NodePtr zero = graph::ScalarConstant(0, g->shape().element_type(), "zero");
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr padded, graph::Pad(g, zero, padding, "pad"));
      return graph::ReduceWindow(padded, window, ScalarComputation::kAdd, "input_gradient");
    }
    default:
      return absl::UnimplementedError(
          absl::StrCat("no gradient for ", reduce_window.metadata().op_name,
                       ": only sum and max windows are differentiable"));
  }
}

}  // namespace systolic::lazy
