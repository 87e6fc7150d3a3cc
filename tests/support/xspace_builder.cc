#include "tests/support/xspace_builder.h"

#include <memory>

#include "core/hlo/hlo_module.pb.h"
#include "core/hlo/hlo_module_to_proto.h"
#include "core/hlo/hlo_parser.h"

namespace systolic::testing {

int64_t XPlaneBuilder::StatId(const std::string& name) {
  for (const auto& [id, m] : plane_->stat_metadata()) {
    if (m.name() == name) return id;
  }
  const int64_t id = 100 + plane_->stat_metadata_size();
  (*plane_->mutable_stat_metadata())[id].set_id(id);
  (*plane_->mutable_stat_metadata())[id].set_name(name);
  return id;
}

int64_t XPlaneBuilder::EventId(const std::string& name) {
  for (const auto& [id, m] : plane_->event_metadata()) {
    if (m.name() == name) return id;
  }
  const int64_t id = 1000 + 7 * plane_->event_metadata_size();  // sparse, as in real files
  MetadataWithId(id, name);
  return id;
}

xspace::XEventMetadata& XPlaneBuilder::MetadataWithId(int64_t id, const std::string& name) {
  xspace::XEventMetadata& metadata = (*plane_->mutable_event_metadata())[id];
  metadata.set_id(id);
  metadata.set_name(name);
  return metadata;
}

xspace::XEventMetadata& XPlaneBuilder::Metadata(const std::string& name) {
  return (*plane_->mutable_event_metadata())[EventId(name)];
}

xspace::XLine* XPlaneBuilder::Line(int64_t id, const std::string& name, int64_t timestamp_ns) {
  xspace::XLine* line = plane_->add_lines();
  line->set_id(id);
  line->set_name(name);
  line->set_timestamp_ns(timestamp_ns);
  return line;
}

xspace::XEvent* XPlaneBuilder::Event(xspace::XLine* line, const std::string& name,
                                     int64_t offset_ps, int64_t duration_ps) {
  xspace::XEvent* event = line->add_events();
  event->set_metadata_id(EventId(name));
  event->set_offset_ps(offset_ps);
  event->set_duration_ps(duration_ps);
  return event;
}

void XPlaneBuilder::Str(Stats* stats, const std::string& name, const std::string& value) {
  xspace::XStat* s = stats->Add();
  s->set_metadata_id(StatId(name));
  s->set_str_value(value);
}

void XPlaneBuilder::Int(Stats* stats, const std::string& name, int64_t value) {
  xspace::XStat* s = stats->Add();
  s->set_metadata_id(StatId(name));
  s->set_int64_value(value);
}

void XPlaneBuilder::Uint(Stats* stats, const std::string& name, uint64_t value) {
  xspace::XStat* s = stats->Add();
  s->set_metadata_id(StatId(name));
  s->set_uint64_value(value);
}

void XPlaneBuilder::Ref(Stats* stats, const std::string& name, const std::string& value) {
  xspace::XStat* s = stats->Add();
  s->set_metadata_id(StatId(name));
  s->set_ref_value(uint64_t(StatId(value)));
}

void XPlaneBuilder::Bytes(Stats* stats, const std::string& name, const std::string& value) {
  xspace::XStat* s = stats->Add();
  s->set_metadata_id(StatId(name));
  s->set_bytes_value(value);
}

namespace {

constexpr int64_t kStartNs = 1700000000000000000;

constexpr char kTrainStep[] = R"(
HloModule jit_train_step

ENTRY %main.5 (p0: f32[8], p1: f32[8]) -> f32[8] {
  %p0 = f32[8]{0} parameter(0)
  %p1 = f32[8]{0} parameter(1)
  %multiply.3 = f32[8]{0} multiply(%p0, %p1)
  ROOT %add.4 = f32[8]{0} add(%multiply.3, %p1)
}
)";

constexpr char kEvalStep[] = R"(
HloModule jit_eval_step

ENTRY %main.2 (p0: f32[8]) -> f32[8] {
  %p0 = f32[8]{0} parameter(0)
  ROOT %add.4 = f32[8]{0} add(%p0, %p0)
}
)";

// The module of `text` as the serialised HloProto a profiler stores.
std::string SerializedHloProto(const char* text) {
  std::unique_ptr<HloModule> module = ParseAndReturnUnverifiedModule(text).value();
  hlo_proto::HloProto proto;
  *proto.mutable_hlo_module() = ModuleToProto(*module).value();
  return proto.SerializeAsString();
}

}  // namespace

TwoProgramXSpace MakeTwoProgramXSpace() {
  TwoProgramXSpace made;
  made.eval_id = int64_t(uint64_t{0x9e3779b97f4a7c15});
  const std::string eval_name = "jit_eval_step(" + std::to_string(uint64_t(made.eval_id)) + ")";
  xspace::XSpace& space = made.space;
  space.add_hostnames("tpu-vm-0");

  xspace::XPlane* metadata = space.add_planes();
  metadata->set_id(0);
  metadata->set_name("/host:metadata");
  XPlaneBuilder m(metadata);
  m.Bytes(m.MetadataWithId(made.train_id, "jit_train_step(42)").mutable_stats(), "hlo_proto",
          SerializedHloProto(kTrainStep));
  m.Bytes(m.MetadataWithId(made.eval_id, eval_name).mutable_stats(), "hlo_proto",
          SerializedHloProto(kEvalStep));
  const std::string whole = SerializedHloProto(kTrainStep);
  m.Bytes(m.MetadataWithId(made.broken_id, "jit_broken(7)").mutable_stats(), "hlo_proto",
          whole.substr(0, whole.size() / 2));

  xspace::XPlane* tpu = space.add_planes();
  tpu->set_id(1);
  tpu->set_name("/device:TPU:0");
  XPlaneBuilder t(tpu);
  xspace::XLine* modules = t.Line(1, "XLA Modules", kStartNs);
  t.Event(modules, "jit_train_step(42)", 0, 1000000);
  t.Event(modules, eval_name, 2000000, 1000000);
  xspace::XLine* ops = t.Line(2, "XLA Ops", kStartNs);
  t.Event(ops, "multiply.3", 100000, 300000);
  t.Event(ops, "add.4", 500000, 300000);
  t.Event(ops, "add.4", 2500000, 300000);
  xspace::XEvent* tagged = t.Event(ops, "add.4", 4000000, 300000);
  t.Int(tagged->mutable_stats(), "program_id", made.train_id);

  xspace::XPlane* gpu = space.add_planes();
  gpu->set_id(2);
  gpu->set_name("/device:GPU:1");
  XPlaneBuilder g(gpu);
  xspace::XLine* stream = g.Line(14, "Stream #14(Compute)", kStartNs);
  xspace::XEvent* kernel = g.Event(stream, "loop_add_fusion", 2600000, 100000);
  g.Str(kernel->mutable_stats(), "hlo_module", "jit_eval_step");
  g.Str(kernel->mutable_stats(), "hlo_op", "add.4");
  return made;
}

}  // namespace systolic::testing
