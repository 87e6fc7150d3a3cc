#include "views/roofline_chart.h"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "views/studio_chart.h"
#include "views/studio_palette.h"

namespace systolic::views {
namespace {

QString Si(double v, const QString& unit) {
  static const char* kPrefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int p = 0;
  while (v >= 1000 && p < 6) {
    v /= 1000;
    ++p;
  }
  return QStringLiteral("%1 %2%3").arg(v, 0, 'g', 3).arg(QString::fromLatin1(kPrefixes[p]), unit);
}

// The decade at or below / above `v`, so log axes start and end on a label.
double DecadeBelow(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
double DecadeAbove(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }

QColor CategoryColor(analysis::OpCategory category) {
  const StudioPalette& palette = StudioPalette::Get();
  switch (category) {
    case analysis::OpCategory::kMxu: return palette.mxu;
    case analysis::OpCategory::kVector: return palette.vector;
    case analysis::OpCategory::kDma: return palette.data_movement;
    case analysis::OpCategory::kOther: return palette.other;
  }
  return palette.other;
}

}  // namespace

RooflineChart::RooflineChart(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  summary_ = new QLabel(this);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setWordWrap(true);
  layout->addWidget(summary_);
  chart_ = new QChartView(this);
  chart_->setRenderHint(QPainter::Antialiasing);
  layout->addWidget(chart_, 1);
  Rebuild(absl::NotFoundError("no profile open"));
}

void RooflineChart::SetProfile(std::shared_ptr<const trace::Profile> profile) {
  Rebuild(profile ? analysis::ComputeOpProfile(*profile)
                  : absl::StatusOr<analysis::OpProfile>(absl::NotFoundError("no profile open")));
}

void RooflineChart::SetOpProfile(const absl::StatusOr<analysis::OpProfile>& ops) { Rebuild(ops); }

QString RooflineChart::ToolTipAt(const QPointF& position) const {
  for (const analysis::OpStats& op : ops_.ops) {
    if (!op.on_roofline || op.intensity != position.x() || op.achieved_flops_per_second != position.y()) continue;
    return QStringLiteral("<b>%1</b> (%2)<br>%3 FLOPs/byte, %4 achieved<br>%5 of peak; roof %6")
        .arg(QString::fromStdString(op.name).toHtmlEscaped(), QString::fromLatin1(analysis::OpCategoryName(op.category)))
        .arg(op.intensity, 0, 'g', 3)
        .arg(Si(op.achieved_flops_per_second, "FLOP/s"))
        .arg(QStringLiteral("%1 %").arg(100.0 * op.peak_fraction, 0, 'f', 1))
        .arg(Si(op.attainable_flops_per_second, "FLOP/s"));
  }
  return {};
}

void RooflineChart::Rebuild(const absl::StatusOr<analysis::OpProfile>& computed) {
  points_.clear();
  roof_.clear();
  ops_ = computed.ok() ? *computed : analysis::OpProfile{};
  const analysis::Roofline& roof = ops_.roofline;

  auto* chart = NewStudioChart();
  const bool has_roof = roof.peak_flops_per_second > 0 && roof.bandwidth_bytes_per_second > 0;
  if (!computed.ok() || !has_roof) {
    summary_->setText(!computed.ok() ? QString::fromStdString(std::string(computed.status().message()))
                                     : QStringLiteral("The chip's peak FLOP/s or HBM bandwidth is unknown."));
    auto* old = chart_->chart();
    chart_->setChart(chart);
    delete old;
    return;
  }

  // Axis ranges: the ridge and every op inside, whole decades.
  double x_low = roof.ridge_intensity, x_high = roof.ridge_intensity;
  double y_low = roof.peak_flops_per_second, y_high = roof.peak_flops_per_second;
  for (const analysis::OpStats& op : ops_.ops) {
    if (!op.on_roofline) continue;
    x_low = std::min(x_low, op.intensity);
    x_high = std::max(x_high, op.intensity);
    y_low = std::min(y_low, op.achieved_flops_per_second);
  }
  x_low = DecadeBelow(x_low / 2);
  x_high = DecadeAbove(x_high * 2);
  y_low = std::min(DecadeBelow(y_low / 2), DecadeBelow(x_low * roof.bandwidth_bytes_per_second));
  y_high = DecadeAbove(y_high * 2);

  // The memory roof from the left edge to the ridge, then the compute roof.
  const StudioPalette& palette = StudioPalette::Get();
  auto* line = new QLineSeries();
  line->setName(QStringLiteral("roof: %1, %2 HBM, ridge at %3 FLOPs/byte")
                    .arg(Si(roof.peak_flops_per_second, "FLOP/s"), Si(roof.bandwidth_bytes_per_second, "B/s"))
                    .arg(roof.ridge_intensity, 0, 'g', 3));
  QPen pen(StudioPalette::Get().soft_text);
  pen.setWidthF(2.5);
  line->setPen(pen);
  roof_ = {QPointF(x_low, roof.Attainable(x_low)), QPointF(roof.ridge_intensity, roof.peak_flops_per_second),
           QPointF(x_high, roof.peak_flops_per_second)};
  for (const QPointF& p : roof_) line->append(p);
  chart->addSeries(line);
  auto* ridge = new QScatterSeries();
  ridge->setName(QStringLiteral("ridge point"));
  ridge->setColor(palette.linked);
  ridge->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
  ridge->setMarkerSize(10);
  ridge->append(roof_[1]);
  chart->addSeries(ridge);

  // One series per category, so the legend reads as the colours.
  int on_roof = 0;
  for (int c = 0; c < analysis::kOpCategoryCount; ++c) {
    auto* series = new QScatterSeries();
    series->setName(QStringLiteral("%1 ops").arg(QString::fromLatin1(analysis::OpCategoryName(analysis::OpCategory(c)))));
    series->setColor(CategoryColor(analysis::OpCategory(c)));
    series->setBorderColor(Qt::white);
    series->setMarkerSize(11);
    for (const analysis::OpStats& op : ops_.ops) {
      if (!op.on_roofline || int(op.category) != c) continue;
      const QPointF position(op.intensity, op.achieved_flops_per_second);
      series->append(position);
      points_.append({QString::fromStdString(op.name), position});
    }
    if (series->count() == 0) {
      delete series;
      continue;
    }
    on_roof += int(series->count());
    connect(series, &QScatterSeries::hovered, this, [this](const QPointF& point, bool state) {
      if (state) {
        QToolTip::showText(QCursor::pos(), ToolTipAt(point), chart_);
      } else {
        QToolTip::hideText();
      }
    });
    chart->addSeries(series);
  }

  // Names beside the points while they stay readable (a screenshot shows no
  // tooltips); a series per name, as a series has one label format.
  constexpr int kMaxLabels = 24;
  if (points_.size() <= kMaxLabels) {
    for (const Point& p : points_) {
      auto* label = new QScatterSeries();
      label->setMarkerSize(1);
      label->setColor(Qt::transparent);
      label->setBorderColor(Qt::transparent);
      label->setPointLabelsFormat(p.name);
      label->setPointLabelsVisible(true);
      label->setPointLabelsClipping(false);
      label->append(p.position);
      chart->addSeries(label);
      for (QLegendMarker* marker : chart->legend()->markers(label)) marker->setVisible(false);
    }
  }

  auto* x = new QLogValueAxis();
  x->setTitleText("arithmetic intensity (FLOPs per byte of HBM traffic)");
  x->setBase(10);
  x->setLabelFormat("%g");
  x->setMinorTickCount(8);
  x->setRange(x_low, x_high);
  auto* y = new QLogValueAxis();
  y->setTitleText("FLOP/s");
  y->setBase(10);
  y->setLabelFormat("%.0e");
  y->setMinorTickCount(8);
  y->setRange(y_low, y_high);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (QAbstractSeries* s : chart->series()) {
    s->attachAxis(x);
    s->attachAxis(y);
  }
  summary_->setText(QStringLiteral("<b>Chip %1</b>: %2 of %3 instructions have FLOPs and bytes to place; "
                                   "hover a point for its name.")
                        .arg(ops_.chip_id)
                        .arg(on_roof)
                        .arg(ops_.ops.size()));
  auto* old = chart_->chart();
  chart_->setChart(chart);
  delete old;
}

}  // namespace systolic::views
