#include "core/device/mxu_cycle_engine.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "core/device/output_stationary_grid.h"
#include "core/device/stationary_operand_grid.h"
#include "core/hlo/status_macros.h"

namespace systolic::device {
namespace {

std::vector<bfloat16> RoundToBf16(absl::Span<const float> values) {
  std::vector<bfloat16> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) out[i] = bfloat16(values[i]);
  return out;
}

}  // namespace

MxuCycleEngine MxuCycleEngine::ForChip(const ChipSpec& spec) {
  return MxuCycleEngine({spec.mxu().rows(), spec.mxu().cols()}, spec.mxu().dataflow());
}

absl::StatusOr<MxuCycleResult> MxuCycleEngine::Run(const GemmShape& gemm,
                                                   absl::Span<const float> a,
                                                   absl::Span<const float> b) const {
  SYSTOLIC_RETURN_IF_ERROR(ValidateGemmOnArray(gemm, array_, dataflow_));
  if (int64_t(a.size()) != gemm.m * gemm.k || int64_t(b.size()) != gemm.k * gemm.n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "operands hold ", a.size(), " and ", b.size(), " elements; M×K = ", gemm.m * gemm.k,
        " and K×N = ", gemm.k * gemm.n, " expected"));
  }
  const std::vector<bfloat16> A = RoundToBf16(a);
  const std::vector<bfloat16> B = RoundToBf16(b);
  const int64_t M = gemm.m, N = gemm.n, K = gemm.k;
  const int64_t R = array_.rows, C = array_.cols;
  const SystolicMapping mapping = MapGemm(gemm, array_, dataflow_);
  const int64_t T = mapping.temporal;

  MxuCycleResult result;
  result.c.assign(M * N, 0.0f);
  int64_t cycles = 0, useful_pe_folds = 0, macs = 0;

  // Adapts the grids' per-cycle reports to the observer's view.
  int64_t fold = 0, observed_cycle = 0;
  std::optional<GridCycleCallback> callback;
  if (observer_) {
    callback = [&](MxuPhase phase, absl::Span<const uint8_t> active) {
      observer_(MxuCycleView{observed_cycle++, fold, phase, R, C, active});
    };
  }
  const GridCycleCallback* cb = callback ? &*callback : nullptr;

  OutputStationaryGrid os_grid(dataflow_ == OUTPUT_STATIONARY ? array_ : ArrayShape{0, 0});
  StationaryOperandGrid st_grid(dataflow_ == OUTPUT_STATIONARY ? ArrayShape{0, 0} : array_);
  std::vector<bfloat16> first, second;  // the fold's operand tiles
  std::vector<float> out;

  for (int64_t rf = 0; rf < mapping.row_folds; ++rf) {
    for (int64_t cf = 0; cf < mapping.col_folds; ++cf, ++fold) {
      const int64_t rows = FoldExtent(mapping.spatial_rows, R, rf);
      const int64_t cols = FoldExtent(mapping.spatial_cols, C, cf);
      const int64_t r0 = rf * R, c0 = cf * C;
      GridFoldResult fr;
      if (dataflow_ == OUTPUT_STATIONARY) {
        // Rows of A (M) down the array, columns of B (N) across it, K streamed.
        first.resize(rows * T);
        second.resize(T * cols);
        for (int64_t i = 0; i < rows; ++i)
          for (int64_t k = 0; k < K; ++k) first[i * K + k] = A[(r0 + i) * K + k];
        for (int64_t k = 0; k < K; ++k)
          for (int64_t j = 0; j < cols; ++j) second[k * cols + j] = B[k * N + c0 + j];
        out.resize(rows * cols);
        fr = os_grid.RunFold(T, rows, cols, first, second, absl::MakeSpan(out), cb);
        for (int64_t i = 0; i < rows; ++i)
          for (int64_t j = 0; j < cols; ++j) result.c[(r0 + i) * N + c0 + j] = out[i * cols + j];
      } else {
        // Rows are K in both; the stationary tile is B (weights: columns N)
        // or Aᵀ (inputs: columns M); the other operand streams.
        const bool weights = dataflow_ == WEIGHT_STATIONARY;
        first.resize(rows * cols);
        second.resize(T * rows);
        for (int64_t i = 0; i < rows; ++i)
          for (int64_t j = 0; j < cols; ++j)
            first[i * cols + j] =
                weights ? B[(r0 + i) * N + c0 + j] : A[(c0 + j) * K + r0 + i];
        for (int64_t t = 0; t < T; ++t)
          for (int64_t i = 0; i < rows; ++i)
            second[t * rows + i] = weights ? A[t * K + r0 + i] : B[(r0 + i) * N + t];
        out.resize(T * cols);
        fr = st_grid.RunFold(T, rows, cols, first, second, absl::MakeSpan(out), cb);
        // The accumulator adds this fold's sums over K to C.
        for (int64_t t = 0; t < T; ++t)
          for (int64_t j = 0; j < cols; ++j) {
            float& c = weights ? result.c[t * N + c0 + j] : result.c[(c0 + j) * N + t];
            c += out[t * cols + j];
          }
      }
      cycles += fr.cycles;
      useful_pe_folds += fr.useful_pes;
      macs += fr.macs;
    }
  }
  result.timing = MakeMxuTiming(array_, mapping, cycles, useful_pe_folds, macs);
  return result;
}

}  // namespace systolic::device
