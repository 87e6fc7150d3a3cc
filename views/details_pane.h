// The details dock: what the current selection is — an instruction of a
// pass stage (with the original instructions it was made from), a timeline
// event with its figures, or a compile — as property / value rows.
#pragma once

#include <QWidget>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/op_profile.h"
#include "core/analysis/stage_module.h"
#include "core/hlo/hlo_instruction.h"
#include "core/trace/timeline.h"

class QLabel;
class QTreeWidget;

namespace systolic::views {

class DetailsPane : public QWidget {
  Q_OBJECT

 public:
  explicit DetailsPane(QWidget* parent = nullptr);

  // The open profile's op profile (null: none), so an instruction's details
  // say where the simulator ran it rather than where its opcode suggests.
  void SetOpProfile(const analysis::OpProfile* ops) { ops_ = ops; }
  void ShowInstructions(const analysis::StageModule* stage,
                        const std::vector<const HloInstruction*>& instructions);
  void ShowEvent(const trace::Timeline& timeline, const trace::EventRef& ref);
  void ShowRows(const QString& title, const std::vector<std::pair<std::string, std::string>>& rows);
  void Clear();

  QString title() const;
  // The value of row `label`, or a null string (tests).
  QString Value(const QString& label) const;
  int row_count() const;

 private:
  QLabel* title_ = nullptr;
  QTreeWidget* rows_ = nullptr;
  const analysis::OpProfile* ops_ = nullptr;
};

}  // namespace systolic::views
