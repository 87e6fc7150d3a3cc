#include "tests/views/view_test_profile.h"

#include <algorithm>
#include <cctype>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "core/analysis/execution_unit.h"
#include "core/compiler/buffer_assignment.h"
#include "core/device/record_buffer_assignment.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_parser.h"
#include "core/trace/profile_writer.h"

namespace systolic::views::testing {

const char kFusedMlpLayer[] = R"(HloModule mlp_layer, entry_computation_layout={(f32[32,64]{1,0}, f32[64,128]{1,0}, f32[128]{0}, s32[32]{0})->f32[]}

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %x, f32[] %y)
}

%max (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %m = f32[] maximum(f32[] %a, f32[] %b)
}

%fused_dense (p0: f32[32,64], p1: f32[64,128], p2: f32[128]) -> f32[32,128] {
  %p0 = f32[32,64]{1,0} parameter(0)
  %p1 = f32[64,128]{1,0} parameter(1)
  %p2 = f32[128]{0} parameter(2)
  %dot.1 = f32[32,128]{1,0} dot(f32[32,64]{1,0} %p0, f32[64,128]{1,0} %p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}, metadata={op_name="mlp/dense/matmul"}
  %bias.1 = f32[32,128]{1,0} broadcast(f32[128]{0} %p2), dimensions={1}, metadata={op_name="mlp/dense/bias_add"}
  %pre.1 = f32[32,128]{1,0} add(f32[32,128]{1,0} %dot.1, f32[32,128]{1,0} %bias.1), metadata={op_name="mlp/dense/bias_add"}
  %zero.1 = f32[] constant(0)
  %zeros.1 = f32[32,128]{1,0} broadcast(f32[] %zero.1), dimensions={}
  ROOT %relu.1 = f32[32,128]{1,0} maximum(f32[32,128]{1,0} %pre.1, f32[32,128]{1,0} %zeros.1), metadata={op_name="mlp/relu"}
}

%fused_row_max (q0: f32[32,128]) -> f32[32] {
  %q0 = f32[32,128]{1,0} parameter(0)
  %neg_inf.1 = f32[] constant(-inf)
  ROOT %row_max.1 = f32[32]{0} reduce(f32[32,128]{1,0} %q0, f32[] %neg_inf.1), dimensions={1}, to_apply=%max, metadata={op_name="loss/softmax/max"}
}

%fused_shift (r0: f32[32,128], r1: f32[32]) -> f32[32,128] {
  %r0 = f32[32,128]{1,0} parameter(0)
  %r1 = f32[32]{0} parameter(1)
  %row_max_b.1 = f32[32,128]{1,0} broadcast(f32[32]{0} %r1), dimensions={0}
  ROOT %shifted.1 = f32[32,128]{1,0} subtract(f32[32,128]{1,0} %r0, f32[32,128]{1,0} %row_max_b.1), metadata={op_name="loss/softmax/sub"}
}

%fused_sum_exp (s0: f32[32,128]) -> f32[32] {
  %s0 = f32[32,128]{1,0} parameter(0)
  %exp.1 = f32[32,128]{1,0} exponential(f32[32,128]{1,0} %s0), metadata={op_name="loss/softmax/exp"}
  %zero.2 = f32[] constant(0)
  ROOT %sum_exp.1 = f32[32]{0} reduce(f32[32,128]{1,0} %exp.1, f32[] %zero.2), dimensions={1}, to_apply=%add, metadata={op_name="loss/softmax/sum"}
}

%fused_pick (t0: f32[32,128], t1: s32[32]) -> f32[32] {
  %t0 = f32[32,128]{1,0} parameter(0)
  %t1 = s32[32]{0} parameter(1)
  %iota.1 = s32[32,128]{1,0} iota(), iota_dimension=1
  %labels_b.1 = s32[32,128]{1,0} broadcast(s32[32]{0} %t1), dimensions={0}
  %one_hot.1 = pred[32,128]{1,0} compare(s32[32,128]{1,0} %iota.1, s32[32,128]{1,0} %labels_b.1), direction=EQ, metadata={op_name="loss/one_hot"}
  %zero.3 = f32[] constant(0)
  %zeros.3 = f32[32,128]{1,0} broadcast(f32[] %zero.3), dimensions={}
  %picked.1 = f32[32,128]{1,0} select(pred[32,128]{1,0} %one_hot.1, f32[32,128]{1,0} %t0, f32[32,128]{1,0} %zeros.3)
  ROOT %target.1 = f32[32]{0} reduce(f32[32,128]{1,0} %picked.1, f32[] %zero.3), dimensions={1}, to_apply=%add, metadata={op_name="loss/pick"}
}

