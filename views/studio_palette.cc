#include "views/studio_palette.h"

#include <algorithm>
#include <cmath>

namespace systolic::views {

const StudioPalette& StudioPalette::Get() {
  static const StudioPalette palette;
  return palette;
}

QColor StudioPalette::ForUnit(analysis::ExecutionUnit unit) const {
  switch (unit) {
    case analysis::ExecutionUnit::kMxu: return mxu;
    case analysis::ExecutionUnit::kVector: return vector;
    case analysis::ExecutionUnit::kDataMovement: return data_movement;
    case analysis::ExecutionUnit::kCollective: return collective;
    case analysis::ExecutionUnit::kControlFlow: return control_flow;
    case analysis::ExecutionUnit::kOther: return other;
  }
  return other;
}

QColor StudioPalette::ForLane(trace::LaneKind kind) const {
  switch (kind) {
    case trace::LaneKind::kMxu: return mxu;
    case trace::LaneKind::kVector: return vector;
    case trace::LaneKind::kScalar: return control_flow;
    case trace::LaneKind::kDma: return data_movement;
    case trace::LaneKind::kIci: return collective;
    case trace::LaneKind::kHost: return QColor(0x47, 0x55, 0x69);
    case trace::LaneKind::kSteps: return QColor(0x57, 0x53, 0x4e);
    case trace::LaneKind::kModules: return QColor(0x0f, 0x76, 0x6e);
    case trace::LaneKind::kOps: return QColor(0x9d, 0x17, 0x4d);
    case trace::LaneKind::kOther: return other;
  }
  return other;
}

QColor StudioPalette::ForRunChange(double relative) const {
  return relative > 0 ? slower : relative < 0 ? faster : other;
}

QColor StudioPalette::FillForRunChange(double relative) const {
  const double strength = std::min(std::abs(relative), 1.0);
  return Tint(ForRunChange(relative), relative == 0 ? 90 : int(92 - 62 * strength));
}

QColor StudioPalette::Tint(const QColor& color, int percent_white) {
  const double w = percent_white / 100.0;
  return QColor(int(color.red() * (1 - w) + 255 * w), int(color.green() * (1 - w) + 255 * w),
                int(color.blue() * (1 - w) + 255 * w));
}

}  // namespace systolic::views
