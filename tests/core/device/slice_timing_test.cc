// A program run on a slice: its collectives take their ICI time on every
// core, later work waits for a synchronous one, and the profile shows every
// device with the transfers between them.
#include "core/device/slice_timing.h"

#include <cmath>

#include "core/device/chip_figures.h"
#include "core/device/ici_trace.h"
#include "core/device/run_profile.h"
#include "core/hlo/hlo_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

using ::testing::HasSubstr;

constexpr char kDataParallelStep[] = R"(
HloModule step, replica_count=8
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[512,512] parameter(0)
  w = f32[512,512] parameter(1)
  grad = f32[512,512] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  summed = f32[512,512] all-reduce(grad), replica_groups={}, to_apply=add
  ROOT update = f32[512,512] exponential(summed)
}
)";

std::unique_ptr<HloModule> Parse(absl::string_view text) {
  auto m = ParseAndReturnUnverifiedModule(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *std::move(m) : nullptr;
}

Slice Load(absl::string_view text) {
  auto slice = LoadSlice(text);
  EXPECT_TRUE(slice.ok()) << slice.status();
  return *std::move(slice);
}

const OpTiming* FindOp(const ProgramTiming& timing, absl::string_view unit) {
  for (const OpTiming& op : timing.ops) {
    if (op.unit == unit) return &op;
  }
  return nullptr;
}

TEST(SliceTiming, CollectiveTakesItsIciTimeAndFencesLaterWork) {
  const Slice slice = Load("v4:2x2x2");
  auto timed = CompileAndTimeOnSlice(Parse(kDataParallelStep), slice);
  ASSERT_TRUE(timed.ok()) << timed.status();
  const SliceTiming& t = timed->timing;
  EXPECT_EQ(t.slice, "v4:2x2x2");
  EXPECT_EQ(t.device_count(), 8);
  ASSERT_EQ(t.collectives.size(), 1u);
  const CollectiveTiming& all_reduce = t.collectives[0];
  EXPECT_EQ(all_reduce.bytes, 512 * 512 * 4);
  ASSERT_GT(all_reduce.seconds(), 0);

  // On the op table as an ICI op as long as the ICI simulation says.
  const OpTiming* ici = FindOp(t.chip, "ICI");
  ASSERT_NE(ici, nullptr);
  EXPECT_EQ(ici->instruction, all_reduce.instruction);
  const int64_t cycles = int64_t(std::ceil(all_reduce.seconds() * ClockHz(slice.spec)));
  EXPECT_EQ(ici->end_cycle - ici->start_cycle, cycles);
  // One op per core, on the core's ICI lane.
  for (int core = 0; core < slice.spec.tensor_cores_per_chip(); ++core) {
    const UnitLane* lane = t.chip.simulation.FindLane(core, IciUnit());
    ASSERT_NE(lane, nullptr);
    EXPECT_EQ(lane->events.size(), 1u);
  }
  // The gradient is ready before the all-reduce starts; the update after it ends.
  bool after = false;
  for (const OpTiming& op : t.chip.ops) {
    if (&op == ici) {
      after = true;
      continue;
    }
    if (op.events == 0) continue;
    if (after) {
      EXPECT_GE(op.start_cycle, ici->end_cycle) << op.instruction;
    } else {
      EXPECT_LE(op.end_cycle, ici->start_cycle) << op.instruction;
    }
  }
  EXPECT_TRUE(after);

  // The same program on one chip leaves the all-reduce unmodelled and is shorter.
  auto alone = CompileAndTime(Parse(kDataParallelStep), slice.spec);
  ASSERT_TRUE(alone.ok()) << alone.status();
  EXPECT_EQ(FindOp(alone->timing, "ICI"), nullptr);
  EXPECT_GT(t.chip.cycles, alone->timing.cycles);
}

TEST(SliceTiming, MoreDevicesThanChipsIsAnError) {
  auto timed = CompileAndTimeOnSlice(Parse(kDataParallelStep), Load("v4:2x2"));
  ASSERT_FALSE(timed.ok());
  EXPECT_THAT(timed.status().message(), HasSubstr("8 devices"));
  EXPECT_THAT(timed.status().message(), HasSubstr("4 chips"));
}

TEST(SliceTiming, ProfileShowsEveryDeviceAndTheTransfersBetweenThem) {
  const Slice slice = Load("v4:2x2x2");
  auto timed = CompileAndTimeOnSlice(Parse(kDataParallelStep), slice);
  ASSERT_TRUE(timed.ok()) << timed.status();
  const trace::Profile p =
      ProfileOfSliceRun("step on v4:2x2x2", slice, timed->compilation, timed->timing, 2);
  EXPECT_EQ(p.topology.chip_count(), 8);
  EXPECT_EQ(p.topology.shape, "2x2x2");
  EXPECT_EQ(p.topology.links.size(), slice.topology.links().size());
  // Both steps' traffic is on the links, for the sharding view's heat map.
  trace::TopologyRecord one_step = TopologyRecordOf(slice.topology, slice.spec);
  AddLinkTraffic(timed->timing, 1, one_step);
  int64_t bytes = 0, step_bytes = 0;
  for (const trace::TopologyLink& link : p.topology.links) bytes += link.bytes;
  for (const trace::TopologyLink& link : one_step.links) step_bytes += link.bytes;
  EXPECT_GT(step_bytes, 0);
  EXPECT_EQ(bytes, 2 * step_bytes);
  EXPECT_EQ(p.timeline.plane_count(), 8);
  for (int32_t chip = 0; chip < 8; ++chip) {
    const trace::TimelinePlane* plane = p.timeline.FindChipPlane(chip);
    ASSERT_NE(plane, nullptr) << chip;
    int ici_lanes = 0;
    for (int32_t l = 0; l < plane->line_count(); ++l) {
      if (plane->line(l).kind() == trace::LaneKind::kIci) ++ici_lanes;
    }
    // The core's ICI unit, and sends and receives along each of three axes.
    EXPECT_GE(ici_lanes, 4) << chip;
  }
  const CollectiveTiming& all_reduce = timed->timing.collectives[0];
  // Every transfer of both steps is a flow from its sender to its receiver.
  ASSERT_EQ(p.timeline.flows().size(), 2 * all_reduce.transfers.size());
  const int64_t run_ps = CyclesToPs(slice.spec, timed->timing.chip.cycles);
  for (const trace::Flow& flow : p.timeline.flows()) {
    ASSERT_TRUE(p.timeline.Contains(flow.source));
    ASSERT_TRUE(p.timeline.Contains(flow.target));
    EXPECT_NE(flow.source.plane, flow.target.plane);
    EXPECT_EQ(flow.category, "ici");
    EXPECT_EQ(p.timeline.EventName(flow.source), all_reduce.instruction);
    const trace::TimelineLine& send = p.timeline.line(flow.source);
    const trace::TimelineLine& receive = p.timeline.line(flow.target);
    EXPECT_LE(send.start_ps(flow.source.event), receive.start_ps(flow.target.event));
    EXPECT_EQ(send.end_ps(flow.source.event), receive.end_ps(flow.target.event));
    EXPECT_LE(receive.end_ps(flow.target.event), 2 * run_ps);
  }
}

TEST(SliceTiming, LinkTrafficIsWhatTheTransfersCarried) {
  const Slice slice = Load("v4:2x2x2");
  auto timed = CompileAndTimeOnSlice(Parse(kDataParallelStep), slice);
  ASSERT_TRUE(timed.ok()) << timed.status();
  trace::TopologyRecord record = TopologyRecordOf(slice.topology, slice.spec);
  AddLinkTraffic(timed->timing, 3, record);
  // Each transfer crosses the links of its route once a step.
  int64_t carried = 0;
  const CollectiveTiming& all_reduce = timed->timing.collectives[0];
  for (size_t i = 0; i < all_reduce.transfers.size(); ++i) {
    carried += 3 * all_reduce.transfers[i].bytes *
               int64_t(all_reduce.simulation.transfers[i].links.size());
  }
  int64_t recorded = 0;
  for (const trace::TopologyLink& link : record.links) {
    recorded += link.bytes;
    EXPECT_LE(link.busy_ps, 3 * CyclesToPs(slice.spec, timed->timing.chip.cycles));
  }
  EXPECT_GT(carried, 0);
  EXPECT_EQ(recorded, carried);
}

TEST(SliceTiming, BigSlicesShowTheFirstDevices) {
  auto module = Parse(R"(
HloModule wide, replica_count=128
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[4096] parameter(0)
  ROOT y = f32[4096] all-reduce(x), replica_groups={}, to_apply=add
}
)");
  const Slice slice = Load("v4:4x4x8");
  auto timed = CompileAndTimeOnSlice(std::move(module), slice);
  ASSERT_TRUE(timed.ok()) << timed.status();
  const trace::Profile p = ProfileOfSliceRun("wide", slice, timed->compilation, timed->timing);
  EXPECT_EQ(p.timeline.plane_count(), kMaxChipPlanes);
  EXPECT_EQ(p.topology.chip_count(), 128);
  ASSERT_EQ(p.info.notes.size(), 1u);
  EXPECT_THAT(p.info.notes[0], HasSubstr("first 64 of 128 devices"));
  EXPECT_FALSE(p.timeline.flows().empty());
}

}  // namespace
}  // namespace systolic::device
