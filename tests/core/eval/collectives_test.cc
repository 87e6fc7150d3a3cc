// Collectives over replicas x partitions through EvaluateSpmd, with exact
// values, every group mode, async forms, and the failure modes.
#include "core/eval/spmd_evaluator.h"
#include "tests/core/eval/eval_test_util.h"

namespace systolic::eval_test {
namespace {

// Runs `text` on replicas x partitions devices, device d getting `args(d)`.
std::vector<Literal> RunSpmd(const std::string& text, int64_t replicas, int64_t partitions,
                             const std::function<std::vector<Literal>(int64_t)>& args = nullptr) {
  auto module = Parse(text);
  if (module == nullptr) return {};
  std::vector<std::vector<Literal>> per_device;
  for (int64_t d = 0; d < replicas * partitions; ++d) {
    per_device.push_back(args ? args(d) : std::vector<Literal>{});
  }
  auto results = EvaluateSpmd(*module, per_device, replicas, partitions);
  EXPECT_TRUE(results.ok()) << results.status().message();
  if (!results.ok()) return {};
  return *std::move(results);
}

const char kSum[] = R"(
sum {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
})";

// Each device contributes [id, 10 * id].
std::vector<Literal> IdArgs(int64_t d) {
  std::vector<Literal> v;
  v.push_back(R1<float>({float(d), float(10 * d)}));
  return v;
}

TEST(CollectivesTest, ReplicaAndPartitionIds) {
  const std::string text = R"(
HloModule ids, replica_count=2, num_partitions=3
ENTRY e {
  r = u32[] replica-id()
  p = u32[] partition-id()
  ROOT t = (u32[], u32[]) tuple(r, p)
})";
  auto out = RunSpmd(text, 2, 3);
  ASSERT_EQ(out.size(), 6u);
  for (int64_t d = 0; d < 6; ++d) {
    EXPECT_EQ(out[d].tuple_element(0).GetAsInt64(0), d / 3);
    EXPECT_EQ(out[d].tuple_element(1).GetAsInt64(0), d % 3);
  }
}

TEST(CollectivesTest, AllReduceCrossReplicaGroups) {
  const std::string text = absl::StrCat("HloModule ar, replica_count=4\n", kSum, R"(
ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(x), replica_groups={{0,2},{1,3}}, to_apply=sum
})");
  auto out = RunSpmd(text, 4, 1, IdArgs);
  ASSERT_EQ(out.size(), 4u);
  ExpectNear(out[0], {2, 20}, 0);
  ExpectNear(out[2], {2, 20}, 0);
  ExpectNear(out[1], {4, 40}, 0);
  ExpectNear(out[3], {4, 40}, 0);
}

TEST(CollectivesTest, AllReduceModes) {
  // 2 replicas x 2 partitions; device d contributes [d, 10d].
  const auto module = [](const std::string& attributes) {
    return absl::StrCat("HloModule ar, replica_count=2, num_partitions=2\n", kSum, R"(
ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(x), )", attributes, R"(, to_apply=sum
})");
  };
  // No channel: across replicas of each partition (0+2, 1+3).
  auto cross_replica = RunSpmd(module("replica_groups={}"), 2, 2, IdArgs);
  ASSERT_EQ(cross_replica.size(), 4u);
  ExpectNear(cross_replica[0], {2, 20}, 0);
  ExpectNear(cross_replica[1], {4, 40}, 0);
  // Channel without global ids: replicas {0,1} of every partition: all four.
  auto both = RunSpmd(module("channel_id=1, replica_groups={{0,1}}"), 2, 2, IdArgs);
  ASSERT_EQ(both.size(), 4u);
  for (const Literal& l : both) ExpectNear(l, {6, 60}, 0);
  // Global device ids: the groups name devices.
  auto flat = RunSpmd(module("channel_id=1, replica_groups={{0,3},{1,2}}, use_global_device_ids=true"),
                      2, 2, IdArgs);
  ASSERT_EQ(flat.size(), 4u);
  ExpectNear(flat[0], {3, 30}, 0);
  ExpectNear(flat[3], {3, 30}, 0);
  ExpectNear(flat[1], {3, 30}, 0);
}

TEST(CollectivesTest, AllGatherReduceScatterAllToAll) {
  const std::string gather = R"(
HloModule g, replica_count=3
ENTRY e {
  x = f32[2] parameter(0)
  ROOT g = f32[6] all-gather(x), dimensions={0}, replica_groups={}
})";
  auto g = RunSpmd(gather, 3, 1, IdArgs);
  ASSERT_EQ(g.size(), 3u);
  for (const Literal& l : g) ExpectNear(l, {0, 0, 1, 10, 2, 20}, 0);

  const std::string scatter = absl::StrCat("HloModule rs, replica_count=2\n", kSum, R"(
ENTRY e {
  x = f32[4] parameter(0)
  ROOT r = f32[2] reduce-scatter(x), dimensions={0}, replica_groups={{0,1}}, to_apply=sum
})");
  auto rs = RunSpmd(scatter, 2, 1, [](int64_t d) {
    std::vector<Literal> v;
    v.push_back(R1<float>({float(d), 1, 2, float(3 + d)}));
    return v;
  });
  ASSERT_EQ(rs.size(), 2u);
  ExpectNear(rs[0], {1, 2}, 0);
  ExpectNear(rs[1], {4, 7}, 0);

  const std::string all_to_all = R"(
