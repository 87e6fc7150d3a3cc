// An MLP classifier trained with distributed data parallelism on v5e:2x2:
// each of the 4 chips takes a quarter of every batch, gradients are averaged
// by all-reduce. The data set ends in a partial batch (16 of 32 examples),
// which changes the input shape and forces exactly one recompilation per
// run; the full batches after it reuse the first program.
#include <cmath>

#include "core/hlo/status_macros.h"
#include "core/lazy/autodiff.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/data_parallel.h"
#include "core/lazy/name_scope.h"
#include "core/lazy/nn_ops.h"
#include "core/lazy/sgd.h"
#include "samples/lazy/sample_support.h"

namespace systolic::samples {
namespace {

using lazy::Tensor;

constexpr int64_t kReplicas = 4;
constexpr int64_t kFeatures = 16;
constexpr int64_t kHidden = 32;
constexpr int64_t kClasses = 4;
constexpr int64_t kBatch = 32;
constexpr int64_t kFullBatches = 3;
constexpr int64_t kPartialBatch = 16;

absl::StatusOr<TrainingLog> Run(const SampleRunOptions& options) {
  const int64_t replicas = options.single_device ? 1 : kReplicas;
  SYSTOLIC_ASSIGN_OR_RETURN(auto backend, BackendFor(options, replicas));
  lazy::LazyDeviceOptions device_options;
  device_options.name = "v5e:2x2";
  device_options.replica_count = replicas;
  lazy::LazyDevice device(backend, device_options);
  lazy::DataParallel ddp(device);

  HostRandom random(7);
  const ClassificationData data =
      MakeBlobs(kFullBatches * kBatch + kPartialBatch, kFeatures, kClasses, random);

  std::vector<std::string> names = {"mlp/dense_1/weight", "mlp/dense_1/bias",
                                    "mlp/dense_2/weight", "mlp/dense_2/bias"};
  std::vector<Tensor> params = {
      lazy::FromLiteral(device, random.Normal({kFeatures, kHidden}, std::sqrt(2.0 / kFeatures)),
                        names[0]),
      lazy::FromLiteral(device, Literal(Shape(F32, {kHidden})), names[1]),
      lazy::FromLiteral(device, random.Normal({kHidden, kClasses}, std::sqrt(2.0 / kHidden)),
                        names[2]),
      lazy::FromLiteral(device, Literal(Shape(F32, {kClasses})), names[3])};
  for (const Tensor& p : params) SYSTOLIC_RETURN_IF_ERROR(p.status());
  SYSTOLIC_ASSIGN_OR_RETURN(auto optimizer,
                            lazy::Sgd::Create(params, {.learning_rate = 0.1, .momentum = 0.9}));

  TrainingLog log;
  log.sample = "mlp_ddp";
  log.topology = options.single_device ? "one device" : "v5e:2x2";
  log.devices = replicas;
  for (int64_t step = 0; step < options.steps; ++step) {
    // An epoch: three full batches, then the partial one.
    const int64_t batch = step % (kFullBatches + 1);
    const int64_t size = batch < kFullBatches ? kBatch : kPartialBatch;
    Tensor x = ddp.ShardBatch(Rows(data.x, batch * kBatch, size), "x");
    Tensor labels = ddp.ShardBatch(Rows(data.labels, batch * kBatch, size), "labels");
    Tensor loss;
    {
      lazy::NameScope mlp("mlp");
      Tensor h;
      {
        lazy::NameScope dense("dense_1");
        h = lazy::Relu(lazy::Linear(x, params[0], params[1]));
      }
      Tensor logits;
      {
        lazy::NameScope dense("dense_2");
        logits = lazy::Linear(h, params[2], params[3]);
      }
      loss = lazy::CrossEntropy(logits, labels);
    }
    {
      std::vector<Tensor> grads = lazy::Gradients(loss, params);
      if (!options.single_device) grads = ddp.AverageGradients(grads);
      SYSTOLIC_RETURN_IF_ERROR(optimizer->Step(grads));
    }
    SYSTOLIC_RETURN_IF_ERROR(device.MarkStep());
    SYSTOLIC_ASSIGN_OR_RETURN(double mean_loss, MeanOverReplicas(loss));
    log.steps.push_back({step, size, mean_loss});
  }
  SYSTOLIC_RETURN_IF_ERROR(RecordTrainedParameters(params, names, &log));
  RecordDevice(device, &log);
  return log;
}

}  // namespace

LazySample MlpDdpSample() {
  return {"mlp_ddp",
          "MLP classifier, data parallel (all-reduce of gradients) over 4 chips; a last partial "
          "batch forces one recompilation",
          "v5e:2x2", Run};
}

}  // namespace systolic::samples
