#include "views/studio_palette.h"

#include <QGuiApplication>
#include <algorithm>
#include <cmath>

namespace systolic::views {

const StudioPalette& StudioPalette::Light() {
  static const StudioPalette palette;
  return palette;
}

const StudioPalette& StudioPalette::Dark() {
  static const StudioPalette palette = [] {
    StudioPalette p;
    p.dark = true;
    p.keyword = QColor(0xc4, 0xb5, 0xfd);
    p.shape = QColor(0x67, 0xe8, 0xf9);
    p.name = QColor(0x93, 0xc5, 0xfd);
    p.opcode = QColor(0xfd, 0xba, 0x74);
    p.attribute = QColor(0xa8, 0xa2, 0x9e);
    p.string = QColor(0x86, 0xef, 0xac);
    p.comment = QColor(0x78, 0x71, 0x6c);
    p.selection = QColor(0xfa, 0xfa, 0xf9);
    p.slower = QColor(0xef, 0x44, 0x44);
    p.faster = QColor(0x22, 0xc5, 0x5e);
    p.marked_line = QColor(0x5b, 0x4a, 0x12);
    p.canvas = QColor(0x1c, 0x1b, 0x1a);
    p.grid = QColor(0x3a, 0x37, 0x35);
    p.header = QColor(0x26, 0x24, 0x22);
    p.panel = QColor(0x2c, 0x2a, 0x28);
    p.text = QColor(0xe7, 0xe5, 0xe4);
    p.soft_text = QColor(0xd6, 0xd3, 0xd1);
    p.outline = QColor(0x78, 0x71, 0x6c);
    p.muted_text = QColor(0xa8, 0xa2, 0x9e);
    return p;
  }();
  return palette;
}

const StudioPalette& StudioPalette::Get() {
  return QGuiApplication::palette().color(QPalette::Window).lightness() < 128 ? Dark() : Light();
}

QPalette StudioPalette::DarkApplicationPalette() {
  const StudioPalette& d = Dark();
  QPalette p;
  p.setColor(QPalette::Window, d.header);
  p.setColor(QPalette::WindowText, d.text);
  p.setColor(QPalette::Base, d.canvas);
  p.setColor(QPalette::AlternateBase, d.panel);
  p.setColor(QPalette::ToolTipBase, d.panel);
  p.setColor(QPalette::ToolTipText, d.text);
  p.setColor(QPalette::PlaceholderText, d.muted_text);
  p.setColor(QPalette::Text, d.text);
  p.setColor(QPalette::Button, d.panel);
  p.setColor(QPalette::ButtonText, d.text);
  p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
  p.setColor(QPalette::Highlight, QColor(0x25, 0x63, 0xeb));
  p.setColor(QPalette::HighlightedText, QColor(0xff, 0xff, 0xff));
  p.setColor(QPalette::Link, d.name);
  p.setColor(QPalette::Disabled, QPalette::Text, d.muted_text);
  p.setColor(QPalette::Disabled, QPalette::ButtonText, d.muted_text);
  p.setColor(QPalette::Disabled, QPalette::WindowText, d.muted_text);
  return p;
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
