// The studio's colours in one place: text roles, the execution units (MXU,
// vector, data movement, collectives, control flow) shared by the graph
// and the timeline, and the highlight colours of linked selections. There
// is a light and a dark set; Get() follows the application's palette, so
// every canvas and chart is drawn in the theme the window is in.
#pragma once

#include <QColor>
#include <QPalette>

#include "core/analysis/execution_unit.h"
#include "core/trace/timeline_line.h"

namespace systolic::views {

struct StudioPalette {
  QColor keyword{0x7c, 0x3a, 0xed};
  QColor shape{0x0b, 0x72, 0x85};
  QColor name{0x1d, 0x4e, 0xd8};
  QColor opcode{0xb4, 0x53, 0x09};
  QColor attribute{0x6b, 0x72, 0x80};
  QColor string{0x15, 0x80, 0x3d};
  QColor comment{0x9c, 0xa3, 0xaf};

  QColor mxu{0xe1, 0x1d, 0x48};
  QColor vector{0x25, 0x63, 0xeb};
  QColor data_movement{0x05, 0x96, 0x69};
  QColor collective{0xd9, 0x77, 0x06};
  QColor control_flow{0x7c, 0x3a, 0xed};
  QColor other{0x6b, 0x72, 0x80};

  QColor selection{0x11, 0x18, 0x27};   // outline of the selected item
  QColor linked{0xf5, 0x9e, 0x0b};      // what the selection became / came from
  QColor search_hit{0x06, 0xb6, 0xd4};  // search results
  QColor slower{0xb9, 0x1c, 0x1c};      // a comparison's second run took longer
  QColor faster{0x15, 0x80, 0x3d};      // ... or less time
  QColor marked_line{0xff, 0xe8, 0x9c};  // the instruction's line in a text
  QColor canvas{0xfa, 0xfa, 0xf9};
  QColor grid{0xe7, 0xe5, 0xe4};
  QColor header{0xf5, 0xf5, 0xf4};
  QColor panel{0xff, 0xff, 0xff};       // boxes drawn on the canvas
  QColor text{0x1c, 0x19, 0x17};        // text drawn on the canvas
  QColor soft_text{0x57, 0x53, 0x4e};
  QColor outline{0xa8, 0xa2, 0x9e};     // scope boxes, links
  QColor ink_on_tint{0x1c, 0x19, 0x17}; // text on light tints, in either theme
  QColor muted_text{0x78, 0x71, 0x6c};
  bool dark = false;

  // The set for the application's palette (dark when its window colour is).
  static const StudioPalette& Get();
  static const StudioPalette& Light();
  static const StudioPalette& Dark();
  // A dark palette for the whole application (View › Theme › Dark).
  static QPalette DarkApplicationPalette();

  QColor ForUnit(analysis::ExecutionUnit unit) const;
  QColor ForLane(trace::LaneKind kind) const;
  // A comparison's verdict on an instruction, `relative` from -1 (the
  // second run far faster) to +1 (far slower), 0 unchanged: the colour of
  // its outline, and of its fill, deeper the larger the change.
  QColor ForRunChange(double relative) const;
  QColor FillForRunChange(double relative) const;
  // A light tint of a unit colour for node and cluster fills.
  static QColor Tint(const QColor& color, int percent_white);
};

}  // namespace systolic::views
