// The layered graph of a computation: scopes, fusions and blocks as
// collapsible groups, and the nodes, edges and clusters drawn for a set of
// expanded groups.
#include "core/analysis/hlo_graph.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::analysis {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

const HloInstruction* Find(const HloModule& module, absl::string_view name) {
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* i : c->instructions()) {
      if (i->name() == name) return i;
    }
  }
  return nullptr;
}

std::unique_ptr<HloModule> LoadSample(const std::string& name) {
  auto loaded = LoadHloFile(std::string(SYSTOLIC_SOURCE_DIR) + "/samples/hlo/" + name, false);
  EXPECT_TRUE(loaded.ok()) << loaded.status();
  return std::move(*loaded->front().module);
}

absl::flat_hash_set<std::string> AllKeys(const HloGraph& graph) {
  absl::flat_hash_set<std::string> keys;
  for (const GraphGroup& g : graph.groups()) keys.insert(g.key);
  return keys;
}

const GraphEdge* FindEdge(const VisibleGraph& v, const HloInstruction* from,
                          const HloInstruction* to) {
  const int32_t a = v.Locate(from).node, b = v.Locate(to).node;
  for (const GraphEdge& e : v.edges) {
    if (e.from == a && e.to == b) return &e;
  }
  return nullptr;
}

// A JAX step's forward and backward ops of one layer share its scope; the
// transformations around it and JAX's inner jit(main) are no layers.
TEST(OpNameScopes, JaxTransformationsFoldIntoTheScopesTheyWrap) {
  const std::vector<std::string> forward = OpNameScopes(
      "jit(train_step)/jit(main)/jvp(Model)/Model/decoder/while/body/remat(core_fn)/mlp/dot_general");
  const std::vector<std::string> backward = OpNameScopes(
      "jit(train_step)/jit(main)/transpose(jvp(Model))/Model/decoder/while/body/remat(core_fn)/mlp/"
      "dot_general");
  EXPECT_THAT(forward, ElementsAre("train_step", "train_step/Model", "train_step/Model/decoder",
                                   "train_step/Model/decoder/while",
                                   "train_step/Model/decoder/while/body",
                                   "train_step/Model/decoder/while/body/core_fn",
                                   "train_step/Model/decoder/while/body/core_fn/mlp"));
  EXPECT_EQ(backward, forward);
  EXPECT_THAT(OpNameScopes("jit(f)/remat/mlp/add"), ElementsAre("f", "f/mlp"));
  EXPECT_THAT(OpNameScopes("vmap(jvp(f))/g/add"), ElementsAre("f", "f/g"));
  // Parentheses that are not a transformation stay as written.
  EXPECT_THAT(OpNameScopes("layer(3)/add"), ElementsAre("layer(3)"));
}

TEST(OpNameScopes, PrefixesWithoutTheOpItself) {
  EXPECT_THAT(OpNameScopes("a/b/c"), ElementsAre("a", "a/b"));
  EXPECT_THAT(OpNameScopes("jit(f)/dot_general"), ElementsAre("f"));
  EXPECT_THAT(OpNameScopes("aten__sum"), IsEmpty());
  EXPECT_THAT(OpNameScopes(""), IsEmpty());
  EXPECT_THAT(OpNameScopes("/a//b/"), ElementsAre("a"));
}

TEST(ShortShapeString, NoLayoutAndCutWhenLong) {
  EXPECT_EQ(ShortShapeString(Shape(F32, {32, 128})), "f32[32,128]");
  Shape tuple;
  tuple.set_element_type(TUPLE);
  for (int i = 0; i < 10; ++i) tuple.mutable_tuple_shapes()->push_back(Shape(F32, {1024, 1024}));
  const std::string cut = ShortShapeString(tuple, 20);
  EXPECT_EQ(cut.substr(0, 19), tuple.ToString(false).substr(0, 19));
  EXPECT_EQ(cut.substr(19), "…");
}

