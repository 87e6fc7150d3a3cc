// The program explorer's model over a real module.
#include <QAbstractItemModelTester>
#include <QtTest>

#include "core/hlo/hlo_file.h"
#include "views/module_outline_model.h"

namespace systolic::views {

class ModuleOutlineModelTest : public QObject {
  Q_OBJECT

 private slots:
  void listsComputationsEntryFirstWithInstructions() {
    auto loaded = LoadHloFile(SYSTOLIC_SOURCE_DIR "/samples/hlo/mlp_layer.hlo", true);
    QVERIFY(loaded.ok());
    auto& module = *loaded->front().module;
    ModuleOutlineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.SetModule(module.get());
    QCOMPARE(model.rowCount(), 3);
    QModelIndex entry = model.index(0, 0);
    QCOMPARE(model.data(entry).toString(), QString("ENTRY main"));
    QCOMPARE(model.rowCount(entry), 26);
    QModelIndex first = model.index(0, 0, entry);
    QCOMPARE(model.InstructionAt(first)->name(), std::string("x"));
    QCOMPARE(model.data(model.index(0, 1, entry)).toString(), QString("parameter f32[32,64]"));
    QCOMPARE(model.parent(first), entry);
    QCOMPARE(model.ComputationAt(first), module->entry_computation());
    model.SetModule(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }
};

}  // namespace systolic::views

QTEST_MAIN(systolic::views::ModuleOutlineModelTest)
#include "module_outline_model_test.moc"
