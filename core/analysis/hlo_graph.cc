#include "core/analysis/hlo_graph.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"

namespace systolic::analysis {

namespace {

// JAX's transformations, as they wrap scopes in op_names: `jvp(Model)`,
// `transpose(jvp(Model))`, `vmap(f)`, `remat(core_fn)`.
bool IsTransformation(absl::string_view name) {
  static const auto* const kNames = new absl::flat_hash_set<absl::string_view>{
      "jit", "pjit", "jvp", "vjp", "transpose", "vmap", "pmap", "xmap", "shard_map", "remat",
      "remat2", "checkpoint", "custom_jvp_call", "custom_vjp_call", "custom_vjp_call_jaxpr",
      "named_call", "core_call", "closed_call"};
  return kNames->contains(name);
}

// The scope a path part names once transformations are folded into what
// they wrap, so a layer's forward and backward ops share it; empty for a
// part that names none (a bare `remat`, JAX's inner `jit(main)`).
absl::string_view FoldedScope(absl::string_view part) {
  while (!part.empty() && part.back() == ')') {
    const size_t open = part.find('(');
    if (open == absl::string_view::npos || !IsTransformation(part.substr(0, open))) break;
    part = part.substr(open + 1, part.size() - open - 2);
  }
  if (IsTransformation(part) || part == "main") return "";
  return part;
}

}  // namespace

std::vector<std::string> OpNameScopes(absl::string_view op_name) {
  std::vector<std::string> scopes;
  std::vector<absl::string_view> parts = absl::StrSplit(op_name, '/', absl::SkipEmpty());
  std::string prefix;
  absl::string_view previous;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    const absl::string_view scope = FoldedScope(parts[i]);
    // `jvp(Model)/Model` is one layer, not two.
    if (scope.empty() || scope == previous) continue;
    previous = scope;
    prefix = prefix.empty() ? std::string(scope) : absl::StrCat(prefix, "/", scope);
    scopes.push_back(prefix);
  }
  return scopes;
}

std::string ShortShapeString(const Shape& shape, size_t max_chars) {
  std::string text = shape.ToString(/*print_layout=*/false);
  if (text.size() <= max_chars) return text;
  // Cut at a character boundary (the text is ASCII) and mark the cut.
  return absl::StrCat(text.substr(0, max_chars > 1 ? max_chars - 1 : 0), "…");
}

const HloComputation* DisplayedComputation(const HloInstruction& instruction) {
  const HloComputation* computation = instruction.parent();
  while (computation && computation->IsFusionComputation()) {
    computation = computation->FusionInstruction()->parent();
  }
  return computation;
}

std::vector<const HloInstruction*> SearchInstructions(const HloModule& module,
                                                      absl::string_view query,
                                                      int64_t limit) {
  std::vector<const HloInstruction*> found;
  const std::string needle = absl::AsciiStrToLower(query);
  if (needle.empty()) return found;
  for (const HloComputation* computation : module.MakeComputationPostOrder()) {
    for (const HloInstruction* instruction : computation->MakeInstructionPostOrder()) {
      if (absl::StrContains(absl::AsciiStrToLower(instruction->name()), needle) ||
          absl::StrContains(HloOpcodeString(instruction->opcode()), needle)) {
        found.push_back(instruction);
        if (int64_t(found.size()) >= limit) return found;
      }
    }
  }
  return found;
}

namespace {

bool IsFusedParameter(const HloInstruction* instruction) {
  return instruction->opcode() == HloOpcode::kParameter && instruction->parent() &&
         instruction->parent()->IsFusionComputation();
}

bool IsInlinableConstant(const HloInstruction* instruction) {
  return instruction->opcode() == HloOpcode::kConstant && instruction->shape().IsScalar() &&
         !instruction->IsRoot() && instruction->user_count() > 0 && instruction->has_literal();
}

std::string SubtitleOf(const HloInstruction& instruction) {
  std::string text(HloOpcodeString(instruction.opcode()));
  if (instruction.opcode() == HloOpcode::kFusion) {
    absl::StrAppend(&text, " · ", FusionKindToString(instruction.fusion_kind()));
  } else if (instruction.opcode() == HloOpcode::kCustomCall) {
    absl::StrAppend(&text, " · ", instruction.custom_call_target());
  } else if (instruction.opcode() == HloOpcode::kParameter) {
    absl::StrAppend(&text, " ", instruction.parameter_number());
  } else if (instruction.opcode() == HloOpcode::kGetTupleElement) {
    absl::StrAppend(&text, " ", instruction.tuple_index());
  }
  return text;
}

}  // namespace

