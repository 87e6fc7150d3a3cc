#include "samples/lazy/maxtext_decoder.h"

#include <cmath>
#include <numbers>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/abstract_tracing.h"
#include "core/lazy/autodiff.h"
#include "core/lazy/collective_ops.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/name_scope.h"
#include "core/lazy/nn_ops.h"
#include "core/lazy/reduction_ops.h"
#include "core/lazy/scan.h"
#include "core/lazy/shape_ops.h"

namespace systolic::samples {
namespace {

using lazy::Tensor;
using Groups = lazy::graph::ReplicaGroups;

// The stacked weights of the layers, in the order the scan body takes them.
enum LayerWeight { kAttentionNorm, kQuery, kKey, kValue, kOut, kMlpNorm, kGate, kUp, kDown,
                   kLayerWeightCount };
const char* const kLayerWeightNames[] = {"attention_norm/scale", "attention/query/kernel",
                                         "attention/key/kernel",  "attention/value/kernel",
                                         "attention/out/kernel",  "mlp_norm/scale",
                                         "mlp/wi_0/kernel",       "mlp/wi_1/kernel",
                                         "mlp/wo/kernel"};

// Which replicas exchange values along each mesh axis.
struct MeshGroups {
  Groups fsdp;    // the chips of a slice with one tensor index
  Groups tensor;  // the chips of a slice with one fsdp index
  Groups data;    // the chips at one place in every slice
};

MeshGroups GroupsOf(const DecoderMesh& mesh) {
  MeshGroups g;
  const int64_t per_slice = mesh.fsdp * mesh.tensor;
  for (int64_t s = 0; s < mesh.slices; ++s) {
    for (int64_t t = 0; t < mesh.tensor; ++t) {
      std::vector<int64_t> group;
      for (int64_t f = 0; f < mesh.fsdp; ++f) group.push_back(s * per_slice + f * mesh.tensor + t);
      g.fsdp.push_back(std::move(group));
    }
    for (int64_t f = 0; f < mesh.fsdp; ++f) {
      std::vector<int64_t> group;
      for (int64_t t = 0; t < mesh.tensor; ++t) group.push_back(s * per_slice + f * mesh.tensor + t);
      g.tensor.push_back(std::move(group));
    }
  }
  for (int64_t local = 0; local < per_slice; ++local) {
    std::vector<int64_t> group;
    for (int64_t s = 0; s < mesh.slices; ++s) group.push_back(s * per_slice + local);
    g.data.push_back(std::move(group));
  }
  return g;
}

// What one chip holds of the model: its local widths.
struct LocalSizes {
  int64_t batch;  // sequences the chip's tensor group shares
  int64_t query_width, kv_width, mlp, vocabulary, embed_shard;
};

// The whole of a weight shard split over fsdp along `dim`, gathered in bf16
// (the convert runs on the shard, before the gather, halving the bytes).
Tensor Gathered(const Tensor& shard, int64_t dim, const DecoderMesh& mesh, const MeshGroups& g) {
  Tensor bf16 = lazy::Cast(shard, BF16);
  return mesh.fsdp > 1 ? lazy::AllGather(bf16, dim, g.fsdp) : bf16;
}

// Between blocks the activations are split along the embedding over the
// tensor axis (MaxText's activation_embed rule): a block gathers its input
// and reduce-scatters the row-parallel product's partial sums back into
// shards. Autodiff turns each into the other for the gradient.
Tensor GatherOverTensor(const Tensor& x, const DecoderMesh& mesh, const MeshGroups& g) {
  return mesh.tensor > 1 ? lazy::AllGather(x, x.rank() - 1, g.tensor) : x;
}

Tensor ScatterOverTensor(const Tensor& x, const DecoderMesh& mesh, const MeshGroups& g) {
  return mesh.tensor > 1 ? lazy::ReduceScatterSum(x, x.rank() - 1, g.tensor) : x;
}

// Partial sums over the tensor axis, added (the vocabulary-split loss).
Tensor SumOverTensor(const Tensor& x, const DecoderMesh& mesh, const MeshGroups& g) {
  return mesh.tensor > 1 ? lazy::AllReduceSum(x, g.tensor) : x;
}

// Root-mean-square normalisation over the last dimension, in f32.
Tensor RmsNorm(const Tensor& x, const Tensor& scale) {
  lazy::NameScope scope("rms_norm");
  Tensor x32 = lazy::Cast(x, F32);
  Tensor rms = lazy::Rsqrt(lazy::Mean(lazy::Square(x32), {x32.rank() - 1}, true) + 1e-6);
  return lazy::Cast(x32 * rms * lazy::Cast(scale, F32), BF16);
}

// Rotary position embedding of x [batch, sequence, heads, head_dim].
Tensor Rope(const Tensor& x, const Tensor& cos, const Tensor& sin) {
  lazy::NameScope scope("rope");
  const int64_t half = x.dim(3) / 2;
  Tensor x1 = lazy::Slice(x, 3, 0, half);
  Tensor x2 = lazy::Slice(x, 3, half, 2 * half);
  return lazy::Concat({x1 * cos - x2 * sin, x2 * cos + x1 * sin}, 3);
}

// cos and sin of every position's angles, [1, sequence, 1, head_dim / 2].
std::pair<Tensor, Tensor> RopeTables(lazy::LazyDevice& device, int64_t sequence,
                                     int64_t head_dim, double theta) {
  lazy::NameScope scope("rope_tables");
  const int64_t half = head_dim / 2;
  Tensor position = lazy::Cast(lazy::Iota(device, {sequence, half}, 0), F32);
  Tensor index = lazy::Cast(lazy::Iota(device, {sequence, half}, 1), F32);
  Tensor inverse_frequency = lazy::Exp(index * (-2.0 * std::log(theta) / double(head_dim)));
  Tensor angle = position * inverse_frequency;
  auto table = [&](const Tensor& t) {
    return lazy::Reshape(lazy::Cast(t, BF16), {1, sequence, 1, half});
  };
  return {table(lazy::Cos(angle)), table(lazy::Cos(angle - std::numbers::pi / 2))};
}

Tensor DecoderLayer(const Tensor& x, absl::Span<const Tensor> w, const DecoderConfig& c,
                    const LocalSizes& local, const DecoderMesh& mesh, const MeshGroups& g,
                    const Tensor& cos, const Tensor& sin) {
  const int64_t b = local.batch, s = c.sequence, d = c.head_dim;
  Tensor attention;
  {
    lazy::NameScope scope("attention");
    Tensor h = RmsNorm(GatherOverTensor(x, mesh, g), Gathered(w[kAttentionNorm], 0, mesh, g));
    auto heads = [&](const Tensor& kernel, int64_t width) {
      return lazy::Reshape(lazy::MatMul(h, Gathered(kernel, 0, mesh, g)), {b, s, width / d, d});
    };
    Tensor q = Rope(heads(w[kQuery], local.query_width), cos, sin);
    Tensor k = Rope(heads(w[kKey], local.kv_width), cos, sin);
    Tensor v = heads(w[kValue], local.kv_width);
    if (local.kv_width != local.query_width) {
      // Grouped-query attention: each key / value head serves a group of
      // query heads.
      const int64_t repeat = local.query_width / local.kv_width;
      auto expand = [&](const Tensor& t) {
        Tensor wide = lazy::BroadcastTo(lazy::Unsqueeze(t, 3), {b, s, t.dim(2), repeat, d});
        return lazy::Reshape(wide, {b, s, t.dim(2) * repeat, d});
      };
      k = expand(k);
      v = expand(v);
    }
    auto to_kernel = [](const Tensor& t) { return lazy::Transpose(t, {0, 2, 1, 3}); };
    Tensor o = lazy::FlashAttention(to_kernel(q), to_kernel(k), to_kernel(v), /*causal=*/true);
    o = lazy::Reshape(lazy::Transpose(o, {0, 2, 1, 3}), {b, s, local.query_width});
    attention = ScatterOverTensor(lazy::MatMul(o, Gathered(w[kOut], 1, mesh, g)), mesh, g);
  }
  Tensor y = x + attention;
  lazy::NameScope scope("mlp");
  Tensor h = RmsNorm(GatherOverTensor(y, mesh, g), Gathered(w[kMlpNorm], 0, mesh, g));
  Tensor gate = lazy::MatMul(h, Gathered(w[kGate], 0, mesh, g));
  Tensor up = lazy::MatMul(h, Gathered(w[kUp], 0, mesh, g));
  Tensor act = gate * lazy::Sigmoid(gate) * up;
  return y + ScatterOverTensor(lazy::MatMul(act, Gathered(w[kDown], 1, mesh, g)), mesh, g);
}

// Cross-entropy of logits [tokens, local vocabulary] whose vocabulary is
// split over the tensor axis; labels [tokens] index the whole vocabulary.
Tensor ShardedCrossEntropy(lazy::LazyDevice& device, const Tensor& logits, const Tensor& labels,
                           int64_t vocabulary_offset, const DecoderMesh& mesh,
                           const MeshGroups& g) {
  lazy::NameScope scope("cross_entropy");
  const int64_t tokens = logits.dim(0), width = logits.dim(1);
  Tensor local_max = lazy::StopGradient(lazy::Max(logits, {1}, true));
  Tensor max = local_max;
  if (mesh.tensor > 1) {
    max = lazy::Max(lazy::AllGather(local_max, 1, g.tensor), {1}, true);
  }
  Tensor sum = SumOverTensor(lazy::Sum(lazy::Exp(logits - max), {1}, true), mesh, g);
  Tensor log_sum = lazy::Log(sum) + max;
  Tensor column = lazy::Iota(device, {tokens, width}, 1) + double(vocabulary_offset);
  Tensor hit = lazy::Cast(lazy::Equal(column, lazy::Unsqueeze(labels, 1)), F32);
  Tensor picked = SumOverTensor(lazy::Sum(hit * logits, {1}, true), mesh, g);
  return lazy::Mean(log_sum - picked);
}

absl::Status CheckDivides(int64_t size, int64_t parts, const char* what, const char* axis) {
  if (parts > 0 && size % parts == 0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(what, " (", size, ") does not split into ", parts, " parts over ", axis));
}

}  // namespace

absl::StatusOr<DecoderConfig> MaxTextScaledDecoder(int64_t global_parameter_scale,
                                                   int64_t per_device_batch) {
  if (global_parameter_scale < 1 || (global_parameter_scale & (global_parameter_scale - 1))) {
    return absl::InvalidArgumentError(absl::StrCat("global_parameter_scale must be a power of "
                                                   "two, got ", global_parameter_scale));
  }
  const int64_t log2 = int64_t(std::log2(double(global_parameter_scale)) + 0.5);
  const int64_t base = log2 / 3, remainder = log2 % 3;
  const int64_t heads_scale = int64_t(1) << (base + (remainder > 0 ? 1 : 0));
  const int64_t embed_scale = int64_t(1) << (base + (remainder > 1 ? 1 : 0));
  const int64_t layer_scale = int64_t(1) << base;
  DecoderConfig c;
  c.name = absl::StrCat("maxtext-", global_parameter_scale, "b");
  c.embed *= embed_scale;
  c.query_heads *= heads_scale;
  c.kv_heads *= heads_scale;
  c.mlp *= heads_scale;
  c.layers *= layer_scale;
  c.per_device_batch = per_device_batch;
  return c;
}

namespace {

struct NamedShape {
  const char* name;
  int64_t embed, query_heads, kv_heads, mlp, layers, vocabulary;
  double rope_theta;
};

// The published architectures (head size 128 throughout).
constexpr NamedShape kNamedShapes[] = {
    {"llama2-7b", 4096, 32, 32, 11008, 32, 32000, 1e4},
    {"llama2-13b", 5120, 40, 40, 13824, 40, 32000, 1e4},
    {"llama2-70b", 8192, 64, 8, 28672, 80, 32000, 1e4},
    {"llama3-8b", 4096, 32, 8, 14336, 32, 128256, 5e5},
    {"llama3-70b", 8192, 64, 8, 28672, 80, 128256, 5e5},
    {"llama3.1-8b", 4096, 32, 8, 14336, 32, 128256, 5e5},
    {"llama3.1-70b", 8192, 64, 8, 28672, 80, 128256, 5e5},
    {"llama3.1-405b", 16384, 128, 8, 53248, 126, 128256, 5e5},
};

constexpr int64_t kMaxTextScales[] = {1, 2, 4, 8, 16, 32, 64, 128};

}  // namespace

std::vector<std::string> NamedDecoderNames() {
  std::vector<std::string> names;
  for (int64_t scale : kMaxTextScales) names.push_back(absl::StrCat("maxtext-", scale, "b"));
  for (const NamedShape& shape : kNamedShapes) names.push_back(shape.name);
  return names;
}

absl::StatusOr<DecoderConfig> NamedDecoder(const std::string& name, int64_t per_device_batch,
                                           int64_t sequence) {
  if (per_device_batch < 1 || sequence < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a step needs at least one sequence per chip and two tokens per sequence, got ",
        per_device_batch, " and ", sequence));
  }
  for (int64_t scale : kMaxTextScales) {
    if (name == absl::StrCat("maxtext-", scale, "b")) {
      SYSTOLIC_ASSIGN_OR_RETURN(DecoderConfig c, MaxTextScaledDecoder(scale, per_device_batch));
      c.sequence = sequence;
      return c;
    }
  }
  for (const NamedShape& shape : kNamedShapes) {
    if (name != shape.name) continue;
    DecoderConfig c;
    c.name = shape.name;
    c.embed = shape.embed;
    c.query_heads = shape.query_heads;
    c.kv_heads = shape.kv_heads;
    c.mlp = shape.mlp;
    c.layers = shape.layers;
    c.vocabulary = shape.vocabulary;
    c.rope_theta = shape.rope_theta;
    c.sequence = sequence;
    c.per_device_batch = per_device_batch;
    return c;
  }
  return absl::NotFoundError(absl::StrCat("no decoder named '", name, "'; known: ",
                                          absl::StrJoin(NamedDecoderNames(), ", ")));
}

