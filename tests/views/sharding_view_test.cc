// The sharding view on every sample program: each chip holds the tile the
// core's TileForDevice gives it, replicas share a colour, the topology is
// drawn with every chip, and a profile's stages are read when asked.
#include <QDir>
#include <QImage>
#include <QSignalSpy>
#include <QComboBox>
#include <QtTest>
#include <cstdlib>
#include <set>

#include <QFileInfo>

#include "core/analysis/program_profile.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/sharding_tiles.h"
#include "core/stablehlo/program_file.h"
#include "core/trace/device_topology.h"
#include "tests/views/view_test_profile.h"
#include "views/sharding_canvas.h"
#include "views/sharding_view.h"
#include "views/stage_store.h"

namespace systolic::views {

class ShardingViewTest : public QObject {
  Q_OBJECT

  // Opens a sample program as the studio does: the loaded modules adopted.
  static std::shared_ptr<const trace::Profile> OpenProgram(const QString& path, StageStore* store) {
    auto loaded = LoadProgramFile(path.toStdString(), /*verify=*/true);
    if (!loaded.ok() || loaded->empty() || !(*loaded)[0].module.ok()) return nullptr;
    std::unique_ptr<HloModule> module = std::move(*(*loaded)[0].module);
    auto profile = std::make_shared<const trace::Profile>(
        analysis::ProfileOfModules({module.get()}, QFileInfo(path).fileName().toStdString()));
    store->SetProfile(profile);
    store->Adopt(profile->programs[0].id, 0,
                 analysis::StageModule::Adopt(std::move(module), profile->programs[0].snapshots[0]));
    return profile;
  }

 private slots:
  void chipsHoldTheCoresTiles() {
    StageStore store;
    auto profile = OpenProgram(SYSTOLIC_SOURCE_DIR "/samples/hlo/sharded_mlp.hlo", &store);
    QVERIFY(profile);
    QCOMPARE(profile->topology.chip_count(), int64_t(8));
    ShardingView view(&store);
    view.resize(1400, 800);
    view.show();
    view.Reload();
    QVERIFY(view.tensor_names().contains("w1"));
    // Opens on the first tensor that is split.
    QVERIFY(view.layout());
    QVERIFY(view.layout()->distinct_tiles > 1);
    QVERIFY(view.SelectTensor("w1"));
    const analysis::TensorLayout* layout = view.layout();
    QVERIFY(layout);
    QCOMPARE(layout->distinct_tiles, int64_t(8));
    const HloInstruction* w1 = store.Get(1, 0)->FindInstruction("w1");
    QVERIFY(w1);
    for (int64_t d = 0; d < 8; ++d) {
      auto expected = TileForDevice(w1->sharding(), w1->shape(), d);
      QVERIFY(expected.ok() && expected->has_value());
      QCOMPARE(layout->devices[size_t(d)].tile, **expected);
      const QString label = view.canvas()->ChipLabel(int32_t(d));
      QVERIFY2(label.contains(QStringLiteral("tile %1 · ").arg(d)), qPrintable(label));
      QVERIFY(label.contains("f32[256,128]"));
      QVERIFY(label.contains(QStringLiteral("at (0,%1)").arg(128 * d)));
      QVERIFY(label.contains("128 KiB") || label.contains("128.0 KiB"));
      QVERIFY(!view.canvas()->ChipRect(int32_t(d)).isEmpty());
    }
    // Replicated: one tile, one colour on every chip.
    QVERIFY(view.SelectTensor("x"));
    QCOMPARE(view.layout()->distinct_tiles, int64_t(1));
    QCOMPARE(view.layout()->devices_of_tile[0].size(), size_t(8));
    QVERIFY(view.canvas()->ChipLabel(5).contains("tile 0 · "));
    QVERIFY(view.canvas()->ChipLabel(5).contains("f32[64,256]"));
    // Any two dimensions as the tile grid.
    QVERIFY(view.SelectTensor("w1"));
    QCOMPARE(view.canvas()->grid_rows(), 0);
    QCOMPARE(view.canvas()->grid_columns(), 1);
    view.SetGridDimensions(1, 0);
    QCOMPARE(view.canvas()->grid_rows(), 1);
    QCOMPARE(view.canvas()->grid_columns(), 0);
    // Chips are distinct, and clicking one selects it.
    std::set<std::pair<int, int>> places;
    for (int32_t d = 0; d < 8; ++d) {
      const QPointF c = view.canvas()->ChipRect(d).center();
      places.insert({int(c.x()), int(c.y())});
    }
    QCOMPARE(places.size(), size_t(8));
    QSignalSpy chip(&view, &ShardingView::chipSelected);
    QTest::mouseClick(view.canvas(), Qt::LeftButton, {}, view.canvas()->ChipRect(6).center().toPoint());
    QCOMPARE(chip.count(), 1);
    QCOMPARE(chip.first().first().toInt(), 6);
    QImage image(view.size(), QImage::Format_ARGB32);
    view.render(&image);
    QVERIFY(!image.isNull());
  }