// Builds the groups of one computation: members in program order, scopes,
// fusions, then the chain merging and block splitting that keep every
// layer readable.
class HloGraphBuilder {
 public:
  explicit HloGraphBuilder(HloGraph* graph) : g_(*graph) {}

  void Build(const HloComputation& computation) {
    const int32_t root = NewGroup(GraphGroupKind::kComputation,
                                  absl::StrCat("computation:", computation.name()), -1);
    g_.groups_[root].label = computation.name();
    AddMembers(computation, root, g_.options_.group_by_scope);
    SimplifyScopes(root);
    SplitLargeGroups(root);
    Compact(root);
    Summarize(0, 0);
  }

 private:
  int32_t NewGroup(GraphGroupKind kind, std::string key, int32_t parent) {
    GraphGroup group;
    group.kind = kind;
    group.key = std::move(key);
    group.parent = parent;
    g_.groups_.push_back(std::move(group));
    return int32_t(g_.groups_.size() - 1);
  }

  int32_t ScopeGroup(const std::string& path, int32_t parent) {
    const std::string key = absl::StrCat("scope:", path);
    auto it = scopes_.find(key);
    if (it != scopes_.end()) return it->second;
    const int32_t group = NewGroup(GraphGroupKind::kScope, key, parent);
    g_.groups_[parent].members.push_back({nullptr, group});
    scopes_[key] = group;
    return group;
  }

  // The layers an instruction lies in: its op_name's scopes; for a fusion
  // without one (passes do not always carry it), the scopes its fused
  // instructions share, so an after-fusion graph keeps the model's layers.
  static std::vector<std::string> ScopesOf(const HloInstruction& instruction) {
    if (!instruction.metadata().op_name.empty() || instruction.opcode() != HloOpcode::kFusion ||
        instruction.called_computations().empty()) {
      return OpNameScopes(instruction.metadata().op_name);
    }
    std::optional<std::vector<std::string>> shared;
    for (const HloInstruction* fused : instruction.fused_instructions_computation()->instructions()) {
      if (!fused->metadata().op_name.empty()) KeepCommonPrefix(shared, OpNameScopes(fused->metadata().op_name));
    }
    return shared ? *shared : std::vector<std::string>{};
  }

  // The longest run of scopes `shared` and `scopes` begin with.
  static void KeepCommonPrefix(std::optional<std::vector<std::string>>& shared,
                               const std::vector<std::string>& scopes) {
    if (!shared) {
      shared = scopes;
      return;
    }
    size_t common = 0;
    while (common < shared->size() && common < scopes.size() && (*shared)[common] == scopes[common]) {
      ++common;
    }
    shared->resize(common);
  }

  // The layers of every instruction of a computation in post order. One
  // without an op_name of its own (what passes add: copies, tuple elements,
  // constants) lies in the layer its operands share, else in the one its
  // users share, so an optimized program keeps its layers; parameters stay
  // at the top.
  static absl::flat_hash_map<const HloInstruction*, std::vector<std::string>> InferScopes(
      const std::vector<HloInstruction*>& post_order) {
    absl::flat_hash_map<const HloInstruction*, std::vector<std::string>> scopes;
    std::vector<const HloInstruction*> unknown;
    for (const HloInstruction* instruction : post_order) {
      std::vector<std::string> own = ScopesOf(*instruction);
      if (!own.empty() || instruction->opcode() == HloOpcode::kParameter) {
        scopes[instruction] = std::move(own);
        continue;
      }
      std::optional<std::vector<std::string>> shared;
      for (const HloInstruction* operand : instruction->operands()) {
        auto found = scopes.find(operand);
        if (found != scopes.end() && !found->second.empty()) KeepCommonPrefix(shared, found->second);
      }
      if (shared) {
        scopes[instruction] = std::move(*shared);
      } else {
        unknown.push_back(instruction);
      }
    }
    for (auto it = unknown.rbegin(); it != unknown.rend(); ++it) {
      std::optional<std::vector<std::string>> shared;
      for (const HloInstruction* user : (*it)->users()) {
        auto found = scopes.find(user);
        if (found != scopes.end() && !found->second.empty()) KeepCommonPrefix(shared, found->second);
      }
      scopes[*it] = shared ? std::move(*shared) : std::vector<std::string>{};
    }
    return scopes;
  }