double DecoderParameterCount(const DecoderConfig& c) {
  const double e = double(c.embed);
  const double attention = e * double(c.head_dim) * double(2 * c.query_heads + 2 * c.kv_heads);
  const double mlp = 3.0 * e * double(c.mlp);
  const double norms = 2.0 * e;
  return double(c.layers) * (attention + mlp + norms) + 2.0 * e * double(c.vocabulary) + e;
}

double MaxTextTrainingFlopsPerDevice(const DecoderConfig& c) {
  const double tokens = double(c.per_device_batch) * double(c.sequence);
  const double e = double(c.embed), d = double(c.head_dim);
  const double ffn = 2.0 * tokens * double(c.mlp) * e * 3.0;  // two in (gated), one out
  const double qkv = 2.0 * tokens * e * double(c.query_heads + 2 * c.kv_heads) * d;
  const double projection = 2.0 * tokens * e * double(c.query_heads) * d;
  const double embedding = 2.0 * tokens * e * double(c.vocabulary);
  const double attention = 4.0 * tokens * double(c.sequence) * double(c.query_heads) * d;
  return 3.0 * ((ffn + qkv + projection) * double(c.layers) + embedding) +
         3.0 * attention * double(c.layers);
}

absl::StatusOr<std::unique_ptr<HloModule>> TraceDecoderTrainingStep(const DecoderConfig& c,
                                                                     const DecoderMesh& mesh) {
  if (mesh.slices < 1 || mesh.fsdp < 1 || mesh.tensor < 1) {
    return absl::InvalidArgumentError("every mesh axis needs at least one chip");
  }
  SYSTOLIC_RETURN_IF_ERROR(CheckDivides(c.embed, mesh.fsdp, "the embedding width", "fsdp"));
  SYSTOLIC_RETURN_IF_ERROR(CheckDivides(c.query_heads, mesh.tensor, "the query heads", "tensor"));
  SYSTOLIC_RETURN_IF_ERROR(CheckDivides(c.kv_heads, mesh.tensor, "the key/value heads", "tensor"));
  SYSTOLIC_RETURN_IF_ERROR(CheckDivides(c.mlp, mesh.tensor, "the MLP width", "tensor"));
  SYSTOLIC_RETURN_IF_ERROR(CheckDivides(c.vocabulary, mesh.tensor, "the vocabulary", "tensor"));
  SYSTOLIC_RETURN_IF_ERROR(CheckDivides(c.embed, mesh.tensor, "the embedding width", "tensor"));
  SYSTOLIC_RETURN_IF_ERROR(CheckDivides(c.query_heads, c.kv_heads, "the query heads",
                                        "the key/value heads"));
  const LocalSizes local{c.per_device_batch * mesh.tensor,
                         c.query_heads / mesh.tensor * c.head_dim,
                         c.kv_heads / mesh.tensor * c.head_dim,
                         c.mlp / mesh.tensor,
                         c.vocabulary / mesh.tensor,
                         c.embed / mesh.fsdp};
  const MeshGroups g = GroupsOf(mesh);

  lazy::LazyDeviceOptions options;
  options.name = c.name;
  options.replica_count = mesh.devices();
  lazy::LazyDevice device(lazy::MakeShapeOnlyBackend(mesh.devices()), options);
  lazy::NameScope model(c.name);

  // The chip's shards: weights split along the embedding over fsdp and
  // along heads / MLP / vocabulary over tensor, in f32 as MaxText keeps them.
  const int64_t l = c.layers, es = local.embed_shard;
  const std::vector<std::vector<int64_t>> layer_dims = {
      {l, es},
      {l, es, local.query_width},
      {l, es, local.kv_width},
      {l, es, local.kv_width},
      {l, local.query_width, es},
      {l, es},
      {l, es, local.mlp},
      {l, es, local.mlp},
      {l, local.mlp, es}};
  std::vector<Tensor> params;
  std::vector<std::string> names;
  {
    lazy::NameScope scope("decoder/layers");
    for (int i = 0; i < kLayerWeightCount; ++i) {
      params.push_back(lazy::AbstractTensor(device, Shape(F32, layer_dims[size_t(i)]),
                                            kLayerWeightNames[i]));
      names.push_back(kLayerWeightNames[i]);
    }
  }
  params.push_back(lazy::AbstractTensor(device, Shape(F32, {c.vocabulary, es}), "token_embedder"));
  params.push_back(lazy::AbstractTensor(device, Shape(F32, {es}), "decoder_norm/scale"));
  params.push_back(
      lazy::AbstractTensor(device, Shape(F32, {es, local.vocabulary}), "logits_dense/kernel"));
  names.insert(names.end(), {"token_embedder", "decoder_norm/scale", "logits_dense/kernel"});
  const Tensor& embedding = params[kLayerWeightCount];
  const Tensor& final_norm = params[kLayerWeightCount + 1];
  const Tensor& output = params[kLayerWeightCount + 2];

  const int64_t tokens = local.batch * c.sequence;
  Tensor inputs = lazy::AbstractTensor(device, Shape(S32, {tokens}), "inputs");
  Tensor targets = lazy::AbstractTensor(device, Shape(S32, {tokens}), "targets");
  for (const Tensor& p : params) SYSTOLIC_RETURN_IF_ERROR(p.status());

  auto [cos, sin] = RopeTables(device, c.sequence, c.head_dim, c.rope_theta);
  Tensor x;
  {
    lazy::NameScope scope("token_embedder");
    // Every token's row of the embedding, split over fsdp along its width.
    Tensor rows = lazy::IndexSelect(lazy::Cast(embedding, BF16), 0, inputs);
    if (mesh.fsdp > 1) rows = lazy::AllGather(rows, 1, g.fsdp);
    x = lazy::Reshape(rows, {local.batch, c.sequence, c.embed});
    // The chip's part of the embedding width (one program serves every
    // chip of the tensor axis, so the first chip's part stands for each).
    if (mesh.tensor > 1) x = lazy::Slice(x, 2, 0, c.embed / mesh.tensor);
  }
  const std::vector<Tensor> stacked(params.begin(), params.begin() + kLayerWeightCount);
  x = lazy::ScanLayers(
      x, stacked,
      [&](const Tensor& carry, absl::Span<const Tensor> layer) {
        return DecoderLayer(carry, layer, c, local, mesh, g, cos, sin);
      },
      "decoder/layers");
  Tensor loss;
  {
    lazy::NameScope scope("logits");
    Tensor h = RmsNorm(GatherOverTensor(x, mesh, g), Gathered(final_norm, 0, mesh, g));
    Tensor logits = lazy::MatMul(lazy::Reshape(h, {tokens, c.embed}), Gathered(output, 0, mesh, g));
    // Each chip's vocabulary starts at its own offset; one program serves
    // every chip, so the offset is the first chip's (the cost is the same).
    loss = ShardedCrossEntropy(device, lazy::Cast(logits, F32), targets, 0, mesh, g);
    // Each chip's loss is the mean over its tokens; the step's loss is the
    // mean over every chip that holds other sequences.
    loss = loss / double(mesh.fsdp * mesh.slices);
  }
  std::vector<Tensor> grads = lazy::Gradients(loss, params);
  // Within a slice the gradient shards are already summed (the gathers'
  // reduce-scatters); across slices they are summed over the data-centre
  // network.
  if (mesh.slices > 1) {
    lazy::NameScope scope("data_parallel");
    for (Tensor& grad : grads) grad = lazy::AllReduceSum(grad, g.data);
  }

  // AdamW on the shards (MaxText's defaults: b1 0.9, b2 0.95, eps 1e-8,
  // weight decay 0.1).
  std::vector<Tensor> outputs = {loss};
  {
    lazy::NameScope scope("adamw");
    Tensor step = lazy::AbstractTensor(device, Shape(F32, {}), "step");
    Tensor learning_rate = lazy::AbstractTensor(device, Shape(F32, {}), "learning_rate");
    Tensor next = step + 1.0;
    Tensor correction1 = 1.0 - lazy::Exp(next * std::log(0.9));
    Tensor correction2 = 1.0 - lazy::Exp(next * std::log(0.95));
    for (size_t i = 0; i < params.size(); ++i) {
      lazy::NameScope per(names[i]);
      Tensor m = lazy::AbstractTensor(device, params[i].shape(), "mu");
      Tensor v = lazy::AbstractTensor(device, params[i].shape(), "nu");
      Tensor m2 = 0.9 * m + 0.1 * grads[i];
      Tensor v2 = 0.95 * v + 0.05 * lazy::Square(grads[i]);
      Tensor update = (m2 / correction1) / (lazy::Sqrt(v2 / correction2) + 1e-8) + 0.1 * params[i];
      outputs.push_back(params[i] - learning_rate * update);
      outputs.push_back(m2);
      outputs.push_back(v2);
    }
    outputs.push_back(next);
  }
  return lazy::TraceProgram(device, outputs, absl::StrCat("train_step.", c.name));
}

}  // namespace systolic::samples
