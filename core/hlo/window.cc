#include "core/hlo/window.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace systolic {

std::string Window::ToString() const {
  if (dimensions.empty()) return "";
  std::vector<std::string> parts;
  auto field = [&](absl::string_view name, auto get, auto is_default, absl::string_view sep) {
    if (std::all_of(dimensions.begin(), dimensions.end(), is_default) && name != "size") return;
    std::vector<std::string> values;
    for (const WindowDimension& d : dimensions) values.push_back(get(d));
    parts.push_back(absl::StrCat(name, "=", absl::StrJoin(values, sep)));
  };
  field("size", [](const WindowDimension& d) { return absl::StrCat(d.size); },
        [](const WindowDimension&) { return false; }, "x");
  field("stride", [](const WindowDimension& d) { return absl::StrCat(d.stride); },
        [](const WindowDimension& d) { return d.stride == 1; }, "x");
  field("pad",
        [](const WindowDimension& d) { return absl::StrCat(d.padding_low, "_", d.padding_high); },
        [](const WindowDimension& d) { return d.padding_low == 0 && d.padding_high == 0; }, "x");
  field("lhs_dilate", [](const WindowDimension& d) { return absl::StrCat(d.base_dilation); },
        [](const WindowDimension& d) { return d.base_dilation == 1; }, "x");
  field("rhs_dilate", [](const WindowDimension& d) { return absl::StrCat(d.window_dilation); },
        [](const WindowDimension& d) { return d.window_dilation == 1; }, "x");
  field("rhs_reversal", [](const WindowDimension& d) { return d.window_reversal ? "1" : "0"; },
        [](const WindowDimension& d) { return !d.window_reversal; }, "x");
  return absl::StrJoin(parts, " ");
}

int64_t DilatedWindowSize(const WindowDimension& dim) {
  return dim.size == 0 ? 0 : (dim.size - 1) * dim.window_dilation + 1;
}

int64_t DilatedPaddedSize(int64_t input_size, const WindowDimension& dim) {
  int64_t dilated = input_size == 0 ? 0 : (input_size - 1) * dim.base_dilation + 1;
  return dilated + dim.padding_low + dim.padding_high;
}

int64_t WindowedOutputSize(int64_t input_size, const WindowDimension& dim) {
  int64_t span = DilatedPaddedSize(input_size, dim) - DilatedWindowSize(dim);
  if (span < 0 || dim.stride <= 0) return 0;
  return span / dim.stride + 1;
}

}  // namespace systolic
