// Tree model of a module for the explorer: computations (entry first, with
// their instruction counts), each listing its instructions in program order.
#pragma once

#include <QAbstractItemModel>
#include <vector>

#include "core/hlo/hlo_module.h"

namespace systolic::views {

class ModuleOutlineModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { kName = 0, kDetail = 1, kColumnCount = 2 };

  explicit ModuleOutlineModel(QObject* parent = nullptr);
  // The module must outlive the model (or be replaced first).
  void SetModule(const HloModule* module);

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  // The instruction at `index`, or nullptr for a computation row.
  const HloInstruction* InstructionAt(const QModelIndex& index) const;
  const HloComputation* ComputationAt(const QModelIndex& index) const;

 private:
  struct ComputationRow {
    const HloComputation* computation;
    std::vector<HloInstruction*> instructions;  // program order
  };
  std::vector<ComputationRow> rows_;
};

}  // namespace systolic::views
