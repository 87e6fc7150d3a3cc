#include "core/eval/parallel_ranges.h"

#include <algorithm>
#include <system_error>
#include <thread>
#include <vector>

namespace systolic::eval {

void RunInParallel(int64_t count, int64_t min_per_thread,
                   const std::function<void(int64_t first, int64_t last)>& run) {
  if (count <= 0) return;
  const int64_t cores = std::max<int64_t>(1, std::thread::hardware_concurrency());
  const int64_t threads =
      std::clamp<int64_t>(count / std::max<int64_t>(1, min_per_thread), 1, cores);
  if (threads == 1) {
    run(0, count);
    return;
  }
  const int64_t per_thread = (count + threads - 1) / threads;
  std::vector<std::thread> helpers;
  helpers.reserve(size_t(threads - 1));
  int64_t inline_from = count;  // ranges no thread could be started for
  for (int64_t t = 1; t < threads; ++t) {
    const int64_t first = t * per_thread;
    const int64_t last = std::min(count, first + per_thread);
    if (first >= last) break;
    try {
      helpers.emplace_back(run, first, last);
    } catch (const std::system_error&) {
      inline_from = first;  // out of threads: the caller does the rest
      break;
    }
  }
  run(0, std::min(count, per_thread));
  if (inline_from < count) run(inline_from, count);
  for (std::thread& helper : helpers) helper.join();
}

}  // namespace systolic::eval
