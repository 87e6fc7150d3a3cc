// A real profile against the simulator. The "real" profile here is built
// from the simulator's own timing of a compiled MLP (each op an "XLA Ops"
// event as long as simulated, the compiled module in the metadata plane as
// its HloProto), so on the same chip every ratio must be 1: the program
// goes through the proto, the profile and the text back to the same timing.
// On another chip the ratios move with the chip.
#include "core/analysis/measured_vs_simulated.h"

#include <cmath>
#include <memory>
#include <string>

#include "core/device/chip_spec_loader.h"
#include "core/device/program_timing.h"
#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_module.pb.h"
#include "core/hlo/hlo_module_to_proto.h"
#include "core/trace/xplane.pb.h"
#include "core/trace/xspace_importer.h"
#include "core/trace/xspace_programs.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/xspace_builder.h"

namespace systolic::analysis {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kProgramId = 77;

// The MLP sample compiled for `chip`, timed, and written as an XSpace of
// `runs` runs whose op events last what the simulator said.
struct SimulatedSpace {
  trace::xspace::XSpace space;
  device::ProgramTiming timing;
};

SimulatedSpace MakeSimulatedSpace(const device::ChipSpec& chip, int runs) {
  SimulatedSpace made;
  absl::StatusOr<std::vector<HloFileModule>> file =
      LoadHloFile(SYSTOLIC_SOURCE_DIR "/samples/hlo/mlp_layer.hlo", /*verify=*/true);
  EXPECT_TRUE(file.ok()) << file.status();
  absl::StatusOr<CompilationResult> compiled =
      device::CompileForChip(std::move((*file)[0].module).value(), chip);
  EXPECT_TRUE(compiled.ok()) << compiled.status();
  absl::StatusOr<device::ProgramTiming> timing = device::TimeCompiledModule(*compiled->module, chip);
  EXPECT_TRUE(timing.ok()) << timing.status();
  made.timing = *timing;

  using testing::XPlaneBuilder;
  trace::xspace::XPlane* metadata = made.space.add_planes();
  metadata->set_name("/host:metadata");
  XPlaneBuilder m(metadata);
  hlo_proto::HloProto proto;
  *proto.mutable_hlo_module() = ModuleToProto(*compiled->module).value();
  m.Bytes(m.MetadataWithId(kProgramId, "jit_mlp(77)").mutable_stats(), "hlo_proto",
          proto.SerializeAsString());

  trace::xspace::XPlane* tpu = made.space.add_planes();
  tpu->set_name("/device:TPU:0");
  XPlaneBuilder t(tpu);
  trace::xspace::XLine* modules = t.Line(1, "XLA Modules", 1000);
  trace::xspace::XLine* ops = t.Line(2, "XLA Ops", 1000);
  const int64_t run_ps = std::llround(timing->seconds * 1e12);
  for (int run = 0; run < runs; ++run) {
    const int64_t start = run * (run_ps + 1000000);
    t.Event(modules, "jit_mlp(77)", start, run_ps);
    for (const device::OpTiming& op : timing->ops) {
      if (!op.parent.empty()) continue;
      const int64_t cycle_ps = int64_t(1e6 / chip.clock_mhz());
      t.Event(ops, op.instruction, start + op.start_cycle * cycle_ps, std::llround(op.seconds * 1e12));
    }
  }
  return made;
}

const OpMeasuredVsSimulated& FindOp(const ProgramMeasuredVsSimulated& program, const std::string& name) {
  return *std::find_if(program.ops.begin(), program.ops.end(),
                       [&](const auto& op) { return op.instruction == name; });
}

absl::StatusOr<MeasuredVsSimulated> Compare(const trace::xspace::XSpace& space,
                                            const device::ChipSpec& chip) {
  absl::StatusOr<trace::Profile> profile = trace::ImportXSpace(space);
  if (!profile.ok()) return profile.status();
  trace::AddXSpacePrograms(space, *profile);
  return CompareMeasuredWithSimulated(*profile, chip);
}

TEST(MeasuredVsSimulated, TheSimulatorAgainstItselfGivesRatiosOfOne) {
  const device::ChipSpec v5e = device::LoadChipSpec("v5e").value();
  const SimulatedSpace made = MakeSimulatedSpace(v5e, /*runs=*/3);
  absl::StatusOr<MeasuredVsSimulated> compared = Compare(made.space, v5e);
  ASSERT_TRUE(compared.ok()) << compared.status();
  EXPECT_EQ(compared->chip, "v5e");
  EXPECT_TRUE(compared->errors.empty());
  ASSERT_EQ(compared->programs.size(), 1u);
  const ProgramMeasuredVsSimulated& program = compared->programs[0];
  EXPECT_EQ(program.program_id, kProgramId);
  EXPECT_EQ(program.measured_runs, 3);
  EXPECT_NEAR(program.simulated_run_ps / program.measured_run_ps, 1.0, 1e-3);
  int measured_ops = 0;
  for (const OpMeasuredVsSimulated& op : program.ops) {
    if (op.measured_events == 0) continue;  // nested rows are simulated only
    ++measured_ops;
    EXPECT_EQ(op.measured_events, 3) << op.instruction;
    EXPECT_NEAR(op.simulated_ps, op.measured_ps, 0.5) << op.instruction;  // whole picoseconds
  }
  EXPECT_GE(measured_ops, 3);
  // The op profile's column: each measured op at its simulated time.
  const absl::flat_hash_map<std::string, double> simulated = SimulatedTimePerExecution(*compared);
  for (const OpMeasuredVsSimulated& op : program.ops) {
    if (op.measured_events == 0) {
      EXPECT_FALSE(simulated.contains(op.instruction)) << op.instruction;
    } else {
      EXPECT_DOUBLE_EQ(simulated.at(op.instruction), op.simulated_ps) << op.instruction;
    }
  }
  // A progress callback that says stop cancels.
  absl::StatusOr<trace::Profile> profile = trace::ImportXSpace(made.space);
  ASSERT_TRUE(profile.ok());
  trace::AddXSpacePrograms(made.space, *profile);
  EXPECT_EQ(CompareMeasuredWithSimulated(*profile, v5e, [](int64_t, int64_t) { return false; })
                .status()
                .code(),
            absl::StatusCode::kCancelled);
}

TEST(MeasuredVsSimulated, AnotherChipMovesTheRatios) {
  const device::ChipSpec v5e = device::LoadChipSpec("v5e").value();
  const device::ChipSpec v5p = device::LoadChipSpec("v5p").value();
  const SimulatedSpace made = MakeSimulatedSpace(v5e, /*runs=*/1);
  absl::StatusOr<MeasuredVsSimulated> compared = Compare(made.space, v5p);
  ASSERT_TRUE(compared.ok()) << compared.status();
  ASSERT_EQ(compared->programs.size(), 1u);
  const ProgramMeasuredVsSimulated& program = compared->programs[0];
  EXPECT_EQ(compared->chip, "v5p");
  // v5p has more HBM bandwidth and FLOP/s than v5e: the run is faster.
  EXPECT_LT(program.simulated_run_ps, program.measured_run_ps);
  // Largest difference first.
  for (size_t i = 1; i < program.ops.size(); ++i) {
    EXPECT_GE(std::fabs(program.ops[i - 1].difference_ps()), std::fabs(program.ops[i].difference_ps()));
  }
}

TEST(MeasuredVsSimulated, AProfileWithoutProgramsOrOpsSaysWhy) {
  const device::ChipSpec v5e = device::LoadChipSpec("v5e").value();
  trace::Profile empty;
  EXPECT_THAT(std::string(CompareMeasuredWithSimulated(empty, v5e).status().message()),
              HasSubstr("holds no programs to simulate"));
  // Programs but no op of them measured.
  testing::TwoProgramXSpace made = testing::MakeTwoProgramXSpace();
  absl::StatusOr<trace::Profile> profile = trace::ImportXSpace(made.space);
  ASSERT_TRUE(profile.ok());
  trace::AddXSpacePrograms(made.space, *profile);
  profile->timeline = trace::Timeline();
  EXPECT_THAT(std::string(CompareMeasuredWithSimulated(*profile, v5e).status().message()),
              HasSubstr("nothing measured to compare"));
}

TEST(MeasuredVsSimulated, OpsOfTwoProgramsWithOneNameStayApart) {
  const device::ChipSpec v5e = device::LoadChipSpec("v5e").value();
  testing::TwoProgramXSpace made = testing::MakeTwoProgramXSpace();
  absl::StatusOr<MeasuredVsSimulated> compared = Compare(made.space, v5e);
  ASSERT_TRUE(compared.ok()) << compared.status();
  ASSERT_EQ(compared->programs.size(), 2u);
  for (const ProgramMeasuredVsSimulated& program : compared->programs) {
    const auto add = std::find_if(program.ops.begin(), program.ops.end(),
                                  [](const auto& op) { return op.instruction == "add.4"; });
    ASSERT_NE(add, program.ops.end()) << program.name;
    EXPECT_GT(add->simulated_ps, 0);
    if (program.program_id == made.train_id) {
      // Inside the train module, and the op that names its program: 300 ns each.
      EXPECT_EQ(add->measured_events, 2);
      EXPECT_DOUBLE_EQ(add->measured_ps, 300000);
    } else {
      // The TPU op inside eval (300 ns) and the GPU kernel (100 ns).
      EXPECT_EQ(add->measured_events, 2);
      EXPECT_DOUBLE_EQ(add->measured_ps, 200000);
    }
  }
  // add.4 of both programs, two executions each: the mean of their times.
  ASSERT_EQ(compared->programs[1].program_id, made.train_id);
  EXPECT_DOUBLE_EQ(SimulatedTimePerExecution(*compared).at("add.4"),
                   (2 * FindOp(compared->programs[1], "add.4").simulated_ps +
                    2 * FindOp(compared->programs[0], "add.4").simulated_ps) / 4);
}

}  // namespace
}  // namespace systolic::analysis
