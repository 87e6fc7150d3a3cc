// Splits `count` independent work items into contiguous ranges and runs them
// on up to one thread per host core (the caller's thread takes the first
// range). Large elementwise evaluations are bound by memory bandwidth, which
// one core cannot use up alone.
#pragma once

#include <cstdint>
#include <functional>

namespace systolic::eval {

// Calls `run(first, last)` for disjoint ranges covering [0, count), with at
// least `min_per_thread` items per extra thread; returns when all are done.
void RunInParallel(int64_t count, int64_t min_per_thread,
                   const std::function<void(int64_t first, int64_t last)>& run);

}  // namespace systolic::eval