%fused_loss (u0: f32[32], u1: f32[32]) -> f32[] {
  %u0 = f32[32]{0} parameter(0)
  %u1 = f32[32]{0} parameter(1)
  %log_sum.1 = f32[32]{0} log(f32[32]{0} %u0), metadata={op_name="loss/softmax/log"}
  %nll.1 = f32[32]{0} subtract(f32[32]{0} %log_sum.1, f32[32]{0} %u1), metadata={op_name="loss/nll"}
  %zero.4 = f32[] constant(0)
  %total.1 = f32[] reduce(f32[32]{0} %nll.1, f32[] %zero.4), dimensions={0}, to_apply=%add, metadata={op_name="loss/sum"}
  %count.1 = f32[] constant(32)
  ROOT %loss.1 = f32[] divide(f32[] %total.1, f32[] %count.1), metadata={op_name="loss/mean"}
}

ENTRY %main (x: f32[32,64], w: f32[64,128], b: f32[128], labels: s32[32]) -> f32[] {
  %x = f32[32,64]{1,0} parameter(0), metadata={op_name="mlp/input"}
  %w = f32[64,128]{1,0} parameter(1), metadata={op_name="mlp/dense/kernel"}
  %b = f32[128]{0} parameter(2), metadata={op_name="mlp/dense/bias"}
  %labels = s32[32]{0} parameter(3), metadata={op_name="loss/labels"}
  %fusion = f32[32,128]{1,0} fusion(f32[32,64]{1,0} %x, f32[64,128]{1,0} %w, f32[128]{0} %b), kind=kOutput, calls=%fused_dense, metadata={op_name="mlp/dense/matmul"}
  %fusion.1 = f32[32]{0} fusion(f32[32,128]{1,0} %fusion), kind=kInput, calls=%fused_row_max, metadata={op_name="loss/softmax/max"}
  %fusion.2 = f32[32,128]{1,0} fusion(f32[32,128]{1,0} %fusion, f32[32]{0} %fusion.1), kind=kLoop, calls=%fused_shift, metadata={op_name="loss/softmax/sub"}
  %fusion.3 = f32[32]{0} fusion(f32[32,128]{1,0} %fusion.2), kind=kInput, calls=%fused_sum_exp, metadata={op_name="loss/softmax/sum"}
  %fusion.4 = f32[32]{0} fusion(f32[32,128]{1,0} %fusion.2, s32[32]{0} %labels), kind=kInput, calls=%fused_pick, metadata={op_name="loss/pick"}
  ROOT %fusion.5 = f32[] fusion(f32[32]{0} %fusion.3, f32[32]{0} %fusion.4), kind=kInput, calls=%fused_loss, metadata={op_name="loss/mean"}
}
)";

std::unique_ptr<HloModule> LoadMlpLayer() {
  auto loaded = LoadHloFile(SYSTOLIC_SOURCE_DIR "/samples/hlo/mlp_layer.hlo", /*verify=*/true);
  if (!loaded.ok() || loaded->empty() || !loaded->front().module.ok()) return nullptr;
  return std::move(*loaded->front().module);
}

namespace {

const HloInstruction* FindIn(const HloComputation* computation, const std::string& name) {
  if (!computation) return nullptr;
  for (const HloInstruction* i : computation->instructions()) {
    if (i->name() == name) return i;
  }
  return nullptr;
}

// "zeros.3" -> "zeros"; names without a numeric suffix stay.
std::string BaseName(const std::string& name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos || dot + 1 == name.size()) return name;
  for (size_t i = dot + 1; i < name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return name;
  }
  return name.substr(0, dot);
}

}  // namespace

