// A 2D-sharded MLP on v5e:4x4 with SPMD: one program over 16 chips arranged
// as a (data: 4) x (model: 4) mesh. The batch is split over `data`, the
// hidden dimension over `model` (the first weight by columns, the second by
// rows, as Megatron does), and the sharding annotations go to the SPMD
// partitioner.
#include <cmath>

#include "core/hlo/status_macros.h"
#include "core/lazy/autodiff.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/mesh.h"
#include "core/lazy/name_scope.h"
#include "core/lazy/nn_ops.h"
#include "core/lazy/sgd.h"
#include "samples/lazy/sample_support.h"

namespace systolic::samples {
namespace {

using lazy::PartitionSpec;
using lazy::Tensor;

constexpr int64_t kData = 4;
constexpr int64_t kModel = 4;
constexpr int64_t kFeatures = 128;
constexpr int64_t kHidden = 512;
constexpr int64_t kClasses = 8;
constexpr int64_t kBatch = 64;
constexpr int64_t kBatches = 4;

absl::StatusOr<TrainingLog> Run(const SampleRunOptions& options) {
  const bool spmd = !options.single_device;
  SYSTOLIC_ASSIGN_OR_RETURN(auto backend, BackendFor(options, spmd ? kData * kModel : 1));
  lazy::LazyDeviceOptions device_options;
  device_options.name = "v5e:4x4";
  device_options.num_partitions = spmd ? kData * kModel : 1;
  lazy::LazyDevice device(backend, device_options);
  SYSTOLIC_ASSIGN_OR_RETURN(lazy::Mesh mesh, lazy::Mesh::Create({kData, kModel}, {"data", "model"}));
  auto shard = [&](const Tensor& t, const PartitionSpec& spec) -> absl::Status {
    return spmd ? lazy::MarkSharding(t, mesh, spec) : absl::OkStatus();
  };

  HostRandom random(11);
  const ClassificationData data = MakeBlobs(kBatches * kBatch, kFeatures, kClasses, random);

  std::vector<std::string> names = {"mlp/dense_1/weight", "mlp/dense_1/bias",
                                    "mlp/dense_2/weight", "mlp/dense_2/bias"};
  std::vector<Tensor> params = {
      lazy::FromLiteral(device, random.Normal({kFeatures, kHidden}, std::sqrt(2.0 / kFeatures)),
                        names[0]),
      lazy::FromLiteral(device, Literal(Shape(F32, {kHidden})), names[1]),
      lazy::FromLiteral(device, random.Normal({kHidden, kClasses}, std::sqrt(2.0 / kHidden)),
                        names[2]),
      lazy::FromLiteral(device, Literal(Shape(F32, {kClasses})), names[3])};
  SYSTOLIC_RETURN_IF_ERROR(shard(params[0], {"", "model"}));
  SYSTOLIC_RETURN_IF_ERROR(shard(params[1], {"model"}));
  SYSTOLIC_RETURN_IF_ERROR(shard(params[2], {"model", ""}));
  SYSTOLIC_RETURN_IF_ERROR(shard(params[3], {""}));
  SYSTOLIC_ASSIGN_OR_RETURN(auto optimizer,
                            lazy::Sgd::Create(params, {.learning_rate = 0.02, .momentum = 0.9}));

  TrainingLog log;
  log.sample = "mlp_spmd";
  log.topology = spmd ? "v5e:4x4" : "one device";
  log.devices = device_options.num_partitions;
  for (int64_t step = 0; step < options.steps; ++step) {
    const int64_t batch = step % kBatches;
    Tensor x = lazy::FromLiteral(device, Rows(data.x, batch * kBatch, kBatch), "x");
    Tensor labels = lazy::FromLiteral(device, Rows(data.labels, batch * kBatch, kBatch), "labels");
    SYSTOLIC_RETURN_IF_ERROR(shard(x, {"data", ""}));
    SYSTOLIC_RETURN_IF_ERROR(shard(labels, {"data"}));
    Tensor loss;
    {
      lazy::NameScope mlp("mlp");
      Tensor h;
      {
        lazy::NameScope dense("dense_1");
        h = lazy::Relu(lazy::Linear(x, params[0], params[1]));
        SYSTOLIC_RETURN_IF_ERROR(shard(h, {"data", "model"}));
      }
      Tensor logits;
      {
        lazy::NameScope dense("dense_2");
        logits = lazy::Linear(h, params[2], params[3]);
        SYSTOLIC_RETURN_IF_ERROR(shard(logits, {"data", ""}));
      }
      loss = lazy::CrossEntropy(logits, labels);
    }
    SYSTOLIC_RETURN_IF_ERROR(optimizer->Step(lazy::Gradients(loss, params)));
    SYSTOLIC_RETURN_IF_ERROR(device.MarkStep());
    SYSTOLIC_ASSIGN_OR_RETURN(double value, loss.Item());
    log.steps.push_back({step, kBatch, value});
  }
  SYSTOLIC_RETURN_IF_ERROR(RecordTrainedParameters(params, names, &log));
  RecordDevice(device, &log);
  return log;
}

}  // namespace

LazySample MlpSpmdSample() {
  return {"mlp_spmd",
          "MLP with SPMD over a 4x4 (data x model) mesh: batch split over data, hidden units "
          "over model",
          "v5e:4x4", Run};
}

}  // namespace systolic::samples
