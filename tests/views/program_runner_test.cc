// The studio's "Compile and run": a program compiles, runs on the simulated
// chip for the requested steps, and comes back as a profile to open.
#include <QtTest>

#include "core/hlo/hlo_file.h"
#include "views/program_runner.h"

namespace systolic::views {

class ProgramRunnerTest : public QObject {
  Q_OBJECT

 private slots:
  void aSampleRunsForItsStepsWithATimeline() {
    auto loaded = LoadHloFile(SYSTOLIC_SOURCE_DIR "/samples/hlo/mlp_layer.hlo", /*verify=*/true);
    QVERIFY(loaded.ok() && loaded->size() == 1 && (*loaded)[0].module.ok());
    const HloModule& module = **(*loaded)[0].module;
    ProgramRunRequest request{"mlp_layer.hlo", "v4", "", "2x2", 3};
    RunProgress progress;
    auto profile = CompileAndRunProgram(module, request, progress);
    QVERIFY2(profile.ok(), std::string(profile.status().message()).c_str());
    QCOMPARE(progress.fraction(), 1.0);
    QCOMPARE(int(profile->programs.size()), 1);
    QVERIFY(profile->programs[0].snapshots.size() > 3);
    QCOMPARE(int(profile->runs.size()), 1);
    QCOMPARE(int(profile->runs[0].steps.size()), 3);
    // One compile, then two cache hits.
    QCOMPARE(int(profile->compile_events.size()), 3);
    QVERIFY(!profile->compile_events[0].cache_hit);
    QVERIFY(profile->compile_events[2].cache_hit);
    QCOMPARE(profile->chip.name, std::string("v4"));
    QVERIFY(profile->timeline.event_count() > 0);
    // Each step repeats the same events back to back.
    QCOMPARE(profile->runs[0].steps[1].start_ps, profile->runs[0].steps[0].duration_ps);
  }

  void cancellingStopsTheRun() {
    auto loaded = LoadHloFile(SYSTOLIC_SOURCE_DIR "/samples/hlo/mlp_layer.hlo", true);
    QVERIFY(loaded.ok() && (*loaded)[0].module.ok());
    RunProgress progress;
    progress.Cancel();
    auto profile = CompileAndRunProgram(**(*loaded)[0].module, {"", "v4", "", "1", 1}, progress);
    QCOMPARE(profile.status().code(), absl::StatusCode::kCancelled);
  }

  void aMultiDeviceProgramRunsOnTheTopology() {
    auto loaded = LoadHloFile(SYSTOLIC_SOURCE_DIR "/samples/hlo/sharded_mlp.hlo", true);
    QVERIFY(loaded.ok() && (*loaded)[0].module.ok());
    RunProgress progress;
    auto profile = CompileAndRunProgram(**(*loaded)[0].module, {"", "v4", "", "2x4", 1}, progress);
    QVERIFY2(profile.ok(), std::string(profile.status().message()).c_str());
    QCOMPARE(profile->topology.shape, std::string("2x4"));
    QCOMPARE(profile->timeline.plane_count(), 8);
    auto too_small = CompileAndRunProgram(**(*loaded)[0].module, {"", "v4", "", "2x2", 1}, progress);
    QVERIFY(!too_small.ok());
    QVERIFY(std::string(too_small.status().message()).find("8 devices") != std::string::npos);
    auto bad_chip = CompileAndRunProgram(**(*loaded)[0].module, {"", "v99", "", "1", 1}, progress);
    QVERIFY(!bad_chip.ok());
  }

  // What-if: the same chip with a larger systolic array, and the run says
  // what it was on.
  void aLargerArrayIsAWhatIf() {
    auto loaded = LoadHloFile(SYSTOLIC_SOURCE_DIR "/samples/hlo/mlp_layer.hlo", true);
    QVERIFY(loaded.ok() && (*loaded)[0].module.ok());
    RunProgress progress;
    auto own = CompileAndRunProgram(**(*loaded)[0].module, {"", "v5e", "", "", 1}, progress);
    auto larger = CompileAndRunProgram(**(*loaded)[0].module, {"", "v5e", "", "", 1, 256}, progress);
    QVERIFY2(own.ok() && larger.ok(), "both run");
    QCOMPARE(own->chip.mxu_rows, 128);
    QCOMPARE(larger->chip.mxu_rows, 256);
    QCOMPARE(larger->chip.mxu_cols, 256);
    QCOMPARE(DescribeRequest({"", "v5e", "", "2x2", 3, 256}), std::string("v5e · 2x2 · MXU 256² · 3 steps"));
  }

  void runsAreWrittenAsChipTopologySteps() {
    auto run = ParseRunRequest("v5e:2x2:3");
    QVERIFY(run.ok());
    QCOMPARE(run->chip_preset, std::string("v5e"));
    QCOMPARE(run->topology, std::string("2x2"));
    QCOMPARE(run->steps, int64_t(3));
    QVERIFY(ParseRunRequest("v4")->topology.empty());
    QVERIFY(!ParseRunRequest("v99").ok());
    QVERIFY(!ParseRunRequest("v4:2x2:zero").ok());
    QVERIFY(!ParseRunRequest("").ok());
  }
};

}  // namespace systolic::views

QTEST_MAIN(systolic::views::ProgramRunnerTest)
#include "program_runner_test.moc"