void AssignProvenanceByName(HloModule* fused, const HloModule& input) {
  // What a pass creates gets ids past every original one.
  int64_t next_id = 0;
  for (const HloComputation* c : input.computations()) {
    for (const HloInstruction* i : c->instructions()) next_id = std::max(next_id, i->unique_id() + 1);
  }
  for (HloComputation* c : fused->computations()) {
    for (HloInstruction* i : c->instructions()) i->SetUniqueId(next_id++);
  }
  for (HloComputation* computation : fused->MakeComputationPostOrder()) {
    const HloComputation* same = input.GetComputationWithName(computation->name());
    const HloComputation* where = same ? same : input.entry_computation();
    for (HloInstruction* instruction : computation->instructions()) {
      if (instruction->opcode() == HloOpcode::kFusion) {
        std::vector<ProvenanceEntry> merged;
        for (const HloInstruction* inner : instruction->fused_instructions_computation()->instructions()) {
          for (const ProvenanceEntry& e : inner->provenance()) {
            if (std::find(merged.begin(), merged.end(), e) == merged.end()) merged.push_back(e);
          }
        }
        instruction->set_provenance(merged);
        continue;
      }
      const HloInstruction* original = FindIn(where, instruction->name());
      if (!original) original = FindIn(where, BaseName(instruction->name()));
      if (original) instruction->set_provenance({{original->unique_id(), original->name()}});
    }
  }
}

namespace {

struct OpSpec {
  std::string name;
  analysis::ExecutionUnit unit;
  int64_t cycles;
  int64_t flops;
  int64_t bytes;
  std::string op_name;
};

// What one step of the fused program does on a core, in order.
std::vector<OpSpec> StepOps(const HloModule& fused) {
  std::vector<OpSpec> ops;
  for (const HloInstruction* i : fused.entry_computation()->MakeInstructionPostOrder()) {
    if (i->opcode() == HloOpcode::kParameter) continue;
    const analysis::ExecutionUnit unit = analysis::ExecutionUnitOf(*i);
    int64_t elements = 1;
    for (int64_t d : i->shape().dimensions()) elements *= d;
    const int64_t flops = unit == analysis::ExecutionUnit::kMxu ? 2 * 32 * 64 * 128 : elements * 4;
    const int64_t cycles = unit == analysis::ExecutionUnit::kMxu ? 1800 : 300 + elements / 8;
    ops.push_back({i->name(), unit, cycles, flops, elements * 4, i->metadata().op_name});
  }
  return ops;
}

}  // namespace

