#include "tests/bench/largest_corpus_module.h"

#include "core/hlo/hlo_file.h"
#include "tests/bench/bench_support.h"

namespace systolic::bench {

const HloModule* LargestCorpusModule() {
  static const HloModule* module = []() -> const HloModule* {
    std::optional<std::string> path = LargestCorpusModulePath();
    if (!path) return nullptr;
    auto loaded = LoadHloFile(*path, /*verify=*/false);
    if (!loaded.ok() || loaded->empty() || !(*loaded)[0].module.ok()) return nullptr;
    return std::move((*loaded)[0].module).value().release();
  }();
  return module;
}

}  // namespace systolic::bench
