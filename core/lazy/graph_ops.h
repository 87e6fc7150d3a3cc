// Records HLO primitives as lazy-graph nodes. Each function infers the
// result shape with XLA's rules (an error names the op and what is wrong),
// names the node after the current scope ("mlp/dense_1/<name>") and returns
// it; nothing runs. Tensor operations and autodiff are both written on these.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/hlo/comparison.h"
#include "core/hlo/dimension_numbers.h"
#include "core/hlo/hlo_opcode.h"
#include "core/hlo/hlo_sharding.h"
#include "core/hlo/literal.h"
#include "core/hlo/window.h"
#include "core/lazy/node.h"

namespace systolic::lazy::graph {

using ReplicaGroups = std::vector<std::vector<int64_t>>;

NodePtr Constant(Literal value, absl::string_view name = "constant");
// A scalar of `type` holding `value`.
NodePtr ScalarConstant(double value, PrimitiveType type, absl::string_view name = "constant");
// `value` broadcast to `shape`.
absl::StatusOr<NodePtr> Full(double value, const Shape& shape, absl::string_view name = "full");

// An empty `name` uses the opcode's name.
absl::StatusOr<NodePtr> Unary(HloOpcode opcode, const NodePtr& x, absl::string_view name = "");
absl::StatusOr<NodePtr> Binary(HloOpcode opcode, const NodePtr& a, const NodePtr& b,
                               absl::string_view name = "");
absl::StatusOr<NodePtr> Compare(const NodePtr& a, const NodePtr& b, ComparisonDirection direction,
                                absl::string_view name = "compare");
absl::StatusOr<NodePtr> Select(const NodePtr& pred, const NodePtr& on_true,
                               const NodePtr& on_false, absl::string_view name = "select");
absl::StatusOr<NodePtr> Convert(const NodePtr& x, PrimitiveType type,
                                absl::string_view name = "convert");
absl::StatusOr<NodePtr> BitcastConvert(const NodePtr& x, PrimitiveType type,
                                       absl::string_view name = "bitcast_convert");

// Operand dimension i becomes output dimension broadcast_dimensions[i].
absl::StatusOr<NodePtr> Broadcast(const NodePtr& x, absl::Span<const int64_t> output_dimensions,
                                  absl::Span<const int64_t> broadcast_dimensions,
                                  absl::string_view name = "broadcast");
absl::StatusOr<NodePtr> Reshape(const NodePtr& x, absl::Span<const int64_t> dimensions,
                                absl::string_view name = "reshape");
absl::StatusOr<NodePtr> Transpose(const NodePtr& x, absl::Span<const int64_t> permutation,
                                  absl::string_view name = "transpose");
absl::StatusOr<NodePtr> Reverse(const NodePtr& x, absl::Span<const int64_t> dimensions,
                                absl::string_view name = "reverse");
absl::StatusOr<NodePtr> Slice(const NodePtr& x, absl::Span<const int64_t> starts,
                              absl::Span<const int64_t> limits, absl::Span<const int64_t> strides,
                              absl::string_view name = "slice");
absl::StatusOr<NodePtr> Concatenate(absl::Span<const NodePtr> xs, int64_t dimension,
                                    absl::string_view name = "concatenate");
absl::StatusOr<NodePtr> Pad(const NodePtr& x, const NodePtr& padding_value,
                            const PaddingConfig& config, absl::string_view name = "pad");
absl::StatusOr<NodePtr> Iota(const Shape& shape, int64_t dimension,
                             absl::string_view name = "iota");

// Reduces `dimensions` with `kind` (add, max or min) from its identity.
absl::StatusOr<NodePtr> Reduce(const NodePtr& x, absl::Span<const int64_t> dimensions,
                               ScalarComputation kind, absl::string_view name = "reduce");
absl::StatusOr<NodePtr> Dot(const NodePtr& lhs, const NodePtr& rhs,
                            const DotDimensionNumbers& dnums,
                            std::optional<PrimitiveType> preferred_type = std::nullopt,
                            absl::string_view name = "dot");
absl::StatusOr<NodePtr> Convolution(const NodePtr& lhs, const NodePtr& rhs, const Window& window,
                                    const ConvolutionDimensionNumbers& dnums,
                                    std::optional<PrimitiveType> preferred_type = std::nullopt,
                                    absl::string_view name = "convolution");
absl::StatusOr<NodePtr> ReduceWindow(const NodePtr& x, const Window& window,
                                     ScalarComputation kind,
                                     absl::string_view name = "reduce_window");
// Scatters `source` (one value per window) onto the element each window of
// `operand` selects as its maximum, adding where windows overlap.
absl::StatusOr<NodePtr> SelectAndScatter(const NodePtr& operand, const NodePtr& source,
                                         const Window& window,
                                         absl::string_view name = "select_and_scatter");
absl::StatusOr<NodePtr> Gather(const NodePtr& operand, const NodePtr& indices,
                               const GatherDimensionNumbers& dnums,
                               absl::Span<const int64_t> slice_sizes,
                               absl::string_view name = "gather");
// Adds `updates` into `operand` at `indices`.
absl::StatusOr<NodePtr> ScatterAdd(const NodePtr& operand, const NodePtr& indices,
                                   const NodePtr& updates, const ScatterDimensionNumbers& dnums,
                                   absl::string_view name = "scatter_add");

// Cross-replica collectives (sum); each group lists replica ids.
absl::StatusOr<NodePtr> AllReduce(const NodePtr& x, const ReplicaGroups& groups,
                                  absl::string_view name = "all_reduce");
absl::StatusOr<NodePtr> AllGather(const NodePtr& x, int64_t dimension, const ReplicaGroups& groups,
                                  absl::string_view name = "all_gather");
absl::StatusOr<NodePtr> ReduceScatter(const NodePtr& x, int64_t dimension,
                                      const ReplicaGroups& groups,
                                      absl::string_view name = "reduce_scatter");

// (new state, random bits of `bits_shape`) from a u64[2] three-fry state.
absl::StatusOr<NodePtr> RngBitGenerator(const NodePtr& state, const Shape& bits_shape,
                                        absl::string_view name = "rng_bit_generator");
absl::StatusOr<NodePtr> GetTupleElement(const NodePtr& tuple, int64_t index,
                                        absl::string_view name = "get_tuple_element");

// The `Sharding` custom-call XLA front ends emit: `x` annotated with how
// the SPMD partitioner must lay it out.
absl::StatusOr<NodePtr> Sharding(const NodePtr& x, const HloSharding& sharding,
                                 absl::string_view name = "sharding");

// A copy of `x`'s operation that autodiff treats as a constant.
NodePtr StopGradient(const NodePtr& x);

// A tiled (flash) attention kernel over q, k, v [batch, heads, sequence,
// head size] as one custom call ("tpu_custom_call" naming its kernel in
// its backend config, as Pallas kernels do): the scores never leave the
// chip, so the device costs its MXU work and HBM traffic, not an S x S
// matrix. `causal` masks keys after each query.
absl::StatusOr<NodePtr> FlashAttention(const NodePtr& q, const NodePtr& k, const NodePtr& v,
                                       bool causal, absl::string_view name = "flash_attention");
// Its backward kernel: dq, dk and dv stacked as [3, batch, heads, sequence,
// head size], from the inputs, the forward's output and its cotangent.
absl::StatusOr<NodePtr> FlashAttentionBackward(const NodePtr& q, const NodePtr& k,
                                               const NodePtr& v, const NodePtr& out,
                                               const NodePtr& cotangent, bool causal,
                                               absl::string_view name = "flash_attention_bwd");
// Whether `node` is FlashAttention's forward kernel, and whether it is causal.
bool IsFlashAttention(const Node& node);
bool IsCausalFlashAttention(const Node& node);

}  // namespace systolic::lazy::graph
