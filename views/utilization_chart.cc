#include "views/utilization_chart.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

#include "core/analysis/time_ruler.h"
#include "views/studio_chart.h"
#include "views/studio_palette.h"

namespace systolic::views {
namespace {

struct AxisUnit {
  double ps = 1;
  QString name;
};

// The unit the time axis counts in, chosen by the span.
AxisUnit AxisUnitFor(int64_t span_ps) {
  if (span_ps >= 1'000'000'000'000) return {1e12, "s"};
  if (span_ps >= 1'000'000'000) return {1e9, "ms"};
  if (span_ps >= 1'000'000) return {1e6, "µs"};
  return {1e3, "ns"};
}

}  // namespace

UtilizationChart::UtilizationChart(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  auto* bar = new QHBoxLayout();
  chip_ = new QComboBox(this);
  chip_->setObjectName("chip");
  bar->addWidget(new QLabel("Chip", this));
  bar->addWidget(chip_);
  summary_ = new QLabel(this);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  bar->addWidget(summary_, 1);
  layout->addLayout(bar);
  chart_ = new QChartView(this);
  chart_->setRenderHint(QPainter::Antialiasing);
  layout->addWidget(chart_, 1);
  connect(chip_, &QComboBox::currentIndexChanged, this, [this] { Rebuild(); });
  Rebuild();
}

void UtilizationChart::SetProfile(std::shared_ptr<const trace::Profile> profile) {
  profile_ = std::move(profile);
  planes_.clear();
  const QSignalBlocker block(chip_);
  chip_->clear();
  if (profile_) {
    const trace::Timeline& timeline = profile_->timeline;
    for (int32_t p = 0; p < timeline.plane_count(); ++p) {
      const trace::TimelinePlane& plane = timeline.plane(p);
      if (plane.kind() != trace::PlaneKind::kDevice) continue;
      planes_.push_back(p);
      chip_->addItem(QStringLiteral("chip %1 (%2)")
                         .arg(plane.chip_id())
                         .arg(QString::fromStdString(plane.name())));
    }
  }
  Rebuild();
}

void UtilizationChart::ShowChip(int chip) {
  if (chip >= 0 && chip < chip_->count()) chip_->setCurrentIndex(chip);
}

void UtilizationChart::Rebuild() {
  const int c = chip_->currentIndex();
  utilization_ = profile_ && c >= 0 && c < int(planes_.size())
                     ? analysis::UnitUtilizationOf(profile_->timeline, planes_[size_t(c)], kBuckets)
                     : analysis::UnitUtilization{};
  const StudioPalette& palette = StudioPalette::Get();
  auto* chart = NewStudioChart();
  const AxisUnit unit = AxisUnitFor(utilization_.bucket_ps * kBuckets);
  double busiest_mean = 0;
  QString busiest;
  for (const analysis::UtilizationSeries& s : utilization_.series) {
    auto* line = new QLineSeries();
    // Short, so the legend shows every series whole: "core 0 · MXU 3.1%".
    line->setName(QStringLiteral("%1 %2%")
                      .arg(QString::fromStdString(s.name))
                      .arg(100 * s.mean, 0, 'f', 1));
    // Later cores darker and dashed, so two cores of one kind stay apart in
    // colour as well as in stroke.
    QPen pen(palette.ForLane(s.kind).darker(100 + 60 * std::max(s.core, 0)), 1.8);
    if (s.core > 0) pen.setStyle(Qt::DashLine);
    line->setPen(pen);
    // A step curve: each bucket's share holds across the bucket.
    for (size_t b = 0; b < s.busy.size(); ++b) {
      const double from = double(int64_t(b) * utilization_.bucket_ps) / unit.ps;
      const double to = double(int64_t(b + 1) * utilization_.bucket_ps) / unit.ps;
      line->append(from, 100 * s.busy[b]);
      line->append(to, 100 * s.busy[b]);
    }
    chart->addSeries(line);
    if (s.mean > busiest_mean) {
      busiest_mean = s.mean;
      busiest = QString::fromStdString(s.name);
    }
  }
  auto* x = new QValueAxis();
  x->setTitleText(QStringLiteral("time since the chip's first event (%1)").arg(unit.name));
  x->setRange(0, std::max(1.0, double(utilization_.bucket_ps * kBuckets) / unit.ps));
  x->applyNiceNumbers();
  auto* y = new QValueAxis();
  y->setTitleText("units busy (%)");
  y->setRange(0, 105);
  y->setLabelFormat("%d");
  y->setTickCount(8);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (QAbstractSeries* s : chart->series()) {
    s->attachAxis(x);
    s->attachAxis(y);
  }
  if (utilization_.series.empty()) {
    chart->setTitle(profile_ ? "This chip's timeline has no unit lanes" : "No profile");
    summary_->setText(QString());
  } else {
    chart->setTitle(QStringLiteral("%1: units busy over time").arg(chip_->currentText()));
    summary_->setText(QStringLiteral("Busiest on average: <b>%1</b> at %2% · %3 buckets of %4")
                          .arg(busiest)
                          .arg(100 * busiest_mean, 0, 'f', 1)
                          .arg(kBuckets)
                          .arg(QString::fromStdString(analysis::FormatPs(utilization_.bucket_ps))));
  }
  QChart* old = chart_->chart();
  chart_->setChart(chart);
  delete old;
}

}  // namespace systolic::views