  void everySampleTensorMatchesTheCore() {
    const QDir samples(SYSTOLIC_SOURCE_DIR "/samples/hlo");
    int checked = 0;
    for (const QString& name : samples.entryList({"*.hlo"})) {
      StageStore store;
      auto profile = OpenProgram(samples.filePath(name), &store);
      QVERIFY2(profile, qPrintable(name));
      ShardingView view(&store);
      view.Reload();
      const int64_t devices = view.device_count();
      const std::shared_ptr<const analysis::StageModule> stage = store.Get(1, 0);
      for (const QString& tensor : view.tensor_names()) {
        QVERIFY(view.SelectTensor(tensor));
        const HloInstruction* i = stage->FindInstruction(tensor.toStdString());
        QVERIFY(i);
        const HloSharding sharding = i->has_sharding() ? i->sharding() : HloSharding::Replicate();
        for (int64_t d = 0; d < devices; ++d) {
          auto expected = TileForDevice(sharding, i->shape(), d);
          QVERIFY2(expected.ok(), qPrintable(name + " " + tensor));
          QCOMPARE(view.layout()->devices[size_t(d)].holds, expected->has_value());
          if (expected->has_value()) QCOMPARE(view.layout()->devices[size_t(d)].tile, **expected);
        }
        ++checked;
      }
    }
    QVERIFY(checked > 20);
  }

  void linksAreAHeatMapOfTheRunsTraffic() {
    trace::TopologyRecord ring = trace::TopologyForDevices(5);
    ShardingCanvas canvas;
    canvas.SetTopology(ring);
    const QPen idle(Qt::gray, 2);
    // No traffic recorded: links drawn plain, nothing said about ICI.
    QCOMPARE(canvas.LinkPen(0, 1, 0, idle), idle);
    QVERIFY(!canvas.Heading().contains("ICI"));
    for (trace::TopologyLink& link : ring.links) {
      if (link.source_chip == 0 && link.target_chip == 1) link.bytes = 4 << 20;
      if (link.source_chip == 1 && link.target_chip == 2) link.bytes = 1 << 20;
    }
    canvas.SetTopology(ring);
    QVERIFY2(canvas.Heading().contains("ICI traffic: busiest link 4 MiB"), qPrintable(canvas.Heading()));
    const QPen busiest = canvas.LinkPen(1, 0, 0, idle);
    const QPen light = canvas.LinkPen(1, 2, 0, idle);
    const QPen unused = canvas.LinkPen(3, 4, 0, idle);
    QVERIFY(busiest.widthF() > light.widthF());
    QVERIFY(light.widthF() > unused.widthF());
    QVERIFY(busiest.color().red() < light.color().red());  // deeper red
    QVERIFY(busiest.color() != unused.color());
    canvas.resize(900, 520);
    QImage image(canvas.size(), QImage::Format_ARGB32);
    canvas.render(&image);
    // A legend below the chips says what the colours mean: its bar ends in
    // the busiest link's colour, and no chip is drawn over it.
    const QRectF legend = canvas.TrafficLegendRect();
    QVERIFY(!legend.isEmpty());
    QVERIFY(QRectF(canvas.rect()).contains(legend));
    for (int32_t chip = 0; chip < 5; ++chip) QVERIFY(!canvas.ChipRect(chip).intersects(legend));
    const QColor end = image.pixelColor(QPoint(int(legend.left() + legend.width() * 0.6) - 2, int(legend.top()) + 5));
    QVERIFY2(std::abs(end.red() - ShardingCanvas::TrafficColor(1).red()) < 12 &&
                 std::abs(end.green() - ShardingCanvas::TrafficColor(1).green()) < 12,
             qPrintable(end.name()));
    // No traffic, no legend.
    canvas.SetTopology(trace::TopologyForDevices(5));
    QVERIFY(canvas.TrafficLegendRect().isEmpty());
  }

  void aProfilesStageIsReadWhenAsked() {
    StageStore store;
    auto profile = std::make_shared<const trace::Profile>(testing::MakeMlpProfile());
    store.SetProfile(profile);
    ShardingView view(&store);
    view.Reload();
    QTRY_VERIFY_WITH_TIMEOUT(!view.busy(), 30000);
    QVERIFY(!view.tensor_names().isEmpty());
    QVERIFY(view.layout());
    // Nothing is sharded: every chip of the 2x2 holds the whole tensor.
    QCOMPARE(view.layout()->distinct_tiles, int64_t(1));
    QCOMPARE(view.layout()->devices.size(), size_t(4));
    // Every choice says what it is in full on hover, however narrow its box.
    const QList<QComboBox*> boxes = view.findChildren<QComboBox*>();
    QCOMPARE(boxes.size(), 5);
    for (const QComboBox* box : boxes) {
      if (box->currentIndex() >= 0) QVERIFY(box->toolTip().startsWith(box->currentText()));
    }
  }
};

}  // namespace systolic::views

QTEST_MAIN(systolic::views::ShardingViewTest)
#include "sharding_view_test.moc"
