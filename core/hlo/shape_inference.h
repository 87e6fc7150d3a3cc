// Shape inference: the result shape of every HLO opcode from its operand
// shapes and attributes, with XLA's ShapeInference rules. Each function either
// returns the shape the instruction must have or an InvalidArgument error that
// says which operand or attribute is wrong (without naming the instruction:
// callers such as the verifier add that).
//
// HLO has no implicit broadcasting: elementwise operands have equal
// dimensions. Where XLA lets an instruction choose its result element type
// (dot and convolution's preferred element type, convert), the type is an
// argument.
//
// Functions that pass values through unchanged (tuple, get-tuple-element,
// while, call, conditional, copy-start/-done, send, recv, infeed) keep the
// operands' layouts, so a layout-sensitive caller can compare them; the
// others return shapes without layouts.
#pragma once

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/hlo/dimension_numbers.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_instruction.h"
#include "core/hlo/hlo_opcode.h"
#include "core/hlo/shape.h"
#include "core/hlo/window.h"

namespace systolic {

class ShapeInference {
 public:
  using Shapes = absl::Span<const Shape* const>;

  // --- Elementwise -----------------------------------------------------------
  // abs, negate, exponential, is-finite, real, imag, copy, domain, ...
  static absl::StatusOr<Shape> InferUnaryOpShape(HloOpcode opcode, const Shape& operand);
  // add, compare, complex, and, shift-left, ... (operands of equal dimensions).
  static absl::StatusOr<Shape> InferBinaryOpShape(HloOpcode opcode, const Shape& lhs,
                                                  const Shape& rhs);
  // clamp and select.
  static absl::StatusOr<Shape> InferTernaryOpShape(HloOpcode opcode, const Shape& a,
                                                   const Shape& b, const Shape& c);
  // min and max may be scalars.
  static absl::StatusOr<Shape> InferClampShape(const Shape& min, const Shape& operand,
                                               const Shape& max);
  // The predicate has the dimensions of the values, or is a scalar.
  static absl::StatusOr<Shape> InferSelectShape(const Shape& pred, const Shape& on_true,
                                                const Shape& on_false);
  static absl::StatusOr<Shape> InferConvertShape(const Shape& operand, PrimitiveType new_type);
  // A narrower type adds a minor dimension (bit-width ratio); a wider one
  // removes the minor dimension, which must equal the ratio.
  static absl::StatusOr<Shape> InferBitcastConvertShape(const Shape& operand,
                                                        PrimitiveType new_type);
  static absl::StatusOr<Shape> InferStochasticConvertShape(const Shape& operand,
                                                           const Shape& random,
                                                           PrimitiveType new_type);
  static absl::StatusOr<Shape> InferReducePrecisionShape(const Shape& operand,
                                                         int64_t exponent_bits,
                                                         int64_t mantissa_bits);
  // map: every operand has the same dimensions; `dimensions` is empty or
  // 0..rank-1; to_apply maps scalars to a scalar.
  static absl::StatusOr<Shape> InferMapShape(Shapes operands, const ProgramShape& to_apply,
                                             absl::Span<const int64_t> dimensions);

  // --- Data movement ---------------------------------------------------------
  // `output` gives the result dimensions; operand dimension i becomes output
  // dimension broadcast_dimensions[i] and must have its size.
  static absl::StatusOr<Shape> InferBroadcastShape(const Shape& operand, const Shape& output,
                                                   absl::Span<const int64_t> broadcast_dimensions);
  // `new_shape` gives the dimensions (and dynamic bounds) of the result.
  static absl::StatusOr<Shape> InferReshapeShape(const Shape& operand, const Shape& new_shape);
  static absl::StatusOr<Shape> InferTransposeShape(const Shape& operand,
                                                   absl::Span<const int64_t> permutation);
  static absl::StatusOr<Shape> InferReverseShape(const Shape& operand,
                                                 absl::Span<const int64_t> dimensions);
  static absl::StatusOr<Shape> InferSliceShape(const Shape& operand,
                                               absl::Span<const int64_t> starts,
                                               absl::Span<const int64_t> limits,
                                               absl::Span<const int64_t> strides);
  // Start indices are rank scalars, or (old form) one rank-1 array.
  static absl::StatusOr<Shape> InferDynamicSliceShape(const Shape& operand,
                                                      Shapes start_indices,
                                                      absl::Span<const int64_t> slice_sizes);
  static absl::StatusOr<Shape> InferDynamicUpdateSliceShape(const Shape& operand,
                                                            const Shape& update,
                                                            Shapes start_indices);
  static absl::StatusOr<Shape> InferConcatOpShape(Shapes operands, int64_t dimension);
  // Low/high padding may be negative; interior padding may not.
  static absl::StatusOr<Shape> InferPadShape(const Shape& operand, const Shape& padding_value,
                                             const PaddingConfig& padding);
  // Checks the iota dimension against the declared shape and returns it.
  static absl::StatusOr<Shape> InferIotaShape(const Shape& shape, int64_t iota_dimension);
  static absl::StatusOr<Shape> InferGatherShape(const Shape& operand, const Shape& start_indices,
                                                const GatherDimensionNumbers& dnums,
                                                absl::Span<const int64_t> slice_sizes);
  // operands = N inputs, the scatter indices, N updates.
  static absl::StatusOr<Shape> InferScatterShape(Shapes operands, const ProgramShape& to_apply,
                                                 const ScatterDimensionNumbers& dnums);
  static absl::StatusOr<Shape> InferGetDimensionSizeShape(const Shape& operand,
                                                          int64_t dimension);
  static absl::StatusOr<Shape> InferSetDimensionSizeShape(const Shape& operand,
                                                          const Shape& size, int64_t dimension);
  static absl::StatusOr<Shape> InferTopKShape(const Shape& operand, int64_t k);

