#include "views/memory_chart.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QScatterSeries>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "views/peak_buffers_model.h"
#include "views/studio_chart.h"
#include "views/studio_palette.h"

namespace systolic::views {
namespace {

// The unit the axis counts in, chosen by the peak.
std::pair<double, QString> ByteUnit(int64_t peak) {
  if (peak >= (int64_t{1} << 30)) return {double(int64_t{1} << 30), "GiB"};
  if (peak >= (int64_t{1} << 20)) return {double(int64_t{1} << 20), "MiB"};
  if (peak >= (int64_t{1} << 10)) return {1024.0, "KiB"};
  return {1.0, "bytes"};
}

QString Bytes(int64_t bytes) {
  return QLocale::system().formattedDataSize(bytes, 2, QLocale::DataSizeIecFormat);
}

}  // namespace

MemoryChart::MemoryChart(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  auto* bar = new QHBoxLayout();
  program_ = new QComboBox(this);
  space_ = new QComboBox(this);
  bar->addWidget(new QLabel("Program", this));
  bar->addWidget(program_);
  bar->addWidget(new QLabel("Memory", this));
  bar->addWidget(space_);
  summary_ = new QLabel(this);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  bar->addWidget(summary_, 1);
  layout->addLayout(bar);

  chart_ = new QChartView(this);
  chart_->setRenderHint(QPainter::Antialiasing);
  peak_model_ = new PeakBuffersModel(this);
  table_ = new QTableView(this);
  table_->setModel(peak_model_);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(22);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(chart_);
  auto* below = new QWidget(this);
  auto* below_layout = new QVBoxLayout(below);
  below_layout->setContentsMargins(0, 0, 0, 0);
  below_layout->addWidget(new QLabel("<b>Buffers live at the peak</b>, largest first", below));
  below_layout->addWidget(table_, 1);
  split->addWidget(below);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  layout->addWidget(split, 1);

  connect(program_, &QComboBox::currentIndexChanged, this, [this] {
    if (filling_) return;
    filling_ = true;
    space_->clear();
    const int p = program_->currentIndex();
    if (profile_ && p >= 0 && p < int(profile_->programs.size())) {
      for (const std::string& s : analysis::MemorySpacesOf(profile_->programs[size_t(p)].buffer_assignment)) {
        space_->addItem(QString::fromStdString(s));
      }
    }
    filling_ = false;
    Rebuild();
  });
  connect(space_, &QComboBox::currentIndexChanged, this, [this] {
    if (!filling_) Rebuild();
  });
  Rebuild();
}

MemoryChart::~MemoryChart() = default;

void MemoryChart::SetProfile(std::shared_ptr<const trace::Profile> profile) {
  profile_ = std::move(profile);
  filling_ = true;
  program_->clear();
  int first_with_buffers = -1;
  if (profile_) {
    for (size_t i = 0; i < profile_->programs.size(); ++i) {
      const trace::ProgramRecord& p = profile_->programs[i];
      program_->addItem(QStringLiteral("%1 #%2").arg(QString::fromStdString(p.name)).arg(p.id));
      if (first_with_buffers < 0 && !p.buffer_assignment.buffers.empty()) first_with_buffers = int(i);
    }
  }
  filling_ = false;
  ShowProgram(std::max(first_with_buffers, 0));
}

void MemoryChart::ShowProgram(int program, const QString& memory_space) {
  if (program >= 0 && program < program_->count()) {
    if (program_->currentIndex() == program) {
      emit program_->currentIndexChanged(program);
    } else {
      program_->setCurrentIndex(program);
    }
  } else {
    Rebuild();
  }
  const int space = space_->findText(memory_space);
  if (space >= 0) space_->setCurrentIndex(space);
}

QList<QPointF> MemoryChart::curve() const { return curve_; }

void MemoryChart::Rebuild() {
  const int p = program_->currentIndex();
  const trace::ProgramRecord* program =
      profile_ && p >= 0 && p < int(profile_->programs.size()) ? &profile_->programs[size_t(p)] : nullptr;
  const QString space = space_->currentText().isEmpty() ? QStringLiteral("HBM") : space_->currentText();
  timeline_ = program ? analysis::MemoryOverProgramOrder(program->buffer_assignment, space.toStdString())
                      : analysis::MemoryTimeline{};
  peak_model_->SetBuffers(timeline_.live_at_peak, timeline_.peak_bytes);
  table_->resizeColumnsToContents();
  table_->horizontalHeader()->setStretchLastSection(true);

  const StudioPalette& palette = StudioPalette::Get();
  auto* chart = NewStudioChart();
  const auto [scale, unit] = ByteUnit(timeline_.peak_bytes);
  // A step curve: what is allocated holds until the next position.
  auto* allocated = new QLineSeries();
  allocated->setName(QStringLiteral("%1 allocated").arg(space));
  allocated->setColor(palette.vector);
  QPen pen = allocated->pen();
  pen.setWidthF(2);
  allocated->setPen(pen);
  curve_.clear();
  for (size_t i = 0; i < timeline_.allocated_bytes.size(); ++i) {
    const double y = double(timeline_.allocated_bytes[i]) / scale;
    allocated->append(double(i), y);
    allocated->append(double(i + 1), y);
    curve_.append(QPointF(double(i), double(timeline_.allocated_bytes[i])));
  }
  auto* peak = new QScatterSeries();
  peak->setName(QStringLiteral("peak %1 at %2").arg(Bytes(timeline_.peak_bytes)).arg(timeline_.peak_position));
  peak->setColor(palette.mxu);
  peak->setMarkerSize(11);
  auto* peak_line = new QLineSeries();
  peak_line->setColor(palette.mxu);
  QPen dashed = peak_line->pen();
  dashed.setStyle(Qt::DashLine);
  dashed.setWidthF(1.2);
  peak_line->setPen(dashed);
  const double top = double(timeline_.peak_bytes) / scale;
  if (!timeline_.allocated_bytes.empty()) {
    peak->append(double(timeline_.peak_position) + 0.5, top);
    peak_line->append(double(timeline_.peak_position) + 0.5, 0);
    peak_line->append(double(timeline_.peak_position) + 0.5, top);
  }
  chart->addSeries(allocated);
  chart->addSeries(peak_line);
  chart->addSeries(peak);
  // The dashed marker needs no legend entry of its own.
  for (QLegendMarker* marker : chart->legend()->markers(peak_line)) marker->setVisible(false);
  auto* x = new QValueAxis();
  x->setTitleText("program order (position in the schedule)");
  x->setLabelFormat("%d");
  const double length = std::max<double>(1.0, double(timeline_.allocated_bytes.size()));
  x->setRange(0, length);
  // Whole positions, about ten ticks: steps of 1, 2 or 5 times a power of ten.
  double interval = 1;
  while (length / interval > 10) {
    const double mantissa = interval / std::pow(10.0, std::floor(std::log10(interval) + 1e-9));
    interval *= mantissa == 2 ? 2.5 : 2;
  }
  x->setTickType(QValueAxis::TicksDynamic);
  x->setTickAnchor(0);
  x->setTickInterval(interval);
  auto* y = new QValueAxis();
  y->setTitleText(unit);
  y->setRange(0, top > 0 ? top * 1.12 : 1.0);
  y->setLabelFormat(scale > 1 ? "%.1f" : "%d");
  y->applyNiceNumbers();
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (QAbstractSeries* s : chart->series()) {
    s->attachAxis(x);
    s->attachAxis(y);
  }
  if (program && !timeline_.allocated_bytes.empty()) {
    chart->setTitle(QStringLiteral("%1: %2 over %3 positions of the schedule")
                        .arg(QString::fromStdString(program->name), space)
                        .arg(timeline_.allocated_bytes.size()));
    summary_->setText(QStringLiteral("Peak <b>%1</b> at position %2%3 · %4 buffers live there")
                          .arg(Bytes(timeline_.peak_bytes))
                          .arg(timeline_.peak_position)
                          .arg(timeline_.peak_instruction.empty()
                                   ? QString()
                                   : QStringLiteral(" (%1)").arg(QString::fromStdString(timeline_.peak_instruction)))
                          .arg(timeline_.live_at_peak.size()));
  } else {
    chart->setTitle(program ? "This program has no buffer assignment" : "No program");
    summary_->setText(program ? "The profile holds no buffer assignment for this program." : QString());
  }
  QChart* old = chart_->chart();
  chart_->setChart(chart);
  delete old;
}

}  // namespace systolic::views
