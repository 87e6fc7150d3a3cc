// What the graph view draws for one computation, without drawing it: the
// computation's instructions grouped into collapsible layers — op_name
// scopes from the metadata ("model/dense/matmul" lies in "model" and
// "model/dense"), fusions with their fused instructions, and program-order
// blocks when a layer would hold too many members to read — and, for a set
// of expanded groups, the nodes, edges and clusters to lay out.
//
// Every group has a stable key, so the set of expanded groups survives
// rebuilding the graph (another stage of the same program, a reload).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "core/analysis/execution_unit.h"
#include "core/hlo/hlo_instruction.h"

namespace systolic {
class HloComputation;
class HloModule;
}  // namespace systolic

namespace systolic::analysis {

struct HloGraphOptions {
  // Group by the metadata's op_name scopes.
  bool group_by_scope = true;
  // A layer holding more members than this is split into balanced
  // program-order blocks, nested as needed, so no layer shows more.
  int max_group_members = 64;
  // Scalar constants are shown inside their users' nodes, not as nodes.
  bool inline_scalar_constants = true;
};

enum class GraphGroupKind : uint8_t {
  kComputation,  // the root: the computation itself, always expanded
  kScope,        // an op_name scope
  kBlock,        // a run of consecutive members of a large layer
  kFusion,       // a fusion instruction and its fused instructions
};

// One member of a group: an instruction or a nested group.
struct GraphMember {
  const HloInstruction* instruction = nullptr;
  int32_t group = -1;
};

struct GraphGroup {
  GraphGroupKind kind = GraphGroupKind::kComputation;
  // "scope:model/dense", "block:scope:model#2", "fusion:fusion.3".
  std::string key;
  std::string label;   // "model/dense", "ops 62–122", "fusion.3"
  std::string detail;  // "17 ops", "kLoop · 5 ops"
  std::string summary; // most frequent opcodes: "convolution ×4, add ×9"
  int32_t parent = -1;
  std::vector<GraphMember> members;  // program order
  int64_t instruction_count = 0;     // every instruction inside, nested ones too
  ExecutionUnit unit = ExecutionUnit::kOther;
  const HloInstruction* fusion = nullptr;  // kFusion: the fusion instruction
  int32_t depth = 0;                       // the root is 0
};

// A node to lay out: an instruction (a collapsed fusion is its fusion
// instruction) or a collapsed group.
struct GraphNode {
  const HloInstruction* instruction = nullptr;  // null for a collapsed group
  int32_t group = -1;    // the collapsed group (or fusion) this node stands for
  int32_t cluster = -1;  // the innermost cluster holding it, -1 at the top
  std::string title;     // the name, or the group's label
  std::string subtitle;  // "dot", "fusion · kOutput", "17 ops"
  std::string shape;     // "f32[32,128]", or the group's opcode summary
  // Scalar constants drawn inside the node: "operand 1: 0".
  std::vector<std::string> inlined;
  ExecutionUnit unit = ExecutionUnit::kOther;
  std::optional<FusionKind> fusion_kind;
  bool expandable = false;  // a collapsed group or fusion
};

struct GraphEdge {
  int32_t from = 0;  // node indices
  int32_t to = 0;
  std::string label;  // the shape of the value, or "3 values"
  int32_t value_count = 1;
  bool control = false;
};

// An expanded group other than the root, drawn as a box around its members.
struct GraphCluster {
  int32_t group = 0;
  int32_t parent = -1;  // enclosing cluster, -1 at the top
  std::string label;    // "fusion.3 · kLoop", "model/dense", "ops 62–122"
  GraphGroupKind kind = GraphGroupKind::kScope;
  ExecutionUnit unit = ExecutionUnit::kOther;
  std::optional<FusionKind> fusion_kind;
};

// Where an instruction is drawn.
struct GraphPlace {
  int32_t node = -1;     // its node, or the node of the collapsed group holding it
  int32_t cluster = -1;  // an expanded fusion: its cluster
  bool valid() const { return node >= 0 || cluster >= 0; }
};

struct VisibleGraph {
  std::vector<GraphNode> nodes;
  std::vector<GraphEdge> edges;
  std::vector<GraphCluster> clusters;

  GraphPlace Locate(const HloInstruction* instruction) const;
  // Indices of the nodes standing for any of `instructions`, sorted, unique.
  std::vector<int32_t> NodesOf(const std::vector<const HloInstruction*>& instructions) const;

  absl::flat_hash_map<const HloInstruction*, GraphPlace> places;
};

class HloGraph {
 public:
  // Groups `computation` (which must outlive the graph).
  static HloGraph Build(const HloComputation& computation, const HloGraphOptions& options = {});

  const HloComputation& computation() const { return *computation_; }
  const std::vector<GraphGroup>& groups() const { return groups_; }
  const GraphGroup& group(int32_t i) const { return groups_[i]; }
  // The index of the group with this key, or -1.
  int32_t FindGroup(absl::string_view key) const;
  // The innermost group holding `instruction` (for a fusion instruction, the
  // group it is a member of, not its own), or -1 when it is not drawn here.
  int32_t GroupOf(const HloInstruction* instruction) const;
  bool Contains(const HloInstruction* instruction) const { return GroupOf(instruction) >= 0; }

  // Every instruction inside group `group` (fusion instructions included),
  // in program order; for the root, every instruction drawn here.
  std::vector<const HloInstruction*> InstructionsIn(int32_t group) const;

  // The keys to expand so that `instruction` is drawn as its own node,
  // outermost first.
  std::vector<std::string> KeysToReveal(const HloInstruction* instruction) const;

  // Groups to expand first so that about `node_budget` nodes are drawn:
  // whole layers are opened, outermost first, while they fit.
  absl::flat_hash_set<std::string> DefaultExpanded(int64_t node_budget = 80) const;

  // The nodes, edges and clusters drawn when the groups with keys in
  // `expanded` are open (the root always is).
  VisibleGraph Visible(const absl::flat_hash_set<std::string>& expanded) const;

 private:
  const HloComputation* computation_ = nullptr;
  HloGraphOptions options_;
  std::vector<GraphGroup> groups_;
  absl::flat_hash_map<const HloInstruction*, int32_t> group_of_;
  absl::flat_hash_map<std::string, int32_t> group_by_key_;
  absl::flat_hash_set<const HloInstruction*> inlined_;
  friend class HloGraphBuilder;
};

// The non-fused computation that shows `instruction`: its own, or for a
// fused instruction the computation of the outermost fusion holding it.
const HloComputation* DisplayedComputation(const HloInstruction& instruction);

// The scopes an op_name lies in: "a/b/c" -> {"a", "a/b"}. JAX's
// transformations fold into the scope they wrap, so the forward and the
// backward ops of a layer share it: "jit(step)/jvp(Model)/mlp/dot" and
// "jit(step)/transpose(jvp(Model))/mlp/dot" both lie in "step/Model/mlp";
// a bare "remat" and the inner "jit(main)" name no scope.
std::vector<std::string> OpNameScopes(absl::string_view op_name);

// "f32[32,128]" (no layout); long tuples are cut to `max_chars` with "…".
std::string ShortShapeString(const Shape& shape, size_t max_chars = 40);

// Instructions of `module` (fused ones included) whose name contains
// `query` or whose opcode does, ignoring case; computations in post order,
// instructions in program order, at most `limit`.
std::vector<const HloInstruction*> SearchInstructions(const HloModule& module,
                                                      absl::string_view query,
                                                      int64_t limit = 10000);

}  // namespace systolic::analysis
