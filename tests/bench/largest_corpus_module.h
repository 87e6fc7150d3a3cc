// The largest corpus module parsed once (unverified, as the corpus holds
// it), for benchmarks that compile or simulate it; null without the corpus.
#pragma once

#include "core/hlo/hlo_module.h"

namespace systolic::bench {

const HloModule* LargestCorpusModule();

}  // namespace systolic::bench
