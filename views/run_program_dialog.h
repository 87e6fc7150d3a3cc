// "Compile and run…": which chip (one of the device layer's presets, or a
// spec file it validates), its systolic array's size (what-if), which
// topology and how many steps. The choices
// are remembered between sessions.
#pragma once

#include <QDialog>

#include "views/program_runner.h"

class QComboBox;
class QLineEdit;
class QRadioButton;
class QSpinBox;
class QDialogButtonBox;
class QLabel;

namespace systolic::views {

class RunProgramDialog : public QDialog {
  Q_OBJECT

 public:
  explicit RunProgramDialog(const QString& program_path, QWidget* parent = nullptr);

  ProgramRunRequest request() const;
  // Stores the choices for next time (QSettings).
  void Remember() const;
  // Whether the current choices can run (a topology like 2x2, a valid spec
  // file when one is asked for); otherwise `problem` says why.
  bool valid(QString* problem = nullptr) const;

 private:
  void Validate();

  QString program_path_;
  QRadioButton* use_preset_ = nullptr;
  QRadioButton* use_spec_ = nullptr;
  QComboBox* preset_ = nullptr;
  QLineEdit* spec_ = nullptr;
  QLineEdit* topology_ = nullptr;
  QSpinBox* mxu_size_ = nullptr;
  QSpinBox* steps_ = nullptr;
  QLabel* problem_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
};

}  // namespace systolic::views
