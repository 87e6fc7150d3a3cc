#include "core/hlo/hlo_verifier.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/container/node_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/hlo/shape_inference.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

// Operand shapes of one instruction: a few, so kept inline (no allocation).
using Shapes = absl::InlinedVector<const Shape*, 4>;

std::string Text(const Shape& shape) { return shape.ToString(); }
std::string Text(PrimitiveType type) {
  return std::string(primitive_util::LowercasePrimitiveTypeName(type));
}
std::string Text(HloOpcode opcode) { return std::string(HloOpcodeString(opcode)); }

template <typename... Args>
absl::Status Invalid(const Args&... pieces) {
  return absl::InvalidArgumentError(absl::StrCat(pieces...));
}

bool CheckedMul(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }

// The subshape at `index`, or null when the index leaves the shape.
const Shape* Subshape(const Shape& shape, const ShapeIndex& index) {
  const Shape* s = &shape;
  for (int64_t i : index) {
    if (!s->IsTuple() || i < 0 || i >= s->tuple_shapes_size()) return nullptr;
    s = &s->tuple_shapes(i);
  }
  return s;
}

// Non-tuple subshapes in order (arrays, tokens, opaques).
void CollectLeaves(const Shape& shape, std::vector<const Shape*>* leaves) {
  if (!shape.IsTuple()) {
    leaves->push_back(&shape);
    return;
  }
  for (const Shape& s : shape.tuple_shapes()) CollectLeaves(s, leaves);
}

// Bytes of an array, or nullopt for tuples, unbounded shapes and overflow.
std::optional<int64_t> ByteSize(const Shape& shape) {
  if (!shape.IsArray()) return std::nullopt;
  int64_t n = primitive_util::ByteWidth(shape.element_type());
  for (int64_t d : shape.dimensions()) {
    if (d < 0 || !CheckedMul(n, d, &n)) return std::nullopt;
  }
  return n;
}

// What "equal" means when an instruction's shape is checked.
struct ShapeComparison {
  bool compare_layouts = false;
  bool minor_to_major_only = false;  // copy-start/-done may change memory space
  bool ignore_fp_precision = false;
};

bool ShapesMatch(const Shape& a, const Shape& b, const ShapeComparison& how) {
  if (a.element_type() != b.element_type()) {
    const bool both_float = primitive_util::IsFloatingPointType(a.element_type()) &&
                            primitive_util::IsFloatingPointType(b.element_type());
    if (!how.ignore_fp_precision || !both_float) return false;
  }
  if (a.IsTuple()) {
    if (a.tuple_shapes_size() != b.tuple_shapes_size()) return false;
    for (int64_t i = 0; i < a.tuple_shapes_size(); ++i) {
      if (!ShapesMatch(a.tuple_shapes(i), b.tuple_shapes(i), how)) return false;
    }
    return true;
  }
  if (!a.IsArray()) return true;
  if (a.dimensions() != b.dimensions()) return false;
  for (int64_t i = 0; i < a.rank(); ++i) {
    if (a.is_dynamic_dimension(i) != b.is_dynamic_dimension(i)) return false;
  }
  if (how.compare_layouts && a.has_layout() && b.has_layout()) {
    if (how.minor_to_major_only) return a.layout().minor_to_major() == b.layout().minor_to_major();
    return a.layout() == b.layout();
  }
  return true;
}

bool ShapesMatchIgnoringLayout(const Shape& a, const Shape& b) { return ShapesMatch(a, b, {}); }

// Instructions that only move or reinterpret data: their shape must equal the
// inferred one exactly (layouts too, when layout-sensitive; no fp precision
// changes).
bool PassesDataThrough(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kBitcast:
    case HloOpcode::kCall:
    case HloOpcode::kConditional:
    case HloOpcode::kConstant:
    case HloOpcode::kCopyDone:
    case HloOpcode::kCopyStart:
    case HloOpcode::kCustomCall:
    case HloOpcode::kGetTupleElement:
    case HloOpcode::kInfeed:
    case HloOpcode::kOutfeed:
    case HloOpcode::kOptimizationBarrier:
    case HloOpcode::kParameter:
    case HloOpcode::kRecv:
    case HloOpcode::kRecvDone:
    case HloOpcode::kSend:
    case HloOpcode::kSendDone:
    case HloOpcode::kTuple:
    case HloOpcode::kWhile:
      return true;
    default:
      return false;
  }
}

// Instructions whose operands may legitimately mix floating-point types
// (they group or pass buffers, or choose their own result type), as in XLA.
bool MayMixPrecision(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kCall:
    case HloOpcode::kConditional:
    case HloOpcode::kConstant:
    case HloOpcode::kConvolution:
    case HloOpcode::kDot:
    case HloOpcode::kRaggedDot:
    case HloOpcode::kScaledDot:
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart:
    case HloOpcode::kAllReduceDone:
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
    case HloOpcode::kAllGatherDone:
    case HloOpcode::kAsyncDone:
    case HloOpcode::kAsyncUpdate:
    case HloOpcode::kAsyncStart:
    case HloOpcode::kCopyDone:
    case HloOpcode::kCopyStart:
    case HloOpcode::kCustomCall:
    case HloOpcode::kDomain:
    case HloOpcode::kFusion:
    case HloOpcode::kGetTupleElement:
    case HloOpcode::kOptimizationBarrier:
    case HloOpcode::kInfeed:
    case HloOpcode::kOutfeed:
    case HloOpcode::kParameter:
    case HloOpcode::kRecv:
    case HloOpcode::kRecvDone:
    case HloOpcode::kReducePrecision:
    case HloOpcode::kReduceWindow:
    case HloOpcode::kSend:
    case HloOpcode::kSendDone:
    case HloOpcode::kSort:
    case HloOpcode::kTuple:
    case HloOpcode::kWhile:
      return true;
    default:
      return false;
  }
}

// Opcodes that may call computations; no other instruction may.
bool MayCallComputations(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart:
    case HloOpcode::kAsyncStart:
    case HloOpcode::kAsyncUpdate:
    case HloOpcode::kAsyncDone:
    case HloOpcode::kCall:
    case HloOpcode::kConditional:
    case HloOpcode::kCustomCall:
    case HloOpcode::kFusion:
    case HloOpcode::kMap:
    case HloOpcode::kReduce:
    case HloOpcode::kReduceScatter:
    case HloOpcode::kReduceWindow:
    case HloOpcode::kScatter:
    case HloOpcode::kSelectAndScatter:
    case HloOpcode::kSort:
    case HloOpcode::kTopK:
    case HloOpcode::kWhile:
      return true;
    default:
      return false;
  }
}

// How a collective's replica groups name devices (XLA's CollectiveOpGroupMode).
enum class GroupMode { kCrossReplica, kCrossPartition, kCrossReplicaAndPartition, kFlattenedId };

// The opcodes whose operand must come from the matching start instruction
// (directly, or through a tuple or parameter when pipelined).
std::optional<HloOpcode> StartOpcodeFor(HloOpcode done) {
  switch (done) {
    case HloOpcode::kAllReduceDone:
      return HloOpcode::kAllReduceStart;
    case HloOpcode::kAllGatherDone:
      return HloOpcode::kAllGatherStart;
    case HloOpcode::kCollectivePermuteDone:
      return HloOpcode::kCollectivePermuteStart;
    case HloOpcode::kCopyDone:
      return HloOpcode::kCopyStart;
    case HloOpcode::kSendDone:
      return HloOpcode::kSend;
    case HloOpcode::kRecvDone:
      return HloOpcode::kRecv;
    case HloOpcode::kAsyncUpdate:
    case HloOpcode::kAsyncDone:
      return HloOpcode::kAsyncStart;
    default:
      return std::nullopt;
  }
}

class Verifier {
 public:
  Verifier(const HloModule& module, const HloVerifierOptions& options)
      : module_(module), options_(options) {}

  absl::Status Run();
  absl::StatusOr<Shape> InferShapeOf(const HloInstruction& instr) { return InferShape(instr); }

 private:
  // --- Messages -------------------------------------------------------------
  std::string FilePrefix() const;
  template <typename... Args>
  absl::Status Error(const HloInstruction& instr, const Args&... pieces) const;
  template <typename... Args>
  absl::Status Error(const HloComputation& computation, const Args&... pieces) const;
  template <typename... Args>
  absl::Status ModuleError(const Args&... pieces) const;

  // --- Graph structure --------------------------------------------------------
  absl::Status VerifyComputationList();
  absl::Status VerifyComputationStructure(const HloComputation& computation);
  // What one walk over a computation's instructions gathers for the checks
  // that need all of them.
  struct StructureWalk {
    explicit StructureWalk(const HloComputation& c)
        : uses(size_t(c.instruction_index_bound()), 0) {}
    std::vector<int64_t> uses;  // distinct users seen per instruction (dense index)
    // Users of instructions with many, as sets (a parameter may feed thousands).
    absl::flat_hash_map<const HloInstruction*, absl::flat_hash_set<const HloInstruction*>> user_sets;
    bool operands_first = true;  // every operand has a smaller index than its user
  };
  absl::Status VerifyInstructionLinks(const HloComputation& computation,
                                      const HloInstruction& instr, StructureWalk* walk);
  absl::Status VerifyUseLink(const HloInstruction& user, const HloInstruction& operand,
                             StructureWalk* walk);
  absl::Status VerifyUserLists(const HloComputation& computation, const StructureWalk& walk);
  absl::Status VerifyAcyclic(const HloComputation& computation);  // depth-first search
  absl::Status VerifyCallGraph();
  absl::Status VerifyNamesAndShapes();  // unique names, well-formed shapes