  void AddMembers(const HloComputation& computation, int32_t group, bool use_scopes) {
    int64_t position = 0;
    const std::vector<HloInstruction*> post_order = computation.MakeInstructionPostOrder();
    const absl::flat_hash_map<const HloInstruction*, std::vector<std::string>> scopes =
        use_scopes ? InferScopes(post_order)
                   : absl::flat_hash_map<const HloInstruction*, std::vector<std::string>>{};
    for (const HloInstruction* instruction : post_order) {
      ++position;
      if (IsFusedParameter(instruction)) continue;
      position_[instruction] = position;
      int32_t target = group;
      if (use_scopes) {
        for (const std::string& scope : scopes.at(instruction)) target = ScopeGroup(scope, target);
      }
      g_.group_of_[instruction] = target;
      if (g_.options_.inline_scalar_constants && IsInlinableConstant(instruction)) {
        g_.inlined_.insert(instruction);
      }
      if (instruction->opcode() == HloOpcode::kFusion &&
          !instruction->called_computations().empty()) {
        const int32_t fusion = NewGroup(GraphGroupKind::kFusion,
                                        absl::StrCat("fusion:", instruction->name()), target);
        g_.groups_[fusion].fusion = instruction;
        g_.groups_[target].members.push_back({nullptr, fusion});
        AddMembers(*instruction->fused_instructions_computation(), fusion, false);
      } else {
        g_.groups_[target].members.push_back({instruction, -1});
      }
    }
  }

  // Bottom-up: a scope with a single member (an instruction, a fusion or a
  // deeper scope) is no layer of its own; the member takes its place.
  void SimplifyScopes(int32_t group) {
    std::vector<GraphMember>& members = g_.groups_[group].members;
    for (size_t i = 0; i < members.size(); ++i) {
      if (members[i].group < 0) continue;
      const int32_t child = members[i].group;
      SimplifyScopes(child);
      GraphGroup& c = g_.groups_[child];
      if (c.kind != GraphGroupKind::kScope || c.members.size() != 1) continue;
      GraphMember only = c.members[0];
      Reparent(only, group);
      g_.groups_[group].members[i] = only;
    }
  }

  void Reparent(const GraphMember& member, int32_t group) {
    if (member.instruction) {
      g_.group_of_[member.instruction] = group;
      return;
    }
    GraphGroup& moved = g_.groups_[member.group];
    moved.parent = group;
    // A fusion instruction lies in the layer that holds its group.
    if (moved.fusion) g_.group_of_[moved.fusion] = group;
  }

  // Splits a layer of n > max members into b balanced blocks, b chosen so
  // that nesting depth d = ceil(log_max n) suffices: b = ceil(n^(1/d)).
  void SplitLargeGroups(int32_t group) {
    const size_t max = size_t(std::max(g_.options_.max_group_members, 2));
    const size_t n = g_.groups_[group].members.size();
    if (n > max) {
      int depth = 1;
      double capacity = double(max);
      while (capacity < double(n)) {
        capacity *= double(max);
        ++depth;
      }
      size_t blocks = size_t(std::ceil(std::pow(double(n), 1.0 / double(depth)) - 1e-9));
      blocks = std::clamp<size_t>(blocks, 2, max);
      std::vector<GraphMember> old = std::move(g_.groups_[group].members);
      g_.groups_[group].members.clear();
      size_t begin = 0;
      for (size_t b = 0; b < blocks; ++b) {
        const size_t end = n * (b + 1) / blocks;
        const int32_t block = NewGroup(
            GraphGroupKind::kBlock, absl::StrCat("block:", g_.groups_[group].key, "#", b + 1),
            group);
        for (size_t i = begin; i < end; ++i) {
          Reparent(old[i], block);
          g_.groups_[block].members.push_back(old[i]);
        }
        g_.groups_[group].members.push_back({nullptr, block});
        begin = end;
      }
    }
    // Members may be blocks just made; their own members are split in turn.
    for (size_t i = 0; i < g_.groups_[group].members.size(); ++i) {
      const int32_t child = g_.groups_[group].members[i].group;
      if (child >= 0) SplitLargeGroups(child);
    }
  }