TEST(HloGraph, ScopesFromOpNamesAreLayers) {
  auto module = LoadSample("mlp_layer.hlo");
  const HloGraph graph = HloGraph::Build(*module->entry_computation());
  ASSERT_GE(graph.FindGroup("scope:mlp/dense"), 0);
  ASSERT_GE(graph.FindGroup("scope:loss/softmax"), 0);
  const GraphGroup& dense = graph.group(graph.FindGroup("scope:mlp/dense"));
  EXPECT_EQ(dense.kind, GraphGroupKind::kScope);
  EXPECT_EQ(dense.label, "dense");  // below its enclosing scope
  EXPECT_EQ(graph.group(dense.parent).key, "scope:mlp");
  // w, b, dot, bias, pre.
  EXPECT_EQ(dense.instruction_count, 5);
  EXPECT_EQ(dense.detail, "5 ops");
  EXPECT_EQ(dense.unit, ExecutionUnit::kMxu);
  // sub, exp, sum, log and max, with the two unnamed ops beside them: the
  // broadcast of the row max (its operand's layer) and the -inf it starts
  // from (its user's).
  EXPECT_EQ(graph.group(graph.FindGroup("scope:loss/softmax")).instruction_count, 7);
  EXPECT_EQ(graph.GroupOf(Find(*module, "row_max_b")), graph.FindGroup("scope:loss/softmax"));
  EXPECT_EQ(graph.GroupOf(Find(*module, "neg_inf")), graph.FindGroup("scope:loss/softmax"));
  EXPECT_EQ(graph.group(0).kind, GraphGroupKind::kComputation);
  EXPECT_EQ(graph.group(0).instruction_count, 26);

  const HloInstruction* dot = Find(*module, "dot");
  EXPECT_EQ(graph.GroupOf(dot), graph.FindGroup("scope:mlp/dense"));
  EXPECT_THAT(graph.KeysToReveal(dot), ElementsAre("scope:mlp", "scope:mlp/dense"));
  // The unnamed iota lies with the one_hot it feeds; what neighbours of
  // several layers share stays at the top.
  EXPECT_THAT(graph.KeysToReveal(Find(*module, "iota")), ElementsAre("scope:loss"));
  EXPECT_THAT(graph.KeysToReveal(Find(*module, "zeros")), IsEmpty());  // used by mlp and loss
}

TEST(HloGraph, CollapsedScopesAreNodesWithAggregatedEdges) {
  auto module = LoadSample("mlp_layer.hlo");
  const HloGraph graph = HloGraph::Build(*module->entry_computation());
  const VisibleGraph collapsed = graph.Visible({});
  EXPECT_THAT(collapsed.clusters, IsEmpty());
  const GraphPlace mlp = collapsed.Locate(Find(*module, "dot"));
  ASSERT_GE(mlp.node, 0);
  const GraphNode& node = collapsed.nodes[mlp.node];
  EXPECT_EQ(node.title, "mlp");
  EXPECT_TRUE(node.expandable);
  EXPECT_EQ(node.instruction, nullptr);
  EXPECT_EQ(node.subtitle, "7 ops");  // x, relu and dense's five
  EXPECT_EQ(collapsed.Locate(Find(*module, "relu")).node, mlp.node);
  // relu (in mlp) feeds shifted (in loss/softmax); the unnamed picked,
  // reading one_hot and shifted, lies in loss with them.
  EXPECT_EQ(collapsed.Locate(Find(*module, "picked")).node, collapsed.Locate(Find(*module, "shifted")).node);
  const GraphEdge* mlp_to_loss =
      FindEdge(collapsed, Find(*module, "relu"), Find(*module, "shifted"));
  ASSERT_NE(mlp_to_loss, nullptr);
  EXPECT_EQ(mlp_to_loss->label, "f32[32,128]");
  // No edge is a self loop and none repeats.
  for (size_t i = 0; i < collapsed.edges.size(); ++i) {
    EXPECT_NE(collapsed.edges[i].from, collapsed.edges[i].to);
    for (size_t j = i + 1; j < collapsed.edges.size(); ++j) {
      EXPECT_FALSE(collapsed.edges[i].from == collapsed.edges[j].from &&
                   collapsed.edges[i].to == collapsed.edges[j].to &&
                   collapsed.edges[i].control == collapsed.edges[j].control);
    }
  }
}

