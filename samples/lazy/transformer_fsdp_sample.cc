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
#include "core/lazy/reduction_ops.h"
#include "samples/lazy/sample_support.h"
#include "samples/lazy/transformer_block.h"

namespace systolic::samples {
namespace {

using lazy::Tensor;

constexpr int64_t kReplicas = 8;
constexpr int64_t kBatch = 16;  // sequences per step (2 per chip)
constexpr int64_t kTokens = 8;
constexpr int64_t kModel = 64;
constexpr int64_t kHidden = 256;
constexpr int64_t kBatches = 4;

// The parameters: the block's, then the head's.
constexpr int kHead = kBlockParamCount;
constexpr int kParamCount = kBlockParamCount + 1;

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
  std::vector<std::string> names = BlockParamNames("transformer");
  names.push_back("head/weight");
  std::vector<Literal> initial = InitialBlockParams(kModel, kHidden, random);
  initial.push_back(random.Normal({kModel, kModel}, 1.0 / std::sqrt(double(kModel))));

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

  // A fixed target map to learn.
  const Literal inputs = random.Normal({kBatches * kBatch, kTokens, kModel}, 1.0);
  const Literal map = random.Normal({kModel, kModel}, 1.0 / std::sqrt(double(kModel)));
  const Literal targets = TanhOfLinearMap(inputs, map);

  TrainingLog log;
  log.sample = "transformer_fsdp";
  log.topology = fsdp_on ? "v4:2x2x2" : "one device";
  log.devices = replicas;
  Tensor causal = lazy::FromLiteral(device, CausalMask(kTokens), "causal_mask");
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
      Tensor out = TransformerBlock(x, absl::MakeConstSpan(whole).first(kBlockParamCount), causal,
                                    options.f32_matmuls ? F32 : BF16);
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
