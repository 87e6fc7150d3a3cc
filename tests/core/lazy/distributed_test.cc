// Meshes and partition specs as shardings; collectives and their gradients
// over replicas; DDP and FSDP programs giving the single-device result.
#include <memory>

#include "core/lazy/autodiff.h"
#include "core/lazy/collective_ops.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/data_parallel.h"
#include "core/lazy/fully_sharded_data_parallel.h"
#include "core/lazy/host_split.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/mesh.h"
#include "core/lazy/nn_ops.h"
#include "core/lazy/reduction_ops.h"
#include "core/lazy/sgd.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/lazy/lazy_test_backend.h"

namespace systolic::lazy {
namespace {

using ::testing::HasSubstr;

Literal Vector(std::vector<float> v) { return Literal::CreateR1<float>(absl::Span<const float>(v)); }

// One value per replica.
std::vector<Literal> PerReplica(Literal a, Literal b) {
  std::vector<Literal> out;
  out.push_back(std::move(a));
  out.push_back(std::move(b));
  return out;
}

Literal Iota(std::vector<int64_t> dims, float scale = 1) {
  Literal l(Shape(F32, dims));
  for (int64_t i = 0; i < l.element_count(); ++i) l.data<float>()[i] = float(i) * scale;
  return l;
}

TEST(MeshTest, PartitionSpecsBecomeTiledShardings) {
  absl::StatusOr<Mesh> mesh = Mesh::Create({2, 2}, {"data", "model"});
  ASSERT_TRUE(mesh.ok());
  auto text = [&](const PartitionSpec& spec, int64_t rank) {
    absl::StatusOr<HloSharding> s = mesh->ToSharding(spec, rank);
    return s.ok() ? s->ToString() : std::string(s.status().message());
  };
  EXPECT_EQ(text({"data", "model"}, 2), "{devices=[2,2]0,1,2,3}");
  EXPECT_EQ(text({"model", "data"}, 2), "{devices=[2,2]0,2,1,3}");
  EXPECT_EQ(text({"", ""}, 2), "{replicated}");
  EXPECT_EQ(text({"", "data"}, 2), "{devices=[1,2,2]0,1,2,3 last_tile_dim_replicate}");
  EXPECT_EQ(text(PartitionSpec({{"data", "model"}, {}}), 2), "{devices=[4,1]0,1,2,3}");
  EXPECT_THAT(text({"rows", ""}, 2), HasSubstr("names axis 'rows', which the mesh does not have"));
  EXPECT_THAT(text({"data"}, 2), HasSubstr("has 1 entries for a tensor of rank 2"));
  EXPECT_THAT(text({"data", "data"}, 2), HasSubstr("uses axis 'data' twice"));
  EXPECT_FALSE(Mesh::Create({2, 2}, {"a"}).ok());
  EXPECT_FALSE(Mesh::Create({2, 2}, {"a", "a"}).ok());
}

TEST(MeshTest, CustomDeviceOrder) {
  absl::StatusOr<Mesh> mesh = Mesh::Create({2, 2}, {"x", "y"}, {3, 2, 1, 0});
  ASSERT_TRUE(mesh.ok());
  EXPECT_EQ(mesh->ToSharding({"x", "y"}, 2)->ToString(), "{devices=[2,2]3,2,1,0}");
}

TEST(MeshTest, MarkShardingAnnotatesDataAndPendingValues) {
  LazyDevice device(testing::MakeTestBackend(4), {"v5e:2x2", 1, 4});
  absl::StatusOr<Mesh> mesh = Mesh::Create({2, 2}, {"data", "model"});
  ASSERT_TRUE(mesh.ok());
  Tensor w = FromLiteral(device, Iota({4, 6}), "w");
  ASSERT_TRUE(MarkSharding(w, *mesh, {"", "model"}).ok());
  Tensor y = w * 2.0;
  ASSERT_TRUE(MarkSharding(y, *mesh, {"data", "model"}).ok());
  Tensor odd = FromLiteral(device, Iota({3, 4}));
  EXPECT_THAT(std::string(MarkSharding(odd, *mesh, {"data", ""}).message()),
              HasSubstr("does not split evenly"));
  ASSERT_TRUE(device.MarkStep().ok());
  const std::string text = device.executor().programs()[0]->module().ToString();
  EXPECT_THAT(text, HasSubstr("num_partitions=4"));
  // w split by columns over `model`, replicated over `data`.
  EXPECT_THAT(text, HasSubstr("parameter(0), sharding={devices=[1,2,2]0,2,1,3 "
                              "last_tile_dim_replicate}"));
  EXPECT_THAT(text, HasSubstr("custom_call_target=\"Sharding\", sharding={devices=[2,2]0,1,2,3}"));
  // The value computed is the global one; the result keeps its layout.
  absl::StatusOr<Literal> value = y.ToLiteral();
  ASSERT_TRUE(value.ok()) << value.status();
  EXPECT_EQ(value->data<float>()[5], 10.0f);
  ASSERT_TRUE(y.sharding().has_value());
  EXPECT_EQ(y.sharding()->ToString(), "{devices=[2,2]0,1,2,3}");
}

class ReplicasTest : public ::testing::Test {
 protected:
  LazyDevice device_{testing::MakeTestBackend(2), {"v5e:1x2", 2}};
};

TEST_F(ReplicasTest, CollectivesExchangeValues) {
  Tensor x = FromReplicaLiterals(device_, PerReplica(Vector({1, 2}), Vector({10, 20})));
  Tensor sum = AllReduceSum(x);
  Tensor gathered = AllGather(x, 0);
  Tensor scattered = ReduceScatterSum(gathered * 1.0, 0);
  ASSERT_TRUE(device_.MarkStep().ok());
  auto values = [](const Tensor& t) {
    std::vector<std::vector<float>> out;
    absl::StatusOr<std::vector<Literal>> literals = t.ToReplicaLiterals();
    EXPECT_TRUE(literals.ok()) << literals.status();
    for (const Literal& l : *literals) {
      out.emplace_back(l.data<float>().begin(), l.data<float>().end());
    }
    return out;
  };
  using V = std::vector<std::vector<float>>;
  EXPECT_EQ(values(sum), (V{{11, 22}, {11, 22}}));
  EXPECT_EQ(values(gathered), (V{{1, 2, 10, 20}, {1, 2, 10, 20}}));
  EXPECT_EQ(values(scattered), (V{{2, 4}, {20, 40}}));
  const std::string text = device_.executor().programs()[0]->module().ToString();
  EXPECT_THAT(text, HasSubstr("replica_count=2"));
  EXPECT_THAT(text, HasSubstr("all-reduce("));
  EXPECT_THAT(text, HasSubstr("replica_groups={{0,1}}"));
}

TEST_F(ReplicasTest, GradientsOfCollectivesAreCollectives) {
  // Each replica's loss uses every replica's x; the gradient of the sum of
  // the replicas' losses reaches each replica's own x.
  Tensor x = FromReplicaLiterals(device_, PerReplica(Vector({1, 2}), Vector({3, 4})));
  Tensor w = FromReplicaLiterals(device_, PerReplica(Vector({1, 2, 3, 4}), Vector({10, 20, 30, 40})));
  std::vector<Tensor> g = Gradients(Sum(AllGather(x, 0) * w), {x});
  Tensor v = FromReplicaLiterals(device_, PerReplica(Vector({1, 1}), Vector({5, 7})));
  std::vector<Tensor> h = Gradients(Sum(AllReduceSum(x) * v), {x});
  ASSERT_TRUE(device_.MarkStep().ok());
  std::vector<Literal> gv = *g[0].ToReplicaLiterals();
  EXPECT_EQ(gv[0].data<float>()[0], 11);  // w0[0] + w1[0]
  EXPECT_EQ(gv[0].data<float>()[1], 22);
  EXPECT_EQ(gv[1].data<float>()[0], 33);  // w0[2] + w1[2]
  EXPECT_EQ(gv[1].data<float>()[1], 44);
  std::vector<Literal> hv = *h[0].ToReplicaLiterals();
  EXPECT_EQ(hv[0].data<float>()[0], 6);
  EXPECT_EQ(hv[1].data<float>()[1], 8);
  const std::string text = device_.executor().programs()[0]->module().ToString();
  EXPECT_THAT(text, HasSubstr("reduce-scatter("));
}

TEST(HostSplitTest, RowsAndFlatChunksRoundTrip) {
  Literal x = Iota({4, 3});
  absl::StatusOr<std::vector<Literal>> rows = SplitRows(x, 2);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[1].data<float>()[0], 6);
  EXPECT_EQ(*ConcatenateRows(*rows), x);
  EXPECT_FALSE(SplitRows(x, 3).ok());
  absl::StatusOr<std::vector<Literal>> chunks = SplitFlat(x, 5);  // 12 -> 5 chunks of 3
  ASSERT_TRUE(chunks.ok());
  EXPECT_EQ((*chunks)[4].element_count(), 3);
  EXPECT_EQ((*chunks)[4].data<float>()[0], 0);  // padding
  EXPECT_EQ(*JoinFlat(*chunks, x.shape()), x);
}

// One SGD step of y = relu(x w1) w2 on a mean squared error, on `device`
// with `x` / `target` given per replica (DDP) or whole.
struct TinyModel {
  static Literal W1() { return Iota({3, 4}, 0.1f); }
  static Literal W2() { return Iota({4, 2}, -0.05f); }
  static Literal X() { return Iota({8, 3}, 0.01f); }
  static Literal Target() { return Iota({8, 2}, 0.02f); }
  static Tensor Loss(const Tensor& x, const Tensor& w1, const Tensor& w2, const Tensor& t) {
    return Mean(Square(MatMul(Relu(MatMul(x, w1)), w2) - t));
  }
};

std::vector<Literal> SingleDeviceReference(int steps) {
  LazyDevice device(testing::MakeTestBackend());
  std::vector<Tensor> params = {FromLiteral(device, TinyModel::W1()),
                                FromLiteral(device, TinyModel::W2())};
  auto sgd = *Sgd::Create(params, {.learning_rate = 0.5, .momentum = 0.9});
  for (int i = 0; i < steps; ++i) {
    Tensor loss = TinyModel::Loss(FromLiteral(device, TinyModel::X()), params[0], params[1],
                                  FromLiteral(device, TinyModel::Target()));
    EXPECT_TRUE(sgd->Step(Gradients(loss, params)).ok());
    EXPECT_TRUE(device.MarkStep().ok());
  }
  std::vector<Literal> values;
  for (const Tensor& p : params) values.push_back(*std::move(p.ToLiteral()));
  return values;
}

void ExpectNear(const Literal& a, const Literal& b, double tolerance) {
  ASSERT_EQ(a.element_count(), b.element_count());
  for (int64_t i = 0; i < a.element_count(); ++i) {
    EXPECT_NEAR(a.GetAsDouble(i), b.GetAsDouble(i), tolerance) << "element " << i;
  }
}

TEST(DataParallelTest, FourReplicasMatchOneDevice) {
  const std::vector<Literal> expected = SingleDeviceReference(3);
  LazyDevice device(testing::MakeTestBackend(4), {"v5e:2x2", 4});
  DataParallel ddp(device);
  std::vector<Tensor> params = {FromLiteral(device, TinyModel::W1()),
                                FromLiteral(device, TinyModel::W2())};
  auto sgd = *Sgd::Create(params, {.learning_rate = 0.5, .momentum = 0.9});
  for (int i = 0; i < 3; ++i) {
    Tensor loss = TinyModel::Loss(ddp.ShardBatch(TinyModel::X()), params[0], params[1],
                                  ddp.ShardBatch(TinyModel::Target()));
    ASSERT_TRUE(sgd->Step(ddp.AverageGradients(Gradients(loss, params))).ok());
    ASSERT_TRUE(device.MarkStep().ok());
  }
  for (int p = 0; p < 2; ++p) {
    std::vector<Literal> replicas = *params[p].ToReplicaLiterals();
    for (const Literal& r : replicas) ExpectNear(r, expected[p], 1e-6);
  }
  const std::string text = device.executor().programs()[0]->module().ToString();
  EXPECT_THAT(text, HasSubstr("all-reduce("));
  EXPECT_THAT(text, HasSubstr("replica_groups={{0,1,2,3}}"));
  EXPECT_THAT(text, HasSubstr("op_name=\"ddp/all_reduce\""));
}

TEST(FullyShardedDataParallelTest, FourReplicasMatchOneDevice) {
  const std::vector<Literal> expected = SingleDeviceReference(3);
  LazyDevice device(testing::MakeTestBackend(4), {"v5e:2x2", 4});
  FullyShardedDataParallel fsdp(device);
  std::vector<ShardedParameter> params = {*fsdp.ShardParameter(TinyModel::W1(), "w1"),
                                          *fsdp.ShardParameter(TinyModel::W2(), "w2")};
  EXPECT_EQ(params[0].shard.shape().ToString(), "f32[3]");  // 12 elements / 4
  auto sgd = *Sgd::Create({params[0].shard, params[1].shard},
                          {.learning_rate = 0.5, .momentum = 0.9});
  for (int i = 0; i < 3; ++i) {
    Tensor loss = TinyModel::Loss(ShardBatch(device, TinyModel::X()), fsdp.Gather(params[0]),
                                  fsdp.Gather(params[1]), ShardBatch(device, TinyModel::Target()));
    ASSERT_TRUE(sgd->Step(fsdp.ShardGradients(loss, params)).ok());
    ASSERT_TRUE(device.MarkStep().ok());
  }
  for (int p = 0; p < 2; ++p) ExpectNear(*fsdp.FullValue(params[p]), expected[p], 1e-6);
  const std::string text = device.executor().programs()[0]->module().ToString();
  EXPECT_THAT(text, HasSubstr("all-gather("));
  EXPECT_THAT(text, HasSubstr("reduce-scatter("));
  EXPECT_THAT(text, HasSubstr("dimensions={0}"));
}

}  // namespace
}  // namespace systolic::lazy