TEST(HloGraph, ExpandedScopesAreClustersAndScalarConstantsAreInlined) {
  auto module = LoadSample("mlp_layer.hlo");
  const HloGraph graph = HloGraph::Build(*module->entry_computation());
  const absl::flat_hash_set<std::string> expanded = graph.DefaultExpanded(80);
  absl::flat_hash_set<std::string> every_group = AllKeys(graph);
  every_group.erase("computation:main");
  EXPECT_EQ(expanded, every_group);  // small enough to open entirely
  const VisibleGraph v = graph.Visible(expanded);
  // 26 instructions, three scalar constants drawn inside their users.
  EXPECT_EQ(v.nodes.size(), 23u);
  EXPECT_EQ(v.clusters.size(), 4u);
  const GraphNode& dot = v.nodes[v.Locate(Find(*module, "dot")).node];
  EXPECT_EQ(dot.title, "dot");
  EXPECT_EQ(dot.subtitle, "dot");
  EXPECT_EQ(dot.shape, "f32[32,128]");
  EXPECT_EQ(dot.unit, ExecutionUnit::kMxu);
  EXPECT_EQ(v.clusters[dot.cluster].label, "dense");
  EXPECT_EQ(v.clusters[v.clusters[dot.cluster].parent].label, "mlp");
  const GraphNode& row_max = v.nodes[v.Locate(Find(*module, "row_max")).node];
  EXPECT_THAT(row_max.inlined, ElementsAre("operand 1: -inf"));
  // An inlined constant is found at its first user.
  EXPECT_TRUE(v.Locate(Find(*module, "neg_inf")).valid());
  const GraphEdge* e = FindEdge(v, Find(*module, "dot"), Find(*module, "pre"));
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->label, "f32[32,128]");
  EXPECT_EQ(e->value_count, 1);
}

constexpr char kFused[] = R"(
HloModule fused

%fused_dot (p0: f32[8,16], p1: f32[16,4], p2: f32[4]) -> f32[8,4] {
  %p0 = f32[8,16]{1,0} parameter(0)
  %p1 = f32[16,4]{1,0} parameter(1)
  %p2 = f32[4]{0} parameter(2)
  %dot.1 = f32[8,4]{1,0} dot(f32[8,16]{1,0} %p0, f32[16,4]{1,0} %p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %bias.1 = f32[8,4]{1,0} broadcast(f32[4]{0} %p2), dimensions={1}
  %zero.1 = f32[] constant(0)
  %zeros.1 = f32[8,4]{1,0} broadcast(f32[] %zero.1), dimensions={}
  %add.1 = f32[8,4]{1,0} add(f32[8,4]{1,0} %dot.1, f32[8,4]{1,0} %bias.1)
  ROOT %relu.1 = f32[8,4]{1,0} maximum(f32[8,4]{1,0} %add.1, f32[8,4]{1,0} %zeros.1)
}

%fused_exp (q0: f32[8,4]) -> f32[8,4] {
  %q0 = f32[8,4]{1,0} parameter(0)
  ROOT %exp.1 = f32[8,4]{1,0} exponential(f32[8,4]{1,0} %q0)
}

ENTRY %main (x: f32[8,16], w: f32[16,4], b: f32[4]) -> f32[8,4] {
  %x = f32[8,16]{1,0} parameter(0)
  %w = f32[16,4]{1,0} parameter(1)
  %b = f32[4]{0} parameter(2)
  %fusion = f32[8,4]{1,0} fusion(f32[8,16]{1,0} %x, f32[16,4]{1,0} %w, f32[4]{0} %b), kind=kOutput, calls=%fused_dot
  %fusion.1 = f32[8,4]{1,0} fusion(f32[8,4]{1,0} %fusion), kind=kLoop, calls=%fused_exp
  ROOT %out = f32[8,4]{1,0} negate(f32[8,4]{1,0} %fusion.1), control-predecessors={%fusion}
}
)";