  // --- Contractions ----------------------------------------------------------
  // Result: batch dimensions, then lhs free dimensions, then rhs free
  // dimensions. With a preferred element type the result takes it (an integer
  // result may not be narrower than the operands).
  static absl::StatusOr<Shape> InferDotOpShape(const Shape& lhs, const Shape& rhs,
                                               const DotDimensionNumbers& dnums,
                                               std::optional<PrimitiveType> preferred_type);
  static absl::StatusOr<Shape> InferConvolveShape(const Shape& lhs, const Shape& rhs,
                                                  int64_t feature_group_count,
                                                  int64_t batch_group_count,
                                                  const Window& window,
                                                  const ConvolutionDimensionNumbers& dnums,
                                                  std::optional<PrimitiveType> preferred_type);

  // --- Reductions and windows ------------------------------------------------
  // operands = N inputs then N init values; a tuple result when N > 1.
  static absl::StatusOr<Shape> InferReduceShape(Shapes operands,
                                                absl::Span<const int64_t> dimensions,
                                                const ProgramShape& to_apply);
  static absl::StatusOr<Shape> InferReduceWindowShape(Shapes inputs, Shapes init_values,
                                                      const Window& window,
                                                      const ProgramShape& to_apply);
  // The windowed output dimensions of `base` (no element type checks).
  static absl::StatusOr<Shape> InferWindowOutputShape(const Shape& base, const Window& window,
                                                      PrimitiveType element_type);
  static absl::StatusOr<Shape> InferSelectAndScatterShape(const Shape& operand,
                                                          const ProgramShape& select,
                                                          const Window& window,
                                                          const Shape& source,
                                                          const Shape& init_value,
                                                          const ProgramShape& scatter);
  static absl::StatusOr<Shape> InferSortShape(Shapes operands, int64_t dimension,
                                              const ProgramShape& comparator);

  // --- Tuples and control flow -----------------------------------------------
  static Shape InferTupleShape(Shapes elements);
  static absl::StatusOr<Shape> InferGetTupleElementShape(const Shape& tuple, int64_t index);
  static absl::StatusOr<Shape> InferWhileShape(const ProgramShape& condition,
                                               const ProgramShape& body, const Shape& init);
  // branch_operands[i] is passed to branches[i].
  static absl::StatusOr<Shape> InferConditionalShape(const Shape& branch_index,
                                                     absl::Span<const ProgramShape> branches,
                                                     Shapes branch_operands);
  // call and fusion: the arguments match the computation's parameters.
  static absl::StatusOr<Shape> InferCallShape(Shapes arguments, const ProgramShape& to_apply);

  // --- Collectives -----------------------------------------------------------
  static absl::StatusOr<Shape> InferAllReduceShape(Shapes operands);
  static absl::StatusOr<Shape> InferAllGatherShape(Shapes operands, int64_t all_gather_dimension,
                                                   int64_t shard_count);
  // (operands, gathered results)
  static absl::StatusOr<Shape> InferAllGatherStartShape(Shapes operands,
                                                        int64_t all_gather_dimension,
                                                        int64_t shard_count);
  static absl::StatusOr<Shape> InferAllGatherDoneShape(const Shape& start);
  static absl::StatusOr<Shape> InferReduceScatterShape(Shapes operands,
                                                       int64_t scatter_dimension,
                                                       int64_t shard_count);
  // The array form: splits split_dimension, concatenates concat_dimension.
  static absl::StatusOr<Shape> InferAllToAllShape(const Shape& operand, int64_t split_dimension,
                                                  int64_t concat_dimension, int64_t split_count);
  // The tuple form: N operands of one shape.
  static absl::StatusOr<Shape> InferAllToAllTupleShape(Shapes operands);
  static absl::StatusOr<Shape> InferRaggedAllToAllShape(Shapes operands);
  // In place (4 operands: input, output, input offsets, output offsets) the
  // result is the output buffer.
  static absl::StatusOr<Shape> InferCollectivePermuteShape(Shapes operands, bool in_place);
  // (input, output, context...) where the context shapes are u32/s32 scalars.
  static absl::StatusOr<Shape> InferCollectivePermuteStartShape(Shapes operands,
                                                                Shapes context, bool in_place);
  static absl::StatusOr<Shape> InferCollectivePermuteDoneShape(const Shape& start);
  static absl::StatusOr<Shape> InferCollectiveBroadcastShape(Shapes operands);

