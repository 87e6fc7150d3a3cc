// Programs whose weights are baked in as large constants, as TensorFlow
// exports them: parsing them, and a timing-only compile + run (what
// `systolic run FILE --timing-only` does after parsing), each against the
// same program with every large constant replaced by a broadcast of one
// scalar. The constants' values should cost what reading their text costs
// and nothing in the compiler (its pass snapshots print them as `{...}`).
//
// Two programs: a generated one of about 500 instructions with five
// f32[1000,1000] weight matrices, and the corpus's MobileNetV2 training step
// with its weights (every float parameter but the input batch) turned into
// constants; the latter is skipped without the corpus.
#include <charconv>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/program_timing.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_parser.h"
#include "tests/bench/bench_support.h"

namespace systolic {
namespace {

// `count` floats in [-1, 1) as shortest text, comma separated, in braces
// grouped by rows of `row`.
void AppendRandomValues(std::mt19937& rng, int64_t rows, int64_t row, std::string* out) {
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  char buffer[32];
  out->push_back('{');
  for (int64_t r = 0; r < rows; ++r) {
    out->append(r ? ", {" : "{");
    for (int64_t i = 0; i < row; ++i) {
      if (i) out->append(", ");
      out->append(buffer, std::to_chars(buffer, buffer + sizeof(buffer), value(rng)).ptr);
    }
    out->push_back('}');
  }
  out->push_back('}');
}

// About 500 instructions: dense layers cycling over five f32[1000,1000]
// weights and their f32[1000] biases, each scaled by a scalar and squashed.
std::string GeneratedModuleText() {
  constexpr int kWeights = 5;
  constexpr int64_t kDim = 1000;
  std::mt19937 rng(25);
  std::string text =
      "HloModule large_constants, entry_computation_layout={(f32[8,1000]{1,0})->f32[8,1000]{1,0}}\n"
      "\nENTRY %main (x: f32[8,1000]) -> f32[8,1000] {\n  %x = f32[8,1000]{1,0} parameter(0)\n";
  for (int k = 0; k < kWeights; ++k) {
    absl::StrAppend(&text, "  %w", k, " = f32[1000,1000]{1,0} constant(");
    AppendRandomValues(rng, kDim, kDim, &text);
    absl::StrAppend(&text, ")\n  %b", k, " = f32[1000]{0} constant(");
    std::string bias;
    AppendRandomValues(rng, 1, kDim, &bias);
    text.append(bias, 1, bias.size() - 2);  // one row: drop the outer braces
    text.append(")\n");
  }
  std::string previous = "x";
  const int kLayers = 70;  // 7 instructions each
  for (int i = 0; i < kLayers; ++i) {
    const int k = i % kWeights;
    const std::string f = "f32[8,1000]{1,0}";
    absl::StrAppend(&text, "  %d", i, " = ", f, " dot(", f, " %", previous, ", f32[1000,1000]{1,0} %w",
                    k, "), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n");
    absl::StrAppend(&text, "  %bb", i, " = ", f, " broadcast(f32[1000]{0} %b", k,
                    "), dimensions={1}\n");
    absl::StrAppend(&text, "  %a", i, " = ", f, " add(", f, " %d", i, ", ", f, " %bb", i, ")\n");
    absl::StrAppend(&text, "  %s", i, " = f32[] constant(", 0.5 + 0.01 * i, ")\n");
    absl::StrAppend(&text, "  %sb", i, " = ", f, " broadcast(f32[] %s", i, "), dimensions={}\n");
    absl::StrAppend(&text, "  %m", i, " = ", f, " multiply(", f, " %a", i, ", ", f, " %sb", i, ")\n");
    absl::StrAppend(&text, i + 1 == kLayers ? "  ROOT %t" : "  %t", i, " = ", f, " tanh(", f, " %m",
                    i, ")\n");
    previous = absl::StrCat("t", i);
  }
  text.append("}\n");
  return text;
}

std::unique_ptr<HloModule> ParseOrNull(const std::string& text) {
  if (text.empty()) return nullptr;
  auto module = ParseAndReturnUnverifiedModule(text);
  return module.ok() ? *std::move(module) : nullptr;
}

// The corpus's MobileNetV2 with its weights baked in: every float parameter
// of the entry of 10 to 4M elements (all but the input batch) is replaced,
// in its uses, by a constant of random values. The parameters stay, unused,
// so the entry's signature does not change.
std::string BakedMobileNetText() {
  auto path = bench::LargestCorpusModulePath();
  if (!path) return "";
  auto text = ReadTextFile(*path);
  if (!text.ok()) return "";
  std::unique_ptr<HloModule> module = ParseOrNull(*text);
  if (!module) return "";
  HloComputation* entry = module->entry_computation();
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  for (HloInstruction* parameter : entry->parameter_instructions()) {
    const Shape& shape = parameter->shape();
    if (!shape.IsArray() || shape.element_type() != F32 || shape.num_elements() <= 10 ||
        shape.num_elements() > (int64_t{1} << 22)) {
      continue;
    }
    Literal weights(Shape(F32, shape.dimensions()));
    for (float& v : weights.data<float>()) v = value(rng);
    HloInstruction* constant = entry->AddInstruction(HloInstruction::CreateConstant(std::move(weights)));
    *constant->mutable_shape() = shape;  // with the parameter's layout
    parameter->ReplaceAllUsesWith(constant);
  }
  return module->ToString();
}

// `text` with every array constant of more than one element replaced by a
// broadcast of its first element: the same program, without the values.
std::string AsBroadcasts(const std::string& text) {
  std::unique_ptr<HloModule> module = ParseOrNull(text);
  if (!module) return "";
  for (HloComputation* computation : module->MakeComputationPostOrder()) {
    std::vector<HloInstruction*> constants;
    for (HloInstruction* instr : computation->instructions()) {
      if (instr->opcode() == HloOpcode::kConstant && instr->shape().IsArray() &&
          instr->shape().num_elements() > 1) {
        constants.push_back(instr);
      }
    }
    for (HloInstruction* constant : constants) {
      const Literal& values = constant->literal();
      Literal first(Shape(values.element_type(), {}));
      std::memcpy(first.untyped_data(), values.untyped_data(), size_t(first.size_bytes()));
      HloInstruction* scalar =
          computation->AddInstruction(HloInstruction::CreateConstant(std::move(first)));
      auto broadcast = HloInstruction::CreateBroadcast(constant->shape(), scalar, {});
      if (!computation->ReplaceWithNewInstruction(constant, std::move(broadcast)).ok()) return "";
    }
  }
  return module->ToString();
}

struct Program {
  std::string text;
  std::string as_broadcasts;
};

// Built once, never freed (benchmarks run until exit).
const Program* MakeProgram(std::string text) {
  auto* program = new Program{std::move(text), ""};
  program->as_broadcasts = AsBroadcasts(program->text);
  return program;
}

const Program& Generated() {
  static const Program* program = MakeProgram(GeneratedModuleText());
  return *program;
}

const Program& MobileNet() {
  static const Program* program = MakeProgram(BakedMobileNetText());
  return *program;
}

// Parse and verify, as `systolic parse` and `systolic run` start.
void Parse(benchmark::State& state, const std::string* text) {
  bench::ParseAndVerifyText(state, *text);
}

// Compile for a v4 chip (every pass snapshotted) and time the program on
// it: `systolic run --timing-only` after parsing.
void TimingOnlyRun(benchmark::State& state, const std::string* text) {
  std::unique_ptr<HloModule> module = ParseOrNull(*text);
  if (!module) {
    state.SkipWithError("module not available (corpus missing?)");
    return;
  }
  const auto spec = device::LoadChipSpec("v4");
  if (!spec.ok()) {
    state.SkipWithError(std::string(spec.status().message()).c_str());
    return;
  }
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<HloModule> copy = module->Clone();
    state.ResumeTiming();
    auto timed = device::CompileAndTime(std::move(copy), *spec);
    if (!timed.ok()) {
      state.SkipWithError(std::string(timed.status().message()).c_str());
      return;
    }
    state.PauseTiming();  // freeing the result is not compiling
    timed = absl::InternalError("freed");
    state.ResumeTiming();
  }
}

// Parse/NAME and TimingOnlyRun/NAME of both programs and their baselines
// (NAME_as_broadcasts); a program is built when its benchmark first runs.
void RegisterBenchmarks() {
  using Getter = const Program& (*)();
  const std::pair<const char*, Getter> programs[] = {{"generated", Generated},
                                                     {"mobilenet_v2", MobileNet}};
  for (const auto& [name, program] : programs) {
    for (bool baseline : {false, true}) {
      const std::string suffix = absl::StrCat(name, baseline ? "_as_broadcasts" : "");
      auto text = [program = program, baseline] {
        return baseline ? &program().as_broadcasts : &program().text;
      };
      benchmark::RegisterBenchmark(("Parse/" + suffix).c_str(),
                                   [text](benchmark::State& state) { Parse(state, text()); })
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(
          ("TimingOnlyRun/" + suffix).c_str(),
          [text](benchmark::State& state) { TimingOnlyRun(state, text()); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
}

}  // namespace
}  // namespace systolic

int main(int argc, char** argv) {
  systolic::RegisterBenchmarks();
  using systolic::bench::DeclareRatio;
  using systolic::bench::Metric;
  // Parsing: bytes per second of constant text against the same program's
  // instruction text. Numbers are the simplest text HLO has.
  DeclareRatio("parse+verify MB/s, generated large constants vs as broadcasts", "Parse/generated",
               "Parse/generated_as_broadcasts", Metric::kBytesPerSecond, 1.0);
  DeclareRatio("parse+verify MB/s, mobilenet_v2 with baked weights vs as broadcasts",
               "Parse/mobilenet_v2", "Parse/mobilenet_v2_as_broadcasts", Metric::kBytesPerSecond,
               1.0);
  // Compile + time: the values must not matter (no pass prints them).
  DeclareRatio("timing-only compile+run, generated large constants vs as broadcasts",
               "TimingOnlyRun/generated/real_time", "TimingOnlyRun/generated_as_broadcasts/real_time",
               Metric::kRealTime, 1.5);
  DeclareRatio("timing-only compile+run, mobilenet_v2 with baked weights vs as broadcasts",
               "TimingOnlyRun/mobilenet_v2/real_time",
               "TimingOnlyRun/mobilenet_v2_as_broadcasts/real_time", Metric::kRealTime, 1.5);
  return systolic::bench::RunBenchmarksAndReportRatios(argc, argv);
}