  // --- Instructions -----------------------------------------------------------
  absl::Status VerifyShapeWellFormed(const HloInstruction& instr);
  absl::Status VerifyInstruction(const HloInstruction& instr);
  absl::Status CheckShape(const HloInstruction& instr, const Shape& inferred);
  absl::Status CheckMixedPrecision(const HloInstruction& instr);
  absl::Status VerifySharding(const HloInstruction& instr);
  absl::StatusOr<Shape> InferShape(const HloInstruction& instr);
  absl::StatusOr<Shape> InferCollectiveShape(const HloInstruction& instr);
  absl::StatusOr<Shape> InferAsyncShape(const HloInstruction& instr);
  absl::Status CheckCustomCall(const HloInstruction& instr);
  absl::Status CheckComparison(const HloInstruction& instr);

  // --- Collectives ------------------------------------------------------------
  absl::StatusOr<GroupMode> GetGroupMode(const HloInstruction& instr, bool has_global_ids_flag);
  absl::Status CheckReplicaGroups(const HloInstruction& instr, GroupMode mode, bool uniform);
  absl::StatusOr<int64_t> GroupSize(const HloInstruction& instr, GroupMode mode);
  absl::Status CheckSourceTargetPairs(const HloInstruction& instr);

  // --- Module header ----------------------------------------------------------
  absl::Status VerifyEntryComputationLayout();
  absl::Status VerifyAliasing();
  absl::Status VerifySchedule();

  // Each computation's instructions, listed once for all the checks.
  const std::vector<HloInstruction*>& InstructionsOf(const HloComputation& c);

  const HloModule& module_;
  const HloVerifierOptions& options_;
  absl::flat_hash_set<const HloComputation*> computations_;
  // Node map: references stay valid while more computations are listed.
  absl::node_hash_map<const HloComputation*, std::vector<HloInstruction*>> instructions_;
};

const std::vector<HloInstruction*>& Verifier::InstructionsOf(const HloComputation& c) {
  auto [it, inserted] = instructions_.try_emplace(&c);
  if (inserted) it->second = c.instructions();
  return it->second;
}

// --- Messages ---------------------------------------------------------------------

std::string Verifier::FilePrefix() const {
  return module_.source_filename().empty() ? "" : absl::StrCat(module_.source_filename(), ": ");
}

template <typename... Args>
absl::Status Verifier::Error(const HloInstruction& instr, const Args&... pieces) const {
  const HloInstruction::SourceLocation& where = instr.source_location();
  std::string prefix;
  if (where.line > 0) {
    prefix = absl::StrCat(module_.source_filename().empty() ? "" : module_.source_filename() + ":",
                          where.line, ":", where.column, ": %", instr.name());
  } else {
    const HloComputation* c = instr.parent();
    prefix = absl::StrCat("computation %", c ? c->name() : std::string("?"), ": %", instr.name());
  }
  return absl::InvalidArgumentError(absl::StrCat(prefix, ": ", pieces...));
}

template <typename... Args>
absl::Status Verifier::Error(const HloComputation& computation, const Args&... pieces) const {
  return absl::InvalidArgumentError(
      absl::StrCat(FilePrefix(), "computation %", computation.name(), ": ", pieces...));
}

template <typename... Args>
absl::Status Verifier::ModuleError(const Args&... pieces) const {
  return absl::InvalidArgumentError(
      absl::StrCat(FilePrefix(), "module ", module_.name(), ": ", pieces...));
}

// --- Graph structure -----------------------------------------------------------------

// An instruction belongs to `c` when it names `c` as its parent: only
// HloComputation::AddInstruction sets the parent, so this is as strong as a
// set of members and needs none. Its dense index then addresses per-
// instruction state in a vector.
bool IsMember(const HloComputation& c, const HloInstruction* instr) {
  return instr != nullptr && instr->parent() == &c && instr->index_in_computation() >= 0 &&
         instr->index_in_computation() < c.instruction_index_bound();
}

size_t Slot(const HloInstruction* instr) { return size_t(instr->index_in_computation()); }

absl::Status Verifier::VerifyComputationList() {
  if (module_.replica_count() < 1) {
    return ModuleError("replica_count=", module_.replica_count(), " must be at least 1");
  }
  if (module_.num_partitions() < 1) {
    return ModuleError("num_partitions=", module_.num_partitions(), " must be at least 1");
  }
  absl::flat_hash_map<absl::string_view, const HloComputation*> by_name;
  for (const HloComputation* c : module_.computations()) {
    if (c == nullptr) return ModuleError("has a null computation");
    if (c->parent() != &module_) {
      return Error(*c, "belongs to another module");
    }
    if (!by_name.emplace(c->name(), c).second) {
      return ModuleError("has two computations named %", c->name());
    }
    computations_.insert(c);
  }
  const HloComputation* entry = module_.entry_computation();
  if (entry == nullptr) return ModuleError("has no entry computation");
  if (!computations_.contains(entry)) {
    return ModuleError("its entry computation %", entry->name(), " is not one of its computations");
  }
  return absl::OkStatus();
}

absl::Status Verifier::VerifyComputationStructure(const HloComputation& c) {
  const std::vector<HloInstruction*>& instructions = InstructionsOf(c);
  if (instructions.empty()) return Error(c, "has no instructions");
  for (const HloInstruction* instr : instructions) {
    if (instr == nullptr) return Error(c, "has a null instruction");
  }

  const HloInstruction* root = c.root_instruction();
  if (root == nullptr) return Error(c, "has no root instruction");
  if (!IsMember(c, root)) {
    return Error(c, "its root %", root->name(), " is not one of its instructions");
  }
  for (int64_t i = 0; i < c.num_parameters(); ++i) {
    const HloInstruction* p = c.parameter_instruction(i);
    if (p == nullptr) return Error(c, "has no parameter(", i, ") but has parameters after it");
    if (!IsMember(c, p)) {
      return Error(c, "its parameter ", i, " %", p->name(), " is not one of its instructions");
    }
    if (p->opcode() != HloOpcode::kParameter) {
      return Error(*p, "is registered as parameter ", i, " but is a ", Text(p->opcode()));
    }
    if (p->parameter_number() != i) {
      return Error(*p, "is parameter(", p->parameter_number(), ") but is registered as parameter ",
                   i);
    }
  }
  StructureWalk walk(c);
  for (const HloInstruction* instr : instructions) {
    SYSTOLIC_RETURN_IF_ERROR(VerifyInstructionLinks(c, *instr, &walk));
  }
  if (c.IsFusionComputation()) {
    const HloInstruction* fusion = c.FusionInstruction();
    if (fusion->opcode() != HloOpcode::kFusion || fusion->called_computations().empty() ||
        fusion->called_computations()[0] != &c || !computations_.contains(fusion->parent())) {
      return Error(c, "is marked as the body of %", fusion->name(),
                   ", which is not a fusion of this module calling it");
    }
  }
  SYSTOLIC_RETURN_IF_ERROR(VerifyUserLists(c, walk));
  // Instructions listed after all of their dependencies are in a
  // topological order, which no cycle has: the search is needed only when a
  // pass added an instruction after one of its users.
  return walk.operands_first ? absl::OkStatus() : VerifyAcyclic(c);
}

absl::Status Verifier::VerifyInstructionLinks(const HloComputation& c,
                                              const HloInstruction& instr, StructureWalk* walk) {
  if (instr.name().empty()) return Error(instr, "has no name");
  if (!IsMember(c, &instr)) {
    return Error(instr, "is in computation %", c.name(), " but names another as its parent");
  }
  if (instr.opcode() == HloOpcode::kParameter) {
    const int64_t n = instr.parameter_number();
    if (n < 0 || n >= c.num_parameters() || c.parameter_instruction(n) != &instr) {
      return Error(instr, "parameter(", n, ") is not registered as parameter ", n,
                   " of the computation (defined twice or added without AddParameter)");
    }
  }
  for (int64_t i = 0; i < instr.operand_count(); ++i) {
    const HloInstruction* op = instr.operand(i);
    if (op == nullptr) return Error(instr, "operand ", i, " is null");
    if (!IsMember(c, op)) {
      return Error(instr, "operand ", i, " %", op->name(), " is not in computation %", c.name());
    }
    if (op->index_in_computation() >= instr.index_in_computation()) walk->operands_first = false;
    // Each distinct operand is checked and counted once.
    const auto earlier = instr.operands().begin() + i;
    if (std::find(instr.operands().begin(), earlier, op) == earlier) {
      SYSTOLIC_RETURN_IF_ERROR(VerifyUseLink(instr, *op, walk));
    }
  }
  for (const HloInstruction* pred : instr.control_predecessors()) {
    if (!IsMember(c, pred)) {
      return Error(instr, "has a control predecessor outside computation %", c.name());
    }
    if (pred->index_in_computation() >= instr.index_in_computation()) walk->operands_first = false;
    const auto& succs = pred->control_successors();
    if (std::find(succs.begin(), succs.end(), &instr) == succs.end()) {
      return Error(instr, "lists %", pred->name(),
                   " as a control predecessor, but is not among its control successors");
    }
  }
  for (const HloInstruction* succ : instr.control_successors()) {
    if (!IsMember(c, succ)) {
      return Error(instr, "has a control successor outside computation %", c.name());
    }
    const auto& preds = succ->control_predecessors();
    if (std::find(preds.begin(), preds.end(), &instr) == preds.end()) {
      return Error(instr, "lists %", succ->name(),
                   " as a control successor, but is not among its control predecessors");
    }
  }
  if (!instr.called_computations().empty() && !MayCallComputations(instr.opcode())) {
    return Error(instr, Text(instr.opcode()), " cannot call computations, but calls %",
                 instr.called_computations()[0] ? instr.called_computations()[0]->name()
                                                : std::string("null"));
  }
  for (const HloComputation* callee : instr.called_computations()) {
    if (callee == nullptr) return Error(instr, "calls a null computation");
    if (!computations_.contains(callee)) {
      return Error(instr, "calls %", callee->name(), ", which is not a computation of the module");
    }
    if (instr.opcode() == HloOpcode::kFusion) {
      if (callee->FusionInstruction() != &instr) {
        return Error(instr, "calls %", callee->name(), ", which is not marked as its fused computation");
      }
    } else if (callee->IsFusionComputation()) {
      return Error(instr, "calls %", callee->name(), ", the fused computation of %",
                   callee->FusionInstruction()->name());
    }
  }
  if (instr.opcode() == HloOpcode::kFusion && instr.called_computations().size() != 1) {
    return Error(instr, "fusion needs exactly one fused computation, but calls ",
                 instr.called_computations().size());
  }
  return absl::OkStatus();
}

