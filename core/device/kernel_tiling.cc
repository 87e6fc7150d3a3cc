#include "core/device/kernel_tiling.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "core/device/ceil_div.h"
#include "core/device/chip_figures.h"
#include "core/device/gemm_placement.h"
#include "core/device/mxu_analytic_engine.h"

namespace systolic::device {
namespace {

int64_t RoundUp(int64_t a, int64_t b) { return CeilDiv(a, b) * b; }

// The share of `total` that part `i` of `parts` gets (shares sum to total).
int64_t Share(int64_t total, int64_t parts, int64_t i) {
  return total / parts + (i < total % parts ? 1 : 0);
}

// Half of `extent`, a multiple of `granule`, at least `granule`.
int64_t Halve(int64_t extent, int64_t granule) {
  return std::max(granule, RoundUp(CeilDiv(extent, 2), granule));
}

// At least one byte: every tile moves something.
int64_t Bytes(int64_t elements, double bytes_per_element) {
  return std::max<int64_t>(1, int64_t(std::ceil(double(elements) * bytes_per_element)));
}

// Tiling keeps spatial extents of at least this many folds of the array and
// a temporal extent of at least this many array lengths while it can.
constexpr int64_t kMinSpatialFolds = 2;
constexpr int64_t kMinTemporalFolds = 8;

// Beyond this a lowering would take longer than the simulation is worth.
constexpr int64_t kMaxStepsPerGemm = int64_t(1) << 20;

constexpr int64_t kAccumulatorBytes = 4;  // the MXU accumulates in f32
// Vector chunks stay small enough that several are in flight, so loads
// overlap compute even for mid-sized ops...
constexpr int64_t kVectorChunkBytes = 2 << 20;
// ...unless the DMA latency would then show: with two chunks in flight the
// loads of the next pair wait one latency with HBM idle, so a chunk carries
// at least this many latencies' worth of its core's share of HBM.
constexpr int64_t kLatenciesPerVectorChunk = 16;
// Below this many vregs an op stays on one core: splitting would cost more
// in issue than it saves.
constexpr int64_t kMinVregsPerCore = 8;

CoreSteps TileVector(const KernelPlan& plan, const ChipSpec& spec, int64_t vmem_budget) {
  const int cores = std::max(1, spec.tensor_cores_per_chip());
  const int64_t elements = std::max<int64_t>(1, plan.vector_elements);
  const int64_t latency_hiding_bytes = int64_t(HbmBytesPerCycle(spec) / cores *
                                               double(DmaLatencyCycles(spec) *
                                                      kLatenciesPerVectorChunk));
  // Two chunks of operands and two of results in flight.
  const int64_t chunk_cap = std::max<int64_t>(
      1, std::min(vmem_budget / 4, std::max(kVectorChunkBytes, latency_hiding_bytes)));
  int64_t chunks = std::max<int64_t>(1, CeilDiv(plan.bytes_in + plan.bytes_out, chunk_cap));
  if (elements >= int64_t(cores) * kMinVregsPerCore * VregElements(spec)) {
    chunks = RoundUp(std::max<int64_t>(chunks, cores), cores);
  }
  chunks = std::min(chunks, elements);
  CoreSteps steps(cores);
  for (int64_t c = 0; c < chunks; ++c) {
    TileStep step;
    step.label = chunks == 1 ? "vpu" : absl::StrCat("vpu ", c);
    step.unit = VectorUnit();
    step.work = VectorWork{Share(elements, chunks, c), std::max<int64_t>(1, plan.ops_per_element),
                           plan.transcendentals_per_element};
    step.in_bytes = {Share(plan.bytes_in, chunks, c)};
    step.output_bytes = Share(plan.bytes_out, chunks, c);
    steps[c % cores].push_back(std::move(step));
  }
  return steps;
}

struct GemmTiles {
  int64_t tm, tn, tk;
};

// Tile extents worth trying for a dimension: powers of two times the array
// below it, and the whole dimension.
std::vector<int64_t> CandidateExtents(int64_t extent, int64_t granule) {
  std::vector<int64_t> out;
  for (int64_t e = granule; e < extent; e *= 2) out.push_back(e);
  out.push_back(extent);
  return out;
}

// The fitting tiles with the least estimated time: MXU cycles of the
// busiest stream (folds pipelined, the last wave of tiles counted whole)
// against HBM traffic (an operand is read once per tile of the other
// side), whichever is longer. Nothing when no candidate fits; the caller
// then shrinks tiles one by one.
std::optional<GemmTiles> FastestFittingTiles(const GemmPlan& g, const ChipSpec& spec,
                                             int64_t granule, int64_t out_total,
                                             int64_t extra_total,
                                             absl::FunctionRef<bool(const GemmTiles&)> fits) {
  const MxuAnalyticEngine mxu = MxuAnalyticEngine::ForChip(spec);
  const int64_t streams = ChipMxus(spec);
  const double hbm_bytes_per_cycle = HbmBytesPerCycle(spec);
  struct Candidate {
    GemmTiles tiles;
    double cycles;
    int64_t steps;
  };
  std::vector<Candidate> candidates;
  for (int64_t tm : CandidateExtents(g.gemm.m, granule)) {
    for (int64_t tn : CandidateExtents(g.gemm.n, granule)) {
      for (int64_t tk : CandidateExtents(g.gemm.k, granule)) {
        const GemmTiles t{tm, tn, tk};
        const int64_t m_tiles = CeilDiv(g.gemm.m, tm);
        const int64_t n_tiles = CeilDiv(g.gemm.n, tn);
        const int64_t k_tiles = CeilDiv(g.gemm.k, tk);
        const int64_t tiles = g.batch * m_tiles * n_tiles;
        if (tiles * k_tiles > kMaxStepsPerGemm || !fits(t)) continue;
        absl::StatusOr<MxuTiming> pass = mxu.RunPipelined(GemmShape{tm, tn, MxuDepth(g, spec, tk)});
        if (!pass.ok()) continue;
        const double compute = double(CeilDiv(tiles, streams) * k_tiles) * double(pass->cycles);
        const double bytes = double(g.lhs_bytes()) * double(n_tiles) +
                             double(g.rhs_bytes()) * double(m_tiles) + double(out_total) +
                             double(extra_total);
        candidates.push_back({t, std::max(compute, bytes / hbm_bytes_per_cycle), tiles * k_tiles});
      }
    }
  }
  if (candidates.empty()) return std::nullopt;
  double fastest = candidates.front().cycles;
  for (const Candidate& c : candidates) fastest = std::min(fastest, c.cycles);
  // Within 2% of the fastest, the fewest steps: as good, and quicker to
  // simulate.
  const Candidate* best = nullptr;
  for (const Candidate& c : candidates) {
    if (c.cycles <= fastest * 1.02 && (best == nullptr || c.steps < best->steps)) best = &c;
  }
  return best->tiles;
}

// When no candidate of whole folds fits (a small VMEM): shrink the whole
// GEMM step by step until a tile fits, then cut the output into enough
// tiles for every MXU of every core, when the GEMM allows.
absl::StatusOr<GemmTiles> ShrinkUntilFits(const std::string& instruction, const GemmPlan& g,
                                          const ChipSpec& spec, int64_t granule,
                                          int64_t stream_budget,
                                          absl::FunctionRef<bool(const GemmTiles&)> fits) {
  GemmTiles t{g.gemm.m, g.gemm.n, g.gemm.k};
  // Every fold of a pass pays fill and drain once while streaming the
  // temporal extent, so that extent stays long: the spatial extents are
  // cut first, down to a few folds, then the temporal one.
  int64_t* temporal = spec.mxu().dataflow() == OUTPUT_STATIONARY  ? &t.tk
                      : spec.mxu().dataflow() == INPUT_STATIONARY ? &t.tn
                                                                   : &t.tm;
  while (!fits(t)) {
    int64_t* largest = nullptr;
    for (int64_t* d : {&t.tm, &t.tn, &t.tk}) {
      if (d != temporal && *d > kMinSpatialFolds * granule &&
          (largest == nullptr || *d > *largest)) {
        largest = d;
      }
    }
    if (largest == nullptr && *temporal > kMinTemporalFolds * granule) largest = temporal;
    if (largest != nullptr) {
      *largest = Halve(*largest, granule);
      continue;
    }
    // Then the largest extent, in multiples of the array while any is
    // larger than it, then below (a partial fold is padded anyway).
    for (int64_t* d : {&t.tm, &t.tn, &t.tk}) {
      if (*d > granule && (largest == nullptr || *d > *largest)) largest = d;
    }
    if (largest != nullptr) {
      *largest = Halve(*largest, granule);
      continue;
    }
    for (int64_t* d : {&t.tm, &t.tn, &t.tk}) {
      if (*d > 1 && (largest == nullptr || *d > *largest)) largest = d;
    }
    if (largest == nullptr) {
      return absl::ResourceExhaustedError(absl::StrCat(
          instruction, ": a ", t.tm, "x", t.tn, "x", t.tk, " GEMM tile of ", g.name,
          " does not fit the ", stream_budget, " bytes of VMEM one MXU may use"));
    }
    *largest = CeilDiv(*largest, 2);
  }
  const int64_t streams = ChipMxus(spec);
  while (g.batch * CeilDiv(g.gemm.m, t.tm) * CeilDiv(g.gemm.n, t.tn) < streams &&
         (t.tm > granule || t.tn > granule)) {
    int64_t* d = (t.tm >= t.tn && t.tm > granule) || t.tn <= granule ? &t.tm : &t.tn;
    *d = Halve(*d, granule);
  }
  return t;
}

// Megacore: a GEMM of fewer output tiles than the chip has TensorCores is
// cut further, along its larger output extent, so that every core takes a
// share (each loads only its share of the operands) instead of one core
// doing it all; as XLA partitions an op across the two cores of v4 / v5p.
GemmTiles MegacoreSplit(GemmTiles t, const GemmPlan& g, int cores) {
  while (g.batch * CeilDiv(g.gemm.m, t.tm) * CeilDiv(g.gemm.n, t.tn) < cores &&
         (t.tm > 1 || t.tn > 1)) {
    int64_t* d = t.tm >= t.tn ? &t.tm : &t.tn;
    *d = CeilDiv(*d, 2);
  }
  return t;
}

absl::StatusOr<CoreSteps> TileMatrix(const std::string& instruction, const KernelPlan& plan,
                                     const ChipSpec& spec, int64_t vmem_budget) {
  const int cores = std::max(1, spec.tensor_cores_per_chip());
  const int mxus = std::max(1, spec.mxu().count());
  const int64_t granule = std::max<int64_t>(1, std::max(spec.mxu().rows(), spec.mxu().cols()));
  const int64_t stream_budget = vmem_budget / mxus;
  int64_t operand_bytes = 0;
  for (const GemmPlan& g : plan.gemms) operand_bytes += g.lhs_bytes() + g.rhs_bytes();
  // Operands beyond the GEMMs' (a bias, a residual) arrive with each output tile.
  const int64_t extra_in = std::max<int64_t>(0, plan.bytes_in - operand_bytes);

  CoreSteps steps(cores);
  for (size_t gi = 0; gi < plan.gemms.size(); ++gi) {
    const GemmPlan& g = plan.gemms[gi];
    const bool last_gemm = gi + 1 == plan.gemms.size();
    const int64_t outputs = g.batch * g.gemm.m * g.gemm.n;
    // The last GEMM's output is the kernel's; earlier ones spill theirs.
    const int64_t out_total = last_gemm ? plan.bytes_out : outputs * kAccumulatorBytes;
    const int64_t extra_total = last_gemm ? extra_in : 0;
    const double volume = double(outputs) * double(g.gemm.k);
    auto fits = [&](const GemmTiles& t) {
      const double share = double(t.tm * t.tn) / double(outputs);
      const int64_t in = Bytes(t.tm * t.tk, g.lhs_element_bytes) +
                         Bytes(t.tk * t.tn, g.rhs_element_bytes) +
                         int64_t(double(extra_total) * double(t.tm * t.tn * t.tk) / volume);
      const int64_t out = std::max(t.tm * t.tn * kAccumulatorBytes,
                                   int64_t(double(out_total) * share));
      return 2 * in + 2 * out <= stream_budget;
    };
    std::optional<GemmTiles> fastest =
        FastestFittingTiles(g, spec, granule, out_total, extra_total, fits);
    if (!fastest) {
      absl::StatusOr<GemmTiles> shrunk = ShrinkUntilFits(instruction, g, spec, granule,
                                                         stream_budget, fits);
      if (!shrunk.ok()) return shrunk.status();
      fastest = *shrunk;
    }
    const GemmTiles t = MegacoreSplit(*fastest, g, cores);
    const int64_t m_tiles = CeilDiv(g.gemm.m, t.tm);
    const int64_t n_tiles = CeilDiv(g.gemm.n, t.tn);
    const int64_t k_tiles = CeilDiv(g.gemm.k, t.tk);
    const int64_t tiles = g.batch * m_tiles * n_tiles;
    if (tiles * k_tiles > kMaxStepsPerGemm) {
      return absl::ResourceExhaustedError(absl::StrCat(
          instruction, ": ", g.name, " would need ", tiles * k_tiles, " MXU passes of ", t.tm,
          "x", t.tn, "x", t.tk, " to fit VMEM (at most ", kMaxStepsPerGemm, ")"));
    }
    const int64_t epilogue_elements = last_gemm ? plan.vector_elements : 0;

    // Output tile i goes to core i % cores, and there to MXU (i / cores) %
    // mxus. A group of one tile per MXU runs its K steps in lock step, so
    // the MXUs' loads interleave.
    std::vector<std::vector<int64_t>> per_core(cores);
    for (int64_t i = 0; i < tiles; ++i) per_core[i % cores].push_back(i);
    for (int c = 0; c < cores; ++c) {
      const std::vector<int64_t>& mine = per_core[c];
      for (size_t group = 0; group < mine.size(); group += size_t(mxus)) {
        const size_t group_end = std::min(mine.size(), group + size_t(mxus));
        for (int64_t k = 0; k < k_tiles; ++k) {
          for (size_t j = group; j < group_end; ++j) {
            const int64_t i = mine[j];
            const int64_t b = i / (m_tiles * n_tiles);
            const int64_t mi = (i / n_tiles) % m_tiles;
            const int64_t ni = i % n_tiles;
            const int64_t tm = FoldExtent(g.gemm.m, t.tm, mi);
            const int64_t tn = FoldExtent(g.gemm.n, t.tn, ni);
            const int64_t tk = FoldExtent(g.gemm.k, t.tk, k);
            const int mxu = int(j - group);
            const double share = double(tm * tn) / double(g.gemm.m * g.gemm.n) / double(g.batch);
            TileStep step;
            step.label = absl::StrCat(plan.gemms.size() > 1 ? g.name + " " : "", "mxu",
                                      g.batch > 1 ? absl::StrCat(" b", b) : "", " m", mi, " n",
                                      ni, " k", k);
            step.stream = mxu;
            step.unit = Mxu(mxu);
            step.work = MatmulWork{GemmShape{tm, tn, MxuDepth(g, spec, tk)}, MxuMacsPerStep(g, spec)};
            step.in_bytes = {Bytes(tm * tk, g.lhs_element_bytes),
                             Bytes(tk * tn, g.rhs_element_bytes)};
            if (extra_total > 0) {
              step.in_bytes.push_back(std::max<int64_t>(
                  1, int64_t(double(extra_total) * double(tm * tn * tk) / volume)));
            }
            step.opens_output = k == 0;
            step.closes_output = k + 1 == k_tiles;
            step.output_bytes =
                std::max<int64_t>(1, int64_t(double(out_total) * share));
            if (step.closes_output && epilogue_elements > 0) {
              step.epilogue = VectorWork{
                  std::max<int64_t>(1, int64_t(double(epilogue_elements) * share)),
                  std::max<int64_t>(1, plan.ops_per_element), plan.transcendentals_per_element};
            }
            steps[c].push_back(std::move(step));
          }
        }
      }
    }
  }
  return steps;
}

}  // namespace

absl::StatusOr<CoreSteps> TileKernel(const std::string& instruction, const KernelPlan& plan,
                                     const ChipSpec& spec, int64_t vmem_budget) {
  const KernelPlan placed = PlaceGemms(plan, spec);
  if (placed.kind == KernelKind::kMatrix) return TileMatrix(instruction, placed, spec, vmem_budget);
  return TileVector(placed, spec, vmem_budget);
}

}  // namespace systolic::device
