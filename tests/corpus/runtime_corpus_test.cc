// Every corpus module that the reference evaluator runs also runs through
// the runtime — compiled and executed by the `cpu` and `systolic` plugins
// over the C ABI, with its arguments moved to the devices and its results
// read back — and gives exactly the evaluator's values.
#include <cstdio>
#include <map>
#include <memory>
#include <vector>

#include "core/eval/hlo_evaluator.h"
#include "core/eval/random_arguments.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_file.h"
#include "core/runtime/client.h"
#include "gtest/gtest.h"
#include "tests/support/test_support.h"

namespace systolic {
namespace {

void FlattenInto(const Literal& literal, std::vector<const Literal*>* out) {
  if (!literal.shape().IsTuple()) {
    out->push_back(&literal);
    return;
  }
  for (int64_t i = 0; i < literal.tuple_size(); ++i) FlattenInto(literal.tuple_element(i), out);
}

absl::StatusOr<std::unique_ptr<runtime::Buffer>> ToDevice(runtime::Client& client,
                                                          const Literal& leaf,
                                                          runtime::Device* device) {
  if (leaf.shape().IsToken()) {
    return client.BufferFromHostBuffer(nullptr, leaf.shape(),
                                       runtime::HostBufferSemantics::kImmutableOnlyDuringCall,
                                       device);
  }
  return client.BufferFromHostLiteral(leaf, device);
}

// Runs `module` on `client`; returns per device the output leaves.
absl::StatusOr<std::vector<std::vector<Literal>>> RunThroughRuntime(
    runtime::Client& client, const HloModule& module,
    const std::vector<std::vector<Literal>>& arguments) {
  auto executable = client.Compile(module);
  if (!executable.ok()) return executable.status();
  const auto& devices = (*executable)->addressable_devices();
  std::vector<std::unique_ptr<runtime::Buffer>> owned;
  std::vector<std::vector<runtime::Buffer*>> lists(devices.size());
  for (size_t d = 0; d < devices.size(); ++d) {
    std::vector<const Literal*> leaves;
    for (const Literal& argument : arguments[d]) FlattenInto(argument, &leaves);
    for (const Literal* leaf : leaves) {
      auto buffer = ToDevice(client, *leaf, devices[d]);
      if (!buffer.ok()) return buffer.status();
      lists[d].push_back(buffer->get());
      owned.push_back(*std::move(buffer));
    }
  }
  // The module's own aliasing may donate arguments; that is fine here.
  auto result = (*executable)->ExecuteOnDevices(lists);
  if (!result.ok()) return result.status();
  std::vector<std::vector<Literal>> out(devices.size());
  for (size_t d = 0; d < devices.size(); ++d) {
    for (const auto& buffer : result->outputs[d]) {
      if (buffer->shape().IsToken()) {
        out[d].push_back(Literal(buffer->shape()));
        continue;
      }
      auto literal = buffer->ToLiteralSync();
      if (!literal.ok()) return literal.status();
      out[d].push_back(*std::move(literal));
    }
  }
  return out;
}

TEST(RuntimeCorpus, EveryEvaluableModuleRunsOnBothPluginsWithEqualOutputs) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "no corpus at ../shared/corpus";
  auto files = testing::FilesUnder(*corpus / "hlo", {".hlo", ".hlotxt"});
  ASSERT_FALSE(files.empty());

  const char* kPlugins[] = {"cpu", "systolic"};
  std::map<std::pair<std::string, int64_t>, std::unique_ptr<runtime::Client>> clients;
  auto client_for = [&](const std::string& plugin,
                        int64_t devices) -> absl::StatusOr<runtime::Client*> {
    auto& slot = clients[{plugin, devices}];
    if (!slot) {
      runtime::ClientOptions options;
      options.device = plugin;
      options.num_devices = devices;
      auto client = runtime::Client::Create(options);
      if (!client.ok()) return client.status();
      slot = *std::move(client);
    }
    return slot.get();
  };

  int modules = 0, evaluable = 0, matched = 0;
  for (const auto& path : files) {
    auto loaded = LoadHloFile(path.string(), /*verify=*/false);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    for (auto& entry : *loaded) {
      if (!entry.module.ok()) continue;
      const HloModule& module = **entry.module;
      ++modules;
      int64_t replicas = std::max<int64_t>(1, module.replica_count());
      int64_t partitions = std::max<int64_t>(1, module.num_partitions());
      int64_t devices = replicas * partitions;
      // Programs written for a pod may not fit on the host: skip them.
      constexpr int64_t kHostBudget = int64_t{1} << 28;
      if (!CheckArgumentsFit(*module.entry_computation(), kHostBudget).ok()) continue;
      EvaluatorOptions options;
      options.max_value_bytes = kHostBudget;
      std::vector<std::vector<Literal>> arguments(devices);
      for (int64_t d = 0; d < devices; ++d) {
        arguments[d] = MakeRandomArguments(*module.entry_computation(), 42, uint64_t(d));
      }
      std::vector<Literal> expected;
      if (devices == 1) {
        HloEvaluator evaluator(options);
        auto result = evaluator.Evaluate(module, arguments[0]);
        if (!result.ok()) continue;  // not something the evaluator runs
        expected.push_back(*std::move(result));
      } else {
        auto result = EvaluateSpmd(module, arguments, replicas, partitions, options);
        if (!result.ok()) continue;
        expected = *std::move(result);
      }
      ++evaluable;
      std::string where = path.string() + ":" + std::to_string(entry.first_line) + " (" +
                          module.name() + ")";
      bool all_equal = true;
      for (const char* plugin : kPlugins) {
        auto client = client_for(plugin, devices);
        ASSERT_TRUE(client.ok()) << client.status();
        auto outputs = RunThroughRuntime(**client, module, arguments);
        if (!outputs.ok()) {
          ADD_FAILURE() << where << " on " << plugin << ": " << outputs.status();
          all_equal = false;
          continue;
        }
        for (int64_t d = 0; d < devices; ++d) {
          std::vector<const Literal*> want;
          FlattenInto(expected[d], &want);
          const auto& got = (*outputs)[d];
          if (got.size() != want.size()) {
            ADD_FAILURE() << where << " on " << plugin << ": " << got.size()
                          << " outputs, the evaluator gave " << want.size();
            all_equal = false;
            continue;
          }
          for (size_t i = 0; i < want.size(); ++i) {
            if (want[i]->shape().IsToken()) continue;
            if (got[i] != *want[i]) {
              ADD_FAILURE() << where << " on " << plugin << ": output " << i << " of device "
                            << d << " differs from the evaluator's";
              all_equal = false;
            }
          }
        }
      }
      matched += all_equal;
    }
  }
  std::printf("runtime corpus: %d modules, %d run on the evaluator, %d equal on cpu and systolic\n",
              modules, evaluable, matched);
  EXPECT_GT(evaluable, 0);
  EXPECT_EQ(matched, evaluable);
}

}  // namespace
}  // namespace systolic
