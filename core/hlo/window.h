// The window of reduce-window, select-and-scatter and convolution:
// `window={size=3x3 stride=2x2 pad=0_1x0_1 lhs_dilate=1x1 rhs_dilate=2x2 rhs_reversal=0x1}`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace systolic {

struct WindowDimension {
  int64_t size = 1;
  int64_t stride = 1;
  int64_t padding_low = 0;
  int64_t padding_high = 0;
  int64_t window_dilation = 1;  // rhs_dilate
  int64_t base_dilation = 1;    // lhs_dilate
  bool window_reversal = false;
  friend bool operator==(const WindowDimension&, const WindowDimension&) = default;
};

struct Window {
  std::vector<WindowDimension> dimensions;

  // Body between the braces: "size=3x3 pad=1_1x1_1"; fields at their default
  // everywhere are left out, as XLA does.
  std::string ToString() const;
  friend bool operator==(const Window&, const Window&) = default;
};

// Size of a windowed output dimension (XLA's WindowOutputDimension with dilation).
int64_t WindowedOutputSize(int64_t input_size, const WindowDimension& dim);
// Extent of an input dimension after base dilation and padding.
int64_t DilatedPaddedSize(int64_t input_size, const WindowDimension& dim);
// Extent of the window after window dilation.
int64_t DilatedWindowSize(const WindowDimension& dim);

}  // namespace systolic
