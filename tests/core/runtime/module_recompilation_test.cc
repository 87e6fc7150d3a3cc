#include "core/runtime/module_recompilation.h"

#include "core/hlo/hlo_parser.h"
#include "core/runtime/module_signature.h"
#include "core/runtime/stable_hash.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::runtime {
namespace {

using ::testing::HasSubstr;

CompileOptions Options(int64_t replicas = 1, std::string chip = "host") {
  CompileOptions options;
  options.chip = std::move(chip);
  options.topology = "host:1x1x1";
  options.num_replicas = replicas;
  options.num_partitions = 1;
  for (int64_t i = 0; i < replicas; ++i) options.device_assignment.push_back(i);
  return options;
}

ModuleSignature Sign(const std::string& text, const CompileOptions& options = Options()) {
  auto module = ParseAndReturnUnverifiedModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return ModuleSignature::Of(**module, options);
}

std::string Mlp(const std::string& batch, const std::string& constant = "0.5",
                const std::string& extra = "") {
  return "HloModule mlp\nENTRY e {\n"
         "  x = f32[" + batch + ",128] parameter(0)\n"
         "  w = f32[128,64] parameter(1)\n"
         "  d = f32[" + batch + ",64] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
         "  c = f32[] constant(" + constant + ")\n"
         "  b = f32[" + batch + ",64] broadcast(c), dimensions={}\n" + extra +
         "  ROOT m = f32[" + batch + ",64] multiply(d, b)\n}\n";
}

TEST(StableFingerprintTest, IsStableAndDistinguishes) {
  EXPECT_EQ(StableFingerprint("abc"), StableFingerprint("abc"));
  EXPECT_NE(StableFingerprint("abc"), StableFingerprint("abd"));
  EXPECT_EQ(StableFingerprint("").size(), 32u);
  // FNV-1a 128 of the empty string is the offset basis.
  EXPECT_EQ(StableFingerprint(""), "6c62272e07bb014262b821756295c58d");
}

TEST(ModuleSignatureTest, NamesAndMetadataDoNotChangeTheFingerprint) {
  ModuleSignature a = Sign(R"(
HloModule first
ENTRY e {
  p = f32[4] parameter(0)
  ROOT r = f32[4] add(p, p), metadata={op_name="jit(f)/add" source_file="a.py" source_line=3}
})");
  ModuleSignature b = Sign(R"(
HloModule second
ENTRY main.7 {
  arg0 = f32[4] parameter(0)
  ROOT sum.2 = f32[4] add(arg0, arg0)
})");
  EXPECT_EQ(a.fingerprint, b.fingerprint);
  EXPECT_EQ(a.module_name, "first");
  EXPECT_EQ(a.instructions.size(), 2u);
  EXPECT_EQ(a.instructions[1].canonical, b.instructions[1].canonical);
  EXPECT_THAT(a.instructions[1].display, HasSubstr("%r"));
  EXPECT_THAT(a.instructions[1].display, ::testing::Not(HasSubstr("jit(f)")));
}

TEST(ModuleSignatureTest, OptionsChangeTheFingerprint) {
  std::string text = Mlp("8");
  EXPECT_NE(Sign(text, Options(1)).fingerprint, Sign(text, Options(2)).fingerprint);
  EXPECT_NE(Sign(text, Options(1, "v4")).fingerprint, Sign(text, Options(1, "v5e")).fingerprint);
  EXPECT_EQ(Sign(text).fingerprint, Sign(text).fingerprint);
}

TEST(ModuleSignatureTest, CalledComputationsAreCanonicalToo) {
  auto reduce = [](const std::string& name) {
    return "HloModule r\n" + name + " {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
           "  ROOT s = f32[] add(a, b)\n}\nENTRY e {\n  p = f32[8] parameter(0)\n"
           "  z = f32[] constant(0)\n  ROOT r = f32[] reduce(p, z), dimensions={0}, to_apply=" +
           name + "\n}\n";
  };
  EXPECT_EQ(Sign(reduce("add")).fingerprint, Sign(reduce("sum_f32")).fingerprint);
}

TEST(RecompilationCauseTest, NeverSeen) {
  ModuleSignature now = Sign(Mlp("8"));
  trace::RecompilationCause cause = ExplainRecompilation(now, nullptr);
  EXPECT_EQ(cause.kind, trace::RecompilationKind::kFirstCompile);
  EXPECT_EQ(cause.text, "never seen: first compile of 'mlp'");
}

TEST(RecompilationCauseTest, ArgumentShapeChanged) {
  ModuleSignature before = Sign(Mlp("8"));
  ModuleSignature now = Sign(Mlp("16"));
  trace::RecompilationCause cause = ExplainRecompilation(now, &before);
  EXPECT_EQ(cause.kind, trace::RecompilationKind::kArgumentShape);
  EXPECT_EQ(cause.text, "argument 0 (x): now f32[16,128], before f32[8,128]");
  EXPECT_EQ(cause.argument, 0);
  EXPECT_EQ(cause.instruction, -1);
  EXPECT_EQ(cause.before, "f32[8,128]");
  EXPECT_EQ(cause.now, "f32[16,128]");
}

TEST(RecompilationCauseTest, ArgumentTypeChanged) {
  const char* kText = "HloModule t\nENTRY e {\n  p = %s[4] parameter(0)\n  q = f32[4] parameter(1)\n"
                      "  ROOT r = f32[4] add(q, q)\n}\n";
  char a[256], b[256];
  std::snprintf(a, sizeof a, kText, "f32");
  std::snprintf(b, sizeof b, kText, "bf16");
  ModuleSignature before = Sign(a);
  ModuleSignature now = Sign(b);
  trace::RecompilationCause cause = ExplainRecompilation(now, &before);
  EXPECT_EQ(cause.kind, trace::RecompilationKind::kArgumentShape);
  EXPECT_EQ(cause.text, "argument 0 (p): now bf16[4], before f32[4]");
}

TEST(RecompilationCauseTest, SeveralArgumentsChanged) {
  const char* kText = "HloModule t\nENTRY e {\n  a = f32[%d] parameter(0)\n  b = f32[%d] parameter(1)\n"
                      "  ROOT r = f32[%d] add(a, b)\n}\n";
  char x[256], y[256];
  std::snprintf(x, sizeof x, kText, 4, 4, 4);
  std::snprintf(y, sizeof y, kText, 6, 6, 6);
  ModuleSignature before = Sign(x);
  trace::RecompilationCause cause = ExplainRecompilation(Sign(y), &before);
  EXPECT_EQ(cause.text, "argument 0 (a): now f32[6], before f32[4]; argument 1 (b): now f32[6], before f32[4]");
}

TEST(RecompilationCauseTest, ArgumentCountChanged) {
  ModuleSignature before = Sign("HloModule t\nENTRY e {\n  a = f32[4] parameter(0)\n  ROOT r = f32[4] negate(a)\n}\n");
  ModuleSignature now = Sign("HloModule t\nENTRY e {\n  a = f32[4] parameter(0)\n  b = f32[4] parameter(1)\n  ROOT r = f32[4] add(a, b)\n}\n");
  trace::RecompilationCause cause = ExplainRecompilation(now, &before);
  EXPECT_EQ(cause.kind, trace::RecompilationKind::kArgumentCount);
  EXPECT_EQ(cause.text, "argument count: now 2, before 1");
  EXPECT_EQ(cause.before, "1");
  EXPECT_EQ(cause.now, "2");
}

TEST(RecompilationCauseTest, ChangedConstant) {
  ModuleSignature before = Sign(Mlp("8", "0.5"));
  ModuleSignature now = Sign(Mlp("8", "0.25"));
  trace::RecompilationCause cause = ExplainRecompilation(now, &before);
  EXPECT_EQ(cause.kind, trace::RecompilationKind::kChangedConstant);
  EXPECT_THAT(cause.text, HasSubstr("changed constant: now `%c = f32[] constant(0.25)`"));
  EXPECT_THAT(cause.text, HasSubstr("before `%c = f32[] constant(0.5)`"));
  EXPECT_GE(cause.instruction, 0);
  EXPECT_EQ(cause.before, "%c = f32[] constant(0.5)");
  EXPECT_EQ(cause.now, "%c = f32[] constant(0.25)");
}

TEST(RecompilationCauseTest, InstructionAdded) {
  ModuleSignature before = Sign(Mlp("8"));
  ModuleSignature now = Sign(Mlp("8", "0.5", "  n = f32[8,64] negate(d)\n"));
  trace::RecompilationCause cause = ExplainRecompilation(now, &before);
  EXPECT_EQ(cause.kind, trace::RecompilationKind::kInstructionCount);
  EXPECT_THAT(cause.text, HasSubstr("instruction count: now 7, before 6; first difference in "
                                    "computation %e: now `%n = f32[8,64]"));
}

TEST(RecompilationCauseTest, DifferentInstructionSameCount) {
  ModuleSignature before = Sign("HloModule t\nENTRY e {\n  a = f32[4] parameter(0)\n  ROOT r = f32[4] add(a, a)\n}\n");
  ModuleSignature now = Sign("HloModule t\nENTRY e {\n  a = f32[4] parameter(0)\n  ROOT r = f32[4] multiply(a, a)\n}\n");
  trace::RecompilationCause cause = ExplainRecompilation(now, &before);
  EXPECT_EQ(cause.kind, trace::RecompilationKind::kDifferentInstruction);
  EXPECT_EQ(cause.text,
            "1 of 2 instructions differ; first difference in computation %e: now `ROOT %r = f32[4] "
            "multiply(f32[4] %a, f32[4] %a)`, before `ROOT %r = f32[4] add(f32[4] %a, f32[4] %a)`");
  EXPECT_EQ(cause.instruction, 1);
  EXPECT_EQ(cause.before, "ROOT %r = f32[4] add(f32[4] %a, f32[4] %a)");
}

TEST(RecompilationCauseTest, DifferentOptions) {
  ModuleSignature before = Sign(Mlp("8"), Options(1));
  ModuleSignature now = Sign(Mlp("8"), Options(2));
  trace::RecompilationCause cause = ExplainRecompilation(now, &before);
  EXPECT_EQ(cause.kind, trace::RecompilationKind::kCompileOptions);
  EXPECT_EQ(cause.text,
            "compile options differ: replicas now 2, before 1; device assignment now 0,1, before 0");
  ModuleSignature v5e = Sign(Mlp("8"), Options(1, "v5e"));
  EXPECT_EQ(ExplainRecompilation(v5e, &before).text, "compile options differ: chip now v5e, before host");
}

TEST(RecompilationCauseTest, DifferentArgumentSharding) {
  const char* kText = "HloModule s\nENTRY e {\n  a = f32[8,4] parameter(0), sharding=%s\n"
                      "  ROOT r = f32[8,4] negate(a)\n}\n";
  char x[256], y[256];
  std::snprintf(x, sizeof x, kText, "{replicated}");
  std::snprintf(y, sizeof y, kText, "{devices=[2,1]0,1}");
  ModuleSignature before = Sign(x);
  trace::RecompilationCause cause = ExplainRecompilation(Sign(y), &before);
  EXPECT_EQ(cause.kind, trace::RecompilationKind::kArgumentSharding);
  EXPECT_EQ(cause.text, "argument 0 (a) sharding: now {devices=[2,1]0,1}, before {replicated}");
  EXPECT_EQ(cause.argument, 0);
  EXPECT_EQ(cause.now, "{devices=[2,1]0,1}");
}

TEST(RecompilationCauseTest, DifferentInstructionSharding) {
  const char* kText = "HloModule s\nENTRY e {\n  a = f32[8,4] parameter(0)\n"
                      "  ROOT r = f32[8,4] negate(a), sharding=%s\n}\n";
  char x[256], y[256];
  std::snprintf(x, sizeof x, kText, "{replicated}");
  std::snprintf(y, sizeof y, kText, "{devices=[1,2]0,1}");
  ModuleSignature before = Sign(x);
  trace::RecompilationCause cause = ExplainRecompilation(Sign(y), &before);
  EXPECT_EQ(cause.kind, trace::RecompilationKind::kDifferentSharding);
  EXPECT_THAT(cause.text, HasSubstr("sharding in computation %e: now {devices=[1,2]0,1}, before {replicated}"));
  EXPECT_EQ(cause.argument, -1);
  EXPECT_GE(cause.instruction, 0);
  EXPECT_EQ(cause.before, "{replicated}");
}

TEST(RecompilationCauseTest, DifferentAliasing) {
  ModuleSignature before = Sign("HloModule t\nENTRY e {\n  a = f32[4] parameter(0)\n  ROOT r = f32[4] negate(a)\n}\n");
  ModuleSignature now = Sign("HloModule t, input_output_alias={ {}: (0, {}, may-alias) }\nENTRY e {\n  a = f32[4] parameter(0)\n  ROOT r = f32[4] negate(a)\n}\n");
  trace::RecompilationCause cause = ExplainRecompilation(now, &before);
  EXPECT_EQ(cause.kind, trace::RecompilationKind::kModuleConfiguration);
  EXPECT_THAT(cause.text, HasSubstr("input_output_alias"));
}

TEST(RecompilationCauseTest, DistancePrefersTheCloserProgram) {
  ModuleSignature now = Sign(Mlp("16"));
  ModuleSignature same_ops = Sign(Mlp("8"));
  ModuleSignature other_ops = Sign(Mlp("8", "0.5", "  n = f32[8,64] negate(d)\n"));
  EXPECT_LT(SignatureDistance(now, same_ops), SignatureDistance(now, other_ops));
  EXPECT_EQ(SignatureDistance(now, now), 0);
  EXPECT_GT(SignatureDistance(Sign(Mlp("8"), Options(2)), same_ops),
            SignatureDistance(now, same_ops));
}

TEST(RecompilationCauseTest, NamesAreStable) {
  EXPECT_EQ(trace::RecompilationKindName(trace::RecompilationKind::kNone), "cache hit");
  EXPECT_EQ(trace::RecompilationKindName(trace::RecompilationKind::kArgumentShape), "argument shape");
  EXPECT_EQ(trace::RecompilationKindName(trace::RecompilationKind::kChangedConstant), "changed constant");
}

}  // namespace
}  // namespace systolic::runtime