absl::Status Verifier::VerifyUseLink(const HloInstruction& user, const HloInstruction& operand,
                                     StructureWalk* walk) {
  // Every use is listed by the operand.
  const auto& users = operand.users();
  bool listed;
  if (users.size() <= 16) {
    listed = std::find(users.begin(), users.end(), &user) != users.end();
  } else {
    auto [it, inserted] = walk->user_sets.try_emplace(&operand);
    if (inserted) it->second.insert(users.begin(), users.end());
    listed = it->second.contains(&user);
  }
  if (!listed) return Error(user, "uses %", operand.name(), " but is not among its users");
  ++walk->uses[Slot(&operand)];
  return absl::OkStatus();
}

absl::Status Verifier::VerifyUserLists(const HloComputation& c, const StructureWalk& walk) {
  // Each instruction lists exactly the instructions that use it, once each:
  // with every use listed (VerifyUseLink), equal counts settle it.
  for (const HloInstruction* instr : InstructionsOf(c)) {
    const auto& users = instr->users();
    if (int64_t(users.size()) == walk.uses[Slot(instr)]) continue;
    absl::flat_hash_set<const HloInstruction*> seen;
    for (const HloInstruction* user : users) {
      if (!IsMember(c, user)) {
        return Error(*instr, "lists a user outside computation %", c.name());
      }
      if (user->operand_index(instr) < 0) {
        return Error(*instr, "lists %", user->name(), " as a user, but it does not use it");
      }
      if (!seen.insert(user).second) return Error(*instr, "lists user %", user->name(), " twice");
    }
  }
  return absl::OkStatus();
}

absl::Status Verifier::VerifyAcyclic(const HloComputation& c) {
  enum State : uint8_t { kUnvisited, kOnPath, kDone };
  std::vector<State> state(size_t(c.instruction_index_bound()), kUnvisited);
  // Iterative depth-first search over operands and control predecessors
  // (all members of `c`, checked before).
  std::vector<std::pair<const HloInstruction*, size_t>> stack;
  auto dependency = [](const HloInstruction* instr, size_t i) {
    const size_t n = instr->operands().size();
    return i < n ? instr->operands()[i] : instr->control_predecessors()[i - n];
  };
  for (const HloInstruction* start : InstructionsOf(c)) {
    if (state[Slot(start)] != kUnvisited) continue;
    state[Slot(start)] = kOnPath;
    stack.push_back({start, 0});
    while (!stack.empty()) {
      auto& [instr, next] = stack.back();
      const size_t total = instr->operands().size() + instr->control_predecessors().size();
      if (next == total) {
        state[Slot(instr)] = kDone;
        stack.pop_back();
        continue;
      }
      const HloInstruction* dep = dependency(instr, next++);
      State& s = state[Slot(dep)];
      if (s == kOnPath) {
        return Error(*dep, "is part of a cycle: it depends on itself through %", instr->name());
      }
      if (s == kUnvisited) {
        s = kOnPath;
        stack.push_back({dep, 0});
      }
    }
  }
  return absl::OkStatus();
}

absl::Status Verifier::VerifyCallGraph() {
  const HloComputation* entry = module_.entry_computation();
  absl::flat_hash_map<const HloComputation*, std::vector<const HloComputation*>> callees;
  for (const HloComputation* c : module_.computations()) {
    auto& list = callees[c];
    for (const HloInstruction* instr : InstructionsOf(*c)) {
      for (const HloComputation* callee : instr->called_computations()) {
        if (callee == entry) {
          return Error(*instr, "calls the entry computation %", entry->name());
        }
        list.push_back(callee);
      }
    }
  }
  enum State { kUnvisited, kOnPath, kDone };
  absl::flat_hash_map<const HloComputation*, State> state;
  std::vector<std::pair<const HloComputation*, size_t>> stack;
  for (const HloComputation* start : module_.computations()) {
    if (state[start] != kUnvisited) continue;
    state[start] = kOnPath;
    stack.push_back({start, 0});
    while (!stack.empty()) {
      auto& [c, next] = stack.back();
      const auto& list = callees[c];
      if (next == list.size()) {
        state[c] = kDone;
        stack.pop_back();
        continue;
      }
      const HloComputation* callee = list[next++];
      State& s = state[callee];
      if (s == kOnPath) {
        return Error(*callee, "calls itself (through %", c->name(), ")");
      }
      if (s == kUnvisited) {
        s = kOnPath;
        stack.push_back({callee, 0});
      }
    }
  }
  return absl::OkStatus();
}

absl::Status Verifier::VerifyNamesAndShapes() {
  // XLA text scopes names by computation (a parameter `x` in two computations
  // is common), so module-wide uniqueness is optional. Both checks read each
  // instruction once, in one sweep: on a large module the sweeps, not the
  // checks, are what costs.
  absl::flat_hash_map<absl::string_view, const HloInstruction*> by_name;
  for (const HloComputation* c : module_.computations()) {
    if (!options_.unique_names_across_module) by_name.clear();
    by_name.reserve(by_name.size() + size_t(c->instruction_count()));
    for (const HloInstruction* instr : InstructionsOf(*c)) {
      auto [it, inserted] = by_name.emplace(instr->name(), instr);
      if (!inserted) {
        if (it->second->parent() == c) {
          return Error(*instr, "the name %", instr->name(), " is used twice in the computation");
        }
        return Error(*instr, "the name %", instr->name(),
                     " is already used by an instruction of computation %",
                     it->second->parent()->name());
      }
      SYSTOLIC_RETURN_IF_ERROR(VerifyShapeWellFormed(*instr));
    }
  }
  return absl::OkStatus();
}

// --- Instructions ------------------------------------------------------------------

// Why `shape` is malformed, or "" when it is well formed.
std::string ShapeProblem(const Shape& shape, bool need_layout) {
  const PrimitiveType type = shape.element_type();
  if (type == PRIMITIVE_TYPE_INVALID || type >= PRIMITIVE_TYPE_COUNT) {
    return "has an invalid element type";
  }
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      std::string problem = ShapeProblem(element, need_layout);
      if (!problem.empty()) return problem;
    }
    return "";
  }
  if (!shape.IsArray()) {
    return shape.rank() == 0 ? "" : absl::StrCat("has dimensions on a ", Text(type));
  }
  for (int64_t i = 0; i < shape.rank(); ++i) {
    const int64_t d = shape.dimensions(i);
    if (d < 0 && d != Shape::kUnboundedSize) return absl::StrCat("has a negative dimension ", d);
  }
  if (!shape.has_layout()) {
    return need_layout && shape.rank() > 0 ? "has no layout (layout-sensitive verification)" : "";
  }
  const std::vector<int64_t>& m2m = shape.layout().minor_to_major();
  bool permutation = int64_t(m2m.size()) == shape.rank();
  for (size_t i = 0; permutation && i < m2m.size(); ++i) {
    permutation = m2m[i] >= 0 && m2m[i] < shape.rank() &&
                  std::find(m2m.begin(), m2m.begin() + i, m2m[i]) == m2m.begin() + i;
  }
  if (!permutation) {
    return absl::StrCat("has a layout ", shape.layout().ToString(),
                        " that is not a permutation of its ", shape.rank(), " dimensions");
  }
  return "";
}

absl::Status Verifier::VerifyShapeWellFormed(const HloInstruction& instr) {
  std::string problem = ShapeProblem(instr.shape(), options_.layout_sensitive);
  if (problem.empty()) return absl::OkStatus();
  return Error(instr, "its shape ", instr.shape().ToString(true), " ", problem);
}

absl::Status Verifier::VerifyInstruction(const HloInstruction& instr) {
  const int arity = HloOpcodeArity(instr.opcode());
  if (arity != kHloOpcodeVariadic && instr.operand_count() != arity) {
    return Error(instr, Text(instr.opcode()), " takes ", arity, arity == 1 ? " operand" : " operands",
                 " but has ", instr.operand_count());
  }
  SYSTOLIC_RETURN_IF_ERROR(VerifySharding(instr));
  absl::StatusOr<Shape> inferred = InferShape(instr);
  if (!inferred.ok()) return Error(instr, inferred.status().message());
  if (!options_.allow_mixed_precision) SYSTOLIC_RETURN_IF_ERROR(CheckMixedPrecision(instr));
  return CheckShape(instr, *inferred);
}

absl::Status Verifier::CheckShape(const HloInstruction& instr, const Shape& inferred) {
  const HloOpcode opcode = instr.opcode();
  ShapeComparison how;
  how.compare_layouts = options_.layout_sensitive && PassesDataThrough(opcode);
  how.minor_to_major_only = opcode == HloOpcode::kCopyStart || opcode == HloOpcode::kCopyDone;
  how.ignore_fp_precision = options_.allow_mixed_precision && !PassesDataThrough(opcode);
  if (ShapesMatch(instr.shape(), inferred, how)) return absl::OkStatus();
  // Print layouts only when they are the difference.
  const bool print_layouts = ShapesMatchIgnoringLayout(instr.shape(), inferred);
  return Error(instr, Text(opcode), " has the wrong shape, expected ",
               inferred.ToString(print_layouts), " but the instruction says ",
               instr.shape().ToString(print_layouts));
}