TEST(HloGraph, FusionsAreGroupsOfTheirFusedInstructions) {
  auto module = ParseAndReturnUnverifiedModule(kFused);
  ASSERT_TRUE(module.ok()) << module.status();
  const HloGraph graph = HloGraph::Build(*(*module)->entry_computation());
  const int32_t f = graph.FindGroup("fusion:fusion");
  ASSERT_GE(f, 0);
  EXPECT_EQ(graph.group(f).kind, GraphGroupKind::kFusion);
  EXPECT_EQ(graph.group(f).detail, "kOutput · 6 ops");
  EXPECT_EQ(graph.group(f).unit, ExecutionUnit::kMxu);
  EXPECT_EQ(graph.GroupOf(Find(**module, "fusion")), 0);
  EXPECT_EQ(graph.GroupOf(Find(**module, "dot.1")), f);
  EXPECT_EQ(graph.GroupOf(Find(**module, "p0")), -1);  // fused parameters are not drawn
  EXPECT_THAT(graph.KeysToReveal(Find(**module, "dot.1")), ElementsAre("fusion:fusion"));

  // Collapsed: a fusion is one node, its fused instructions found there.
  const VisibleGraph collapsed = graph.Visible({});
  const GraphPlace fusion = collapsed.Locate(Find(**module, "fusion"));
  ASSERT_GE(fusion.node, 0);
  EXPECT_EQ(collapsed.nodes[fusion.node].subtitle, "fusion · kOutput");
  EXPECT_EQ(collapsed.nodes[fusion.node].fusion_kind, FusionKind::kOutput);
  EXPECT_TRUE(collapsed.nodes[fusion.node].expandable);
  EXPECT_EQ(collapsed.Locate(Find(**module, "dot.1")).node, fusion.node);
  EXPECT_EQ(collapsed.nodes.size(), 6u);  // x, w, b, fusion, fusion.1, out
  ASSERT_NE(FindEdge(collapsed, Find(**module, "x"), Find(**module, "fusion")), nullptr);

  // Expanded: a cluster; operands go to the fused users of each parameter
  // and the fused root feeds the fusion's users.
  const VisibleGraph open = graph.Visible({"fusion:fusion"});
  ASSERT_EQ(open.clusters.size(), 1u);
  EXPECT_EQ(open.clusters[0].label, "fusion · kOutput");
  EXPECT_EQ(open.clusters[0].fusion_kind, FusionKind::kOutput);
  EXPECT_EQ(open.Locate(Find(**module, "fusion")).cluster, 0);
  EXPECT_EQ(open.Locate(Find(**module, "fusion")).node, -1);
  EXPECT_EQ(open.nodes[open.Locate(Find(**module, "dot.1")).node].cluster, 0);
  const GraphEdge* x_to_dot = FindEdge(open, Find(**module, "x"), Find(**module, "dot.1"));
  ASSERT_NE(x_to_dot, nullptr);
  EXPECT_EQ(x_to_dot->label, "f32[8,16]");
  EXPECT_NE(FindEdge(open, Find(**module, "b"), Find(**module, "bias.1")), nullptr);
  EXPECT_NE(FindEdge(open, Find(**module, "relu.1"), Find(**module, "fusion.1")), nullptr);
  EXPECT_THAT(open.nodes[open.Locate(Find(**module, "zeros.1")).node].inlined,
              ElementsAre("operand 0: 0"));
  // The control edge fusion -> out leaves from the fused root.
  bool control = false;
  for (const GraphEdge& e : open.edges) {
    control |= e.control && e.from == open.Locate(Find(**module, "relu.1")).node &&
               e.to == open.Locate(Find(**module, "out")).node;
  }
  EXPECT_TRUE(control);

  // Both open: the chain runs through both clusters.
  const VisibleGraph both = graph.Visible({"fusion:fusion", "fusion:fusion.1"});
  EXPECT_EQ(both.clusters.size(), 2u);
  EXPECT_NE(FindEdge(both, Find(**module, "relu.1"), Find(**module, "exp.1")), nullptr);
  EXPECT_NE(FindEdge(both, Find(**module, "exp.1"), Find(**module, "out")), nullptr);
  EXPECT_EQ(both.NodesOf({Find(**module, "dot.1"), Find(**module, "add.1"), Find(**module, "dot.1")})
                .size(),
            2u);
}

