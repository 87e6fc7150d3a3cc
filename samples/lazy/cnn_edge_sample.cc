// A small convolutional classifier on the single-chip `edge` preset, small
// enough that its MXU can be watched cycle by cycle: 8x8 images of four
// stroke patterns (horizontal, vertical, both diagonals) with noise, two
// convolutions with max and average pooling, and a dense head.
#include <cmath>

#include "core/hlo/status_macros.h"
#include "core/lazy/autodiff.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/name_scope.h"
#include "core/lazy/nn_ops.h"
#include "core/lazy/sgd.h"
#include "core/lazy/shape_ops.h"
#include "samples/lazy/sample_support.h"

namespace systolic::samples {
namespace {

using lazy::Tensor;

constexpr int64_t kBatch = 16;
constexpr int64_t kSize = 8;
constexpr int64_t kClasses = 4;
constexpr int64_t kBatches = 4;

// Images [n, 1, 8, 8] with a stroke of the label's kind through a random
// position, plus noise.
ClassificationData MakeStrokes(int64_t n, HostRandom& random) {
  ClassificationData data{random.Normal({n, 1, kSize, kSize}, 0.2), Literal(Shape(S32, {n}))};
  for (int64_t i = 0; i < n; ++i) {
    const int64_t label = random.Index(kClasses);
    const int64_t offset = random.Index(kSize);
    data.labels.data<int32_t>()[i] = int32_t(label);
    float* image = data.x.data<float>().data() + i * kSize * kSize;
    for (int64_t t = 0; t < kSize; ++t) {
      int64_t r = t, c = t;
      switch (label) {
        case 0: r = offset; break;                     // horizontal
        case 1: c = offset; break;                     // vertical
        case 2: c = t + offset - kSize / 2; break;     // diagonal
        default: c = kSize / 2 - 1 - t + offset; break;  // anti-diagonal
      }
      if (c >= 0 && c < kSize) image[r * kSize + c] += 1.0f;
    }
  }
  return data;
}

absl::StatusOr<TrainingLog> Run(const SampleRunOptions& options) {
  SYSTOLIC_ASSIGN_OR_RETURN(auto backend, BackendFor(options, 1));
  lazy::LazyDeviceOptions device_options;
  device_options.name = "edge";
  lazy::LazyDevice device(backend, device_options);

  HostRandom random(3);
  const ClassificationData data = MakeStrokes(kBatches * kBatch, random);
  std::vector<std::string> names = {"cnn/conv_1/kernel", "cnn/conv_2/kernel", "cnn/dense/weight",
                                    "cnn/dense/bias"};
  std::vector<Tensor> params = {
      lazy::FromLiteral(device, random.Normal({8, 1, 3, 3}, std::sqrt(2.0 / 9)), names[0]),
      lazy::FromLiteral(device, random.Normal({8, 8, 3, 3}, std::sqrt(2.0 / 72)), names[1]),
      lazy::FromLiteral(device, random.Normal({32, kClasses}, std::sqrt(2.0 / 32)), names[2]),
      lazy::FromLiteral(device, Literal(Shape(F32, {kClasses})), names[3])};
  SYSTOLIC_ASSIGN_OR_RETURN(auto optimizer,
                            lazy::Sgd::Create(params, {.learning_rate = 0.05, .momentum = 0.9}));

  TrainingLog log;
  log.sample = "cnn_edge";
  log.topology = "edge";
  for (int64_t step = 0; step < options.steps; ++step) {
    const int64_t batch = step % kBatches;
    Tensor images = lazy::FromLiteral(device, Rows(data.x, batch * kBatch, kBatch), "images");
    Tensor labels = lazy::FromLiteral(device, Rows(data.labels, batch * kBatch, kBatch), "labels");
    Tensor loss;
    {
      lazy::NameScope cnn("cnn");
      Tensor h;
      {
        lazy::NameScope conv("conv_1");
        h = lazy::MaxPool2d(lazy::Relu(lazy::Conv2d(images, params[0], 1, 1)), 2, 2);
      }
      {
        lazy::NameScope conv("conv_2");
        h = lazy::AvgPool2d(lazy::Relu(lazy::Conv2d(h, params[1], 1, 1)), 2, 2);
      }
      Tensor logits;
      {
        lazy::NameScope dense("dense");
        logits = lazy::Linear(lazy::Flatten(h), params[2], params[3]);
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

LazySample CnnEdgeSample() {
  return {"cnn_edge",
          "small CNN (two 3x3 convolutions, max and average pooling, dense head) on one edge "
          "chip, to watch the MXU cycle by cycle",
          "edge", Run};
}

}  // namespace systolic::samples