  // Keeps only the groups reachable from the root, in depth-first order.
  void Compact(int32_t root) {
    std::vector<GraphGroup> old = std::move(g_.groups_);
    g_.groups_.clear();
    std::vector<int32_t> new_index(old.size(), -1);
    std::function<int32_t(int32_t, int32_t)> visit = [&](int32_t i, int32_t parent) {
      const int32_t index = int32_t(g_.groups_.size());
      new_index[i] = index;
      g_.groups_.push_back(std::move(old[i]));
      g_.groups_[index].parent = parent;
      for (size_t m = 0; m < g_.groups_[index].members.size(); ++m) {
        const int32_t child = g_.groups_[index].members[m].group;
        if (child >= 0) {
          const int32_t moved = visit(child, index);
          g_.groups_[index].members[m].group = moved;
        }
      }
      return index;
    };
    visit(root, -1);
    for (auto& [instruction, group] : g_.group_of_) group = new_index[group];
    g_.group_by_key_.clear();
    for (int32_t i = 0; i < int32_t(g_.groups_.size()); ++i) g_.group_by_key_[g_.groups_[i].key] = i;
  }

  // Counts, units, labels and opcode summaries, bottom-up.
  void Summarize(int32_t index, int32_t depth) {
    GraphGroup& group = g_.groups_[index];
    group.depth = depth;
    std::map<HloOpcode, int64_t> opcodes;
    int64_t count = 0;
    bool any_unit = false;
    ExecutionUnit unit = ExecutionUnit::kOther;
    auto take_unit = [&](ExecutionUnit u) {
      if (!any_unit || ExecutionUnitWeight(u) < ExecutionUnitWeight(unit)) unit = u;
      any_unit = true;
    };
    for (const GraphMember& member : group.members) {
      if (member.instruction) {
        ++count;
        ++opcodes[member.instruction->opcode()];
        take_unit(ExecutionUnitOf(*member.instruction));
        continue;
      }
      Summarize(member.group, depth + 1);
      const GraphGroup& child = g_.groups_[member.group];
      count += child.instruction_count;
      for (const auto& [opcode, n] : opcode_counts_[member.group]) opcodes[opcode] += n;
      take_unit(child.unit);
    }
    GraphGroup& g = g_.groups_[index];  // the vector did not grow, but stay explicit
    if (g.kind == GraphGroupKind::kFusion) {
      ++count;  // the fusion instruction itself
      ++opcodes[HloOpcode::kFusion];
      unit = ExecutionUnitOf(*g.fusion);
      any_unit = true;
    }
    g.instruction_count = count;
    g.unit = any_unit ? unit : ExecutionUnit::kOther;
    opcode_counts_[index] = opcodes;

    std::vector<std::pair<int64_t, HloOpcode>> ranked;
    for (const auto& [opcode, n] : opcodes) {
      if (opcode != HloOpcode::kFusion || g.kind != GraphGroupKind::kFusion) ranked.push_back({n, opcode});
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::string> top;
    for (size_t i = 0; i < ranked.size() && i < 3; ++i) {
      top.push_back(absl::StrCat(HloOpcodeString(ranked[i].second), " ×", ranked[i].first));
    }
    g.summary = absl::StrJoin(top, ", ");

    const std::string ops = absl::StrCat(count, count == 1 ? " op" : " ops");
    switch (g.kind) {
      case GraphGroupKind::kComputation:
        g.detail = ops;
        break;
      case GraphGroupKind::kScope: {
        // The path below the nearest enclosing scope.
        std::string path = g.key.substr(6);
        for (int32_t p = g.parent; p >= 0; p = g_.groups_[p].parent) {
          if (g_.groups_[p].kind != GraphGroupKind::kScope) continue;
          const std::string outer = g_.groups_[p].key.substr(6) + "/";
          if (absl::StartsWith(path, outer)) path = path.substr(outer.size());
          break;
        }
        g.label = path;
        g.detail = ops;
        break;
      }
      case GraphGroupKind::kBlock: {
        const int64_t first = Edge(index, true), last = Edge(index, false);
        g.label = absl::StrCat("ops ", first, "–", last);
        g.detail = ops;
        break;
      }
      case GraphGroupKind::kFusion:
        g.label = g.fusion->name();
        g.detail = absl::StrCat(FusionKindToString(g.fusion->fusion_kind()), " · ", count - 1,
                                count - 1 == 1 ? " op" : " ops");
        break;
    }
  }

  // The program-order position of the first (or last) instruction inside.
  int64_t Edge(int32_t index, bool first) {
    const GraphGroup& group = g_.groups_[index];
    if (group.kind == GraphGroupKind::kFusion) return position_[group.fusion];
    if (group.members.empty()) return 0;
    const GraphMember& member = first ? group.members.front() : group.members.back();
    if (member.instruction) return position_[member.instruction];
    return Edge(member.group, first);
  }

  HloGraph& g_;
  absl::flat_hash_map<std::string, int32_t> scopes_;
  absl::flat_hash_map<const HloInstruction*, int64_t> position_;
  absl::flat_hash_map<int32_t, std::map<HloOpcode, int64_t>> opcode_counts_;
};

HloGraph HloGraph::Build(const HloComputation& computation, const HloGraphOptions& options) {
  HloGraph graph;
  graph.computation_ = &computation;
  graph.options_ = options;
  HloGraphBuilder(&graph).Build(computation);
  return graph;
}

int32_t HloGraph::FindGroup(absl::string_view key) const {
  auto it = group_by_key_.find(std::string(key));
  return it == group_by_key_.end() ? -1 : it->second;
}

int32_t HloGraph::GroupOf(const HloInstruction* instruction) const {
  auto it = group_of_.find(instruction);
  return it == group_of_.end() ? -1 : it->second;
}

std::vector<const HloInstruction*> HloGraph::InstructionsIn(int32_t group) const {
  std::vector<const HloInstruction*> out;
  if (group < 0 || group >= int32_t(groups_.size())) return out;
  std::function<void(int32_t)> visit = [&](int32_t g) {
    if (groups_[g].fusion) out.push_back(groups_[g].fusion);
    for (const GraphMember& m : groups_[g].members) {
      if (m.instruction) {
        out.push_back(m.instruction);
      } else {
        visit(m.group);
      }
    }
  };
  visit(group);
  return out;
}

std::vector<std::string> HloGraph::KeysToReveal(const HloInstruction* instruction) const {
  std::vector<std::string> keys;
  for (int32_t g = GroupOf(instruction); g > 0; g = groups_[g].parent) keys.push_back(groups_[g].key);
  std::reverse(keys.begin(), keys.end());
  return keys;
}

absl::flat_hash_set<std::string> HloGraph::DefaultExpanded(int64_t node_budget) const {
  absl::flat_hash_set<std::string> expanded;
  // Layer by layer from the root: a layer opens only when all of it fits,
  // so the first picture is never lopsided.
  std::vector<int32_t> layer;
  int64_t nodes = 0;
  for (const GraphMember& m : groups_[0].members) {
    if (m.instruction && inlined_.contains(m.instruction)) continue;
    ++nodes;
    if (m.group >= 0) layer.push_back(m.group);
  }
  while (!layer.empty()) {
    int64_t added = 0;
    std::vector<int32_t> next;
    for (int32_t g : layer) {
      int64_t shown = 0;
      for (const GraphMember& m : groups_[g].members) {
        if (m.instruction && inlined_.contains(m.instruction)) continue;
        ++shown;
        if (m.group >= 0) next.push_back(m.group);
      }
      added += shown - 1;
    }
    if (nodes + added > node_budget) break;
    nodes += added;
    for (int32_t g : layer) expanded.insert(groups_[g].key);
    layer = std::move(next);
  }
  return expanded;
}

GraphPlace VisibleGraph::Locate(const HloInstruction* instruction) const {
  auto it = places.find(instruction);
  return it == places.end() ? GraphPlace{} : it->second;
}

std::vector<int32_t> VisibleGraph::NodesOf(
    const std::vector<const HloInstruction*>& instructions) const {
  std::vector<int32_t> nodes;
  for (const HloInstruction* instruction : instructions) {
    const GraphPlace place = Locate(instruction);
    if (place.node >= 0) nodes.push_back(place.node);
  }
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

namespace {

// Builds the visible graph of an HloGraph for one set of expanded groups.
class VisibleGraphBuilder {
 public:
  VisibleGraphBuilder(const HloGraph& graph, const absl::flat_hash_set<std::string>& expanded,
                      const absl::flat_hash_set<const HloInstruction*>& inlined)
      : graph_(graph), expanded_(expanded), inlined_(inlined) {}

  VisibleGraph Build() {
    EmitMembers(0, -1);
    EmitEdges(graph_.computation(), /*fused=*/false);
    // An inlined constant is found where its first user is drawn.
    for (const HloInstruction* constant : inlined_) {
      for (const HloInstruction* user : constant->users()) {
        GraphPlace place = out_.Locate(user);
        if (place.valid()) {
          out_.places[constant] = place;
          break;
        }
      }
    }
    return std::move(out_);
  }

 private:
  bool Expanded(int32_t group) const { return expanded_.contains(graph_.group(group).key); }

  bool IsExpandedFusion(const HloInstruction* instruction) const {
    if (instruction->opcode() != HloOpcode::kFusion) return false;
    auto it = fusion_group_.find(instruction);
    return it != fusion_group_.end() && Expanded(it->second);
  }

  int32_t AddInstructionNode(const HloInstruction* instruction, int32_t cluster, int32_t group) {
    GraphNode node;
    node.instruction = instruction;
    node.group = group;
    node.cluster = cluster;
    node.title = instruction->name();
    node.subtitle = SubtitleOf(*instruction);
    node.shape = ShortShapeString(instruction->shape());
    node.unit = ExecutionUnitOf(*instruction);
    if (instruction->opcode() == HloOpcode::kFusion) node.fusion_kind = instruction->fusion_kind();
    node.expandable = group >= 0;
    out_.nodes.push_back(std::move(node));
    const int32_t index = int32_t(out_.nodes.size() - 1);
    out_.places[instruction] = {index, -1};
    return index;
  }

  // Every instruction inside a group, fusion instructions included.
  void ForEachInside(int32_t group, const std::function<void(const HloInstruction*)>& fn) {
    const GraphGroup& g = graph_.group(group);
    if (g.fusion) fn(g.fusion);
    for (const GraphMember& m : g.members) {
      if (m.instruction) {
        fn(m.instruction);
      } else {
        ForEachInside(m.group, fn);
      }
    }
  }

  void EmitMembers(int32_t group, int32_t cluster) {
    for (const GraphMember& m : graph_.group(group).members) {
      if (m.instruction) {
        if (!inlined_.contains(m.instruction)) AddInstructionNode(m.instruction, cluster, -1);
        continue;
      }
      const GraphGroup& child = graph_.group(m.group);
      if (child.fusion) fusion_group_[child.fusion] = m.group;
      if (Expanded(m.group)) {
        GraphCluster c;
        c.group = m.group;
        c.parent = cluster;
        c.kind = child.kind;
        c.unit = child.unit;
        c.label = child.label;
        if (child.fusion) {
          c.fusion_kind = child.fusion->fusion_kind();
          c.label = absl::StrCat(child.label, " · ", FusionKindToString(child.fusion->fusion_kind()));
        }
        out_.clusters.push_back(std::move(c));
        const int32_t index = int32_t(out_.clusters.size() - 1);
        if (child.fusion) out_.places[child.fusion] = {-1, index};
        EmitMembers(m.group, index);
        continue;
      }
      int32_t node;
      if (child.fusion) {
        node = AddInstructionNode(child.fusion, cluster, m.group);
      } else {
        GraphNode n;
        n.group = m.group;
        n.cluster = cluster;
        n.title = child.label;
        n.subtitle = child.detail;
        n.shape = child.summary;
        n.unit = child.unit;
        n.expandable = true;
        out_.nodes.push_back(std::move(n));
        node = int32_t(out_.nodes.size() - 1);
      }
      // Collapsed fusions nested inside are collapsed too.
      ForEachInside(m.group, [&](const HloInstruction* inside) {
        if (!inlined_.contains(inside)) out_.places[inside] = {node, -1};
        if (inside->opcode() == HloOpcode::kFusion) {
          const int32_t g = graph_.FindGroup(absl::StrCat("fusion:", inside->name()));
          if (g >= 0) fusion_group_[inside] = g;
        }
      });
      if (child.fusion) out_.places[child.fusion] = {node, -1};
    }
  }

  // The instruction whose value leaves `u` as drawn: the root of an
  // expanded fusion, what a fused parameter stands for.
  const HloInstruction* Source(const HloInstruction* u) const {
    for (int guard = 0; guard < 64; ++guard) {
      if (IsExpandedFusion(u)) {
        u = u->fused_expression_root();
      } else if (IsFusedParameter(u)) {
        u = u->parent()->FusionInstruction()->operand(u->parameter_number());
      } else {
        break;
      }
    }
    return u;
  }

  // Where operand k of `v` arrives as drawn: inside an expanded fusion, at
  // every user of the fused parameter k.
  void Targets(const HloInstruction* v, int64_t k,
               std::vector<std::pair<const HloInstruction*, int64_t>>* out, int depth = 0) const {
    if (!IsExpandedFusion(v) || depth > 64) {
      out->push_back({v, k});
      return;
    }
    const HloComputation* fused = v->fused_instructions_computation();
    if (k >= fused->num_parameters()) return;
    const HloInstruction* parameter = fused->parameter_instruction(k);
    for (const HloInstruction* user : parameter->users()) {
      for (int64_t j = 0; j < user->operand_count(); ++j) {
        if (user->operand(j) == parameter) Targets(user, j, out, depth + 1);
      }
    }
    if (parameter->IsRoot()) out->push_back({v, k});
  }

  int32_t NodeOf(const HloInstruction* instruction) const {
    return out_.Locate(instruction).node;
  }

  void Link(int32_t from, int32_t to, const HloInstruction* value, bool control) {
    if (from < 0 || to < 0 || from == to) return;
    auto key = std::make_tuple(from, to, control);
    auto it = edge_index_.find(key);
    if (it == edge_index_.end()) {
      GraphEdge edge;
      edge.from = from;
      edge.to = to;
      edge.control = control;
      edge.label = control ? "" : ShortShapeString(value->shape(), 28);
      out_.edges.push_back(std::move(edge));
      edge_index_[key] = out_.edges.size() - 1;
      edge_values_[out_.edges.size() - 1].insert(value);
      return;
    }
    auto& values = edge_values_[it->second];
    if (values.insert(value).second && !control) {
      GraphEdge& edge = out_.edges[it->second];
      edge.value_count = int32_t(values.size());
      edge.label = absl::StrCat(values.size(), " values");
    }
  }

  void EmitEdges(const HloComputation& computation, bool fused) {
    std::vector<std::pair<const HloInstruction*, int64_t>> targets;
    for (const HloInstruction* v : computation.MakeInstructionPostOrder()) {
      if (fused && v->opcode() == HloOpcode::kParameter) continue;
      if (inlined_.contains(v)) continue;
      for (int64_t k = 0; k < v->operand_count(); ++k) {
        const HloInstruction* u = v->operand(k);
        if (fused && u->opcode() == HloOpcode::kParameter) continue;  // arrives from outside
        const HloInstruction* source = Source(u);
        targets.clear();
        Targets(v, k, &targets);
        for (const auto& [target, operand] : targets) {
          if (inlined_.contains(source)) {
            const int32_t node = NodeOf(target);
            if (node >= 0 && out_.nodes[node].instruction == target) {
              out_.nodes[node].inlined.push_back(
                  absl::StrCat("operand ", operand, ": ", source->literal().ToStringWithoutShape()));
            }
            continue;
          }
          Link(NodeOf(source), NodeOf(target), source, false);
        }
      }
      for (const HloInstruction* predecessor : v->control_predecessors()) {
        Link(NodeOf(Source(predecessor)), NodeOf(v), predecessor, true);
      }
      if (IsExpandedFusion(v)) EmitEdges(*v->fused_instructions_computation(), true);
    }
  }

  const HloGraph& graph_;
  const absl::flat_hash_set<std::string>& expanded_;
  const absl::flat_hash_set<const HloInstruction*>& inlined_;
  VisibleGraph out_;
  absl::flat_hash_map<const HloInstruction*, int32_t> fusion_group_;
  std::map<std::tuple<int32_t, int32_t, bool>, size_t> edge_index_;
  absl::flat_hash_map<size_t, absl::flat_hash_set<const HloInstruction*>> edge_values_;
};

}  // namespace

VisibleGraph HloGraph::Visible(const absl::flat_hash_set<std::string>& expanded) const {
  return VisibleGraphBuilder(*this, expanded, inlined_).Build();
}

}  // namespace systolic::analysis
