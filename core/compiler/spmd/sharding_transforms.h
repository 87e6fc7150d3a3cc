// How one array sharding follows its tensor when dimensions are moved,
// dropped, added, reshaped or reversed, how two partial shardings of one
// tensor combine, and which of two shardings says more. Sharding
// propagation is built from these.
//
// Tiled results come out in one canonical form, so equal layouts print
// alike: subgroup dimensions merged by kind with manual before replicated
// (the replication dimension stays last), size-1 subgroups dropped, the
// devices of each replication group in ascending order, and the compact iota
// spelling whenever the source sharding used it and the devices allow it. A
// result that tiles nothing becomes {replicated} (or {manual}). Metadata and
// shard groups are not carried over.
#pragma once

#include <cstdint>
#include <optional>

#include "absl/types/span.h"
#include "core/hlo/hlo_sharding.h"

namespace systolic::spmd {

// Number of distinct shards: the product of the data and manual tile
// dimensions (replicas of one shard count once); 1 when not tiled.
int64_t ShardCount(const HloSharding& sharding);

// The same sharding without metadata or shard group.
HloSharding WithoutAnnotations(const HloSharding& sharding);

// `sharding` of an array whose dimension t holds dimension source_dims[t]
// of the original (-1: a new dimension, left untiled). Original dimensions
// no entry names are replicated: their devices join the replication
// subgroup. Manual subgroups are kept. Replicated, manual and maximal
// shardings come back unchanged.
HloSharding RemapDimensions(const HloSharding& sharding, absl::Span<const int64_t> source_dims);

// `sharding` with the listed data dimensions replicated.
HloSharding ReplicateDimensions(const HloSharding& sharding, absl::Span<const int64_t> dims);

// `sharding` of an array of dimensions `from` reshaped to `to`. Dimensions
// are matched in groups of equal element count; a group keeps its tiling
// when every device's tile stays one contiguous run (e.g. [a,b] tiled on a
// as [a*b], or [a*b] tiled by t as [a,b] when t divides a), and is
// replicated otherwise.
HloSharding ReshapeSharding(const HloSharding& sharding, absl::Span<const int64_t> from,
                            absl::Span<const int64_t> to);

// `sharding` after reversing the data along `dims`: the device order along
// those dimensions is reversed too, so each device keeps the elements it
// held.
HloSharding ReverseSharding(const HloSharding& sharding, absl::Span<const int64_t> dims);

// One tiled sharding that refines both `a` and `b` (each dimension tiled as
// the one that tiles it, devices agreeing on every tile), or nullopt when
// they disagree, either is not tiled, or either has manual subgroups.
std::optional<HloSharding> MergeShardings(const HloSharding& a, const HloSharding& b);

// Whether `candidate` says more than `current`: anything beats unknown,
// maximal and tiled beat replicated, more shards beat fewer. Manual and
// maximal shardings are never replaced.
bool IsMoreSpecific(const HloSharding& candidate, const HloSharding& current);

}  // namespace systolic::spmd