// After fusion, a fusion without metadata of its own lies in the layer its
// fused instructions share, so an optimized program keeps its layers.
TEST(HloGraph, FusionsWithoutMetadataJoinTheLayerOfWhatTheyFused) {
  auto module = ParseAndReturnUnverifiedModule(R"(
HloModule m

%fused_mlp (p0: f32[4], p1: f32[4]) -> f32[4] {
  %p0 = f32[4]{0} parameter(0)
  %p1 = f32[4]{0} parameter(1)
  %mul = f32[4]{0} multiply(f32[4]{0} %p0, f32[4]{0} %p1), metadata={op_name="jit(step)/jit(main)/jvp(Model)/Model/layers/mlp/mul"}
  ROOT %tanh = f32[4]{0} tanh(f32[4]{0} %mul), metadata={op_name="jit(step)/jit(main)/jvp(Model)/Model/layers/mlp/act/tanh"}
}

%fused_mixed (q0: f32[4], q1: f32[4]) -> f32[4] {
  %q0 = f32[4]{0} parameter(0)
  %q1 = f32[4]{0} parameter(1)
  %a = f32[4]{0} add(f32[4]{0} %q0, f32[4]{0} %q1), metadata={op_name="jit(step)/jit(main)/Model/layers/attention/add"}
  ROOT %n = f32[4]{0} negate(f32[4]{0} %a), metadata={op_name="jit(step)/jit(main)/Model/layers/mlp/neg"}
}

ENTRY %e (x: f32[4], y: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %y = f32[4]{0} parameter(1)
  %fusion.1 = f32[4]{0} fusion(f32[4]{0} %x, f32[4]{0} %y), kind=kLoop, calls=%fused_mlp
  %fusion.2 = f32[4]{0} fusion(f32[4]{0} %fusion.1, f32[4]{0} %y), kind=kLoop, calls=%fused_mixed
  %other = f32[4]{0} add(f32[4]{0} %fusion.2, f32[4]{0} %x), metadata={op_name="jit(step)/jit(main)/Model/head/add"}
  ROOT %out = f32[4]{0} multiply(f32[4]{0} %other, f32[4]{0} %x), metadata={op_name="jit(step)/jit(main)/Model/head/mul"}
}
)");
  ASSERT_TRUE(module.ok()) << module.status();
  const HloGraph graph = HloGraph::Build(*(*module)->entry_computation());
  const auto layer_of = [&](absl::string_view name) {
    const int32_t group = graph.GroupOf(Find(**module, name));
    return group >= 0 ? graph.group(group).key : std::string("(none)");
  };
  // All its fused instructions are in Model/layers/mlp (one deeper, in act).
  EXPECT_EQ(layer_of("fusion.1"), "scope:step/Model/layers");
  // Two layers fused together: the layer they share.
  EXPECT_EQ(layer_of("fusion.2"), "scope:step/Model/layers");
  EXPECT_EQ(layer_of("other"), "scope:step/Model/head");
  // Collapsed at the top, the step's layers are what the first picture shows.
  const VisibleGraph collapsed = graph.Visible({});
  EXPECT_EQ(collapsed.Locate(Find(**module, "fusion.1")).node, collapsed.Locate(Find(**module, "fusion.2")).node);
}

TEST(HloGraph, SingleMemberScopesMergeIntoTheirMember) {
  constexpr char kText[] = R"(
HloModule scoped
ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0), metadata={op_name="jit(f)/jit(main)/x"}
  %a = f32[4]{0} negate(f32[4]{0} %x), metadata={op_name="jit(f)/jit(main)/dense/neg"}
  %b = f32[4]{0} exponential(f32[4]{0} %a), metadata={op_name="jit(f)/jit(main)/dense/exp"}
  %c = f32[4]{0} abs(f32[4]{0} %b), metadata={op_name="jit(f)/jit(main)/act/abs"}
  ROOT %d = f32[4]{0} add(f32[4]{0} %c, f32[4]{0} %x), metadata={op_name="jit(f)/jit(main)/add"}
}
)";
  auto module = ParseAndReturnUnverifiedModule(kText);
  ASSERT_TRUE(module.ok()) << module.status();
  const HloGraph graph = HloGraph::Build(*(*module)->entry_computation());
  // The transformations fold away (jit(f) is f, jit(main) no layer);
  // "act" held only c.
  EXPECT_EQ(graph.FindGroup("scope:jit(f)"), -1);
  EXPECT_EQ(graph.FindGroup("scope:f/act"), -1);
  const int32_t main = graph.FindGroup("scope:f");
  ASSERT_GE(main, 0);
  EXPECT_EQ(graph.group(main).label, "f");
  EXPECT_EQ(graph.group(main).parent, 0);
  const int32_t dense = graph.FindGroup("scope:f/dense");
  ASSERT_GE(dense, 0);
  EXPECT_EQ(graph.group(dense).label, "dense");
  EXPECT_EQ(graph.GroupOf(Find(**module, "c")), main);
  // Grouping can be turned off.
  HloGraphOptions flat;
  flat.group_by_scope = false;
  EXPECT_EQ(HloGraph::Build(*(*module)->entry_computation(), flat).groups().size(), 1u);
}

