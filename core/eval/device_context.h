// Where one evaluator runs in a program of replicas x partitions: its ids and
// the rendezvous its collectives meet the other devices at.
#pragma once

#include <cstdint>

namespace systolic::eval {

class CollectiveRendezvous;

struct DeviceContext {
  int64_t replica_id = 0;
  int64_t partition_id = 0;
  int64_t replica_count = 1;
  int64_t partition_count = 1;
  // Null for a single device: collectives then involve this device alone.
  CollectiveRendezvous* rendezvous = nullptr;

  // XLA's flattened id: replica * partitions + partition.
  int64_t device_id() const { return replica_id * partition_count + partition_id; }
  int64_t device_count() const { return replica_count * partition_count; }
};

}  // namespace systolic::eval
