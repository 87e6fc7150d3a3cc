// How a program is compiled: for which chip and topology, on how many
// replicas and partitions, and on which devices. Part of the compile cache
// key, so two requests with different options never share an executable.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace systolic::runtime {

struct CompileOptions {
  // Chip preset ("v4") or spec file; empty: the client's chip.
  std::string chip;
  // "v4:2x2x2"; empty: the client's topology.
  std::string topology;
  // 0: the module's replica_count / num_partitions.
  int64_t num_replicas = 0;
  int64_t num_partitions = 0;
  // device_assignment[replica * num_partitions + partition] = device id;
  // empty: devices 0..n-1.
  std::vector<int64_t> device_assignment;

  // `chip=v4 topology=v4:1x1x1 replicas=2 partitions=1 devices=0,1`: the
  // canonical form that enters fingerprints.
  std::string ToString() const;
  friend bool operator==(const CompileOptions&, const CompileOptions&) = default;
};

}  // namespace systolic::runtime
