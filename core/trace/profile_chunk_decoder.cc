#include "core/trace/profile_chunk_decoder.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/trace/timeline_codec.h"

namespace systolic::trace {
namespace {

ProfileInfo DecodeInfo(const proto::ProfileInfo& in) {
  ProfileInfo out;
  out.producer = in.producer();
  out.created_unix_ns = in.created_unix_ns();
  out.hostname = in.hostname();
  out.title = in.title();
  out.notes.assign(in.notes().begin(), in.notes().end());
  return out;
}

ChipSummary DecodeChip(const proto::ChipSummary& in) {
  ChipSummary out;
  out.name = in.name();
  out.spec_text = in.spec_text();
  out.peak_flops_per_second = in.peak_flops_per_second();
  out.hbm_bytes = in.hbm_bytes();
  out.hbm_bandwidth_bytes_per_second = in.hbm_bandwidth_bytes_per_second();
  out.clock_hz = in.clock_hz();
  out.cores_per_chip = in.cores_per_chip();
  out.mxus_per_core = in.mxus_per_core();
  out.mxu_rows = in.mxu_rows();
  out.mxu_cols = in.mxu_cols();
  return out;
}

TopologyRecord DecodeTopology(const proto::Topology& in) {
  TopologyRecord out;
  out.shape = in.shape();
  out.dims.assign(in.dims().begin(), in.dims().end());
  out.wraparound.assign(in.wraparound().begin(), in.wraparound().end());
  for (const proto::TopologyChip& c : in.chips()) {
    out.chips.push_back({c.id(), {c.coordinates().begin(), c.coordinates().end()}});
  }
  for (const proto::TopologyLink& l : in.links()) {
    out.links.push_back({l.source_chip(), l.target_chip(), l.axis(), l.direction(),
                         l.bandwidth_bytes_per_second(), l.latency_ps(), l.bytes(), l.busy_ps()});
  }
  return out;
}

ModuleSnapshot DecodeSnapshot(const proto::ModuleSnapshot& in) {
  ModuleSnapshot out;
  out.pass_name = in.pass_name();
  out.pass_duration_ns = in.pass_duration_ns();
  out.changed = in.changed();
  out.hlo_text = in.hlo_text();
  out.instruction_count = in.instruction_count();
  out.computation_count = in.computation_count();
  out.provenance.reserve(in.provenance_size());
  for (const proto::InstructionProvenance& p : in.provenance()) {
    InstructionProvenance& q = out.provenance.emplace_back();
    q.unique_id = p.unique_id();
    q.name = p.name();
    for (const proto::ProvenanceOrigin& o : p.origins()) q.origins.push_back({o.unique_id(), o.name()});
  }
  return out;
}

ProgramRecord DecodeProgram(const proto::Program& in) {
  ProgramRecord out;
  out.id = in.id();
  out.name = in.name();
  out.fingerprint = in.fingerprint();
  for (const proto::ModuleSnapshot& s : in.snapshots()) out.snapshots.push_back(DecodeSnapshot(s));
  for (const proto::InstructionSharding& s : in.shardings()) {
    out.shardings.push_back({s.unique_id(), s.instruction(), s.sharding()});
  }
  for (const proto::Buffer& b : in.buffer_assignment().buffers()) {
    out.buffer_assignment.buffers.push_back({b.id(), b.instruction_id(), b.instruction(), b.shape(),
                                             b.size_bytes(), b.offset(), b.live_start(),
                                             b.live_end(), b.memory_space()});
  }
  for (const proto::MemorySpacePeak& p : in.buffer_assignment().peaks()) {
    out.buffer_assignment.peaks.push_back({p.memory_space(), p.peak_bytes(), p.peak_position()});
  }
  return out;
}

CompileEvent DecodeCompileEvent(const proto::CompileEvent& in) {
  CompileEvent out;
  out.timestamp_ns = in.timestamp_ns();
  out.step = in.step();
  out.module_name = in.module_name();
  out.program_id = in.program_id();
  out.fingerprint = in.fingerprint();
  out.cache_hit = in.cache_hit();
  out.compile_time_ns = in.compile_time_ns();
  out.compared_program_id = in.compared_program_id();
  out.source = in.source();
  out.graph_size = in.graph_size();
  RecompilationCause& cause = out.cause;
  cause.text = in.cause();
  // A kind this reader does not know (a newer writer) reads as not recorded.
  const bool known = in.has_cause_kind() && in.cause_kind() >= 0 &&
                     in.cause_kind() < kRecompilationKindCount;
  cause.kind = known ? RecompilationKind(in.cause_kind()) : RecompilationKind::kNotRecorded;
  if (out.cache_hit) cause.kind = RecompilationKind::kNone;
  cause.argument = in.has_cause_kind() ? in.cause_argument() : -1;
  cause.instruction = in.has_cause_kind() ? in.cause_instruction() : -1;
  cause.before = in.cause_before();
  cause.now = in.cause_now();
  return out;
}

RunRecord DecodeRun(const proto::Run& in) {
  RunRecord out{in.id(), in.name(), in.start_ps(), in.end_ps(), {}};
  for (const proto::Step& s : in.steps()) {
    out.steps.push_back({s.number(), s.program_id(), s.start_ps(), s.duration_ps()});
  }
  return out;
}

Metric DecodeMetric(const proto::Metric& in) {
  Metric out;
  out.name = in.name();
  out.kind = in.kind() == proto::METRIC_SAMPLES ? MetricKind::kSamples : MetricKind::kCounter;
  out.unit = in.unit();
  out.counter = in.counter();
  for (const proto::MetricSample& s : in.samples()) out.samples.push_back({s.timestamp_ns(), s.value()});
  return out;
}

EventRef DecodeRef(const proto::EventRef& in) { return {in.plane(), in.line(), in.event()}; }

// Records keyed by id: a later chunk's record replaces the earlier one.
template <typename T, typename Key>
void Upsert(std::vector<T>& records, T record, Key key) {
  for (T& existing : records) {
    if (key(existing) == key(record)) {
      existing = std::move(record);
      return;
    }
  }
  records.push_back(std::move(record));
}

LaneKind DecodeLaneKind(int kind) {
  return kind >= 0 && kind <= int(LaneKind::kOps) ? LaneKind(kind) : LaneKind::kOther;
}

}  // namespace

absl::Status ProfileChunkDecoder::Merge(const proto::Profile& chunk) {
  if (chunk.has_info()) out_->info = DecodeInfo(chunk.info());
  if (chunk.has_chip()) out_->chip = DecodeChip(chunk.chip());
  if (chunk.has_topology()) out_->topology = DecodeTopology(chunk.topology());
  for (const proto::Program& p : chunk.programs()) {
    Upsert(out_->programs, DecodeProgram(p), [](const ProgramRecord& r) { return r.id; });
  }
  for (const proto::CompileEvent& c : chunk.compile_events()) {
    out_->compile_events.push_back(DecodeCompileEvent(c));
  }
  for (const proto::Run& r : chunk.runs()) {
    Upsert(out_->runs, DecodeRun(r), [](const RunRecord& x) { return x.id; });
  }
  for (const proto::Metric& m : chunk.metrics()) {
    Upsert(out_->metrics, DecodeMetric(m), [](const Metric& x) { return x.name; });
  }
  if (!chunk.has_timeline()) return absl::OkStatus();
  const proto::Timeline& t = chunk.timeline();
  if (t.origin_unix_ns() != 0) out_->timeline.set_origin_unix_ns(t.origin_unix_ns());
  for (const proto::Plane& plane : t.planes()) SYSTOLIC_RETURN_IF_ERROR(MergePlane(plane));
  for (const proto::Flow& f : t.flows()) {
    out_->timeline.AddFlow(
        {f.id(), f.name(), f.category(), DecodeRef(f.source()), DecodeRef(f.target()), f.bytes()});
  }
  return absl::OkStatus();
}

absl::Status ProfileChunkDecoder::MergePlane(const proto::Plane& in) {
  Timeline& timeline = out_->timeline;
  if (in.id() < 0 || in.id() > timeline.plane_count()) {
    return absl::DataLossError(absl::StrCat("plane ", in.id(), " comes before planes ",
                                            timeline.plane_count(), "..", in.id() - 1));
  }
  if (in.id() == timeline.plane_count()) {
    timeline.AddPlane(in.name(), in.kind() == proto::PLANE_HOST ? PlaneKind::kHost : PlaneKind::kDevice,
                      in.chip_id());
  }
  TimelinePlane& plane = timeline.mutable_plane(in.id());
  // Names first: the stats below refer to them.
  for (const std::string& name : in.stat_names()) {
    const int32_t before = plane.stat_name_count();
    plane.InternStatName(name);
    if (plane.stat_name_count() != before + 1) {
      return absl::DataLossError(
          absl::StrCat("plane ", in.id(), ": stat name \"", name, "\" appears twice"));
    }
  }
  // Strings are kept as written: refs are positions, and a string written
  // twice is harmless.
  for (const std::string& s : in.strings()) plane.AddString(s);
  for (const proto::EventMetadata& m : in.event_metadata()) {
    EventMetadata metadata{m.name(), m.display_name(), {}};
    metadata.stats.resize(m.stats_size());
    for (int i = 0; i < m.stats_size(); ++i) {
      SYSTOLIC_RETURN_IF_ERROR(DecodeStat(m.stats(i), plane, &metadata.stats[i]));
    }
    plane.AddEventMetadata(std::move(metadata));
  }
  if (in.stats_size() > 0) {
    std::vector<Stat> stats(in.stats_size());
    for (int i = 0; i < in.stats_size(); ++i) {
      SYSTOLIC_RETURN_IF_ERROR(DecodeStat(in.stats(i), plane, &stats[i]));
    }
    plane.mutable_stats() = std::move(stats);
  }
  for (const proto::Line& line : in.lines()) {
    if (line.id() < 0 || line.id() > plane.line_count()) {
      return absl::DataLossError(absl::StrCat("plane ", in.id(), ": lane ", line.id(),
                                              " comes before lanes ", plane.line_count(), "..",
                                              line.id() - 1));
    }
    if (line.id() == plane.line_count()) {
      plane.AddLine(line.name(), DecodeLaneKind(line.kind()), line.core(), line.unit());
    }
    SYSTOLIC_RETURN_IF_ERROR(DecodeLineEvents(line, plane, &plane.mutable_line(line.id())));
  }
  return absl::OkStatus();
}

absl::Status ProfileChunkDecoder::Finish(bool drop_broken_flows, int64_t* dropped_flows) {
  Timeline& timeline = out_->timeline;
  std::vector<Flow>& flows = timeline.mutable_flows();
  auto broken = [&](const Flow& f) {
    return !timeline.Contains(f.source) || !timeline.Contains(f.target);
  };
  auto first_broken = std::find_if(flows.begin(), flows.end(), broken);
  if (first_broken != flows.end() && !drop_broken_flows) {
    const Flow& f = *first_broken;
    const EventRef& bad = timeline.Contains(f.source) ? f.target : f.source;
    return absl::DataLossError(absl::StrCat("flow ", f.id, " refers to event ", bad.event,
                                            " of lane ", bad.line, " of plane ", bad.plane,
                                            ", which does not exist"));
  }
  auto kept_end = std::remove_if(flows.begin(), flows.end(), broken);
  const int64_t dropped = flows.end() - kept_end;
  flows.erase(kept_end, flows.end());
  if (dropped_flows != nullptr) *dropped_flows = dropped;
  // Lanes grew chunk by chunk; what they hold now is all they will hold.
  for (int32_t p = 0; p < timeline.plane_count(); ++p) {
    TimelinePlane& plane = timeline.mutable_plane(p);
    for (int32_t l = 0; l < plane.line_count(); ++l) plane.mutable_line(l).ShrinkToFit();
  }
  timeline.Finalize();
  return absl::OkStatus();
}

}  // namespace systolic::trace
