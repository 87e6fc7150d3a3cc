#include "tests/support/synthetic_profile.h"

#include <cmath>
#include <limits>
#include <random>

#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_parser.h"

namespace systolic::trace::testing {
namespace {

constexpr char kMlp[] = R"(
HloModule mlp, entry_computation_layout={(f32[8,16]{1,0}, f32[16,4]{1,0})->f32[8,4]{1,0}}

ENTRY %main (x: f32[8,16], w: f32[16,4]) -> f32[8,4] {
  %x = f32[8,16]{1,0} parameter(0), sharding={devices=[2,1]0,1}
  %w = f32[16,4]{1,0} parameter(1), sharding={replicated}
  %dot = f32[8,4]{1,0} dot(f32[8,16]{1,0} %x, f32[16,4]{1,0} %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %zero = f32[] constant(0)
  %zeros = f32[8,4]{1,0} broadcast(f32[] %zero), dimensions={}
  ROOT %relu = f32[8,4]{1,0} maximum(f32[8,4]{1,0} %dot, f32[8,4]{1,0} %zeros)
}
)";

ProgramRecord MakeProgram(int64_t id) {
  ProgramRecord program;
  program.id = id;
  program.name = absl::StrCat("mlp_", id);
  program.fingerprint = absl::StrCat("fp-", 1000 + id);
  auto module = ParseAndReturnUnverifiedModule(kMlp);
  if (module.ok()) {
    program.snapshots.push_back(SnapshotModule(**module, "input", 0, false));
    program.snapshots.push_back(SnapshotModule(**module, "dce", 1200, false));
    program.shardings = CollectShardings(**module);
  }
  // A fusion pass as the compiler would record it.
  ModuleSnapshot fused;
  fused.pass_name = "priority-fusion";
  fused.pass_duration_ns = 45000;
  fused.changed = true;
  fused.hlo_text = "HloModule mlp\n...fused...";
  fused.instruction_count = 4;
  fused.computation_count = 2;
  fused.provenance.push_back({7, "fusion", {{2, "dot"}, {4, "zeros"}, {5, "relu"}}});
  fused.provenance.push_back({0, "x", {}});
  program.snapshots.push_back(fused);

  program.buffer_assignment.buffers.push_back({0, 0, "x", "f32[8,16]{1,0}", 512, 0, 0, 2, "HBM"});
  program.buffer_assignment.buffers.push_back({1, 1, "w", "f32[16,4]{1,0}", 256, 512, 0, 2, "HBM"});
  program.buffer_assignment.buffers.push_back(
      {2, 7, "fusion", "f32[8,4]{1,0}", 128, 0, 2, 3, "VMEM"});
  program.buffer_assignment.peaks.push_back({"HBM", 768, 1});
  program.buffer_assignment.peaks.push_back({"VMEM", 128, 2});
  return program;
}

}  // namespace

Profile MakeSampleProfile(const SampleOptions& options) {
  Profile p;
  p.info.producer = "systolic tests";
  p.info.created_unix_ns = 1700000000123456789;
  p.info.hostname = "ci-runner";
  p.info.title = "sharded MLP on 2x2";
  p.info.notes = {"sample"};

  p.chip.name = "v4";
  p.chip.spec_text = "name: \"v4\"\ncores_per_chip: 2\nmxu { rows: 128 cols: 128 }\n";
  p.chip.peak_flops_per_second = 275e12;
  p.chip.hbm_bytes = int64_t(32) << 30;
  p.chip.hbm_bandwidth_bytes_per_second = 1200e9;
  p.chip.clock_hz = 1050e6;
  p.chip.cores_per_chip = 2;
  p.chip.mxus_per_core = 4;
  p.chip.mxu_rows = 128;
  p.chip.mxu_cols = 128;

  p.topology.shape = "2x2";
  p.topology.dims = {2, 2};
  p.topology.wraparound = {true, false};
  for (int c = 0; c < options.chips; ++c) p.topology.chips.push_back({c, {c % 2, c / 2}});
  p.topology.links.push_back({0, 1, 0, 1, 45e9, 1000, 1 << 20, 25'000'000});
  p.topology.links.push_back({1, 0, 0, -1, 45e9, 1000});

  p.programs.push_back(MakeProgram(1));
  p.programs.push_back(MakeProgram(2));
  p.compile_events.push_back({.timestamp_ns = 10,
                              .step = 0,
                              .program_id = 1,
                              .fingerprint = "fp-1001",
                              .cache_hit = false,
                              .compile_time_ns = 2500000,
                              .compared_program_id = -1,
                              .cause = {trace::RecompilationKind::kFirstCompile, "first compile"}});
  p.compile_events.push_back({.timestamp_ns = 20,
                              .step = 1,
                              .program_id = 1,
                              .fingerprint = "fp-1001",
                              .cache_hit = true,
                              .compile_time_ns = 0,
                              .compared_program_id = -1,
                              .cause = {}});
  p.compile_events.push_back({.timestamp_ns = 30,
                              .step = 2,
                              .program_id = 2,
                              .fingerprint = "fp-1002",
                              .cache_hit = false,
                              .compile_time_ns = 2600000,
                              .compared_program_id = 1,
                              .cause = {trace::RecompilationKind::kArgumentShape,
                                        "argument 0: now f32[16,128], before f32[8,128]"}});
  RunRecord run{7, "train", 0, 5000000, {}};
  for (int s = 0; s < 3; ++s) run.steps.push_back({s, s < 2 ? 1 : 2, s * 1000000, 900000});
  p.runs.push_back(run);

  Timeline& t = p.timeline;
  t.set_origin_unix_ns(1700000000000000000);
  std::mt19937_64 rng(42);
  for (int c = 0; c < options.chips; ++c) {
    TimelinePlane& plane = t.AddPlane(absl::StrCat("/device:TPU:", c), PlaneKind::kDevice, c);
    plane.mutable_stats().push_back(plane.MakeDoubleStat("clock_hz", 1050e6));
    // Names shared by many events carry their stats once.
    const int32_t matmul = plane.InternEventName("fusion.3");
    plane.mutable_event_metadata(matmul).stats = {plane.MakeIntStat("flops", 2 * 8 * 16 * 4),
                                                  plane.MakeStringStat("hlo_op", "fusion.3")};
    const int32_t relu = plane.InternEventName("relu");
    const int32_t copy = plane.InternEventName("copy-start");
    plane.mutable_event_metadata(copy).display_name = "HBM -> VMEM";
    const int32_t allreduce = plane.InternEventName("all-reduce.1");
    struct LaneSpec {
      const char* name;
      LaneKind kind;
      int core, unit;
      int32_t event;
    };
    const LaneSpec lanes[] = {{"core 0 / MXU 0", LaneKind::kMxu, 0, 0, matmul},
                              {"core 0 / MXU 1", LaneKind::kMxu, 0, 1, matmul},
                              {"core 0 / vector", LaneKind::kVector, 0, -1, relu},
                              {"core 0 / DMA 0", LaneKind::kDma, 0, 0, copy},
                              {"ICI +x", LaneKind::kIci, -1, 0, allreduce}};
    for (const LaneSpec& spec : lanes) {
      TimelineLine& line = plane.AddLine(spec.name, spec.kind, spec.core, spec.unit);
      std::vector<int64_t> order(options.events_per_lane);
      for (int64_t i = 0; i < options.events_per_lane; ++i) order[i] = i;
      if (options.shuffled) std::shuffle(order.begin(), order.end(), rng);
      for (int64_t i : order) {
        const int64_t start = i * 10000 + c * 37 + int64_t(spec.kind) * 11;
        const int64_t duration = 2000 + (i * 7919) % 6000;
        std::vector<Stat> stats;
        if (options.with_event_stats && i % 5 == 0) {
          stats.push_back(plane.MakeIntStat("bytes", -1 - i));
          stats.push_back(plane.MakeUintStat("cycles", std::numeric_limits<uint64_t>::max() - i));
          stats.push_back(plane.MakeDoubleStat("utilisation", i % 10 == 0 ? std::nan("") : 0.25 * i));
          stats.push_back(plane.MakeStringStat("hlo_op", absl::StrCat("op.", i % 3)));
        }
        const uint32_t detail = options.with_event_stats && i % 4 == 1
                                    ? plane.InternString(absl::StrCat("mxu m", i % 3, " n", i % 7))
                                    : kNoDetail;
        line.Append(start, duration, spec.event, stats, detail);
      }
    }
    // A step marker enclosing nested events.
    TimelineLine& steps = plane.AddLine("steps", LaneKind::kSteps);
    const int32_t step = plane.InternEventName("step");
    steps.Append(0, options.events_per_lane * 10000, step);
    steps.Append(100, 50, plane.InternEventName("instant"));
    steps.Append(200, 0, plane.InternEventName("marker"));
  }
  TimelinePlane& host = t.AddPlane("/host:CPU", PlaneKind::kHost, -1);
  TimelineLine& python = host.AddLine("python3", LaneKind::kHost);
  python.Append(0, 3000000, host.InternEventName("ExecuteOnLocalDevices"));
  python.Append(10, 200000, host.InternEventName("compile"));

  // Collective transfers: the ICI event on chip c goes to chip c+1's.
  for (int c = 0; c + 1 < options.chips; ++c) {
    for (int64_t i = 0; i < std::min<int64_t>(options.events_per_lane, 3); ++i) {
      t.AddFlow({uint64_t(c * 100 + i), "all-reduce.1", "collective", {c, 4, i}, {c + 1, 4, i},
                 4096});
    }
  }
  t.Finalize();

  Metric& compile_time = p.GetOrAddMetric("CompileTime", MetricKind::kSamples, "ns");
  compile_time.samples = {{10, 2.5e6}, {30, 2.6e6}};
  p.GetOrAddMetric("CachedCompile", MetricKind::kCounter).counter = 1;
  p.GetOrAddMetric("UncachedCompile", MetricKind::kCounter).counter = 2;
  Metric& execute = p.GetOrAddMetric("ExecuteTime", MetricKind::kSamples, "ns");
  for (int s = 0; s < 3; ++s) execute.samples.push_back({1000 + s, 9e5 + s});
  return p;
}

}  // namespace systolic::trace::testing