TEST(HloGraph, LargeLayersSplitIntoBalancedBlocks) {
  // A chain of 5000 adds: deeper than two levels of 64.
  std::string text = "HloModule chain\nENTRY %main (p: f32[4]) -> f32[4] {\n";
  absl::StrAppend(&text, "  %p = f32[4]{0} parameter(0)\n");
  std::string previous = "p";
  for (int i = 0; i < 4999; ++i) {
    const std::string name = absl::StrCat("a", i);
    absl::StrAppend(&text, i == 4998 ? "  ROOT %" : "  %", name, " = f32[4]{0} add(f32[4]{0} %",
                    previous, ", f32[4]{0} %p)\n");
    previous = name;
  }
  absl::StrAppend(&text, "}\n");
  auto module = ParseAndReturnUnverifiedModule(text);
  ASSERT_TRUE(module.ok()) << module.status();
  const HloGraph graph = HloGraph::Build(*(*module)->entry_computation());
  int64_t instructions = 0;
  for (const GraphGroup& g : graph.groups()) {
    EXPECT_LE(g.members.size(), 64u) << g.key;
    EXPECT_GE(g.members.size(), 2u) << g.key;
    for (const GraphMember& m : g.members) instructions += m.instruction ? 1 : 0;
  }
  EXPECT_EQ(instructions, 5000);
  // 5000 > 64^2: three levels, 18 blocks of ~278, each of 18 of ~15-16.
  EXPECT_EQ(graph.group(0).members.size(), 18u);
  const GraphGroup& first = graph.group(graph.group(0).members[0].group);
  EXPECT_EQ(first.kind, GraphGroupKind::kBlock);
  EXPECT_EQ(first.label, "ops 1–277");
  EXPECT_EQ(first.summary, "add ×276, parameter ×1");
  const HloInstruction* last = (*module)->entry_computation()->root_instruction();
  EXPECT_EQ(graph.KeysToReveal(last).size(), 2u);
  // The first picture shows the 18 top blocks and nothing more.
  EXPECT_THAT(graph.DefaultExpanded(80), IsEmpty());
  const VisibleGraph v = graph.Visible({});
  EXPECT_EQ(v.nodes.size(), 18u);
  // The chain between consecutive blocks (the first also carrying p), and
  // p from the first block to every later one.
  EXPECT_EQ(v.edges.size(), 17u + 16u);
  EXPECT_EQ(v.edges[0].label, "2 values");
  // Every instruction is somewhere.
  for (const HloInstruction* i : (*module)->entry_computation()->instructions()) {
    EXPECT_TRUE(v.Locate(i).valid()) << i->name();
  }
}

TEST(SearchInstructions, ByNameOrOpcodeAcrossComputations) {
  auto module = ParseAndReturnUnverifiedModule(kFused);
  ASSERT_TRUE(module.ok()) << module.status();
  std::vector<std::string> names;
  for (const HloInstruction* i : SearchInstructions(**module, "DOT")) names.push_back(i->name());
  EXPECT_THAT(names, ElementsAre("dot.1"));
  names.clear();
  for (const HloInstruction* i : SearchInstructions(**module, "fusion")) names.push_back(i->name());
  EXPECT_THAT(names, ElementsAre("fusion", "fusion.1"));
  names.clear();
  for (const HloInstruction* i : SearchInstructions(**module, "broadcast")) {
    names.push_back(i->name());
  }
  EXPECT_THAT(names, UnorderedElementsAre("bias.1", "zeros.1"));
  EXPECT_THAT(SearchInstructions(**module, ""), IsEmpty());
  EXPECT_EQ(DisplayedComputation(*Find(**module, "dot.1")), (*module)->entry_computation());
}

}  // namespace
}  // namespace systolic::analysis
