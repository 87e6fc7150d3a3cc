// The roofline of one chip (Qt Charts, log-log): the memory roof (intensity
// × HBM bandwidth) and the compute roof (peak FLOP/s) meeting at the ridge
// point, and each op of the op profile placed at its arithmetic intensity
// and achieved FLOP/s, coloured by unit category, named in its tooltip.
#pragma once

#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>
#include <memory>

#include "absl/status/statusor.h"
#include "core/analysis/op_profile.h"
#include "core/trace/profile.h"

class QChartView;
class QLabel;

namespace systolic::views {

class RooflineChart : public QWidget {
  Q_OBJECT

 public:
  // One op as drawn: (intensity, achieved FLOP/s).
  struct Point {
    QString name;
    QPointF position;
  };

  explicit RooflineChart(QWidget* parent = nullptr);

  void SetProfile(std::shared_ptr<const trace::Profile> profile);
  // The same from an op profile already computed for it (the op profile
  // view's), or why there is none.
  void SetOpProfile(const absl::StatusOr<analysis::OpProfile>& ops);

  const analysis::OpProfile& op_profile() const { return ops_; }
  const QList<Point>& points() const { return points_; }
  // The roof as drawn: its three corners, the ridge in the middle.
  const QList<QPointF>& roof() const { return roof_; }
  // The tooltip of the op drawn at `position` ("" if none is).
  QString ToolTipAt(const QPointF& position) const;

 private:
  void Rebuild(const absl::StatusOr<analysis::OpProfile>& computed);

  analysis::OpProfile ops_;
  QLabel* summary_ = nullptr;
  QChartView* chart_ = nullptr;
  QList<Point> points_;
  QList<QPointF> roof_;
};

}  // namespace systolic::views
