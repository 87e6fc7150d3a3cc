// Dimension numbers of dot, convolution, gather and scatter, each with its
// HLO text form.
#pragma once

#include "absl/strings/string_view.h"
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace systolic {

struct DotDimensionNumbers {
  std::vector<int64_t> lhs_batch_dimensions;
  std::vector<int64_t> lhs_contracting_dimensions;
  std::vector<int64_t> rhs_batch_dimensions;
  std::vector<int64_t> rhs_contracting_dimensions;
  // "lhs_batch_dims={0}, lhs_contracting_dims={2}, ..." (empty lists left out).
  std::string ToString() const;
  friend bool operator==(const DotDimensionNumbers&, const DotDimensionNumbers&) = default;
};

struct ConvolutionDimensionNumbers {
  int64_t input_batch_dimension = 0;
  int64_t input_feature_dimension = 1;
  std::vector<int64_t> input_spatial_dimensions;
  int64_t kernel_input_feature_dimension = 0;
  int64_t kernel_output_feature_dimension = 1;
  std::vector<int64_t> kernel_spatial_dimensions;
  int64_t output_batch_dimension = 0;
  int64_t output_feature_dimension = 1;
  std::vector<int64_t> output_spatial_dimensions;

  // XLA's dim_labels text: "b01f_01io->b01f".
  std::string ToDimLabels() const;
  static absl::StatusOr<ConvolutionDimensionNumbers> FromDimLabels(absl::string_view labels);
  friend bool operator==(const ConvolutionDimensionNumbers&,
                         const ConvolutionDimensionNumbers&) = default;
};

struct GatherDimensionNumbers {
  std::vector<int64_t> offset_dims;
  std::vector<int64_t> collapsed_slice_dims;
  std::vector<int64_t> start_index_map;
  int64_t index_vector_dim = 0;
  std::vector<int64_t> operand_batching_dims;
  std::vector<int64_t> start_indices_batching_dims;
  std::string ToString() const;
  friend bool operator==(const GatherDimensionNumbers&, const GatherDimensionNumbers&) = default;
};

struct ScatterDimensionNumbers {
  std::vector<int64_t> update_window_dims;
  std::vector<int64_t> inserted_window_dims;
  std::vector<int64_t> scatter_dims_to_operand_dims;
  int64_t index_vector_dim = 0;
  std::vector<int64_t> input_batching_dims;
  std::vector<int64_t> scatter_indices_batching_dims;
  std::string ToString() const;
  friend bool operator==(const ScatterDimensionNumbers&, const ScatterDimensionNumbers&) = default;
};

// Low, high and interior padding of one dimension: `padding=1_2_0x0_0`.
struct PaddingDimension {
  int64_t edge_padding_low = 0;
  int64_t edge_padding_high = 0;
  int64_t interior_padding = 0;
  friend bool operator==(const PaddingDimension&, const PaddingDimension&) = default;
};
struct PaddingConfig {
  std::vector<PaddingDimension> dimensions;
  std::string ToString() const;  // "1_2x0_0_1"
  friend bool operator==(const PaddingConfig&, const PaddingConfig&) = default;
};

// "{1,2,3}"
std::string BracedList(const std::vector<int64_t>& values);

}  // namespace systolic
