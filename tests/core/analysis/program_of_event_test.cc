// Which program an op of a real profile ran in, however the profiler says
// it: the enclosing "XLA Modules" event, a program_id stat, an hlo_module
// stat; an instruction name shared by two programs goes to the right one.
#include "core/analysis/program_of_event.h"

#include "core/analysis/event_details.h"
#include "core/trace/xspace_importer.h"
#include "core/trace/xspace_programs.h"
#include "gtest/gtest.h"
#include "tests/support/xspace_builder.h"

namespace systolic::analysis {
namespace {

class ProgramOfEventTest : public ::testing::Test {
 protected:
  void SetUp() override {
    made_ = testing::MakeTwoProgramXSpace();
    absl::StatusOr<trace::Profile> profile = trace::ImportXSpace(made_.space);
    ASSERT_TRUE(profile.ok()) << profile.status();
    profile_ = *std::move(profile);
    trace::AddXSpacePrograms(made_.space, profile_);
    ASSERT_EQ(profile_.programs.size(), 2u);
  }

  // The event `index` of the lane named `lane` on the plane named `plane`.
  trace::EventRef Event(const std::string& plane, const std::string& lane, int64_t index) {
    for (int32_t p = 0; p < profile_.timeline.plane_count(); ++p) {
      const trace::TimelinePlane& candidate = profile_.timeline.plane(p);
      if (candidate.name() != plane) continue;
      for (int32_t l = 0; l < candidate.line_count(); ++l) {
        if (candidate.line(l).name() == lane) return {p, l, index};
      }
    }
    ADD_FAILURE() << "no lane " << plane << " / " << lane;
    return {};
  }

  testing::TwoProgramXSpace made_;
  trace::Profile profile_;
};

TEST_F(ProgramOfEventTest, OpsBelongToTheModuleRunningAroundThem) {
  const trace::EventRef multiply = Event("/device:TPU:0", "XLA Ops", 0);
  const trace::EventRef add_in_train = Event("/device:TPU:0", "XLA Ops", 1);
  const trace::EventRef add_in_eval = Event("/device:TPU:0", "XLA Ops", 2);
  EXPECT_EQ(ProgramOfEvent(profile_, multiply), made_.train_id);
  EXPECT_EQ(ProgramOfEvent(profile_, add_in_train), made_.train_id);
  EXPECT_EQ(ProgramOfEvent(profile_, add_in_eval), made_.eval_id);
  // The same instruction name, in two programs.
  EXPECT_EQ(InstructionOfEvent(profile_.timeline, add_in_train), "add.4");
  EXPECT_EQ(InstructionOfEvent(profile_.timeline, add_in_eval), "add.4");
}

TEST_F(ProgramOfEventTest, ModuleEventsNameTheirProgramById) {
  EXPECT_EQ(ProgramOfEvent(profile_, Event("/device:TPU:0", "XLA Modules", 0)), made_.train_id);
  EXPECT_EQ(ProgramOfEvent(profile_, Event("/device:TPU:0", "XLA Modules", 1)), made_.eval_id);
}

TEST_F(ProgramOfEventTest, StatsNameTheProgramOutsideAnyModule) {
  // A program_id stat, on an op no module event encloses.
  EXPECT_EQ(ProgramOfEvent(profile_, Event("/device:TPU:0", "XLA Ops", 3)), made_.train_id);
  // A GPU kernel's hlo_module stat.
  EXPECT_EQ(ProgramOfEvent(profile_, Event("/device:GPU:1", "Stream #14(Compute)", 0)), made_.eval_id);
}

TEST_F(ProgramOfEventTest, UnknownWithoutAClueAmongSeveralPrograms) {
  EXPECT_EQ(ProgramOfEvent(profile_, trace::EventRef{99, 0, 0}), std::nullopt);
  // With one program, every event is that program's.
  trace::Profile one = profile_;
  one.programs.resize(1);
  EXPECT_EQ(ProgramOfEvent(one, Event("/device:TPU:0", "XLA Ops", 1)), one.programs[0].id);
  one.programs.clear();
  EXPECT_EQ(ProgramOfEvent(one, Event("/device:TPU:0", "XLA Ops", 1)), std::nullopt);
}

}  // namespace
}  // namespace systolic::analysis
