// XSpace files as real profilers write them, built in code for the tests:
// stats and event names of one XPlane, and a two-program JAX-style profile
// whose metadata plane carries each program's HloProto.
#pragma once

#include <cstdint>
#include <string>

#include "core/trace/xplane.pb.h"

namespace systolic::testing {

namespace xspace = ::systolic::trace::xspace;

// Names stats and events of one XPlane the way profilers do (sparse ids).
class XPlaneBuilder {
 public:
  explicit XPlaneBuilder(xspace::XPlane* plane) : plane_(plane) {}
  int64_t StatId(const std::string& name);
  int64_t EventId(const std::string& name);
  // The metadata entry of `id`, named `name` (the metadata plane keys
  // programs by their id).
  xspace::XEventMetadata& MetadataWithId(int64_t id, const std::string& name);
  xspace::XEventMetadata& Metadata(const std::string& name);
  xspace::XLine* Line(int64_t id, const std::string& name, int64_t timestamp_ns);
  xspace::XEvent* Event(xspace::XLine* line, const std::string& name, int64_t offset_ps,
                        int64_t duration_ps);

  using Stats = google::protobuf::RepeatedPtrField<xspace::XStat>;
  void Str(Stats* stats, const std::string& name, const std::string& value);
  void Int(Stats* stats, const std::string& name, int64_t value);
  void Uint(Stats* stats, const std::string& name, uint64_t value);
  void Ref(Stats* stats, const std::string& name, const std::string& value);
  void Bytes(Stats* stats, const std::string& name, const std::string& value);

 private:
  xspace::XPlane* plane_;
};

// Two programs on one TPU and one GPU, as a JAX step profiles: the metadata
// plane holds the HloProtos of jit_train_step (id 42: multiply.3, add.4)
// and jit_eval_step (a fingerprint id above 2^63: add.4 too), and a third
// entry, jit_broken (id 7), whose proto is cut off. The TPU's "XLA Modules"
// lane runs train then eval; its "XLA Ops" lane runs multiply.3 and add.4
// inside train, add.4 inside eval, and one add.4 outside both that says its
// program with a program_id stat. The GPU's kernel names its module and op
// with hlo_module / hlo_op stats.
struct TwoProgramXSpace {
  xspace::XSpace space;
  int64_t train_id = 42;
  int64_t eval_id = 0;  // int64 bits of the 64-bit fingerprint
  int64_t broken_id = 7;
};
TwoProgramXSpace MakeTwoProgramXSpace();

}  // namespace systolic::testing
