// A decoder-only transformer whose layers are scanned, as JAX's `lax.scan`
// over stacked layers and PyTorch/XLA's scan_layers write it: each weight
// of the four layers is one tensor with a leading layer dimension, the
// forward pass is one `while` over the layers, and the backward pass is a
// second `while`, in reverse, that recomputes each layer from its saved
// input (rematerialisation) before taking its gradient. Data parallel over
// the four chips of v5p:2x2, matrix products in bf16, trained with Adam.
#include <cmath>

#include "core/hlo/status_macros.h"
#include "core/lazy/adam.h"
#include "core/lazy/autodiff.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/data_parallel.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/name_scope.h"
#include "core/lazy/reduction_ops.h"
#include "core/lazy/scan.h"
#include "samples/lazy/sample_support.h"
#include "samples/lazy/transformer_block.h"

namespace systolic::samples {
namespace {

using lazy::Tensor;

constexpr int64_t kReplicas = 4;
constexpr int64_t kLayers = 4;
constexpr int64_t kBatch = 8;  // sequences per step (2 per chip)
constexpr int64_t kTokens = 16;
constexpr int64_t kModel = 64;
constexpr int64_t kHidden = 256;
constexpr int64_t kBatches = 3;

// The layers' values of one parameter, stacked along a new leading axis.
Literal Stacked(const std::vector<Literal>& layers) {
  std::vector<int64_t> dims = {int64_t(layers.size())};
  const Shape& one = layers[0].shape();
  dims.insert(dims.end(), one.dimensions().begin(), one.dimensions().end());
  Literal stacked(Shape(F32, dims));
  const int64_t n = one.num_elements();
  for (size_t l = 0; l < layers.size(); ++l) {
    std::copy(layers[l].data<float>().begin(), layers[l].data<float>().end(),
              stacked.data<float>().begin() + int64_t(l) * n);
  }
  return stacked;
}

absl::StatusOr<TrainingLog> Run(const SampleRunOptions& options) {
  const int64_t replicas = options.single_device ? 1 : kReplicas;
  SYSTOLIC_ASSIGN_OR_RETURN(auto backend, BackendFor(options, replicas));
  lazy::LazyDeviceOptions device_options;
  device_options.name = "v5p:2x2";
  device_options.replica_count = replicas;
  lazy::LazyDevice device(backend, device_options);
  lazy::DataParallel ddp(device);

  HostRandom random(11);
  std::vector<std::vector<Literal>> per_layer(kBlockParamCount);
  for (int64_t l = 0; l < kLayers; ++l) {
    std::vector<Literal> layer = InitialBlockParams(kModel, kHidden, random);
    for (int i = 0; i < kBlockParamCount; ++i) per_layer[size_t(i)].push_back(std::move(layer[size_t(i)]));
  }
  std::vector<std::string> names = BlockParamNames("layers");
  names.push_back("head/weight");
  std::vector<Tensor> params;
  for (int i = 0; i < kBlockParamCount; ++i) {
    params.push_back(lazy::FromLiteral(device, Stacked(per_layer[size_t(i)]), names[size_t(i)]));
  }
  params.push_back(lazy::FromLiteral(
      device, random.Normal({kModel, kModel}, 1.0 / std::sqrt(double(kModel))), names.back()));
  for (const Tensor& p : params) SYSTOLIC_RETURN_IF_ERROR(p.status());
  SYSTOLIC_ASSIGN_OR_RETURN(auto optimizer, lazy::Adam::Create(params, {.learning_rate = 1e-2}));

  // Learn a fixed map of the inputs.
  const Literal inputs = random.Normal({kBatches * kBatch, kTokens, kModel}, 1.0);
  const Literal map = random.Normal({kModel, kModel}, 1.0 / std::sqrt(double(kModel)));
  const Literal targets = TanhOfLinearMap(inputs, map);

  TrainingLog log;
  log.sample = "transformer_scan";
  log.topology = options.single_device ? "one device" : "v5p:2x2";
  log.devices = replicas;
  const PrimitiveType matmul_type = options.f32_matmuls ? F32 : BF16;
  Tensor causal = lazy::FromLiteral(device, CausalMask(kTokens), "causal_mask");
  const std::vector<Tensor> stacked(params.begin(), params.begin() + kBlockParamCount);
  for (int64_t step = 0; step < options.steps; ++step) {
    const int64_t batch = step % kBatches;
    Tensor x = ddp.ShardBatch(Rows(inputs, batch * kBatch, kBatch), "x");
    Tensor y = ddp.ShardBatch(Rows(targets, batch * kBatch, kBatch), "y");
    Tensor loss;
    {
      Tensor out = lazy::ScanLayers(
          x, stacked,
          [&](const Tensor& carry, absl::Span<const Tensor> layer) {
            return TransformerBlock(carry, layer, causal, matmul_type);
          },
          "layers");
      Tensor prediction;
      {
        lazy::NameScope head("head");
        prediction = lazy::MatMul(out, params.back());
      }
      loss = lazy::Mean(lazy::Square(prediction - y));
      std::vector<Tensor> grads = lazy::Gradients(loss, params);
      if (!options.single_device) grads = ddp.AverageGradients(grads);
      SYSTOLIC_RETURN_IF_ERROR(optimizer->Step(grads));
    }
    SYSTOLIC_RETURN_IF_ERROR(device.MarkStep());
    SYSTOLIC_ASSIGN_OR_RETURN(double mean_loss, MeanOverReplicas(loss));
    log.steps.push_back({step, kBatch, mean_loss});
  }
  SYSTOLIC_RETURN_IF_ERROR(RecordTrainedParameters(params, names, &log));
  RecordDevice(device, &log);
  return log;
}

}  // namespace

// Per step: 6 x parameters x tokens for the matrix products, and the
// attention's two products (QK^T and weights x V, 4 x tokens x tokens x
// model per sequence forward) three times over.
double TransformerScanModelFlops() {
  const double tokens = double(kBatch * kTokens);
  const double parameters =
      double(kLayers * BlockMatmulParameterCount(kModel, kHidden) + kModel * kModel);
  const double attention = 3.0 * kLayers * kBatch * 4.0 * kTokens * kTokens * kModel;
  return 6.0 * parameters * tokens + attention;
}

LazySample TransformerScanSample() {
  return {"transformer_scan",
          "decoder of 4 scanned transformer layers (one while forward, one in reverse with "
          "rematerialisation backward), bf16 matmuls, Adam, data parallel over 4 chips",
          "v5p:2x2", Run, TransformerScanModelFlops()};
}

}  // namespace systolic::samples