absl::Status Verifier::CheckMixedPrecision(const HloInstruction& instr) {
  if (MayMixPrecision(instr.opcode())) return absl::OkStatus();
  PrimitiveType seen = PRIMITIVE_TYPE_INVALID;
  PrimitiveType other = PRIMITIVE_TYPE_INVALID;
  // Walks the leaves of a shape; false once a second floating-point type shows.
  auto visit = [&](const Shape& shape, auto&& self) -> bool {
    if (shape.IsTuple()) {
      for (const Shape& element : shape.tuple_shapes()) {
        if (!self(element, self)) return false;
      }
      return true;
    }
    const PrimitiveType type = shape.element_type();
    if (!primitive_util::IsFloatingPointType(type)) return true;
    if (seen == PRIMITIVE_TYPE_INVALID) seen = type;
    if (seen == type) return true;
    other = type;
    return false;
  };
  for (const HloInstruction* op : instr.operands()) {
    if (!visit(op->shape(), visit)) {
      return Error(instr, Text(instr.opcode()), " mixes floating-point types ", Text(seen), " and ",
                   Text(other), " in its operands (mixed precision is not allowed)");
    }
  }
  return absl::OkStatus();
}

// Why `sharding` cannot apply to `shape`, or "" when it can.
std::string ShardingProblem(const HloSharding& sharding, const Shape& shape) {
  if (shape.IsToken()) return "";
  if (sharding.IsTuple()) {
    if (!shape.IsTuple()) return absl::StrCat("a tuple sharding needs a tuple shape, not ", Text(shape));
    std::vector<const Shape*> leaves;
    CollectLeaves(shape, &leaves);
    if (sharding.tuple_elements().size() != leaves.size()) {
      return absl::StrCat("the tuple sharding has ", sharding.tuple_elements().size(),
                          " elements but the shape ", Text(shape), " has ", leaves.size(),
                          " leaves");
    }
    for (size_t i = 0; i < leaves.size(); ++i) {
      const HloSharding& element = sharding.tuple_elements()[i];
      if (element.IsTuple()) return "a tuple sharding cannot nest tuple shardings";
      std::string problem = ShardingProblem(element, *leaves[i]);
      if (!problem.empty()) return absl::StrCat("element ", i, ": ", problem);
    }
    return "";
  }
  // A single sharding of a tuple applies to each of its leaves.
  if (shape.IsTuple()) {
    std::vector<const Shape*> leaves;
    CollectLeaves(shape, &leaves);
    for (const Shape* leaf : leaves) {
      std::string problem = ShardingProblem(sharding, *leaf);
      if (!problem.empty()) return problem;
    }
    return "";
  }
  if (sharding.IsTileMaximal() && sharding.device() < 0) {
    return absl::StrCat("device ", sharding.device(), " is negative");
  }
  if (!sharding.IsTiled()) return "";
  if (!shape.IsArray()) return absl::StrCat("a tiled sharding needs an array, not ", Text(shape));
  if (sharding.TiledDataRank() != shape.rank()) {
    return absl::StrCat("the tiled sharding ", sharding.ToString(), " has ", sharding.TiledDataRank(),
                        " data dimensions but the shape ", Text(shape), " has rank ", shape.rank());
  }
  const TileAssignment& tiles = sharding.tile_assignment();
  int64_t count = 1;
  for (int64_t d : tiles.dimensions()) {
    if (d <= 0 || !CheckedMul(count, d, &count)) {
      return absl::StrCat("the tile assignment of ", sharding.ToString(), " is malformed");
    }
  }
  if (int64_t(tiles.devices().size()) != count) {
    return absl::StrCat("the tile assignment of ", sharding.ToString(), " lists ",
                        tiles.devices().size(), " devices for ", count, " tiles");
  }
  absl::flat_hash_set<int64_t> devices;
  for (int64_t d : tiles.devices()) {
    if (d < 0 || !devices.insert(d).second) {
      return absl::StrCat("the tile assignment of ", sharding.ToString(),
                          " has a negative or repeated device ", d);
    }
  }
  return "";
}

absl::Status Verifier::VerifySharding(const HloInstruction& instr) {
  if (!instr.has_sharding()) return absl::OkStatus();
  std::string problem = ShardingProblem(instr.sharding(), instr.shape());
  if (problem.empty()) return absl::OkStatus();
  return Error(instr, "sharding=", instr.sharding().ToString(), " does not fit the shape: ",
               problem);
}

// --- Shape inference per opcode ---------------------------------------------------

Shapes OperandShapes(const HloInstruction& instr, int64_t begin = 0, int64_t end = -1) {
  if (end < 0) end = instr.operand_count();
  Shapes shapes;
  for (int64_t i = begin; i < end; ++i) shapes.push_back(&instr.operand(i)->shape());
  return shapes;
}

absl::Status ExpectOperandCount(const HloInstruction& instr, int64_t n) {
  if (instr.operand_count() == n) return absl::OkStatus();
  return Invalid(Text(instr.opcode()), " takes ", n, n == 1 ? " operand" : " operands",
                 " but has ", instr.operand_count());
}

absl::Status ExpectAtLeastOperands(const HloInstruction& instr, int64_t n) {
  if (instr.operand_count() >= n) return absl::OkStatus();
  return Invalid(Text(instr.opcode()), " takes at least ", n, n == 1 ? " operand" : " operands",
                 " but has ", instr.operand_count());
}

absl::Status ExpectCalledCount(const HloInstruction& instr, size_t n) {
  if (instr.called_computations().size() == n) return absl::OkStatus();
  return Invalid(Text(instr.opcode()), " needs ", n,
                 n == 1 ? " called computation" : " called computations", " but has ",
                 instr.called_computations().size());
}

ProgramShape Program(const HloComputation* computation) {
  return computation->ComputeProgramShape();
}

// The single entry of `dimensions` that some opcodes use (concatenate, iota,
// sort, all-gather, ...).
absl::StatusOr<int64_t> SingleDimension(const HloInstruction& instr) {
  if (instr.dimensions().size() == 1) return instr.dimensions()[0];
  return Invalid(Text(instr.opcode()), " needs exactly one dimension in dimensions=",
                 BracedList(instr.dimensions()));
}

// The result element type an instruction declares (dot and convolution may
// choose it).
std::optional<PrimitiveType> DeclaredElementType(const HloInstruction& instr) {
  if (!instr.shape().IsArray()) return std::nullopt;
  return instr.shape().element_type();
}

// Older XLA text gives a one-operand all-reduce-start the shape
// (operand, result); its all-reduce-done yields the result.
bool IsLegacyAllReduceStartPair(const HloInstruction& start) {
  return start.opcode() == HloOpcode::kAllReduceStart && start.operand_count() == 1 &&
         start.shape().IsTuple() && start.shape().tuple_shapes_size() == 2 &&
         start.operand(0)->shape().IsArray();
}

absl::Status CheckOperandPrecision(const HloInstruction& instr, size_t operands) {
  const size_t n = instr.precision_config().operand_precision.size();
  if (n == 0 || n == operands) return absl::OkStatus();
  return Invalid("operand_precision has ", n, " entries for ", operands, " operands");
}

absl::Status Verifier::CheckComparison(const HloInstruction& instr) {
  const std::optional<ComparisonType> type = instr.explicit_comparison_type();
  if (!type) return absl::OkStatus();
  const PrimitiveType element = instr.operand(0)->shape().element_type();
  bool fits = false;
  switch (*type) {
    case ComparisonType::kFloat:
    case ComparisonType::kFloatTotalOrder:
      fits = primitive_util::IsFloatingPointType(element) || primitive_util::IsComplexType(element);
      break;
    case ComparisonType::kSigned:
      fits = primitive_util::IsSignedIntegralType(element);
      break;
    case ComparisonType::kUnsigned:
      fits = primitive_util::IsUnsignedIntegralType(element) || element == PRED;
      break;
  }
  if (fits) return absl::OkStatus();
  return Invalid("compare type=", ComparisonTypeToString(*type), " does not suit ",
                 Text(element), " operands");
}