  // --- Asynchronous pairs ----------------------------------------------------
  // ((operands...), wrapped result, context...)
  static absl::StatusOr<Shape> InferAsyncStartShape(Shapes operands,
                                                    const ProgramShape& wrapped, Shapes context);
  static absl::StatusOr<Shape> InferAsyncUpdateShape(const Shape& start);
  static absl::StatusOr<Shape> InferAsyncDoneShape(const Shape& start);
  // (destination, source, u32[] context)
  static absl::StatusOr<Shape> InferCopyStartShape(const Shape& operand);
  static absl::StatusOr<Shape> InferCopyDoneShape(const Shape& start);
  // send: (data, u32[] context, token[]); send-done: token[].
  static absl::StatusOr<Shape> InferSendShape(const Shape& data, const Shape& token);
  static absl::StatusOr<Shape> InferSendDoneShape(const Shape& send);
  // recv: (data, u32[] context, token[]); recv-done: (data, token[]).
  static absl::StatusOr<Shape> InferRecvShape(const Shape& token, const Shape& data);
  static absl::StatusOr<Shape> InferRecvDoneShape(const Shape& recv);
  // infeed: (data, token[])
  static absl::StatusOr<Shape> InferInfeedShape(const Shape& token, const Shape& data);
  static absl::StatusOr<Shape> InferOutfeedShape(const Shape& data, const Shape& token,
                                                 const Shape* outfeed_shape);
  static absl::StatusOr<Shape> InferAfterAllShape(Shapes operands);
  static absl::StatusOr<Shape> InferAddDependencyShape(const Shape& data, const Shape& token);

  // --- Random numbers --------------------------------------------------------
  // rng(a, b): scalars of the result's element type.
  static absl::StatusOr<Shape> InferRngShape(const Shape& a, const Shape& b,
                                             RandomDistribution distribution,
                                             const Shape& result);
  // (new state, data) where data is an array of unsigned integers or floats.
  static absl::StatusOr<Shape> InferRngBitGeneratorShape(const Shape& state, const Shape& data);

  // --- Linear algebra and FFT ------------------------------------------------
  static absl::StatusOr<Shape> InferBatchNormTrainingShape(const Shape& operand,
                                                           const Shape& scale,
                                                           const Shape& offset,
                                                           int64_t feature_index);
  static absl::StatusOr<Shape> InferBatchNormInferenceShape(
      const Shape& operand, const Shape& scale, const Shape& offset, const Shape& mean,
      const Shape& variance, int64_t feature_index);
  static absl::StatusOr<Shape> InferBatchNormGradShape(const Shape& operand, const Shape& scale,
                                                       const Shape& mean, const Shape& variance,
                                                       const Shape& grad_output,
                                                       int64_t feature_index);
  static absl::StatusOr<Shape> InferCholeskyShape(const Shape& a);
  static absl::StatusOr<Shape> InferTriangularSolveShape(const Shape& a, const Shape& b,
                                                         bool left_side);
  static absl::StatusOr<Shape> InferFftShape(const Shape& operand, FftType type,
                                             absl::Span<const int64_t> fft_length);

  // --- Helpers shared with the verifier --------------------------------------
  // Element types equal, or both floating point (XLA's "ignoring fp precision").
  static bool SameElementTypeIgnoringFpPrecision(PrimitiveType a, PrimitiveType b);
  // Same structure and dimensions; element types compared ignoring fp
  // precision; layouts and dynamic bounds ignored.
  static bool CompatibleIgnoringFpPrecision(const Shape& a, const Shape& b);
  // Same structure, element types and dimensions; layouts and dynamic bounds
  // ignored.
  static bool Compatible(const Shape& a, const Shape& b);
  // The type of higher precision (complex > wider-range float > more precise
  // float > wider > signed), as XLA's HigherPrecisionElementType.
  static PrimitiveType HigherPrecisionType(PrimitiveType a, PrimitiveType b);
};

}  // namespace systolic
