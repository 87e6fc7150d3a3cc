#include "views/run_program_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpressionValidator>
#include <QSettings>
#include <QSpinBox>

#include "core/device/chip_spec_loader.h"

namespace systolic::views {

RunProgramDialog::RunProgramDialog(const QString& program_path, QWidget* parent)
    : QDialog(parent), program_path_(program_path) {
  setWindowTitle("Compile and run");
  QSettings settings;
  auto* form = new QFormLayout(this);
  form->addRow(new QLabel(QStringLiteral("<b>%1</b>").arg(QFileInfo(program_path).fileName().toHtmlEscaped())));

  use_preset_ = new QRadioButton("Preset", this);
  preset_ = new QComboBox(this);
  for (const std::string& name : device::ChipPresetNames()) preset_->addItem(QString::fromStdString(name));
  preset_->setObjectName("preset");
  preset_->setCurrentText(settings.value("run/preset", "v4").toString());
  auto* preset_row = new QHBoxLayout();
  preset_row->addWidget(use_preset_);
  preset_row->addWidget(preset_, 1);
  form->addRow("Chip", preset_row);

  use_spec_ = new QRadioButton("Spec file", this);
  use_spec_->setObjectName("use_spec");
  spec_ = new QLineEdit(settings.value("run/spec").toString(), this);
  spec_->setObjectName("spec");
  spec_->setPlaceholderText("chip spec (protobuf text)");
  auto* browse = new QPushButton("…", this);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Chip spec", spec_->text(),
                                                      "Chip specs (*.textproto *.pbtxt *.txt);;All files (*)");
    if (!path.isEmpty()) {
      spec_->setText(path);
      use_spec_->setChecked(true);
    }
  });
  auto* spec_row = new QHBoxLayout();
  spec_row->addWidget(use_spec_);
  spec_row->addWidget(spec_, 1);
  spec_row->addWidget(browse);
  form->addRow("", spec_row);
  (settings.value("run/use_spec", false).toBool() ? use_spec_ : use_preset_)->setChecked(true);

  topology_ = new QLineEdit(settings.value("run/topology", "2x2").toString(), this);
  topology_->setObjectName("topology");
  topology_->setValidator(new QRegularExpressionValidator(QRegularExpression(R"(\d{1,3}(x\d{1,3}){0,2})"), this));
  topology_->setToolTip("Chips per axis: 8 (ring), 2x2 (2D torus), 4x4x4 (3D torus)");
  form->addRow("Topology", topology_);

  mxu_size_ = new QSpinBox(this);
  mxu_size_->setObjectName("mxu_size");
  mxu_size_->setRange(0, 1024);
  mxu_size_->setSingleStep(64);
  mxu_size_->setSpecialValueText("the chip's own");
  mxu_size_->setSuffix(" PEs a side");
  mxu_size_->setValue(settings.value("run/mxu_size", 0).toInt());
  mxu_size_->setToolTip("What if each MXU were a square systolic array of this many processing elements a side");
  form->addRow("MXU array", mxu_size_);

  steps_ = new QSpinBox(this);
  steps_->setRange(1, 100000);
  steps_->setValue(settings.value("run/steps", 3).toInt());
  form->addRow("Steps", steps_);

  problem_ = new QLabel(this);
  problem_->setObjectName("problem");
  problem_->setWordWrap(true);
  problem_->setStyleSheet("color: #b91c1c;");
  form->addRow(problem_);

  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons_->button(QDialogButtonBox::Ok)->setText("Run");
  connect(buttons_, &QDialogButtonBox::accepted, this, [this] {
    Remember();
    accept();
  });
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons_);

  for (QObject* source : {static_cast<QObject*>(use_preset_), static_cast<QObject*>(use_spec_)}) {
    connect(static_cast<QRadioButton*>(source), &QRadioButton::toggled, this, &RunProgramDialog::Validate);
  }
  connect(spec_, &QLineEdit::textChanged, this, &RunProgramDialog::Validate);
  connect(topology_, &QLineEdit::textChanged, this, &RunProgramDialog::Validate);
  Validate();
}

bool RunProgramDialog::valid(QString* problem) const {
  QString why;
  if (!topology_->hasAcceptableInput()) {
    why = "The topology reads like 8, 2x2 or 4x4x4.";
  } else if (use_spec_->isChecked()) {
    if (!QFileInfo(spec_->text()).isFile()) {
      why = "Choose a chip spec file.";
    } else if (auto spec = device::LoadChipSpec(spec_->text().toStdString()); !spec.ok()) {
      why = QString::fromStdString(std::string(spec.status().message()));
    }
  }
  if (problem) *problem = why;
  return why.isEmpty();
}

void RunProgramDialog::Validate() {
  QString why;
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(valid(&why));
  problem_->setText(why);
  problem_->setVisible(!why.isEmpty());
}

ProgramRunRequest RunProgramDialog::request() const {
  ProgramRunRequest request;
  request.program_path = program_path_.toStdString();
  if (use_spec_->isChecked()) {
    request.chip_spec_path = spec_->text().toStdString();
  } else {
    request.chip_preset = preset_->currentText().toStdString();
  }
  request.topology = topology_->text().toStdString();
  request.mxu_size = mxu_size_->value();
  request.steps = steps_->value();
  return request;
}

void RunProgramDialog::Remember() const {
  QSettings settings;
  settings.setValue("run/preset", preset_->currentText());
  settings.setValue("run/spec", spec_->text());
  settings.setValue("run/use_spec", use_spec_->isChecked());
  settings.setValue("run/topology", topology_->text());
  settings.setValue("run/mxu_size", mxu_size_->value());
  settings.setValue("run/steps", steps_->value());
}

}  // namespace systolic::views