trace::Profile MakeMlpProfile(const TestProfileOptions& options) {
  trace::Profile p;
  p.info.producer = "systolic view tests";
  p.info.title = "mlp_layer on 2x2";
  p.chip.name = "v4";
  p.chip.peak_flops_per_second = 275e12;
  p.chip.hbm_bandwidth_bytes_per_second = 1200e9;
  p.chip.clock_hz = 1050e6;
  p.chip.cores_per_chip = 2;
  p.chip.mxus_per_core = 4;
  p.chip.mxu_rows = p.chip.mxu_cols = 128;
  p.topology.shape = "2x2";
  p.topology.dims = {2, 2};
  p.topology.wraparound = {true, true};
  for (int c = 0; c < options.chips; ++c) p.topology.chips.push_back({c, {c % 2, c / 2}});

  std::unique_ptr<HloModule> input = LoadMlpLayer();
  auto fused = ParseAndReturnUnverifiedModule(kFusedMlpLayer);
  trace::ProgramRecord program;
  program.id = 1;
  program.name = "mlp_layer";
  program.fingerprint = "fp-mlp";
  if (input && fused.ok()) {
    AssignProvenanceByName(fused->get(), *input);
    program.snapshots.push_back(trace::SnapshotModule(*input, "input", 0, false));
    program.snapshots.push_back(trace::SnapshotModule(*input, "dce", 2100, false));
    program.snapshots.push_back(trace::SnapshotModule(**fused, "priority-fusion", 48000, true));
    program.shardings = trace::CollectShardings(**fused);
    absl::StatusOr<BufferAssignment> buffers = BufferAssignment::Run(**fused);
    if (buffers.ok()) program.buffer_assignment = device::RecordBufferAssignment(*buffers);
  }
  p.programs.push_back(program);
  p.compile_events.push_back({.timestamp_ns = 5,
                              .step = 0,
                              .program_id = 1,
                              .fingerprint = "fp-mlp",
                              .cache_hit = false,
                              .compile_time_ns = 3'200'000,
                              .compared_program_id = -1,
                              .cause = {trace::RecompilationKind::kFirstCompile, "first compile"}});
  // From step 3 the batch doubles: one recompile, compared with the first
  // program, then hits on the new one.
  const int bigger_batch_step = 3;
  if (options.steps > bigger_batch_step && input) {
    trace::ProgramRecord bigger;
    bigger.id = 2;
    bigger.name = "mlp_layer";
    bigger.fingerprint = "fp-mlp-b64";
    const std::string text = absl::StrReplaceAll(
        program.snapshots.front().hlo_text, {{"f32[32,", "f32[64,"}, {"s32[32]", "s32[64]"}});
    auto module = ParseAndReturnUnverifiedModule(text);
    if (module.ok()) bigger.snapshots.push_back(trace::SnapshotModule(**module, "input", 0, false));
    p.programs.push_back(bigger);
  }
  for (int s = 1; s < options.steps; ++s) {
    if (s == bigger_batch_step && p.programs.size() > 1) {
      p.compile_events.push_back({.timestamp_ns = 5 + s,
                                  .step = s,
                                  .program_id = 2,
                                  .fingerprint = "fp-mlp-b64",
                                  .cache_hit = false,
                                  .compile_time_ns = 4'100'000,
                                  .compared_program_id = 1,
                                  .cause = {trace::RecompilationKind::kArgumentShape,
                                            "argument 0 (x): now f32[64,64], before f32[32,64]; "
                                            "argument 3 (labels): now s32[64], before s32[32]"}});
    } else {
      const bool second = s > bigger_batch_step && p.programs.size() > 1;
      p.compile_events.push_back({.timestamp_ns = 5 + s,
                                  .step = s,
                                  .program_id = second ? 2 : 1,
                                  .fingerprint = second ? "fp-mlp-b64" : "fp-mlp",
                                  .cache_hit = true,
                                  .compile_time_ns = 0,
                                  .compared_program_id = -1,
                                  .cause = {}});
    }
  }

  const double ps_per_cycle = 1e12 / p.chip.clock_hz;
  std::vector<OpSpec> ops = fused.ok() ? StepOps(**fused) : std::vector<OpSpec>{};
  trace::RunRecord run{1, "train", 0, 0, {}};
  trace::Timeline& t = p.timeline;
  std::vector<std::vector<std::pair<int64_t, int64_t>>> ici_events(options.chips);
  for (int c = 0; c < options.chips; ++c) {
    trace::TimelinePlane& plane = t.AddPlane(absl::StrCat("/device:TPU:", c), trace::PlaneKind::kDevice, c);
    plane.mutable_stats().push_back(plane.MakeDoubleStat("clock_hz", p.chip.clock_hz));
    // Every op's name carries its figures once.
    std::vector<int32_t> ids;
    for (const OpSpec& op : ops) {
      const int32_t id = plane.InternEventName(op.name);
      plane.mutable_event_metadata(id).stats = {
          plane.MakeStringStat("hlo_op", op.name), plane.MakeIntStat("flops", op.flops),
          plane.MakeIntStat("bytes", op.bytes), plane.MakeIntStat("cycles", op.cycles),
          plane.MakeStringStat("op_name", op.op_name)};
      ids.push_back(id);
    }
    const int32_t step_id = plane.InternEventName("step");
    const int32_t copy_id = plane.InternEventName("copy-start");
    plane.mutable_event_metadata(copy_id).display_name = "HBM → VMEM";
    const int32_t allreduce_id = plane.InternEventName("all-reduce.grad");
    plane.mutable_event_metadata(allreduce_id).stats = {plane.MakeStringStat("hlo_op", "all-reduce.grad"),
                                                        plane.MakeIntStat("bytes", 32768)};
    trace::TimelineLine& steps = plane.AddLine("steps", trace::LaneKind::kSteps);
    std::vector<trace::TimelineLine*> mxu, vector, dma;
    for (int core = 0; core < 2; ++core) {
      for (int u = 0; u < 4; ++u) {
        mxu.push_back(&plane.AddLine(absl::StrCat("core ", core, " / MXU ", u), trace::LaneKind::kMxu, core, u));
      }
      vector.push_back(&plane.AddLine(absl::StrCat("core ", core, " / vector"), trace::LaneKind::kVector, core));
      dma.push_back(&plane.AddLine(absl::StrCat("core ", core, " / DMA 0"), trace::LaneKind::kDma, core, 0));
    }
    trace::TimelineLine& ici = plane.AddLine("ICI +x", trace::LaneKind::kIci, -1, 0);
    int64_t now = 0;
    for (int s = 0; s < options.steps; ++s) {
      const int64_t begin = now;
      for (int r = 0; r < options.repeats_per_step; ++r) {
        for (int core = 0; core < 2; ++core) {
          int64_t at = now + core * 137 * int64_t(ps_per_cycle);
          // Operands stream in while the MXUs work on the previous op.
          dma[core]->Append(at, int64_t(700 * ps_per_cycle), copy_id,
                            {plane.MakeIntStat("bytes", 32768), plane.MakeDoubleStat("utilisation", 0.82)});
          for (size_t o = 0; o < ops.size(); ++o) {
            const OpSpec& op = ops[o];
            const int64_t duration = int64_t(double(op.cycles + (s * 7 + c * 3 + int(o)) % 40) * ps_per_cycle);
            if (op.unit == analysis::ExecutionUnit::kMxu) {
              for (int u = 0; u < 4; ++u) {
                mxu[core * 4 + u]->Append(at + u * 40 * int64_t(ps_per_cycle), duration, ids[o],
                                          {plane.MakeDoubleStat("utilisation", 0.55 + 0.1 * u)});
              }
            } else {
              vector[core]->Append(at, duration, ids[o]);
            }
            at += duration + int64_t(25 * ps_per_cycle);
          }
          now = std::max(now, at);
        }
      }
      // The gradients' all-reduce over the ring.
      const int64_t ar = int64_t(900 * ps_per_cycle);
      const int64_t index = ici.Append(now + int64_t(c * 60 * ps_per_cycle), ar, allreduce_id);
      ici_events[c].push_back({index, s});
      now += ar + int64_t(200 * ps_per_cycle);
      steps.Append(begin, now - begin, step_id);
      if (c == 0) run.steps.push_back({s, 1, begin, now - begin});
    }
    run.end_ps = std::max(run.end_ps, now);
  }
  // Each chip's ICI transfer feeds its neighbour's on the ring.
  for (int c = 0; c < options.chips && options.chips > 1; ++c) {
    const int next = (c + 1) % options.chips;
    for (size_t s = 0; s < ici_events[c].size(); ++s) {
      trace::Flow flow;
      flow.id = uint64_t(c * 1000 + s);
      flow.name = "all-reduce.grad";
      flow.category = "collective";
      flow.source = {c, t.plane(c).line_count() - 1, ici_events[c][s].first};
      flow.target = {next, t.plane(next).line_count() - 1, ici_events[next][s].first};
      flow.bytes = 32768;
      t.AddFlow(flow);
    }
  }
  t.Finalize();
  p.runs.push_back(run);
  trace::Metric& compile = p.GetOrAddMetric("CompileTime", trace::MetricKind::kSamples, "ns");
  compile.samples = {{5, 3.2e6}};
  if (p.programs.size() > 1) compile.samples.push_back({5 + bigger_batch_step, 4.1e6});
  return p;
}

bool WriteMlpProfile(const std::string& path, const TestProfileOptions& options) {
  return trace::WriteProfileFile(MakeMlpProfile(options), path).ok();
}

}  // namespace systolic::views::testing