absl::Status Verifier::CheckCustomCall(const HloInstruction& instr) {
  const CustomCallOptions& options = instr.custom_call();
  if (options.has_layout_constraints) {
    if (int64_t(options.operand_layout_constraints.size()) != instr.operand_count()) {
      return Invalid("operand_layout_constraints has ", options.operand_layout_constraints.size(),
                     " shapes for ", instr.operand_count(), " operands");
    }
    for (int64_t i = 0; i < instr.operand_count(); ++i) {
      const Shape& constraint = options.operand_layout_constraints[i];
      if (!ShapeInference::Compatible(constraint, instr.operand(i)->shape())) {
        return Invalid("operand_layout_constraints gives operand ", i, " the shape ",
                       Text(constraint), " but it is ", Text(instr.operand(i)->shape()));
      }
    }
  }
  for (const auto& [output_index, operand] : options.output_to_operand_aliasing) {
    const auto& [operand_number, operand_index] = operand;
    const Shape* output = Subshape(instr.shape(), output_index);
    if (output == nullptr) {
      return Invalid("output_to_operand_aliasing names output ", ShapeIndexToString(output_index),
                     ", which is not in ", Text(instr.shape()));
    }
    if (operand_number < 0 || operand_number >= instr.operand_count()) {
      return Invalid("output_to_operand_aliasing names operand ", operand_number, " of ",
                     instr.operand_count());
    }
    const Shape* input = Subshape(instr.operand(operand_number)->shape(), operand_index);
    if (input == nullptr) {
      return Invalid("output_to_operand_aliasing names operand ", operand_number, " at ",
                     ShapeIndexToString(operand_index), ", which is not in ",
                     Text(instr.operand(operand_number)->shape()));
    }
    if (!ShapeInference::Compatible(*output, *input)) {
      return Invalid("output_to_operand_aliasing aliases output ", ShapeIndexToString(output_index),
                     " ", Text(*output), " with operand ", operand_number, " ",
                     ShapeIndexToString(operand_index), " ", Text(*input),
                     "; the shapes must be equal");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Shape> Verifier::InferShape(const HloInstruction& instr) {
  const HloOpcode opcode = instr.opcode();
  auto operand = [&](int64_t i) -> const Shape& { return instr.operand(i)->shape(); };
  const Shapes operands = OperandShapes(instr);
  using SI = ShapeInference;

  if (opcode == HloOpcode::kCompare) SYSTOLIC_RETURN_IF_ERROR(CheckComparison(instr));
  if (HloOpcodeIsElementwiseBinary(opcode)) {
    return SI::InferBinaryOpShape(opcode, operand(0), operand(1));
  }
  switch (opcode) {
    // --- Elementwise ---
    case HloOpcode::kConvert:
      return SI::InferConvertShape(operand(0), instr.shape().element_type());
    case HloOpcode::kBitcastConvert:
      return SI::InferBitcastConvertShape(operand(0), instr.shape().element_type());
    case HloOpcode::kStochasticConvert:
      return SI::InferStochasticConvertShape(operand(0), operand(1), instr.shape().element_type());
    case HloOpcode::kReducePrecision:
      return SI::InferReducePrecisionShape(operand(0), instr.exponent_bits(), instr.mantissa_bits());
    case HloOpcode::kClamp:
    case HloOpcode::kSelect:
      return SI::InferTernaryOpShape(opcode, operand(0), operand(1), operand(2));
    case HloOpcode::kMap:
      SYSTOLIC_RETURN_IF_ERROR(ExpectCalledCount(instr, 1));
      return SI::InferMapShape(operands, Program(instr.to_apply()), instr.dimensions());
    case HloOpcode::kDomain:
    case HloOpcode::kOptimizationBarrier:
      return operand(0);

    // --- Data movement ---
    case HloOpcode::kBroadcast:
      return SI::InferBroadcastShape(operand(0), instr.shape(), instr.dimensions());
    case HloOpcode::kReshape:
      return SI::InferReshapeShape(operand(0), instr.shape());
    case HloOpcode::kDynamicReshape: {
      SYSTOLIC_RETURN_IF_ERROR(ExpectOperandCount(instr, instr.shape().rank() + 1));
      for (int64_t i = 1; i < instr.operand_count(); ++i) {
        if (!operand(i).IsScalar() || !primitive_util::IsIntegralType(operand(i).element_type())) {
          return Invalid("the sizes of dynamic-reshape must be integer scalars, but operand ", i,
                         " is ", Text(operand(i)));
        }
      }
      SYSTOLIC_RETURN_IF_ERROR(ExpectAtLeastOperands(instr, 1));
      if (!operand(0).IsArray() || !instr.shape().IsArray()) {
        return Invalid("dynamic-reshape needs an array operand and result");
      }
      Shape result = instr.shape();
      result.set_element_type(operand(0).element_type());
      result.clear_layout();
      return result;
    }
    case HloOpcode::kTranspose:
      return SI::InferTransposeShape(operand(0), instr.dimensions());
    case HloOpcode::kReverse:
      return SI::InferReverseShape(operand(0), instr.dimensions());
    case HloOpcode::kSlice:
      return SI::InferSliceShape(operand(0), instr.slice_starts(), instr.slice_limits(),
                                 instr.slice_strides());
    case HloOpcode::kDynamicSlice:
      SYSTOLIC_RETURN_IF_ERROR(ExpectAtLeastOperands(instr, 1));
      return SI::InferDynamicSliceShape(operand(0), OperandShapes(instr, 1), instr.slice_sizes());
    case HloOpcode::kDynamicUpdateSlice:
      SYSTOLIC_RETURN_IF_ERROR(ExpectAtLeastOperands(instr, 2));
      return SI::InferDynamicUpdateSliceShape(operand(0), operand(1), OperandShapes(instr, 2));
    case HloOpcode::kConcatenate: {
      SYSTOLIC_RETURN_IF_ERROR(ExpectAtLeastOperands(instr, 1));
      SYSTOLIC_ASSIGN_OR_RETURN(int64_t dimension, SingleDimension(instr));
      return SI::InferConcatOpShape(operands, dimension);
    }
    case HloOpcode::kPad:
      return SI::InferPadShape(operand(0), operand(1), instr.padding_config());
    case HloOpcode::kIota: {
      SYSTOLIC_ASSIGN_OR_RETURN(int64_t dimension, SingleDimension(instr));
      return SI::InferIotaShape(instr.shape(), dimension);
    }
    case HloOpcode::kGather:
      return SI::InferGatherShape(operand(0), operand(1), instr.gather_dimension_numbers(),
                                  instr.slice_sizes());
    case HloOpcode::kScatter:
      SYSTOLIC_RETURN_IF_ERROR(ExpectCalledCount(instr, 1));
      return SI::InferScatterShape(operands, Program(instr.to_apply()),
                                   instr.scatter_dimension_numbers());
    case HloOpcode::kGetDimensionSize: {
      SYSTOLIC_ASSIGN_OR_RETURN(int64_t dimension, SingleDimension(instr));
      return SI::InferGetDimensionSizeShape(operand(0), dimension);
    }
    case HloOpcode::kSetDimensionSize: {
      SYSTOLIC_ASSIGN_OR_RETURN(int64_t dimension, SingleDimension(instr));
      return SI::InferSetDimensionSizeShape(operand(0), operand(1), dimension);
    }
    case HloOpcode::kTopK:
      return SI::InferTopKShape(operand(0), instr.k());

    // --- Contractions ---
    case HloOpcode::kDot:
      SYSTOLIC_RETURN_IF_ERROR(ExpectOperandCount(instr, 2));
      SYSTOLIC_RETURN_IF_ERROR(CheckOperandPrecision(instr, 2));
      return SI::InferDotOpShape(operand(0), operand(1), instr.dot_dimension_numbers(),
                                 DeclaredElementType(instr));
    case HloOpcode::kScaledDot:
      // (lhs, lhs scale, rhs, rhs scale): the scales do not change the shape.
      return SI::InferDotOpShape(operand(0), operand(2), instr.dot_dimension_numbers(),
                                 DeclaredElementType(instr));
    case HloOpcode::kRaggedDot:
      // The ragged and group dimensions are kept as raw text, so only the
      // operands are checked; the declared shape is trusted.
      for (int64_t i = 0; i < 3; ++i) {
        if (!operand(i).IsArray()) {
          return Invalid("operand ", i, " of ragged-dot must be an array, not ", Text(operand(i)));
        }
      }
      if (!primitive_util::IsIntegralType(operand(2).element_type())) {
        return Invalid("the group sizes of ragged-dot must be integers, not ", Text(operand(2)));
      }
      return instr.shape();
    case HloOpcode::kConvolution:
      SYSTOLIC_RETURN_IF_ERROR(CheckOperandPrecision(instr, 2));
      return SI::InferConvolveShape(operand(0), operand(1), instr.feature_group_count(),
                                    instr.batch_group_count(), instr.window(),
                                    instr.convolution_dimension_numbers(),
                                    DeclaredElementType(instr));

    // --- Reductions and windows ---
    case HloOpcode::kReduce:
      SYSTOLIC_RETURN_IF_ERROR(ExpectCalledCount(instr, 1));
      return SI::InferReduceShape(operands, instr.dimensions(), Program(instr.to_apply()));
    case HloOpcode::kReduceWindow: {
      SYSTOLIC_RETURN_IF_ERROR(ExpectCalledCount(instr, 1));
      if (instr.operand_count() < 2 || instr.operand_count() % 2 != 0) {
        return Invalid("reduce-window needs N inputs followed by N init values, but has ",
                       instr.operand_count(), " operands");
      }
      const int64_t n = instr.operand_count() / 2;
      return SI::InferReduceWindowShape(OperandShapes(instr, 0, n), OperandShapes(instr, n),
                                        instr.window(), Program(instr.to_apply()));
    }
    case HloOpcode::kSelectAndScatter:
      SYSTOLIC_RETURN_IF_ERROR(ExpectCalledCount(instr, 2));
      return SI::InferSelectAndScatterShape(operand(0), Program(instr.select()), instr.window(),
                                            operand(1), operand(2), Program(instr.scatter()));
    case HloOpcode::kSort: {
      SYSTOLIC_RETURN_IF_ERROR(ExpectAtLeastOperands(instr, 1));
      SYSTOLIC_RETURN_IF_ERROR(ExpectCalledCount(instr, 1));
      SYSTOLIC_ASSIGN_OR_RETURN(int64_t dimension, SingleDimension(instr));
      return SI::InferSortShape(operands, dimension, Program(instr.to_apply()));
    }

    // --- Tuples and control flow ---
    case HloOpcode::kTuple:
      return SI::InferTupleShape(operands);
    case HloOpcode::kGetTupleElement:
      return SI::InferGetTupleElementShape(operand(0), instr.tuple_index());
    case HloOpcode::kWhile:
      SYSTOLIC_RETURN_IF_ERROR(ExpectCalledCount(instr, 2));
      return SI::InferWhileShape(Program(instr.while_condition()), Program(instr.while_body()),
                                 operand(0));
    case HloOpcode::kConditional: {
      const size_t branches = instr.called_computations().size();
      if (branches == 0) return Invalid("conditional needs at least one branch computation");
      SYSTOLIC_RETURN_IF_ERROR(ExpectOperandCount(instr, int64_t(branches) + 1));
      std::vector<ProgramShape> programs;
      for (const HloComputation* branch : instr.called_computations()) {
        programs.push_back(Program(branch));
      }
      return SI::InferConditionalShape(operand(0), programs, OperandShapes(instr, 1));
    }
    case HloOpcode::kCall:
    case HloOpcode::kFusion:
      SYSTOLIC_RETURN_IF_ERROR(ExpectCalledCount(instr, 1));
      return SI::InferCallShape(operands, Program(instr.called_computations()[0]));
    case HloOpcode::kCustomCall:
      SYSTOLIC_RETURN_IF_ERROR(CheckCustomCall(instr));
      return instr.shape();

    // --- Collectives and asynchronous pairs ---
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart:
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
    case HloOpcode::kReduceScatter:
    case HloOpcode::kAllToAll:
    case HloOpcode::kRaggedAllToAll:
    case HloOpcode::kCollectiveBroadcast:
    case HloOpcode::kCollectivePermute:
    case HloOpcode::kCollectivePermuteStart:
      return InferCollectiveShape(instr);
    case HloOpcode::kAllReduceDone:
    case HloOpcode::kAllGatherDone:
    case HloOpcode::kCollectivePermuteDone:
    case HloOpcode::kCopyDone:
    case HloOpcode::kSendDone:
    case HloOpcode::kRecvDone:
    case HloOpcode::kAsyncStart:
    case HloOpcode::kAsyncUpdate:
    case HloOpcode::kAsyncDone:
      return InferAsyncShape(instr);
    case HloOpcode::kCopyStart:
      return SI::InferCopyStartShape(operand(0));
    case HloOpcode::kSend:
      return SI::InferSendShape(operand(0), operand(1));
    case HloOpcode::kRecv:
      if (!instr.shape().IsTuple() || instr.shape().tuple_shapes_size() != 3) {
        return Invalid("recv must produce (data, u32[], token[]), not ", Text(instr.shape()));
      }
      return SI::InferRecvShape(operand(0), instr.shape().tuple_shapes(0));
    case HloOpcode::kInfeed:
      if (!instr.shape().IsTuple() || instr.shape().tuple_shapes_size() != 2) {
        return Invalid("infeed must produce (data, token[]), not ", Text(instr.shape()));
      }
      return SI::InferInfeedShape(operand(0), instr.shape().tuple_shapes(0));
    case HloOpcode::kOutfeed:
      return SI::InferOutfeedShape(operand(0), operand(1),
                                   instr.has_outfeed_shape() ? &instr.outfeed_shape() : nullptr);
    case HloOpcode::kAfterAll:
      return SI::InferAfterAllShape(operands);
    case HloOpcode::kAddDependency:
      return SI::InferAddDependencyShape(operand(0), operand(1));
    case HloOpcode::kPartitionId:
    case HloOpcode::kReplicaId:
      return Shape(U32, {});

    // --- Random numbers ---
    case HloOpcode::kRng:
      SYSTOLIC_RETURN_IF_ERROR(ExpectOperandCount(instr, 2));
      return SI::InferRngShape(operand(0), operand(1), instr.random_distribution(), instr.shape());
    case HloOpcode::kRngBitGenerator:
      if (!instr.shape().IsTuple() || instr.shape().tuple_shapes_size() != 2) {
        return Invalid("rng-bit-generator must produce (state, data), not ", Text(instr.shape()));
      }
      return SI::InferRngBitGeneratorShape(operand(0), instr.shape().tuple_shapes(1));
    case HloOpcode::kRngGetAndUpdateState:
      return Shape(U64, {2});

    // --- Linear algebra and FFT ---
    case HloOpcode::kBatchNormTraining:
      return SI::InferBatchNormTrainingShape(operand(0), operand(1), operand(2),
                                             instr.feature_index());
    case HloOpcode::kBatchNormInference:
      return SI::InferBatchNormInferenceShape(operand(0), operand(1), operand(2), operand(3),
                                              operand(4), instr.feature_index());
    case HloOpcode::kBatchNormGrad:
      return SI::InferBatchNormGradShape(operand(0), operand(1), operand(2), operand(3), operand(4),
                                         instr.feature_index());
    case HloOpcode::kCholesky:
      return SI::InferCholeskyShape(operand(0));
    case HloOpcode::kTriangularSolve:
      return SI::InferTriangularSolveShape(operand(0), operand(1), instr.left_side());
    case HloOpcode::kFft:
      return SI::InferFftShape(operand(0), instr.fft_type(), instr.fft_length());

    // --- Leaves ---
    case HloOpcode::kParameter:
      return instr.shape();
    case HloOpcode::kConstant:
      if (!instr.has_literal()) return Invalid("constant has no value");
      if (!ShapeInference::Compatible(instr.literal().shape(), instr.shape())) {
        return Invalid("the constant's value has shape ", Text(instr.literal().shape()),
                       " but the instruction says ", Text(instr.shape()));
      }
      return instr.shape();
    case HloOpcode::kBitcast:
      if (options_.layout_sensitive) {
        const std::optional<int64_t> in = ByteSize(operand(0));
        const std::optional<int64_t> out = ByteSize(instr.shape());
        if (!in || !out || *in != *out) {
          return Invalid("bitcast must keep the byte size, but ", Text(operand(0)), " and ",
                         Text(instr.shape()), " differ");
        }
      }
      return instr.shape();
    default:
      break;
  }
  if (HloOpcodeIsElementwiseUnary(opcode)) return SI::InferUnaryOpShape(opcode, operand(0));
  return Invalid("no shape inference for ", Text(opcode));
}

// --- Collectives -------------------------------------------------------------------

absl::StatusOr<GroupMode> Verifier::GetGroupMode(const HloInstruction& instr,
                                                 bool has_global_ids_flag) {
  const bool has_channel = instr.channel_id().has_value();
  if (!has_global_ids_flag) {
    return has_channel ? GroupMode::kCrossPartition : GroupMode::kCrossReplica;
  }
  if (instr.use_global_device_ids() && !has_channel) {
    return Invalid("use_global_device_ids=true needs a channel_id");
  }
  if (!has_channel) return GroupMode::kCrossReplica;
  return instr.use_global_device_ids() ? GroupMode::kFlattenedId
                                       : GroupMode::kCrossReplicaAndPartition;
}

absl::Status Verifier::CheckReplicaGroups(const HloInstruction& instr, GroupMode mode,
                                          bool uniform) {
  const auto& groups = instr.replica_groups();
  const std::string text = absl::StrCat("replica_groups=", instr.device_list().ToString());
  if (groups.empty()) {
    if (mode == GroupMode::kFlattenedId) {
      return Invalid("replica_groups must be given with use_global_device_ids=true");
    }
    return absl::OkStatus();
  }
  absl::flat_hash_set<int64_t> seen;
  for (const auto& group : groups) {
    if (group.empty()) return Invalid(text, " has an empty group");
    if (uniform && group.size() != groups[0].size()) {
      return Invalid(text, " must have groups of one size for ", Text(instr.opcode()));
    }
    for (int64_t id : group) {
      if (id < 0) return Invalid(text, " names a negative id ", id);
      if (!seen.insert(id).second) return Invalid(text, " names ", id, " twice");
    }
  }
  const int64_t named = int64_t(seen.size());
  for (int64_t id : seen) {
    if (id >= named) {
      return Invalid(text, " names ", id, " but not every id below it (the groups must cover 0..",
                     named - 1, ")");
    }
  }
  int64_t expected = 1;
  std::string what;
  switch (mode) {
    case GroupMode::kCrossReplica:
    case GroupMode::kCrossReplicaAndPartition:
      expected = module_.replica_count();
      what = "replicas";
      break;
    case GroupMode::kCrossPartition:
      expected = module_.num_partitions();
      what = "partitions";
      break;
    case GroupMode::kFlattenedId:
      if (!CheckedMul(module_.replica_count(), module_.num_partitions(), &expected)) expected = -1;
      what = "devices (replicas x partitions)";
      break;
  }
  if (expected != 1 && named != expected) {
    return Invalid(text, " names ", named, " ids but the module has ", expected, " ", what);
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> Verifier::GroupSize(const HloInstruction& instr, GroupMode mode) {
  const auto& groups = instr.replica_groups();
  int64_t size = 1;
  switch (mode) {
    case GroupMode::kCrossReplica:
      size = groups.empty() ? module_.replica_count() : int64_t(groups[0].size());
      break;
    case GroupMode::kCrossReplicaAndPartition:
      size = groups.empty() ? module_.replica_count() : int64_t(groups[0].size());
      if (!CheckedMul(size, module_.num_partitions(), &size)) {
        return Invalid("the replica group size overflows");
      }
      break;
    case GroupMode::kCrossPartition:
      size = groups.empty() ? module_.num_partitions() : int64_t(groups[0].size());
      break;
    case GroupMode::kFlattenedId:
      size = groups.empty() ? 1 : int64_t(groups[0].size());
      break;
  }
  return size;
}

absl::Status Verifier::CheckSourceTargetPairs(const HloInstruction& instr) {
  const int64_t limit = instr.channel_id().has_value() ? module_.num_partitions()
                                                        : module_.replica_count();
  absl::flat_hash_set<int64_t> sources, targets;
  for (const auto& [source, target] : instr.source_target_pairs()) {
    for (int64_t id : {source, target}) {
      if (id < 0 || (limit > 1 && id >= limit)) {
        return Invalid("source_target_pairs names device ", id, ", outside [0, ", limit, ")");
      }
    }
    if (!sources.insert(source).second) {
      return Invalid("source_target_pairs sends from ", source, " twice");
    }
    if (!targets.insert(target).second) {
      return Invalid("source_target_pairs sends to ", target, " twice");
    }
  }
  return absl::OkStatus();
}

// Shard counts of all-gather and reduce-scatter are read from the shapes, as
// XLA does, then checked against the replica groups.
int64_t ShardCount(int64_t small, int64_t large) {
  if (small <= 0 || large < 0) return 1;
  return large / small + (large % small != 0 ? 1 : 0);
}

absl::StatusOr<Shape> Verifier::InferCollectiveShape(const HloInstruction& instr) {
  using SI = ShapeInference;
  const HloOpcode opcode = instr.opcode();
  const Shapes operands = OperandShapes(instr);
  switch (opcode) {
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart: {
      SYSTOLIC_ASSIGN_OR_RETURN(GroupMode mode, GetGroupMode(instr, true));
      SYSTOLIC_RETURN_IF_ERROR(CheckReplicaGroups(instr, mode, /*uniform=*/false));
      SYSTOLIC_RETURN_IF_ERROR(ExpectCalledCount(instr, 1));
      // The reducer combines two scalars of each operand's element type.
      const ProgramShape reducer = Program(instr.to_apply());
      if (reducer.parameters.size() != 2 || !reducer.parameters[0].IsScalar() ||
          !ShapeInference::Compatible(reducer.parameters[0], reducer.parameters[1])) {
        return Invalid("the reducer ", reducer.ToString(false), " must take two scalars of one type");
      }
      for (const Shape* s : operands) {
        if (s->IsArray() && !SI::SameElementTypeIgnoringFpPrecision(
                                s->element_type(), reducer.parameters[0].element_type())) {
          return Invalid("the reducer ", reducer.ToString(false), " cannot reduce ", Text(*s));
        }
      }
      SYSTOLIC_ASSIGN_OR_RETURN(Shape result, SI::InferAllReduceShape(operands));
      if (IsLegacyAllReduceStartPair(instr)) return Shape::MakeTuple({*operands[0], result});
      return result;
    }
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
    case HloOpcode::kReduceScatter: {
      SYSTOLIC_ASSIGN_OR_RETURN(GroupMode mode, GetGroupMode(instr, true));
      SYSTOLIC_RETURN_IF_ERROR(CheckReplicaGroups(instr, mode, /*uniform=*/true));
      SYSTOLIC_ASSIGN_OR_RETURN(int64_t dimension, SingleDimension(instr));
      SYSTOLIC_RETURN_IF_ERROR(ExpectAtLeastOperands(instr, 1));
      if (opcode == HloOpcode::kReduceScatter) SYSTOLIC_RETURN_IF_ERROR(ExpectCalledCount(instr, 1));
      // The declared result of the first operand.
      const Shape* result = &instr.shape();
      if (opcode == HloOpcode::kAllGatherStart) {
        result = result->IsTuple() && result->tuple_shapes_size() == 2 ? &result->tuple_shapes(1)
                                                                        : nullptr;
      }
      if (result != nullptr && instr.operand_count() > 1) {
        result = result->IsTuple() && result->tuple_shapes_size() > 0 ? &result->tuple_shapes(0)
                                                                       : nullptr;
      }
      int64_t shards = 1;
      const Shape& input = *operands[0];
      if (result != nullptr && result->IsArray() && input.IsArray() && dimension >= 0 &&
          dimension < input.rank() && dimension < result->rank()) {
        const int64_t in = input.dimensions(dimension), out = result->dimensions(dimension);
        shards = opcode == HloOpcode::kReduceScatter ? ShardCount(out, in) : ShardCount(in, out);
      }
      SYSTOLIC_ASSIGN_OR_RETURN(int64_t group_size, GroupSize(instr, mode));
      if (group_size != 1 && shards != group_size) {
        return Invalid(Text(opcode), " over groups of ", group_size, " has ", shards,
                       " shards along dimension ", dimension, " (", Text(input), " vs ",
                       result ? Text(*result) : std::string("?"), ")");
      }
      if (opcode == HloOpcode::kReduceScatter) {
        return SI::InferReduceScatterShape(operands, dimension, shards);
      }
      if (opcode == HloOpcode::kAllGatherStart) {
        return SI::InferAllGatherStartShape(operands, dimension, shards);
      }
      return SI::InferAllGatherShape(operands, dimension, shards);
    }
    case HloOpcode::kAllToAll: {
      SYSTOLIC_ASSIGN_OR_RETURN(GroupMode mode, GetGroupMode(instr, false));
      SYSTOLIC_RETURN_IF_ERROR(CheckReplicaGroups(instr, mode, /*uniform=*/true));
      SYSTOLIC_ASSIGN_OR_RETURN(int64_t split_count, GroupSize(instr, mode));
      if (!instr.dimensions().empty()) {
        SYSTOLIC_ASSIGN_OR_RETURN(int64_t dimension, SingleDimension(instr));
        SYSTOLIC_RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
        return SI::InferAllToAllShape(*operands[0], dimension, dimension, split_count);
      }
      if (instr.operand_count() != split_count) {
        return Invalid("a tuple all-to-all over groups of ", split_count, " needs ", split_count,
                       " operands, but has ", instr.operand_count());
      }
      return SI::InferAllToAllTupleShape(operands);
    }
    case HloOpcode::kRaggedAllToAll: {
      SYSTOLIC_ASSIGN_OR_RETURN(GroupMode mode, GetGroupMode(instr, false));
      SYSTOLIC_RETURN_IF_ERROR(CheckReplicaGroups(instr, mode, /*uniform=*/true));
      return SI::InferRaggedAllToAllShape(operands);
    }
    case HloOpcode::kCollectiveBroadcast: {
      SYSTOLIC_ASSIGN_OR_RETURN(GroupMode mode, GetGroupMode(instr, false));
      SYSTOLIC_RETURN_IF_ERROR(CheckReplicaGroups(instr, mode, /*uniform=*/false));
      return SI::InferCollectiveBroadcastShape(operands);
    }
    case HloOpcode::kCollectivePermute:
    case HloOpcode::kCollectivePermuteStart: {
      SYSTOLIC_RETURN_IF_ERROR(CheckSourceTargetPairs(instr));
      // The in-place form names its slice sizes.
      const bool in_place = !instr.slice_sizes().empty();
      if (opcode == HloOpcode::kCollectivePermute) {
        return SI::InferCollectivePermuteShape(operands, in_place);
      }
      Shapes context;
      if (instr.shape().IsTuple()) {
        for (int64_t i = 2; i < instr.shape().tuple_shapes_size(); ++i) {
          context.push_back(&instr.shape().tuple_shapes(i));
        }
      }
      return SI::InferCollectivePermuteStartShape(operands, context, in_place);
    }
    default:
      return Invalid(Text(opcode), " is not a collective");
  }
}

absl::StatusOr<Shape> Verifier::InferAsyncShape(const HloInstruction& instr) {
  using SI = ShapeInference;
  const HloOpcode opcode = instr.opcode();
  if (opcode == HloOpcode::kAsyncStart) {
    SYSTOLIC_RETURN_IF_ERROR(ExpectCalledCount(instr, 1));
    Shapes context;
    if (instr.shape().IsTuple()) {
      for (int64_t i = 2; i < instr.shape().tuple_shapes_size(); ++i) {
        context.push_back(&instr.shape().tuple_shapes(i));
      }
    }
    return SI::InferAsyncStartShape(OperandShapes(instr), Program(instr.called_computations()[0]),
                                    context);
  }
  // A done (or update) consumes its start: directly, or through a tuple or a
  // loop parameter when the pair is pipelined.
  const HloInstruction& start = *instr.operand(0);
  const std::optional<HloOpcode> expected = StartOpcodeFor(opcode);
  const bool forwarded = start.opcode() == HloOpcode::kGetTupleElement ||
                         start.opcode() == HloOpcode::kParameter;
  const bool matches = start.opcode() == expected ||
                       (expected == HloOpcode::kAsyncStart &&
                        start.opcode() == HloOpcode::kAsyncUpdate);
  if (expected && !forwarded && !matches) {
    return Invalid("the operand of ", Text(opcode), " must be the result of ", Text(*expected),
                   ", not of the ", Text(start.opcode()), " %", start.name());
  }
  if ((opcode == HloOpcode::kAsyncUpdate || opcode == HloOpcode::kAsyncDone) && matches &&
      !instr.called_computations().empty() && !start.called_computations().empty() &&
      instr.called_computations()[0] != start.called_computations()[0]) {
    return Invalid(Text(opcode), " wraps %", instr.called_computations()[0]->name(),
                   " but its start wraps %", start.called_computations()[0]->name());
  }
  const Shape& operand = start.shape();
  switch (opcode) {
    case HloOpcode::kAllReduceDone:
      if (IsLegacyAllReduceStartPair(start)) return operand.tuple_shapes(1);
      return operand;
    case HloOpcode::kAllGatherDone:
      return SI::InferAllGatherDoneShape(operand);
    case HloOpcode::kCollectivePermuteDone:
      return SI::InferCollectivePermuteDoneShape(operand);
    case HloOpcode::kCopyDone:
      return SI::InferCopyDoneShape(operand);
    case HloOpcode::kSendDone:
      return SI::InferSendDoneShape(operand);
    case HloOpcode::kRecvDone:
      return SI::InferRecvDoneShape(operand);
    case HloOpcode::kAsyncUpdate:
      return SI::InferAsyncUpdateShape(operand);
    case HloOpcode::kAsyncDone:
      return SI::InferAsyncDoneShape(operand);
    default:
      return Invalid(Text(opcode), " is not asynchronous");
  }
}

// --- Module header -----------------------------------------------------------------

absl::Status Verifier::VerifyEntryComputationLayout() {
  if (!module_.has_entry_computation_layout()) return absl::OkStatus();
  const ProgramShape& layout = module_.entry_computation_layout();
  const HloComputation& entry = *module_.entry_computation();
  ShapeComparison how;
  how.compare_layouts = options_.layout_sensitive;
  const bool print_layouts = options_.layout_sensitive;
  if (int64_t(layout.parameters.size()) != entry.num_parameters()) {
    return ModuleError("entry_computation_layout has ", layout.parameters.size(),
                       " parameters but the entry computation %", entry.name(), " has ",
                       entry.num_parameters());
  }
  for (int64_t i = 0; i < entry.num_parameters(); ++i) {
    const HloInstruction& p = *entry.parameter_instruction(i);
    if (!ShapesMatch(layout.parameters[i], p.shape(), how)) {
      return ModuleError("entry_computation_layout gives parameter ", i, " the shape ",
                         layout.parameters[i].ToString(print_layouts), " but %", p.name(), " is ",
                         p.shape().ToString(print_layouts));
    }
  }
  const HloInstruction& root = *entry.root_instruction();
  if (!ShapesMatch(layout.result, root.shape(), how)) {
    return ModuleError("entry_computation_layout gives the result the shape ",
                       layout.result.ToString(print_layouts), " but the root %", root.name(),
                       " is ", root.shape().ToString(print_layouts));
  }
  return absl::OkStatus();
}

absl::Status Verifier::VerifyAliasing() {
  const HloComputation& entry = *module_.entry_computation();
  const Shape& result = entry.root_instruction()->shape();
  // Returns the parameter subshape named by (number, index), or an error.
  auto parameter_subshape = [&](int64_t number, const ShapeIndex& index,
                                absl::string_view what) -> absl::StatusOr<const Shape*> {
    if (number < 0 || number >= entry.num_parameters()) {
      return ModuleError(what, " names parameter ", number, " but the entry computation has ",
                         entry.num_parameters());
    }
    const Shape& shape = entry.parameter_instruction(number)->shape();
    const Shape* sub = Subshape(shape, index);
    if (sub == nullptr) {
      return ModuleError(what, " names parameter ", number, " at ", ShapeIndexToString(index),
                         ", which is not in ", Text(shape));
    }
    return sub;
  };
  absl::flat_hash_set<std::string> outputs, inputs;
  for (const InputOutputAlias& alias : module_.input_output_aliases()) {
    const std::string what = absl::StrCat(
        "input_output_alias ", ShapeIndexToString(alias.output_index), ": (",
        alias.parameter_number, ", ", ShapeIndexToString(alias.parameter_index), ")");
    const Shape* output = Subshape(result, alias.output_index);
    if (output == nullptr) {
      return ModuleError(what, " names output ", ShapeIndexToString(alias.output_index),
                         ", which is not in the result ", Text(result));
    }
    SYSTOLIC_ASSIGN_OR_RETURN(const Shape* input,
                              parameter_subshape(alias.parameter_number, alias.parameter_index, what));
    // Aliased buffers are one allocation: equal shapes, or arrays of one byte size.
    const std::optional<int64_t> in_bytes = ByteSize(*input), out_bytes = ByteSize(*output);
    const bool fits = (in_bytes && out_bytes) ? *in_bytes == *out_bytes
                                              : ShapeInference::Compatible(*input, *output);
    if (!fits) {
      return ModuleError(what, ": the output ", Text(*output), " and the parameter ",
                         Text(*input), " differ in size");
    }
    if (!outputs.insert(ShapeIndexToString(alias.output_index)).second) {
      return ModuleError(what, ": output ", ShapeIndexToString(alias.output_index),
                         " is aliased twice");
    }
    if (!inputs.insert(absl::StrCat(alias.parameter_number, ShapeIndexToString(alias.parameter_index)))
             .second) {
      return ModuleError(what, ": the parameter buffer is aliased twice");
    }
  }
  for (const BufferDonor& donor : module_.buffer_donors()) {
    const std::string what = absl::StrCat("buffer_donor (", donor.parameter_number, ", ",
                                          ShapeIndexToString(donor.parameter_index), ")");
    SYSTOLIC_RETURN_IF_ERROR(
        parameter_subshape(donor.parameter_number, donor.parameter_index, what).status());
    if (inputs.contains(
            absl::StrCat(donor.parameter_number, ShapeIndexToString(donor.parameter_index)))) {
      return ModuleError(what, " is also in input_output_alias");
    }
  }
  return absl::OkStatus();
}

absl::Status Verifier::VerifySchedule() {
  for (const HloComputation* c : module_.computations()) {
    const std::vector<HloInstruction*>* sequence = module_.schedule(c);
    if (sequence == nullptr) continue;
    // A pass that removed an instruction may leave its pointer behind in the
    // schedule: compare pointers before dereferencing any.
    const std::vector<HloInstruction*>& instructions = InstructionsOf(*c);
    const absl::flat_hash_set<const HloInstruction*> members(instructions.begin(),
                                                             instructions.end());
    std::vector<bool> done(size_t(c->instruction_index_bound()), false);
    int64_t scheduled = 0;
    for (const HloInstruction* instr : *sequence) {
      if (!members.contains(instr)) {
        return Error(*c, "its schedule lists an instruction that is not in the computation");
      }
      if (done[Slot(instr)]) return Error(*instr, "is scheduled twice");
      done[Slot(instr)] = true;
      ++scheduled;
      // Dependencies are members: the structure checks ran first.
      for (const HloInstruction* dep : instr->operands()) {
        if (!done[Slot(dep)]) return Error(*instr, "is scheduled before its operand %", dep->name());
      }
      for (const HloInstruction* dep : instr->control_predecessors()) {
        if (!done[Slot(dep)]) {
          return Error(*instr, "is scheduled before its control predecessor %", dep->name());
        }
      }
    }
    if (scheduled != c->instruction_count()) {
      return Error(*c, "its schedule lists ", scheduled, " of its ", c->instruction_count(),
                   " instructions");
    }
  }
  return absl::OkStatus();
}

absl::Status Verifier::Run() {
  SYSTOLIC_RETURN_IF_ERROR(VerifyComputationList());
  for (const HloComputation* c : module_.computations()) {
    SYSTOLIC_RETURN_IF_ERROR(VerifyComputationStructure(*c));
  }
  SYSTOLIC_RETURN_IF_ERROR(VerifyCallGraph());
  // Every shape is checked for well-formedness before any is used to infer.
  SYSTOLIC_RETURN_IF_ERROR(VerifyNamesAndShapes());
  for (const HloComputation* c : module_.computations()) {
    for (const HloInstruction* instr : InstructionsOf(*c)) {
      SYSTOLIC_RETURN_IF_ERROR(VerifyInstruction(*instr));
    }
  }
  SYSTOLIC_RETURN_IF_ERROR(VerifyEntryComputationLayout());
  SYSTOLIC_RETURN_IF_ERROR(VerifyAliasing());
  return VerifySchedule();
}

}  // namespace

absl::Status VerifyHloModule(const HloModule& module, const HloVerifierOptions& options) {
  return Verifier(module, options).Run();
}

bool ShapeCanBeInferred(HloOpcode opcode) {
  if (HloOpcodeIsElementwiseUnary(opcode) || HloOpcodeIsElementwiseBinary(opcode)) {
    return opcode != HloOpcode::kConvert && opcode != HloOpcode::kBitcastConvert &&
           opcode != HloOpcode::kStochasticConvert;
  }
  switch (opcode) {
    case HloOpcode::kCompare:
    case HloOpcode::kSelect:
    case HloOpcode::kClamp:
    case HloOpcode::kReducePrecision:
    case HloOpcode::kMap:
    case HloOpcode::kDomain:
    case HloOpcode::kOptimizationBarrier:
    case HloOpcode::kCopy:
    case HloOpcode::kTranspose:
    case HloOpcode::kReverse:
    case HloOpcode::kSlice:
    case HloOpcode::kDynamicSlice:
    case HloOpcode::kDynamicUpdateSlice:
    case HloOpcode::kConcatenate:
    case HloOpcode::kPad:
    case HloOpcode::kGather:
    case HloOpcode::kScatter:
    case HloOpcode::kGetDimensionSize:
    case HloOpcode::kSetDimensionSize:
    case HloOpcode::kTopK:
    case HloOpcode::kDot:
    case HloOpcode::kConvolution:
    case HloOpcode::kReduce:
    case HloOpcode::kReduceWindow:
    case HloOpcode::kSelectAndScatter:
    case HloOpcode::kSort:
    case HloOpcode::kTuple:
    case HloOpcode::kGetTupleElement:
    case HloOpcode::kWhile:
    case HloOpcode::kConditional:
    case HloOpcode::kCall:
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceDone:
    case HloOpcode::kAllGatherDone:
    case HloOpcode::kCollectivePermuteDone:
    case HloOpcode::kCopyStart:
    case HloOpcode::kCopyDone:
    case HloOpcode::kSendDone:
    case HloOpcode::kRecvDone:
    case HloOpcode::kAsyncUpdate:
    case HloOpcode::kAsyncDone:
    case HloOpcode::kAfterAll:
    case HloOpcode::kAddDependency:
    case HloOpcode::kPartitionId:
    case HloOpcode::kReplicaId:
      return true;
    default:
      return false;
  }
}

absl::StatusOr<Shape> InferInstructionShape(const HloInstruction& instr) {
  const HloModule* module = instr.GetModule();
  if (module == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("%", instr.name(), " is not in a module, so its shape cannot be inferred"));
  }
  if (!ShapeCanBeInferred(instr.opcode())) {
    return absl::InvalidArgumentError(
        absl::StrCat("the shape of ", HloOpcodeString(instr.opcode()), " cannot be inferred"));
  }
  return Verifier(*module, HloVerifierOptions{}).InferShapeOf(instr);
}

}  // namespace systolic