HloModule a2a, replica_count=2
ENTRY e {
  x = s32[4] parameter(0)
  ROOT r = s32[4] all-to-all(x), dimensions={0}, replica_groups={{0,1}}
})";
  auto a = RunSpmd(all_to_all, 2, 1, [](int64_t d) {
    std::vector<Literal> v;
    v.push_back(R1<int32_t>({int32_t(10 * d), int32_t(10 * d + 1), int32_t(10 * d + 2),
                             int32_t(10 * d + 3)}));
    return v;
  });
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(ToInts(a[0]), (std::vector<int64_t>{0, 1, 10, 11}));
  EXPECT_EQ(ToInts(a[1]), (std::vector<int64_t>{2, 3, 12, 13}));
}

TEST(CollectivesTest, TupleAllToAllAcrossPartitions) {
  const std::string text = R"(
HloModule a2a, num_partitions=2
ENTRY e {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT r = (s32[], s32[]) all-to-all(x, y), channel_id=3, replica_groups={{0,1}}
})";
  auto out = RunSpmd(text, 1, 2, [](int64_t d) {
    std::vector<Literal> v;
    v.push_back(R0<int32_t>(int32_t(100 * d)));
    v.push_back(R0<int32_t>(int32_t(100 * d + 1)));
    return v;
  });
  ASSERT_EQ(out.size(), 2u);
  // Device j receives operand j of every device.
  EXPECT_EQ(out[0].tuple_element(0).GetAsInt64(0), 0);
  EXPECT_EQ(out[0].tuple_element(1).GetAsInt64(0), 100);
  EXPECT_EQ(out[1].tuple_element(0).GetAsInt64(0), 1);
  EXPECT_EQ(out[1].tuple_element(1).GetAsInt64(0), 101);
}

TEST(CollectivesTest, CollectivePermuteAndBroadcast) {
  const std::string permute = R"(
HloModule cp, num_partitions=4
ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] collective-permute(x), channel_id=1, source_target_pairs={{0,1},{1,2},{2,3}}
})";
  auto out = RunSpmd(permute, 1, 4, IdArgs);
  ASSERT_EQ(out.size(), 4u);
  ExpectNear(out[0], {0, 0}, 0);  // nobody sends to 0
  ExpectNear(out[1], {0, 0}, 0);
  ExpectNear(out[2], {1, 10}, 0);
  ExpectNear(out[3], {2, 20}, 0);

  const std::string broadcast = R"(
HloModule cb, replica_count=4
ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] collective-broadcast(x), replica_groups={{2,3},{1,0}}
})";
  auto b = RunSpmd(broadcast, 4, 1, IdArgs);
  ASSERT_EQ(b.size(), 4u);
  ExpectNear(b[0], {1, 10}, 0);
  ExpectNear(b[1], {1, 10}, 0);
  ExpectNear(b[2], {2, 20}, 0);
  ExpectNear(b[3], {2, 20}, 0);
}

TEST(CollectivesTest, AsyncFormsAndLoops) {
  const std::string text = absl::StrCat("HloModule async, replica_count=2\n", kSum, R"(
cond {
  s = (s32[], f32[2]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[2]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[2] get-tuple-element(s), index=1
  start = f32[2] all-reduce-start(x), replica_groups={}, to_apply=sum
  done = f32[2] all-reduce-done(start)
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT t = (s32[], f32[2]) tuple(j, done)
}
ENTRY e {
  x = f32[2] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[2]) tuple(zero, x)
  w = (s32[], f32[2]) while(init), condition=cond, body=body
  y = f32[2] get-tuple-element(w), index=1
  gs = (f32[2], f32[4]) all-gather-start(y), dimensions={0}, replica_groups={}
  g = f32[4] all-gather-done(gs)
  ps = (f32[4], f32[4], u32[], u32[]) collective-permute-start(g), source_target_pairs={{0,1},{1,0}}
  ROOT p = f32[4] collective-permute-done(ps)
})");
  auto out = RunSpmd(text, 2, 1, IdArgs);
  ASSERT_EQ(out.size(), 2u);
  // Three all-reduces of [0,0] + [1,10]: [1,10] -> [2,20] -> [4,40].
  ExpectNear(out[0], {4, 40, 4, 40}, 0);
  ExpectNear(out[1], {4, 40, 4, 40}, 0);
}

TEST(CollectivesTest, ADeviceThatNeverJoinsIsAnErrorNotAHang) {
  const std::string text = absl::StrCat("HloModule bad, replica_count=2\n", kSum, R"(
reduce_branch {
  x = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(x), replica_groups={}, to_apply=sum
}
skip_branch {
  ROOT x = f32[2] parameter(0)
}
ENTRY e {
  x = f32[2] parameter(0)
  id = u32[] replica-id()
  zero = u32[] constant(0)
  first = pred[] compare(id, zero), direction=EQ
  ROOT r = f32[2] conditional(first, x, x), true_computation=reduce_branch, false_computation=skip_branch
})");
  auto module = Parse(text);
  ASSERT_NE(module, nullptr);
  std::vector<std::vector<Literal>> args;
  args.push_back(IdArgs(0));
  auto result = EvaluateSpmd(*module, args, 2, 1);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("finished without joining"), std::string::npos)
      << result.status().message();
}

TEST(CollectivesTest, SingleDeviceEvaluatorRefusesMultiDeviceGroups) {
  const std::string text = absl::StrCat("HloModule ar, replica_count=2\n", kSum, R"(
ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(x), replica_groups={}, to_apply=sum
})");
  auto result = RunHlo(text, IdArgs(1));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("EvaluateSpmd"), std::string::npos)
      << result.status().message();
  // One replica: the collective is the identity.
  const std::string single = absl::StrCat("HloModule ar\n", kSum, R"(
ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(x), replica_groups={}, to_apply=sum
})");
  ExpectNear(RunOk(single, IdArgs(1)), {1, 10}, 0);
}

}  // namespace
}  // namespace systolic::eval_test
