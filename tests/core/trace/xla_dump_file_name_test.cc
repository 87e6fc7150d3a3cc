// The names of an XLA dump folder's files, read as XLA writes them.
#include "core/trace/xla_dump_file_name.h"

#include <gtest/gtest.h>

namespace systolic::trace {
namespace {

TEST(XlaDumpFileNameTest, BeforeOptimizations) {
  XlaDumpFileName name = ParseXlaDumpFileName("module_0001.jit_f.before_optimizations.txt");
  EXPECT_EQ(name.kind, XlaDumpFileKind::kBeforeOptimizations);
  EXPECT_EQ(name.module_number, 1);
  EXPECT_EQ(name.module_name, "jit_f");
}

TEST(XlaDumpFileNameTest, ModuleNamesWithDotsAndPaths) {
  XlaDumpFileName name =
      ParseXlaDumpFileName("/tmp/dump/module_0042.jit_train_step.1.before_optimizations.txt");
  EXPECT_EQ(name.kind, XlaDumpFileKind::kBeforeOptimizations);
  EXPECT_EQ(name.module_number, 42);
  EXPECT_EQ(name.module_name, "jit_train_step.1");
}

TEST(XlaDumpFileNameTest, AfterOptimizationsPerPlatform) {
  XlaDumpFileName cpu = ParseXlaDumpFileName("module_0003.jit_f.cpu_after_optimizations.txt");
  EXPECT_EQ(cpu.kind, XlaDumpFileKind::kAfterOptimizations);
  EXPECT_EQ(cpu.module_name, "jit_f");
  EXPECT_EQ(cpu.platform, "cpu");

  XlaDumpFileName gpu =
      ParseXlaDumpFileName("module_0003.jit_train_step.1.sm_8.0_gpu_after_optimizations.txt");
  EXPECT_EQ(gpu.kind, XlaDumpFileKind::kAfterOptimizations);
  EXPECT_EQ(gpu.module_name, "jit_train_step.1");
  EXPECT_EQ(gpu.platform, "sm_8.0_gpu");

  XlaDumpFileName tpu = ParseXlaDumpFileName("module_0000.pmap_f.2.tpu_after_optimizations.txt");
  EXPECT_EQ(tpu.module_name, "pmap_f.2");
  EXPECT_EQ(tpu.platform, "tpu");

  XlaDumpFileName bare = ParseXlaDumpFileName("module_0007.m.after_optimizations.txt");
  EXPECT_EQ(bare.kind, XlaDumpFileKind::kAfterOptimizations);
  EXPECT_EQ(bare.module_name, "m");
  EXPECT_EQ(bare.platform, "");
}

TEST(XlaDumpFileNameTest, AfterPass) {
  XlaDumpFileName name = ParseXlaDumpFileName(
      "module_0001.jit_f.0012.simplification.after_algsimp.before_constant_folding.txt");
  EXPECT_EQ(name.kind, XlaDumpFileKind::kAfterPass);
  EXPECT_EQ(name.module_number, 1);
  EXPECT_EQ(name.module_name, "jit_f");
  EXPECT_EQ(name.pass_number, 12);
  EXPECT_EQ(name.pipeline, "simplification");
  EXPECT_EQ(name.pass_name, "algsimp");
  EXPECT_EQ(name.next_pass, "constant_folding");
}

TEST(XlaDumpFileNameTest, AfterPassWithDottedModuleAndPipeline) {
  XlaDumpFileName name = ParseXlaDumpFileName(
      "module_0105.jit_train_step.1.0231.spmd-simplify.1.after_tuple-simplifier.before_"
      "while-loop-constant-sinking.txt");
  EXPECT_EQ(name.kind, XlaDumpFileKind::kAfterPass);
  EXPECT_EQ(name.module_number, 105);
  EXPECT_EQ(name.module_name, "jit_train_step.1");
  EXPECT_EQ(name.pass_number, 231);
  EXPECT_EQ(name.pipeline, "spmd-simplify.1");
  EXPECT_EQ(name.pass_name, "tuple-simplifier");
  EXPECT_EQ(name.next_pass, "while-loop-constant-sinking");
}

TEST(XlaDumpFileNameTest, AfterPassWithoutNextPass) {
  XlaDumpFileName name =
      ParseXlaDumpFileName("module_0002.f.0099.post-layout_assignment.after_copy_insertion.txt");
  EXPECT_EQ(name.kind, XlaDumpFileKind::kAfterPass);
  EXPECT_EQ(name.pipeline, "post-layout_assignment");
  EXPECT_EQ(name.pass_name, "copy_insertion");
  EXPECT_EQ(name.next_pass, "");
}

TEST(XlaDumpFileNameTest, ExecutionSnapshot) {
  XlaDumpFileName name =
      ParseXlaDumpFileName("module_0004.jit_f.execution_0000.hlo_snapshot.pb");
  EXPECT_EQ(name.kind, XlaDumpFileKind::kExecutionSnapshot);
  EXPECT_EQ(name.module_number, 4);
  EXPECT_EQ(name.module_name, "jit_f");
}

TEST(XlaDumpFileNameTest, ArtifactsThatAreNotHloTextAreOther) {
  for (const char* file :
       {"module_0001.jit_f.cpu_after_optimizations-buffer-assignment.txt",
        "module_0001.jit_f.cpu_after_optimizations-memory-usage-report.txt",
        "module_0001.jit_f.cpu_after_optimizations.dot",
        "module_0001.jit_f.cpu_after_optimizations.html",
        "module_0001.jit_f.cpu_after_optimizations.hlo.pb",
        "module_0001.jit_f.before_optimizations.hlo.pb",
        "module_0001.jit_f.0003.fusion.after_priority-fusion.before_dce.dot",
        "module_0001.jit_f.ir-no-opt.ll"}) {
    SCOPED_TRACE(file);
    XlaDumpFileName name = ParseXlaDumpFileName(file);
    EXPECT_EQ(name.kind, XlaDumpFileKind::kOther);
    EXPECT_EQ(name.module_number, 1);  // still grouped with its module
  }
}

TEST(XlaDumpFileNameTest, NamesOfNoModule) {
  for (const char* file : {"execution_options.txt", "module_.txt", "module_12ab.f.txt",
                           "modules_0001.f.before_optimizations.txt", ""}) {
    SCOPED_TRACE(file);
    XlaDumpFileName name = ParseXlaDumpFileName(file);
    EXPECT_EQ(name.kind, XlaDumpFileKind::kOther);
    EXPECT_EQ(name.module_number, -1);
  }
}

TEST(XlaDumpFileNameTest, KindNames) {
  EXPECT_EQ(XlaDumpFileKindName(XlaDumpFileKind::kAfterPass), "after pass");
  EXPECT_EQ(XlaDumpFileKindName(XlaDumpFileKind::kExecutionSnapshot), "execution snapshot");
}

}  // namespace
}  // namespace systolic::trace
