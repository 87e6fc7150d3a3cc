#include "core/trace/profile_chunk_encoder.h"

#include <algorithm>

#include "core/hlo/status_macros.h"
#include "core/trace/timeline_codec.h"

namespace systolic::trace {
namespace {

void EncodeInfo(const ProfileInfo& in, proto::ProfileInfo* out) {
  out->set_producer(in.producer);
  out->set_created_unix_ns(in.created_unix_ns);
  out->set_hostname(in.hostname);
  out->set_title(in.title);
  for (const std::string& note : in.notes) out->add_notes(note);
}

void EncodeChip(const ChipSummary& in, proto::ChipSummary* out) {
  out->set_name(in.name);
  out->set_spec_text(in.spec_text);
  out->set_peak_flops_per_second(in.peak_flops_per_second);
  out->set_hbm_bytes(in.hbm_bytes);
  out->set_hbm_bandwidth_bytes_per_second(in.hbm_bandwidth_bytes_per_second);
  out->set_clock_hz(in.clock_hz);
  out->set_cores_per_chip(in.cores_per_chip);
  out->set_mxus_per_core(in.mxus_per_core);
  out->set_mxu_rows(in.mxu_rows);
  out->set_mxu_cols(in.mxu_cols);
}

void EncodeTopology(const TopologyRecord& in, proto::Topology* out) {
  out->set_shape(in.shape);
  for (int32_t d : in.dims) out->add_dims(d);
  for (bool w : in.wraparound) out->add_wraparound(w);
  for (const TopologyChip& chip : in.chips) {
    proto::TopologyChip* c = out->add_chips();
    c->set_id(chip.id);
    for (int32_t x : chip.coordinates) c->add_coordinates(x);
  }
  for (const TopologyLink& link : in.links) {
    proto::TopologyLink* l = out->add_links();
    l->set_source_chip(link.source_chip);
    l->set_target_chip(link.target_chip);
    l->set_axis(link.axis);
    l->set_direction(link.direction);
    l->set_bandwidth_bytes_per_second(link.bandwidth_bytes_per_second);
    l->set_latency_ps(link.latency_ps);
    l->set_bytes(link.bytes);
    l->set_busy_ps(link.busy_ps);
  }
}

void EncodeSnapshot(const ModuleSnapshot& in, proto::ModuleSnapshot* out) {
  out->set_pass_name(in.pass_name);
  out->set_pass_duration_ns(in.pass_duration_ns);
  out->set_changed(in.changed);
  out->set_hlo_text(in.hlo_text);
  out->set_instruction_count(in.instruction_count);
  out->set_computation_count(in.computation_count);
  for (const InstructionProvenance& p : in.provenance) {
    proto::InstructionProvenance* q = out->add_provenance();
    q->set_unique_id(p.unique_id);
    q->set_name(p.name);
    for (const ProvenanceOrigin& o : p.origins) {
      proto::ProvenanceOrigin* r = q->add_origins();
      r->set_unique_id(o.unique_id);
      r->set_name(o.name);
    }
  }
}

void EncodeProgram(const ProgramRecord& in, proto::Program* out) {
  out->set_id(in.id);
  out->set_name(in.name);
  out->set_fingerprint(in.fingerprint);
  for (const ModuleSnapshot& s : in.snapshots) EncodeSnapshot(s, out->add_snapshots());
  for (const InstructionSharding& s : in.shardings) {
    proto::InstructionSharding* t = out->add_shardings();
    t->set_unique_id(s.unique_id);
    t->set_instruction(s.instruction);
    t->set_sharding(s.sharding);
  }
  proto::BufferAssignment* assignment = out->mutable_buffer_assignment();
  for (const BufferRecord& b : in.buffer_assignment.buffers) {
    proto::Buffer* c = assignment->add_buffers();
    c->set_id(b.id);
    c->set_instruction_id(b.instruction_id);
    c->set_instruction(b.instruction);
    c->set_shape(b.shape);
    c->set_size_bytes(b.size_bytes);
    c->set_offset(b.offset);
    c->set_live_start(b.live_start);
    c->set_live_end(b.live_end);
    c->set_memory_space(b.memory_space);
  }
  for (const MemorySpacePeak& p : in.buffer_assignment.peaks) {
    proto::MemorySpacePeak* q = assignment->add_peaks();
    q->set_memory_space(p.memory_space);
    q->set_peak_bytes(p.peak_bytes);
    q->set_peak_position(p.peak_position);
  }
}

void EncodeCompileEvent(const CompileEvent& in, proto::CompileEvent* out) {
  out->set_timestamp_ns(in.timestamp_ns);
  out->set_step(in.step);
  out->set_program_id(in.program_id);
  out->set_fingerprint(in.fingerprint);
  out->set_cache_hit(in.cache_hit);
  out->set_compile_time_ns(in.compile_time_ns);
  out->set_compared_program_id(in.compared_program_id);
  out->set_cause(in.cause.text);
  out->set_cause_kind(int32_t(in.cause.kind));
  out->set_cause_argument(in.cause.argument);
  out->set_cause_instruction(in.cause.instruction);
  out->set_cause_before(in.cause.before);
  out->set_cause_now(in.cause.now);
  out->set_module_name(in.module_name);
  out->set_source(in.source);
  out->set_graph_size(in.graph_size);
}

void EncodeRun(const RunRecord& in, proto::Run* out) {
  out->set_id(in.id);
  out->set_name(in.name);
  out->set_start_ps(in.start_ps);
  out->set_end_ps(in.end_ps);
  for (const StepRecord& s : in.steps) {
    proto::Step* t = out->add_steps();
    t->set_number(s.number);
    t->set_program_id(s.program_id);
    t->set_start_ps(s.start_ps);
    t->set_duration_ps(s.duration_ps);
  }
}

void EncodeMetric(const Metric& in, proto::Metric* out) {
  out->set_name(in.name);
  out->set_kind(in.kind == MetricKind::kSamples ? proto::METRIC_SAMPLES : proto::METRIC_COUNTER);
  out->set_unit(in.unit);
  out->set_counter(in.counter);
  for (const MetricSample& s : in.samples) {
    proto::MetricSample* t = out->add_samples();
    t->set_timestamp_ns(s.timestamp_ns);
    t->set_value(s.value);
  }
}

void EncodeFlow(const Flow& in, proto::Flow* out) {
  out->set_id(in.id);
  out->set_name(in.name);
  out->set_category(in.category);
  for (auto [ref, to] : {std::make_pair(&in.source, out->mutable_source()),
                         std::make_pair(&in.target, out->mutable_target())}) {
    to->set_plane(ref->plane);
    to->set_line(ref->line);
    to->set_event(ref->event);
  }
  out->set_bytes(in.bytes);
}

// The plane's identity; its tables and lanes are added by the caller.
proto::Plane* AddPlaneHeader(const TimelinePlane& plane, proto::Timeline* timeline) {
  proto::Plane* out = timeline->add_planes();
  out->set_id(plane.id());
  out->set_name(plane.name());
  out->set_kind(plane.kind() == PlaneKind::kHost ? proto::PLANE_HOST : proto::PLANE_DEVICE);
  out->set_chip_id(plane.chip_id());
  return out;
}

proto::Line* AddLineHeader(const TimelineLine& line, proto::Plane* plane) {
  proto::Line* out = plane->add_lines();
  out->set_id(line.id());
  out->set_name(line.name());
  out->set_kind(proto::LaneKind(int(line.kind())));
  out->set_core(line.core());
  out->set_unit(line.unit());
  return out;
}

}  // namespace

ProfileChunkEncoder::ProfileChunkEncoder(int64_t max_events_per_chunk)
    : max_events_per_chunk_(std::max<int64_t>(1, max_events_per_chunk)) {}

absl::Status ProfileChunkEncoder::EncodeNew(const Profile& profile, const Emit& emit) {
  proto::Profile chunk;
  EncodeInfo(profile.info, chunk.mutable_info());
  EncodeChip(profile.chip, chunk.mutable_chip());
  EncodeTopology(profile.topology, chunk.mutable_topology());
  for (; programs_ < profile.programs.size(); ++programs_) {
    EncodeProgram(profile.programs[programs_], chunk.add_programs());
  }
  for (; compile_events_ < profile.compile_events.size(); ++compile_events_) {
    EncodeCompileEvent(profile.compile_events[compile_events_], chunk.add_compile_events());
  }
  for (const RunRecord& run : profile.runs) EncodeRun(run, chunk.add_runs());
  for (const Metric& metric : profile.metrics) EncodeMetric(metric, chunk.add_metrics());

  // Every plane with its new names and new lanes goes into the first chunk,
  // so later chunks only carry events.
  const Timeline& timeline = profile.timeline;
  proto::Timeline* t = chunk.mutable_timeline();
  t->set_origin_unix_ns(timeline.origin_unix_ns());
  planes_.resize(timeline.plane_count());
  for (const TimelinePlane& plane : timeline.planes()) {
    PlaneMark& mark = planes_[plane.id()];
    proto::Plane* p = AddPlaneHeader(plane, t);
    for (; mark.event_metadata < plane.event_metadata_count(); ++mark.event_metadata) {
      const EventMetadata& m = plane.event_metadata(mark.event_metadata);
      proto::EventMetadata* out = p->add_event_metadata();
      out->set_name(m.name);
      out->set_display_name(m.display_name);
      for (const Stat& s : m.stats) EncodeStat(s, out->add_stats());
    }
    for (; mark.stat_names < plane.stat_name_count(); ++mark.stat_names) {
      p->add_stat_names(plane.stat_name(mark.stat_names));
    }
    for (; mark.strings < plane.string_count(); ++mark.strings) {
      p->add_strings(plane.string(mark.strings));
    }
    for (const Stat& s : plane.stats()) EncodeStat(s, p->add_stats());
    for (int32_t l = int32_t(mark.lines.size()); l < plane.line_count(); ++l) {
      AddLineHeader(plane.line(l), p);
    }
    mark.lines.resize(plane.line_count());
  }

  // Events, lane by lane, cut into chunks of at most max_events_per_chunk_.
  int64_t events_in_chunk = 0;
  proto::Plane* current_plane = nullptr;
  proto::Line* current_line = nullptr;
  for (const TimelinePlane& plane : timeline.planes()) {
    PlaneMark& mark = planes_[plane.id()];
    current_plane = nullptr;
    for (const TimelineLine& line : plane.lines()) {
      LineMark& lmark = mark.lines[line.id()];
      current_line = nullptr;
      while (lmark.events < line.size()) {
        if (events_in_chunk == max_events_per_chunk_) {
          SYSTOLIC_RETURN_IF_ERROR(emit(chunk, events_in_chunk));
          chunk.Clear();
          events_in_chunk = 0;
          current_plane = nullptr;
          current_line = nullptr;
        }
        if (current_plane == nullptr) {
          // The plane entry of the first chunk is found by id; later chunks
          // get a bare header.
          proto::Timeline* tl = chunk.mutable_timeline();
          for (proto::Plane& p : *tl->mutable_planes()) {
            if (p.id() == plane.id()) current_plane = &p;
          }
          if (current_plane == nullptr) current_plane = AddPlaneHeader(plane, tl);
        }
        if (current_line == nullptr) {
          for (proto::Line& l : *current_plane->mutable_lines()) {
            if (l.id() == line.id()) current_line = &l;
          }
          if (current_line == nullptr) current_line = AddLineHeader(line, current_plane);
        }
        const int64_t take =
            std::min(line.size() - lmark.events, max_events_per_chunk_ - events_in_chunk);
        EncodeLineEvents(line, lmark.events, lmark.events + take, &lmark.stat_sets, current_line);
        lmark.events += take;
        events_in_chunk += take;
      }
    }
  }

  for (; flows_ < timeline.flows().size(); ++flows_) {
    EncodeFlow(timeline.flows()[flows_], chunk.mutable_timeline()->add_flows());
  }
  return emit(chunk, events_in_chunk);
}

}  // namespace systolic::trace
