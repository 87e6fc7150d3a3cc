#include "core/device/custom_call_costs.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "core/compiler/hlo_cost_analysis.h"
#include "core/compiler/shape_size.h"
#include "core/hlo/primitive_type.h"

namespace systolic::device {
namespace {

// Softmax per score: max, subtract, exponent, sum, scale (the exponent on
// the transcendental unit).
constexpr int64_t kSoftmaxOpsPerScore = 4;
// A fused attention's backward does five matmuls of the forward's size
// (scores recomputed, dV, dP, dQ, dK) where the forward does two.
constexpr int64_t kForwardMatmuls = 2;
constexpr int64_t kBackwardMatmuls = 5;

// An attention's sizes, per batch and head.
struct AttentionShape {
  int64_t batch_heads = 0;  // batch x query heads
  int64_t query_length = 0;
  int64_t key_length = 0;
  int64_t head_size = 0;
  double query_bytes = 0;      // Q as stored
  double key_value_bytes = 0;  // K and V as stored
};

enum class Layout {
  kBatchSeqHeads,  // [batch, sequence, heads, head size]: TransformerEngine, cuDNN
  kBatchHeadsSeq,  // [batch, heads, sequence, head size]: Pallas kernels on TPU
};

struct AttentionTarget {
  Layout layout;
  bool backward;
};

bool ContainsAny(const std::string& text, std::initializer_list<const char*> words) {
  const std::string lower = absl::AsciiStrToLower(text);
  for (const char* word : words) {
    if (absl::StrContains(lower, word)) return true;
  }
  return false;
}

std::optional<AttentionTarget> AttentionTargetOf(const HloInstruction& call) {
  const std::string& target = call.custom_call_target();
  if (absl::StartsWith(target, "te_fused_attn_") || absl::StartsWith(target, "__cudnn$fmha")) {
    return AttentionTarget{Layout::kBatchSeqHeads, ContainsAny(target, {"backward", "bwd"})};
  }
  // Pallas kernels name themselves in their backend_config.
  if (target == "tpu_custom_call" &&
      ContainsAny(call.backend_config(), {"flash_attention", "splash", "mha"})) {
    return AttentionTarget{Layout::kBatchHeadsSeq,
                           ContainsAny(call.backend_config(), {"bwd", "backward"})};
  }
  return std::nullopt;
}

// The attention's tensors among the call's operands: the first floating
// operand of rank 4 or more is Q (or Q, K and V packed), the next K (or K
// and V packed), the next V. Sequence lengths, seeds and biases that come
// before or between them are skipped.
std::vector<const Shape*> AttentionTensors(const HloInstruction& call) {
  std::vector<const Shape*> tensors;
  for (const HloInstruction* operand : call.operands()) {
    const Shape& shape = operand->shape();
    if (!shape.IsArray() || shape.rank() < 4 || shape.num_elements() == 0) continue;
    if (!primitive_util::IsFloatingPointType(shape.element_type())) continue;
    tensors.push_back(&shape);
    if (tensors.size() == 3) break;
  }
  return tensors;
}

std::optional<AttentionShape> ReadAttention(const HloInstruction& call, Layout layout) {
  const std::vector<const Shape*> tensors = AttentionTensors(call);
  if (tensors.empty()) return std::nullopt;
  const Shape& q = *tensors[0];
  AttentionShape a;
  const int seq_dim = layout == Layout::kBatchSeqHeads ? 1 : 2;
  if (q.rank() == 5 && q.dimensions(2) == 3) {
    // Q, K and V packed as [batch, sequence, 3, heads, head size].
    a.head_size = q.dimensions(4);
    a.query_length = a.key_length = q.dimensions(1);
    a.batch_heads = q.dimensions(0) * q.dimensions(3);
    a.query_bytes = double(ByteSizeOf(q)) / 3;
    a.key_value_bytes = 2 * a.query_bytes;
  } else if (q.rank() == 4 && tensors.size() >= 2) {
    const Shape& k = *tensors[1];
    a.head_size = q.dimensions(3);
    a.query_length = q.dimensions(seq_dim);
    a.query_bytes = double(ByteSizeOf(q));
    if (k.rank() == 5 && k.dimensions(2) == 2) {
      // K and V packed as [batch, sequence, 2, heads, head size].
      a.key_length = k.dimensions(1);
      a.key_value_bytes = double(ByteSizeOf(k));
    } else if (k.rank() == 4 && tensors.size() >= 3) {
      a.key_length = k.dimensions(seq_dim);
      a.key_value_bytes = double(ByteSizeOf(k) + ByteSizeOf(*tensors[2]));
    } else {
      return std::nullopt;
    }
    a.batch_heads = q.num_elements() / std::max<int64_t>(1, a.query_length * a.head_size);
  } else {
    return std::nullopt;
  }
  if (a.batch_heads <= 0 || a.query_length <= 0 || a.key_length <= 0 || a.head_size <= 0) {
    return std::nullopt;
  }
  return a;
}

// The integer attribute `key` of a backend_config, in either form XLA dumps
// it (JSON `"key": 2`, or MLIR `key = 2 : i64`).
std::optional<int64_t> IntegerAttribute(const std::string& config, const std::string& key) {
  size_t at = config.find(key);
  if (at == std::string::npos) return std::nullopt;
  at += key.size();
  while (at < config.size() && (config[at] == ' ' || config[at] == '"' || config[at] == '=' ||
                                config[at] == ':')) {
    ++at;
  }
  int64_t value = 0;
  const char* begin = config.data() + at;
  const auto [end, error] = std::from_chars(begin, config.data() + config.size(), value);
  if (error != std::errc() || end == begin) return std::nullopt;
  return value;
}

// Whether the scores above the diagonal are masked off, so a flash kernel
// skips them: a "causal" mask by name, or TransformerEngine's causal mask
// types (2 to 5: causal, with padding, bottom-right aligned).
bool IsCausal(const HloInstruction& call) {
  if (ContainsAny(call.backend_config(), {"causal"})) return true;
  if (!absl::StartsWith(call.custom_call_target(), "te_fused_attn_")) return false;
  const std::optional<int64_t> mask = IntegerAttribute(call.backend_config(), "mask_type");
  return mask && *mask >= 2 && *mask <= 5;
}

// A tiled attention as one GEMM of the same MXU volume: for every query
// row and key column, `matmuls` products of head-size length. Q is read
// once per key tile and K, V once per query tile, as a flash kernel
// streams them; the scores never leave VMEM.
KernelPlan PlanAttention(const HloInstruction& call, const AttentionShape& a, bool backward) {
  // A causal mask skips the upper triangle of the scores.
  const bool causal = IsCausal(call);
  const int64_t keys = causal ? std::max<int64_t>(1, a.key_length / 2) : a.key_length;
  const int64_t matmuls = backward ? kBackwardMatmuls : kForwardMatmuls;
  KernelPlan plan;
  plan.kind = KernelKind::kMatrix;
  const KernelTraffic traffic = TrafficOf(call);
  plan.bytes_in = int64_t(traffic.bytes_read);
  plan.bytes_out = int64_t(traffic.bytes_written);
  GemmPlan g;
  g.name = call.name();
  g.batch = a.batch_heads;
  g.gemm.m = a.query_length;
  g.gemm.n = keys;
  g.gemm.k = a.head_size * matmuls;
  g.lhs_element_bytes = a.query_bytes / double(g.batch * g.gemm.m * g.gemm.k);
  g.rhs_element_bytes = a.key_value_bytes / double(g.batch * g.gemm.k * g.gemm.n);
  plan.gemms.push_back(g);
  const int64_t scores = a.batch_heads * a.query_length * keys * (backward ? 2 : 1);
  plan.vector_elements = scores;
  plan.ops_per_element = kSoftmaxOpsPerScore;
  plan.transcendentals_per_element = 1;
  plan.vector_flops = double(scores) * double(kSoftmaxOpsPerScore);
  return plan;
}

}  // namespace

bool IsBookkeepingCustomCall(const std::string& target) {
  static constexpr std::array<const char*, 7> kAnnotations = {
      "Sharding",       "SPMDFullToShardShape",       "SPMDShardToFullShape",
      "LayoutConstraint", "annotate_device_placement", "InspectSharding",
      "AllocateBuffer"};
  for (const char* name : kAnnotations) {
    if (target == name) return true;
  }
  // Shardy's markers of the same kind.
  return absl::StartsWith(target, "xla.sdy.") || absl::StartsWith(target, "local_xla.sdy.");
}

std::optional<KernelPlan> PlanCustomCall(const HloInstruction& custom_call) {
  if (IsBookkeepingCustomCall(custom_call.custom_call_target())) return KernelPlan{};
  if (std::optional<AttentionTarget> target = AttentionTargetOf(custom_call)) {
    if (std::optional<AttentionShape> shape = ReadAttention(custom_call, target->layout)) {
      return PlanAttention(custom_call, *shape, target->backward);
    }
  }
  return std::nullopt;
}

}  // namespace systolic::device
