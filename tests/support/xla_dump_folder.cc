#include "tests/support/xla_dump_folder.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/compiler/pass_registry.h"
#include "core/compiler/roofline_cost_model.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/hlo_print_options.h"

namespace systolic::testing {
namespace {

namespace fs = std::filesystem;

// A dense layer with a ReLU, a multiply by one and a dead negate.
constexpr char kMlp[] = R"(HloModule jit_mlp.1

ENTRY main {
  x = f32[4,8] parameter(0)
  w = f32[8,8] parameter(1)
  b = f32[8] parameter(2)
  dot.1 = f32[4,8] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  broadcast.2 = f32[4,8] broadcast(b), dimensions={1}
  add.3 = f32[4,8] add(dot.1, broadcast.2)
  one.4 = f32[] constant(1)
  ones.5 = f32[4,8] broadcast(one.4), dimensions={}
  multiply.6 = f32[4,8] multiply(add.3, ones.5)
  zero.7 = f32[] constant(0)
  zeros.8 = f32[4,8] broadcast(zero.7), dimensions={}
  dead.9 = f32[4,8] negate(x)
  ROOT maximum.10 = f32[4,8] maximum(multiply.6, zeros.8)
}
)";

// A squared error with a subtraction of zero.
constexpr char kLoss[] = R"(HloModule jit_loss

add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT sum = f32[] add(a, b)
}

ENTRY main {
  p = f32[16] parameter(0)
  t = f32[16] parameter(1)
  zero = f32[] constant(0)
  zeros = f32[16] broadcast(zero), dimensions={}
  shifted = f32[16] subtract(p, zeros)
  diff = f32[16] subtract(shifted, t)
  sq = f32[16] multiply(diff, diff)
  ROOT loss = f32[] reduce(sq, zero), dimensions={0}, to_apply=add_f32
}
)";

constexpr char kBroken[] = R"(HloModule jit_broken

ENTRY main {
  a = f32[8] parameter(0)
  b = f32[8] parameter(1)
  c = f32[8] add(a, b)
  d = f32[8] add(c, c)
  ROOT e = f32[8] multiply(d, a)
}
)";

void WriteFile(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::unique_ptr<HloModule> Parse(const char* text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseAndReturnVerifiedModule(text);
  if (!module.ok()) throw std::runtime_error(std::string(module.status().message()));
  return std::move(*module);
}

std::string Text(const HloModule& module) { return ModuleText(module, HloPrintOptions::Full()); }

// Runs `pass` on `module`; true when it changed it.
bool RunPass(const std::string& pass, HloModule* module) {
  static const RooflineCostModel cost_model;
  PassContext context;
  context.cost_model = &cost_model;
  absl::StatusOr<std::unique_ptr<HloPassInterface>> created = CreatePass(pass, context);
  if (!created.ok()) throw std::runtime_error(std::string(created.status().message()));
  absl::StatusOr<bool> changed = (*created)->Run(module);
  if (!changed.ok()) throw std::runtime_error(std::string(changed.status().message()));
  return *changed;
}

}  // namespace

XlaDumpFolderContents WriteXlaDumpFolder(const std::string& folder_name) {
  const fs::path folder(folder_name);
  fs::remove_all(folder);
  fs::create_directories(folder);
  XlaDumpFolderContents contents;

  // module_0000: every pass dumped, XLA's way: pipeline, pass, next pass.
  {
    const std::string prefix = "module_0000." + contents.mlp_module;
    std::unique_ptr<HloModule> module = Parse(kMlp);
    WriteFile(folder / (prefix + ".before_optimizations.txt"), Text(*module));
    contents.mlp_passes.push_back("input");
    struct Step {
      std::string pipeline, pass;
    };
    const std::vector<Step> steps = {{"simplification", "algsimp"},
                                     {"simplification", "cse"},
                                     {"simplification", "dce"},
                                     {"fusion.1", "priority-fusion"},
                                     {"post-fusion_simplify", "tuple-simplifier"},
                                     {"post-fusion_simplify", "dce"}};
    for (size_t i = 0; i < steps.size(); ++i) {
      RunPass(steps[i].pass, module.get());
      const std::string next = i + 1 < steps.size() ? steps[i + 1].pass : "pipeline-end";
      const std::string pass_file = absl::StrFormat("%s.%04d.%s.after_%s.before_%s.txt", prefix,
                                                    i, steps[i].pipeline, steps[i].pass, next);
      WriteFile(folder / pass_file, Text(*module));
      contents.mlp_passes.push_back(steps[i].pipeline + "/" + steps[i].pass);
    }
    WriteFile(folder / (prefix + ".cpu_after_optimizations.txt"), Text(*module));
    contents.mlp_passes.push_back("cpu_after_optimizations");
    // What XLA writes beside the HLO text.
    for (const std::string& artifact :
         {prefix + ".cpu_after_optimizations-buffer-assignment.txt",
          prefix + ".cpu_after_optimizations-memory-usage-report.txt",
          prefix + ".cpu_after_optimizations.dot", prefix + ".cpu_after_optimizations.hlo.pb",
          prefix + ".0002.simplification.after_dce.before_priority-fusion.html"}) {
      WriteFile(folder / artifact, "not HLO text\n");
      contents.skipped_files.push_back(artifact);
    }
    contents.mlp_snapshot_file = prefix + ".execution_0000.hlo_snapshot.pb";
    WriteFile(folder / contents.mlp_snapshot_file, std::string("\x0a\x00", 2));
  }

  // module_0001: its passes were not dumped.
  {
    const std::string prefix = "module_0001." + contents.loss_module;
    std::unique_ptr<HloModule> module = Parse(kLoss);
    WriteFile(folder / (prefix + ".before_optimizations.txt"), Text(*module));
    RunPass("algsimp", module.get());
    RunPass("dce", module.get());
    WriteFile(folder / (prefix + ".sm_8.0_gpu_after_optimizations.txt"), Text(*module));
  }

  // module_0002: one pass file cut off halfway, as by a killed process.
  {
    const std::string prefix = "module_0002." + contents.broken_module;
    std::unique_ptr<HloModule> module = Parse(kBroken);
    WriteFile(folder / (prefix + ".before_optimizations.txt"), Text(*module));
    RunPass("priority-fusion", module.get());
    const std::string fused = Text(*module);
    contents.truncated_file = prefix + ".0000.fusion.after_priority-fusion.before_dce.txt";
    WriteFile(folder / contents.truncated_file, fused.substr(0, fused.size() / 2));
    WriteFile(folder / (prefix + ".tpu_after_optimizations.txt"), fused);
  }

  // An execution snapshot of a module whose HLO text was not dumped.
  const std::string orphan = "module_0003.jit_orphan.execution_0000.hlo_snapshot.pb";
  WriteFile(folder / orphan, std::string("\x0a\x00", 2));
  contents.skipped_files.push_back(orphan);

  // Files of no module.
  WriteFile(folder / "execution_options.txt", "xla_dump_to: \"/tmp/dump\"\n");
  contents.skipped_files.push_back("execution_options.txt");
  return contents;
}

}  // namespace systolic::testing
