// A transformer block (causal self-attention and a GELU MLP, pre-layer-norm,
// matrix products in bf16) trained with fully sharded data parallelism on
// v4:2x2x2: each of the 8 chips keeps one eighth of every parameter and of
// the Adam state, all-gathers a parameter before using it, receives its
// shard of the gradient by reduce-scatter, and updates only that shard.
#include <cmath>

#include "core/hlo/status_macros.h"
#include "core/lazy/adam.h"
#include "core/lazy/autodiff.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/data_parallel.h"
#include "core/lazy/fully_sharded_data_parallel.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/name_scope.h"
#include "core/lazy/nn_ops.h"
#include "core/lazy/reduction_ops.h"
#include "core/lazy/shape_ops.h"
#include "samples/lazy/sample_support.h"

namespace systolic::samples {
namespace {

using lazy::Tensor;

constexpr int64_t kReplicas = 8;
constexpr int64_t kBatch = 16;  // sequences per step (2 per chip)
constexpr int64_t kTokens = 8;
constexpr int64_t kModel = 64;
constexpr int64_t kHidden = 256;
constexpr int64_t kBatches = 4;

enum Param {
  kLn1Gamma, kLn1Beta, kQuery, kKey, kValue, kOutput,
  kLn2Gamma, kLn2Beta, kUp, kUpBias, kDown, kDownBias, kHead, kParamCount
};

// x @ w with both operands rounded to `type` (bf16: the MXU's input type),
// result back in f32.
Tensor MatMulIn(PrimitiveType type, const Tensor& x, const Tensor& w) {
  return lazy::Cast(lazy::MatMul(lazy::Cast(x, type), lazy::Cast(w, type)), F32);
}

// The block on x [b, T, D]; `p` are the whole parameters.
Tensor Block(const Tensor& x, const std::vector<Tensor>& p, const Tensor& mask,
             PrimitiveType matmul_type) {
  auto matmul = [&](const Tensor& a, const Tensor& b) { return MatMulIn(matmul_type, a, b); };
  lazy::NameScope scope("transformer");
  Tensor h;
  {
    lazy::NameScope attention("attention");
    Tensor a = lazy::LayerNorm(x, p[kLn1Gamma], p[kLn1Beta]);
    Tensor q, k, v;
    {
      lazy::NameScope s("query");
      q = matmul(a, p[kQuery]);
    }
    {
      lazy::NameScope s("key");
      k = matmul(a, p[kKey]);
    }
    {
      lazy::NameScope s("value");
      v = matmul(a, p[kValue]);
    }
    Tensor scores = matmul(q, lazy::TransposeLast2(k)) * (1.0 / std::sqrt(double(kModel)));
    Tensor weights = lazy::Softmax(scores + mask, -1);
    Tensor context = matmul(weights, v);
    lazy::NameScope s("output");
    h = x + matmul(context, p[kOutput]);
  }
  lazy::NameScope mlp("mlp");
  Tensor m = lazy::LayerNorm(h, p[kLn2Gamma], p[kLn2Beta]);
  Tensor up;
  {
    lazy::NameScope s("up");
    up = lazy::Gelu(matmul(m, p[kUp]) + p[kUpBias]);
  }
  lazy::NameScope s("down");
  return h + matmul(up, p[kDown]) + p[kDownBias];
}

absl::StatusOr<TrainingLog> Run(const SampleRunOptions& options) {
  const bool fsdp_on = !options.single_device;
  const int64_t replicas = fsdp_on ? kReplicas : 1;
  SYSTOLIC_ASSIGN_OR_RETURN(auto backend, BackendFor(options, replicas));
  lazy::LazyDeviceOptions device_options;
  device_options.name = "v4:2x2x2";
  device_options.replica_count = replicas;
  lazy::LazyDevice device(backend, device_options);
  lazy::FullyShardedDataParallel fsdp(device);

  HostRandom random(5);
  const double init = 1.0 / std::sqrt(double(kModel));
  std::vector<std::string> names = {
      "transformer/attention/layer_norm/gamma", "transformer/attention/layer_norm/beta",
      "transformer/attention/query/weight",     "transformer/attention/key/weight",
      "transformer/attention/value/weight",     "transformer/attention/output/weight",
      "transformer/mlp/layer_norm/gamma",       "transformer/mlp/layer_norm/beta",
      "transformer/mlp/up/weight",              "transformer/mlp/up/bias",
      "transformer/mlp/down/weight",            "transformer/mlp/down/bias",
      "head/weight"};
  auto ones = [](int64_t n) {
    Literal l(Shape(F32, {n}));
    for (float& v : l.data<float>()) v = 1;
    return l;
  };
  std::vector<Literal> initial;
  initial.push_back(ones(kModel));
  initial.push_back(Literal(Shape(F32, {kModel})));
  for (int i = 0; i < 4; ++i) initial.push_back(random.Normal({kModel, kModel}, init));
  initial.push_back(ones(kModel));
  initial.push_back(Literal(Shape(F32, {kModel})));
  initial.push_back(random.Normal({kModel, kHidden}, init));
  initial.push_back(Literal(Shape(F32, {kHidden})));
  initial.push_back(random.Normal({kHidden, kModel}, 1.0 / std::sqrt(double(kHidden))));
  initial.push_back(Literal(Shape(F32, {kModel})));
  initial.push_back(random.Normal({kModel, kModel}, init));

  // What the optimizer updates: shards (FSDP) or whole parameters.
  std::vector<lazy::ShardedParameter> sharded;
  std::vector<Tensor> trained;
  for (int i = 0; i < kParamCount; ++i) {
    if (fsdp_on) {
      SYSTOLIC_ASSIGN_OR_RETURN(lazy::ShardedParameter p, fsdp.ShardParameter(initial[i], names[i]));
      trained.push_back(p.shard);
      sharded.push_back(std::move(p));
    } else {
      trained.push_back(lazy::FromLiteral(device, initial[i], names[i]));
    }
  }
  SYSTOLIC_ASSIGN_OR_RETURN(auto optimizer,
                            lazy::Adam::Create(trained, {.learning_rate = 1e-2}));

  // A causal mask and a fixed target map to learn.
  Literal mask(Shape(F32, {kTokens, kTokens}));
  for (int64_t r = 0; r < kTokens; ++r) {
    for (int64_t c = r + 1; c < kTokens; ++c) mask.data<float>()[r * kTokens + c] = -1e9f;
  }
  const Literal inputs = random.Normal({kBatches * kBatch, kTokens, kModel}, 1.0);
  const Literal map = random.Normal({kModel, kModel}, init);
  Literal targets(inputs.shape());
  for (int64_t row = 0; row < kBatches * kBatch * kTokens; ++row) {
    for (int64_t j = 0; j < kModel; ++j) {
      double sum = 0;
      for (int64_t i = 0; i < kModel; ++i) {
        sum += inputs.data<float>()[row * kModel + i] * map.data<float>()[i * kModel + j];
      }
      targets.data<float>()[row * kModel + j] = float(std::tanh(sum));
    }
  }

  TrainingLog log;
  log.sample = "transformer_fsdp";
  log.topology = fsdp_on ? "v4:2x2x2" : "one device";
  log.devices = replicas;
  Tensor causal = lazy::FromLiteral(device, mask, "causal_mask");
  for (int64_t step = 0; step < options.steps; ++step) {
    const int64_t batch = step % kBatches;
    Tensor x = lazy::ShardBatch(device, Rows(inputs, batch * kBatch, kBatch), "x");
    Tensor y = lazy::ShardBatch(device, Rows(targets, batch * kBatch, kBatch), "y");
    // Only the loss outlives the step's graph: gathered parameters and
    // gradients are not program outputs.
    Tensor loss;
    {
      std::vector<Tensor> whole;
      for (int i = 0; i < kParamCount; ++i) {
        whole.push_back(fsdp_on ? fsdp.Gather(sharded[i]) : trained[i]);
      }
      Tensor out = Block(x, whole, causal, options.f32_matmuls ? F32 : BF16);
      Tensor prediction;
      {
        lazy::NameScope head("head");
        prediction = lazy::MatMul(out, whole[kHead]);
      }
      loss = lazy::Mean(lazy::Square(prediction - y));
      std::vector<Tensor> grads =
          fsdp_on ? fsdp.ShardGradients(loss, sharded) : lazy::Gradients(loss, trained);
      SYSTOLIC_RETURN_IF_ERROR(optimizer->Step(grads));
    }
    SYSTOLIC_RETURN_IF_ERROR(device.MarkStep());
    SYSTOLIC_ASSIGN_OR_RETURN(double mean_loss, MeanOverReplicas(loss));
    log.steps.push_back({step, kBatch, mean_loss});
  }
  for (int i = 0; i < kParamCount; ++i) {
    Literal value;
    if (fsdp_on) {
      SYSTOLIC_ASSIGN_OR_RETURN(value, fsdp.FullValue(sharded[i]));
    } else {
      SYSTOLIC_ASSIGN_OR_RETURN(value, trained[i].ToLiteral());
    }
    log.parameters.push_back({names[i], std::move(value)});
  }
  RecordDevice(device, &log);
  return log;
}

}  // namespace

LazySample TransformerFsdpSample() {
  return {"transformer_fsdp",
          "transformer block (causal attention + GELU MLP, bf16 matmuls) trained with Adam, "
          "fully sharded over 8 chips (all-gather of parameters, reduce-scatter of gradients)",
          "v4:2x2x2", Run};
}

}  // namespace systolic::samples
