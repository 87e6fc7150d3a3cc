#include "core/runtime/compile_options.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace systolic::runtime {

std::string CompileOptions::ToString() const {
  return absl::StrCat("chip=", chip, " topology=", topology, " replicas=", num_replicas,
                      " partitions=", num_partitions, " devices=",
                      absl::StrJoin(device_assignment, ","));
}

}  // namespace systolic::runtime
