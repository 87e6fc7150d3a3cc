// The runtime's dispatch overhead: executing a tiny program through the C
// ABI (device-resident arguments; execute, read the output back, wait)
// against calling the reference evaluator directly on the same values.
#include <cstring>
#include <vector>

#include "benchmark/benchmark.h"
#include "core/eval/hlo_evaluator.h"
#include "core/hlo/hlo_parser.h"
#include "core/runtime/client.h"
#include "tests/bench/bench_support.h"

namespace systolic {
namespace {

constexpr char kTiny[] = R"(
HloModule tiny
ENTRY e {
  a = f32[64] parameter(0)
  x = f32[64] parameter(1)
  ax = f32[64] multiply(a, x)
  ROOT y = f32[64] add(ax, x)
})";

Literal Values(float start) {
  std::vector<float> v(64);
  for (int i = 0; i < 64; ++i) v[i] = start + float(i);
  return Literal::CreateR1<float>(v);
}

void BM_EvaluatorDirect(benchmark::State& state) {
  auto module = ParseAndReturnUnverifiedModule(kTiny);
  Literal a = Values(1), x = Values(2);
  HloEvaluator evaluator;
  std::vector<const Literal*> arguments = {&a, &x};
  for (auto _ : state) {
    auto y = evaluator.Evaluate(**module, absl::MakeConstSpan(arguments));
    benchmark::DoNotOptimize(y);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EvaluatorDirect)->UseRealTime();

// The C ABI as a C program uses it: no C++ wrapper in the loop.
void BM_RuntimeCApiExecute(benchmark::State& state) {
  runtime::ClientOptions options;
  options.device = "cpu";
  auto client = runtime::Client::Create(options);
  if (!client.ok()) {
    state.SkipWithError(std::string(client.status().message()).c_str());
    return;
  }
  auto executable = (*client)->CompileText(kTiny, "hlo");
  auto a = (*client)->BufferFromHostLiteral(Values(1), (*client)->devices()[0]);
  auto x = (*client)->BufferFromHostLiteral(Values(2), (*client)->devices()[0]);
  const SYSTOLIC_Api* api = (*client)->plugin().api();
  SYSTOLIC_Buffer* inputs[2] = {(*a)->c_buffer(), (*x)->c_buffer()};
  SYSTOLIC_Buffer* const* argument_lists[1] = {inputs};
  std::vector<float> host(64);
  for (auto _ : state) {
    SYSTOLIC_Buffer* outputs[1] = {nullptr};
    SYSTOLIC_Buffer** output_lists[1] = {outputs};
    SYSTOLIC_LoadedExecutable_Execute_Args execute{};
    execute.struct_size = SYSTOLIC_LoadedExecutable_Execute_Args_STRUCT_SIZE;
    execute.executable = (*executable)->c_executable();
    execute.argument_lists = argument_lists;
    execute.num_devices = 1;
    execute.num_args = 2;
    execute.output_lists = output_lists;
    if (api->LoadedExecutable_Execute(&execute) != nullptr) {
      state.SkipWithError("execute failed");
      break;
    }
    SYSTOLIC_Buffer_ToHostBuffer_Args d2h{SYSTOLIC_Buffer_ToHostBuffer_Args_STRUCT_SIZE, nullptr,
                                          outputs[0], host.data(), host.size() * sizeof(float),
                                          nullptr};
    api->Buffer_ToHostBuffer(&d2h);
    SYSTOLIC_Event_Await_Args await{SYSTOLIC_Event_Await_Args_STRUCT_SIZE, nullptr, d2h.event};
    api->Event_Await(&await);
    SYSTOLIC_Event_Destroy_Args destroy_event{SYSTOLIC_Event_Destroy_Args_STRUCT_SIZE, nullptr,
                                              d2h.event};
    api->Event_Destroy(&destroy_event);
    SYSTOLIC_Buffer_Destroy_Args destroy{SYSTOLIC_Buffer_Destroy_Args_STRUCT_SIZE, nullptr,
                                         outputs[0]};
    api->Buffer_Destroy(&destroy);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RuntimeCApiExecute)->UseRealTime();

// The same through the C++ API (a Literal out, wrappers around each handle).
void BM_RuntimeCppExecute(benchmark::State& state) {
  runtime::ClientOptions options;
  options.device = "cpu";
  auto client = runtime::Client::Create(options);
  if (!client.ok()) {
    state.SkipWithError(std::string(client.status().message()).c_str());
    return;
  }
  auto executable = (*client)->CompileText(kTiny, "hlo");
  auto a = (*client)->BufferFromHostLiteral(Values(1), (*client)->devices()[0]);
  auto x = (*client)->BufferFromHostLiteral(Values(2), (*client)->devices()[0]);
  for (auto _ : state) {
    auto outputs = (*executable)->Execute({a->get(), x->get()});
    auto y = (*outputs)[0]->ToLiteralSync();
    benchmark::DoNotOptimize(y);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RuntimeCppExecute)->UseRealTime();

}  // namespace
}  // namespace systolic

int main(int argc, char** argv) {
  using systolic::bench::DeclareRatio;
  using systolic::bench::Metric;
  DeclareRatio("execute through the C ABI vs the evaluator directly", "BM_RuntimeCApiExecute/real_time",
               "BM_EvaluatorDirect/real_time", Metric::kRealTime, 1.5);
  DeclareRatio("execute through the C++ API vs the evaluator directly", "BM_RuntimeCppExecute/real_time",
               "BM_EvaluatorDirect/real_time", Metric::kRealTime, 1.5);
  return systolic::bench::RunBenchmarksAndReportRatios(argc, argv);
}
