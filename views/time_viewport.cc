#include "views/time_viewport.h"

#include <algorithm>

namespace systolic::views {

void TimeViewport::SetBounds(int64_t start_ps, int64_t end_ps) {
  if (end_ps <= start_ps) end_ps = start_ps + 1'000'000;
  const int64_t margin = std::max<int64_t>((end_ps - start_ps) / 50, 1);
  bounds_start_ = start_ps - margin;
  bounds_end_ = end_ps + margin;
  FitAll();
}

void TimeViewport::SetWidth(int width_px) { width_ = std::max(width_px, 1); }

double TimeViewport::PsPerPixel() const { return (to_ - from_) / width_; }

double TimeViewport::XOf(double ps) const { return (ps - from_) / PsPerPixel(); }

double TimeViewport::PsAt(double x) const { return from_ + x * PsPerPixel(); }

void TimeViewport::Clamp() {
  const double bounds = double(bounds_end_ - bounds_start_);
  double span = std::clamp(to_ - from_, kMinWindowPs, bounds);
  double from = std::clamp(from_, double(bounds_start_), double(bounds_end_) - span);
  from_ = from;
  to_ = from + span;
}

void TimeViewport::SetWindow(double from_ps, double to_ps) {
  if (to_ps < from_ps) std::swap(from_ps, to_ps);
  from_ = from_ps;
  to_ = to_ps;
  if (to_ - from_ < kMinWindowPs) {
    const double middle = (from_ + to_) / 2;
    from_ = middle - kMinWindowPs / 2;
    to_ = middle + kMinWindowPs / 2;
  }
  Clamp();
}

void TimeViewport::ZoomAround(double x, double factor) {
  if (factor <= 0) return;
  const double anchor = PsAt(x);
  double span = std::max((to_ - from_) / factor, kMinWindowPs);
  span = std::min(span, double(bounds_end_ - bounds_start_));
  const double fraction = x / width_;
  from_ = anchor - fraction * span;
  to_ = from_ + span;
  Clamp();
}

void TimeViewport::PanPixels(double dx) { PanFraction(dx / width_); }

void TimeViewport::PanFraction(double fraction) {
  const double shift = fraction * (to_ - from_);
  from_ += shift;
  to_ += shift;
  Clamp();
}

void TimeViewport::ZoomTo(double from_ps, double to_ps, double margin) {
  const double span = std::max(to_ps - from_ps, kMinWindowPs);
  SetWindow(from_ps - span * margin, to_ps + span * margin);
}

void TimeViewport::FitAll() {
  from_ = double(bounds_start_);
  to_ = double(bounds_end_);
}

}  // namespace systolic::views
