#include "core/hlo/dimension_numbers.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace systolic {

std::string BracedList(const std::vector<int64_t>& values) {
  return absl::StrCat("{", absl::StrJoin(values, ","), "}");
}

namespace {

void AppendList(std::vector<std::string>* parts, absl::string_view name,
                const std::vector<int64_t>& values, bool always = false) {
  if (values.empty() && !always) return;
  parts->push_back(absl::StrCat(name, "=", BracedList(values)));
}

}  // namespace

std::string DotDimensionNumbers::ToString() const {
  std::vector<std::string> parts;
  AppendList(&parts, "lhs_batch_dims", lhs_batch_dimensions);
  AppendList(&parts, "lhs_contracting_dims", lhs_contracting_dimensions);
  AppendList(&parts, "rhs_batch_dims", rhs_batch_dimensions);
  AppendList(&parts, "rhs_contracting_dims", rhs_contracting_dimensions);
  return absl::StrJoin(parts, ", ");
}

std::string GatherDimensionNumbers::ToString() const {
  std::vector<std::string> parts;
  AppendList(&parts, "offset_dims", offset_dims, true);
  AppendList(&parts, "collapsed_slice_dims", collapsed_slice_dims, true);
  AppendList(&parts, "start_index_map", start_index_map, true);
  AppendList(&parts, "operand_batching_dims", operand_batching_dims);
  AppendList(&parts, "start_indices_batching_dims", start_indices_batching_dims);
  parts.push_back(absl::StrCat("index_vector_dim=", index_vector_dim));
  return absl::StrJoin(parts, ", ");
}

std::string ScatterDimensionNumbers::ToString() const {
  std::vector<std::string> parts;
  AppendList(&parts, "update_window_dims", update_window_dims, true);
  AppendList(&parts, "inserted_window_dims", inserted_window_dims, true);
  AppendList(&parts, "scatter_dims_to_operand_dims", scatter_dims_to_operand_dims, true);
  AppendList(&parts, "input_batching_dims", input_batching_dims);
  AppendList(&parts, "scatter_indices_batching_dims", scatter_indices_batching_dims);
  parts.push_back(absl::StrCat("index_vector_dim=", index_vector_dim));
  return absl::StrJoin(parts, ", ");
}

std::string PaddingConfig::ToString() const {
  std::vector<std::string> parts;
  for (const PaddingDimension& d : dimensions) {
    if (d.interior_padding != 0) {
      parts.push_back(
          absl::StrCat(d.edge_padding_low, "_", d.edge_padding_high, "_", d.interior_padding));
    } else {
      parts.push_back(absl::StrCat(d.edge_padding_low, "_", d.edge_padding_high));
    }
  }
  return absl::StrJoin(parts, "x");
}

namespace {

// Spatial dimension i is written as the digit i (XLA supports up to 10 here
// in text; larger ranks are rare and use letters after '9').
char SpatialLabel(size_t i) { return i < 10 ? char('0' + i) : char('a' + (i - 10)); }

std::string Labels(int64_t rank, int64_t first_dim, char first_char, int64_t second_dim,
                   char second_char, const std::vector<int64_t>& spatial) {
  std::string out(rank, '?');
  if (first_dim >= 0 && first_dim < rank) out[first_dim] = first_char;
  if (second_dim >= 0 && second_dim < rank) out[second_dim] = second_char;
  for (size_t i = 0; i < spatial.size(); ++i) {
    if (spatial[i] >= 0 && spatial[i] < rank) out[spatial[i]] = SpatialLabel(i);
  }
  return out;
}

struct ParsedLabels {
  int64_t first = -1, second = -1;
  std::vector<int64_t> spatial;
};

absl::StatusOr<ParsedLabels> ParseLabels(absl::string_view text, char first_char, char second_char,
                                         absl::string_view what) {
  ParsedLabels parsed;
  std::vector<std::pair<int, int64_t>> spatial;  // (spatial index, dimension)
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == first_char) {
      parsed.first = int64_t(i);
    } else if (c == second_char) {
      parsed.second = int64_t(i);
    } else if (c >= '0' && c <= '9') {
      spatial.push_back({c - '0', int64_t(i)});
    } else if (c >= 'a' && c <= 'z' && c != first_char && c != second_char) {
      spatial.push_back({10 + (c - 'a'), int64_t(i)});
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("unexpected character '", std::string(1, c), "' in ", what, " labels '",
                       text, "'"));
    }
  }
  if (parsed.first < 0 || parsed.second < 0) {
    return absl::InvalidArgumentError(absl::StrCat(what, " labels '", text, "' must contain '",
                                                   std::string(1, first_char), "' and '",
                                                   std::string(1, second_char), "'"));
  }
  std::sort(spatial.begin(), spatial.end());
  for (size_t i = 0; i < spatial.size(); ++i) {
    if (spatial[i].first != int(i)) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " labels '", text, "' must number spatial dimensions 0..n-1"));
    }
    parsed.spatial.push_back(spatial[i].second);
  }
  return parsed;
}

}  // namespace

std::string ConvolutionDimensionNumbers::ToDimLabels() const {
  int64_t spatial = int64_t(input_spatial_dimensions.size());
  std::string lhs = Labels(spatial + 2, input_batch_dimension, 'b', input_feature_dimension, 'f',
                           input_spatial_dimensions);
  std::string rhs = Labels(spatial + 2, kernel_input_feature_dimension, 'i',
                           kernel_output_feature_dimension, 'o', kernel_spatial_dimensions);
  std::string out = Labels(spatial + 2, output_batch_dimension, 'b', output_feature_dimension, 'f',
                           output_spatial_dimensions);
  return absl::StrCat(lhs, "_", rhs, "->", out);
}

absl::StatusOr<ConvolutionDimensionNumbers> ConvolutionDimensionNumbers::FromDimLabels(
    absl::string_view labels) {
  std::vector<absl::string_view> arrow = absl::StrSplit(labels, "->");
  if (arrow.size() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("dim_labels '", labels, "' must look like 'b01f_01io->b01f'"));
  }
  std::vector<absl::string_view> lr = absl::StrSplit(arrow[0], '_');
  if (lr.size() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("dim_labels '", labels, "' must look like 'b01f_01io->b01f'"));
  }
  auto lhs = ParseLabels(lr[0], 'b', 'f', "input");
  if (!lhs.ok()) return lhs.status();
  auto rhs = ParseLabels(lr[1], 'i', 'o', "kernel");
  if (!rhs.ok()) return rhs.status();
  auto out = ParseLabels(arrow[1], 'b', 'f', "output");
  if (!out.ok()) return out.status();
  if (lhs->spatial.size() != rhs->spatial.size() || lhs->spatial.size() != out->spatial.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("dim_labels '", labels, "' have different spatial ranks"));
  }
  ConvolutionDimensionNumbers d;
  d.input_batch_dimension = lhs->first;
  d.input_feature_dimension = lhs->second;
  d.input_spatial_dimensions = lhs->spatial;
  d.kernel_input_feature_dimension = rhs->first;
  d.kernel_output_feature_dimension = rhs->second;
  d.kernel_spatial_dimensions = rhs->spatial;
  d.output_batch_dimension = out->first;
  d.output_feature_dimension = out->second;
  d.output_spatial_dimensions = out->spatial;
  return d;
}

}  // namespace systolic
