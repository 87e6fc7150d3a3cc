// The op profile (as XProf's): time by unit category above a sortable
// table of the HLO instructions (time, share of the step, FLOPs, bytes,
// arithmetic intensity, achieved FLOP/s against the peak) of one chip.
#pragma once

#include <QWidget>
#include <memory>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "core/trace/profile.h"
#include "views/show_in.h"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace systolic::views {

class OpProfileModel;

class OpProfileView : public QWidget {
  Q_OBJECT

 public:
  explicit OpProfileView(QWidget* parent = nullptr);

  void SetProfile(std::shared_ptr<const trace::Profile> profile);
  // Shows each row's simulated time on `chip` beside its measured time
  // (per-execution times by instruction name); empty hides the columns.
  void SetSimulated(absl::flat_hash_map<std::string, double> per_execution_ps, const QString& chip);

  OpProfileModel* model() const { return model_; }
  QSortFilterProxyModel* sorted_model() const { return proxy_; }
  QTableView* table() const { return table_; }
  // Why there is no op profile (OK when there is one).
  const absl::Status& status() const { return status_; }
  // The category summary as shown ("" when there is no profile).
  QString summary() const;
  // Selects (and scrolls to) the row of the instruction named `name`,
  // without emitting instructionSelected; false when there is none.
  bool SelectInstruction(const QString& name);
  // Shows only the instructions whose name contains `text` (any case).
  void SetFilter(const QString& text);
  void FocusSearch();

 signals:
  // The user picked the row of this instruction.
  void instructionSelected(const QString& name);
  void showInRequested(const QString& instruction, ShowInTarget target);

 private:
  std::shared_ptr<const trace::Profile> profile_;
  QLabel* summary_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QTableView* table_ = nullptr;
  OpProfileModel* model_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  absl::Status status_;
  bool selecting_ = false;  // set while SelectInstruction moves the selection
};

}  // namespace systolic::views
