// The timeline's window on time: which picoseconds the lanes area shows and
// how pixels map to them. Zooming keeps the time under the cursor in place;
// the window never leaves the trace (plus a margin) nor gets narrower than
// a few picoseconds.
#pragma once

#include <cstdint>

namespace systolic::views {

class TimeViewport {
 public:
  static constexpr double kMinWindowPs = 10;

  // The span that may be shown: the trace, with a margin on each side.
  void SetBounds(int64_t start_ps, int64_t end_ps);
  int64_t bounds_start_ps() const { return bounds_start_; }
  int64_t bounds_end_ps() const { return bounds_end_; }
  void SetWidth(int width_px);
  int width() const { return width_; }

  double from_ps() const { return from_; }
  double to_ps() const { return to_; }
  double span_ps() const { return to_ - from_; }
  double PsPerPixel() const;

  // Pixel x (0 at the left edge of the lanes area) of an instant, and back.
  double XOf(double ps) const;
  double PsAt(double x) const;

  void SetWindow(double from_ps, double to_ps);
  // factor > 1 zooms in, keeping the instant at pixel `x` in place.
  void ZoomAround(double x, double factor);
  void PanPixels(double dx);
  void PanFraction(double fraction);
  // Shows [from, to] with `margin` of the window on each side.
  void ZoomTo(double from_ps, double to_ps, double margin = 0.05);
  void FitAll();

 private:
  void Clamp();
  int64_t bounds_start_ = 0;
  int64_t bounds_end_ = 1'000'000;
  int width_ = 1000;
  double from_ = 0;
  double to_ = 1'000'000;
};

}  // namespace systolic::views
