#include "core/compiler/buffer_assignment.h"

#include <algorithm>
#include <map>
#include <queue>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/compiler/best_fit_heap.h"
#include "core/compiler/hlo_dataflow_analysis.h"

namespace systolic {
namespace {

std::vector<HloInstruction*> ScheduleOf(const HloModule& module, const HloComputation& c) {
  if (const std::vector<HloInstruction*>* s = module.schedule(&c)) {
    if (int64_t(s->size()) == c.instruction_count()) return *s;
  }
  return c.MakeInstructionPostOrder();
}

int64_t MemorySpaceOf(const Shape& shape) {
  return shape.has_layout() ? shape.layout().memory_space() : 0;
}

// An instruction that may write its result over operand `i` as it reads it:
// every element of the result depends only on the same element of the operand.
bool CanWriteOverOperand(const HloInstruction& instr, int64_t i) {
  const HloInstruction* operand = instr.operand(i);
  if (operand->shape().dimensions() != instr.shape().dimensions()) return false;
  if (instr.IsElementwise()) return true;
  if (instr.opcode() == HloOpcode::kDynamicUpdateSlice) return i == 0;
  if (instr.opcode() != HloOpcode::kFusion || instr.fusion_kind() != FusionKind::kLoop) return false;
  // Inside the fusion, the parameter may reach the root only through
  // elementwise instructions of the same shape.
  const HloComputation* fused = instr.fused_instructions_computation();
  std::vector<const HloInstruction*> stack = {fused->parameter_instruction(i)};
  absl::flat_hash_map<const HloInstruction*, bool> seen;
  while (!stack.empty()) {
    const HloInstruction* x = stack.back();
    stack.pop_back();
    for (const HloInstruction* user : x->users()) {
      if (!seen.emplace(user, true).second) continue;
      if (!user->IsElementwise() || user->shape().dimensions() != instr.shape().dimensions()) {
        return false;
      }
      stack.push_back(user);
    }
  }
  return true;
}

// The most bytes the computation's own buffers (not its parameters) need
// at once, with what it calls; memoized.
int64_t TemporaryPeak(const HloModule& module, const HloComputation& c,
                      absl::flat_hash_map<const HloComputation*, int64_t>* memo);

int64_t CalledPeak(const HloModule& module, const HloInstruction& instr,
                   absl::flat_hash_map<const HloComputation*, int64_t>* memo) {
  switch (instr.opcode()) {
    case HloOpcode::kWhile:
    case HloOpcode::kConditional:
    case HloOpcode::kCall: {
      int64_t peak = 0;
      for (const HloComputation* callee : instr.called_computations()) {
        peak = std::max(peak, TemporaryPeak(module, *callee, memo));
      }
      return peak;
    }
    default:
      return 0;
  }
}

int64_t TemporaryPeak(const HloModule& module, const HloComputation& c,
                      absl::flat_hash_map<const HloComputation*, int64_t>* memo) {
  auto it = memo->find(&c);
  if (it != memo->end()) return it->second;
  (*memo)[&c] = 0;  // guards against recursion in malformed modules
  const std::vector<HloInstruction*> order = ScheduleOf(module, c);
  const HloDataflowAnalysis dataflow(c);
  const int64_t n = int64_t(order.size());
  absl::flat_hash_map<const HloInstruction*, int64_t> position;
  for (int64_t i = 0; i < n; ++i) position[order[i]] = i;
  std::vector<int64_t> delta(n + 2, 0);
  for (const LogicalBuffer& b : dataflow.buffers()) {
    if (b.instruction->opcode() == HloOpcode::kParameter) continue;
    const int64_t start = position.at(b.instruction);
    int64_t end = start;
    for (const HloInstruction* r : dataflow.Readers(b.id)) end = std::max(end, position.at(r));
    if (dataflow.IsLiveOut(b.id)) end = n - 1;
    delta[start] += b.size_bytes;
    delta[end + 1] -= b.size_bytes;
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t called = CalledPeak(module, *order[i], memo);
    delta[i] += called;
    delta[i + 1] -= called;
  }
  int64_t live = 0, peak = 0;
  for (int64_t i = 0; i < n; ++i) {
    live += delta[i];
    peak = std::max(peak, live);
  }
  (*memo)[&c] = peak;
  return peak;
}

std::string MemorySpaceName(int64_t space) {
  return space == 0 ? "HBM" : absl::StrCat("S(", space, ")");
}

}  // namespace

absl::string_view BufferKindToString(BufferKind kind) {
  switch (kind) {
    case BufferKind::kParameter: return "parameter";
    case BufferKind::kConstant: return "constant";
    case BufferKind::kTemporary: return "temporary";
    case BufferKind::kOutput: return "output";
    case BufferKind::kCalledComputation: return "called computation";
  }
  return "temporary";
}

absl::StatusOr<BufferAssignment> BufferAssignment::Run(const HloModule& module,
                                                       const BufferAssignmentOptions& options) {
  const HloComputation* entry = module.entry_computation();
  if (entry == nullptr) return absl::InvalidArgumentError("the module has no entry computation");
  BufferAssignment result;
  const std::vector<HloInstruction*> order = ScheduleOf(module, *entry);
  const int64_t n = int64_t(order.size());
  absl::flat_hash_map<const HloInstruction*, int64_t> position;
  for (int64_t i = 0; i < n; ++i) {
    position[order[i]] = i;
    result.sequence_.push_back(order[i]->name());
  }
  const HloDataflowAnalysis dataflow(*entry);

  // Live ranges. Parameters and constants are in memory for the whole run.
  std::vector<AssignedBuffer>& buffers = result.buffers_;
  std::vector<int64_t> last_read(dataflow.buffers().size(), -1);
  for (const LogicalBuffer& lb : dataflow.buffers()) {
    AssignedBuffer b;
    b.id = lb.id;
    b.instruction_id = lb.instruction->unique_id();
    b.instruction = lb.instruction->name();
    b.index = lb.index;
    b.shape = lb.shape;
    b.size_bytes = lb.size_bytes;
    b.memory_space = MemorySpaceOf(lb.shape);
    const HloOpcode op = lb.instruction->opcode();
    for (const HloInstruction* r : dataflow.Readers(lb.id)) {
      last_read[lb.id] = std::max(last_read[lb.id], position.at(r));
    }
    if (op == HloOpcode::kParameter || op == HloOpcode::kConstant) {
      b.kind = op == HloOpcode::kParameter ? BufferKind::kParameter : BufferKind::kConstant;
      b.start = 0;
      b.end = std::max<int64_t>(n - 1, 0);
    } else {
      b.kind = dataflow.IsLiveOut(lb.id) ? BufferKind::kOutput : BufferKind::kTemporary;
      b.start = position.at(lb.instruction);
      b.end = dataflow.IsLiveOut(lb.id) ? n - 1 : std::max(b.start, last_read[lb.id]);
    }
    buffers.push_back(std::move(b));
  }

  // Allocations: a buffer may take over another's memory.
  std::vector<int64_t> allocation(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) allocation[i] = int64_t(i);
  std::vector<bool> taken(buffers.size(), false);
  auto share = [&](int64_t buffer, int64_t with) {
    allocation[buffer] = allocation[with];
    buffers[buffer].shares_with = with;
    taken[with] = true;
  };
  if (options.reuse_operand_buffers) {
    for (const HloInstruction* instr : order) {
      absl::Span<const int64_t> defined = dataflow.DefinedBy(instr);
      if (defined.size() != 1 || !instr->shape().IsArray()) continue;
      const int64_t b = defined[0];
      for (int64_t i = 0; i < instr->operand_count(); ++i) {
        absl::Span<const int64_t> op_buffers = dataflow.BuffersOf(instr->operand(i));
        if (op_buffers.size() != 1) continue;
        const int64_t ob = op_buffers[0];
        const AssignedBuffer& o = buffers[ob];
        if (o.kind != BufferKind::kTemporary || taken[ob] || o.end != position.at(instr) ||
            o.size_bytes != buffers[b].size_bytes || o.memory_space != buffers[b].memory_space ||
            !CanWriteOverOperand(*instr, i)) {
          continue;
        }
        share(b, ob);
        break;
      }
    }
  }
  for (const InputOutputAlias& alias : module.input_output_aliases()) {
    if (alias.parameter_number < 0 || alias.parameter_number >= entry->num_parameters()) continue;
    const HloInstruction* param = entry->parameter_instruction(alias.parameter_number);
    const int64_t p_leaf = HloDataflowAnalysis::LeafNumber(param->shape(), alias.parameter_index);
    const int64_t o_leaf =
        HloDataflowAnalysis::LeafNumber(entry->root_instruction()->shape(), alias.output_index);
    absl::Span<const int64_t> p_buffers = dataflow.BuffersOf(param);
    absl::Span<const int64_t> o_buffers = dataflow.BuffersOf(entry->root_instruction());
    if (p_leaf < 0 || o_leaf < 0 || p_leaf >= int64_t(p_buffers.size()) ||
        o_leaf >= int64_t(o_buffers.size())) {
      continue;
    }
    const int64_t pb = p_buffers[p_leaf], ob = o_buffers[o_leaf];
    if (pb == ob) continue;  // the output is the parameter itself
    AssignedBuffer& out = buffers[ob];
    if (out.kind == BufferKind::kOutput && last_read[pb] <= out.start && !taken[pb] &&
        allocation[ob] == ob && out.size_bytes <= buffers[pb].size_bytes) {
      share(ob, pb);
      out.aliased_parameter = alias.parameter_number;
    } else {
      result.notes_.push_back(absl::StrCat(
          "output ", ShapeIndexToString(alias.output_index), " cannot reuse parameter ",
          alias.parameter_number, ": the parameter is read at position ", last_read[pb],
          " after the output is written at ", out.start, "; a copy is needed"));
    }
  }

  // Loops, branches and calls need their computations' memory while they run.
  absl::flat_hash_map<const HloComputation*, int64_t> memo;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t bytes = CalledPeak(module, *order[i], &memo);
    if (bytes == 0) continue;
    AssignedBuffer b;
    b.id = int64_t(buffers.size());
    b.instruction_id = order[i]->unique_id();
    b.instruction = order[i]->name();
    b.size_bytes = bytes;
    b.shape = Shape(U8, {bytes});
    b.start = b.end = i;
    b.kind = BufferKind::kCalledComputation;
    allocation.push_back(b.id);
    buffers.push_back(std::move(b));
  }

  // One allocation per group of buffers sharing memory.
  struct Allocation {
    int64_t start = INT64_MAX, end = -1, size = 0, space = 0, offset = 0;
  };
  std::map<int64_t, Allocation> allocations;  // by leader buffer id
  for (const AssignedBuffer& b : buffers) {
    int64_t leader = allocation[b.id];
    while (allocation[leader] != leader) leader = allocation[leader];
    allocation[b.id] = leader;
    Allocation& a = allocations[leader];
    a.start = std::min(a.start, b.start);
    a.end = std::max(a.end, b.end);
    a.size = std::max(a.size, b.size_bytes);
    a.space = buffers[leader].memory_space;
  }

  // Offsets: allocate in time order, freeing what ended before.
  std::vector<std::pair<int64_t, int64_t>> by_start;  // (start, leader)
  for (const auto& [leader, a] : allocations) by_start.emplace_back(a.start, leader);
  std::sort(by_start.begin(), by_start.end());
  std::map<int64_t, BestFitHeap> heaps;
  using Active = std::pair<int64_t, int64_t>;  // (end, leader)
  std::priority_queue<Active, std::vector<Active>, std::greater<Active>> active;
  for (const auto& [start, leader] : by_start) {
    while (!active.empty() && active.top().first < start) {
      const Allocation& done = allocations.at(active.top().second);
      heaps.try_emplace(done.space, options.alignment).first->second.Free(done.offset, done.size);
      active.pop();
    }
    Allocation& a = allocations.at(leader);
    a.offset = heaps.try_emplace(a.space, options.alignment).first->second.Allocate(a.size);
    active.emplace(a.end, leader);
  }
  for (AssignedBuffer& b : buffers) b.offset = allocations.at(allocation[b.id]).offset;

  // Peaks per memory space, counting each allocation once.
  std::map<int64_t, bool> spaces;
  for (const auto& [leader, a] : allocations) {
    result.blocks_.push_back(Block{a.start, a.end, a.size, a.space});
    spaces[a.space] = true;
  }
  for (const auto& [space, unused] : spaces) {
    MemorySpaceUsage u;
    u.memory_space = space;
    u.name = MemorySpaceName(space);
    const std::vector<int64_t> live = result.LiveBytes(space);
    for (int64_t i = 0; i < n; ++i) {
      if (live[i] > u.peak_live_bytes) {
        u.peak_live_bytes = live[i];
        u.peak_position = i;
      }
    }
    auto heap = heaps.find(space);
    u.heap_bytes = heap == heaps.end() ? 0 : heap->second.heap_size();
    result.usage_.push_back(u);
  }
  std::sort(buffers.begin(), buffers.end(), [](const AssignedBuffer& a, const AssignedBuffer& b) {
    return std::tie(a.start, a.id) < std::tie(b.start, b.id);
  });
  return result;
}

std::vector<int64_t> BufferAssignment::LiveBytes(int64_t memory_space) const {
  const int64_t n = program_length();
  std::vector<int64_t> delta(n + 2, 0);
  for (const Block& block : blocks_) {
    if (block.memory_space != memory_space) continue;
    delta[block.start] += block.size;
    delta[block.end + 1] -= block.size;
  }
  std::vector<int64_t> live(n, 0);
  int64_t running = 0;
  for (int64_t i = 0; i < n; ++i) {
    running += delta[i];
    live[i] = running;
  }
  return live;
}

int64_t BufferAssignment::peak_bytes() const {
  for (const MemorySpaceUsage& u : usage_) {
    if (u.memory_space == 0) return u.peak_live_bytes;
  }
  return 0;
}

std::string BufferAssignment::ToString() const {
  std::string out;
  for (const MemorySpaceUsage& u : usage_) {
    absl::StrAppendFormat(&out, "%s: peak %d bytes at position %d, heap %d bytes\n", u.name,
                          u.peak_live_bytes, u.peak_position, u.heap_bytes);
  }
  for (const AssignedBuffer& b : buffers_) {
    absl::StrAppendFormat(&out, "  buffer %d %%%s%s %s %d bytes [%d, %d] @%d %s%s\n", b.id,
                          b.instruction, b.index.empty() ? "" : ShapeIndexToString(b.index),
                          b.shape.ToString(true), b.size_bytes, b.start, b.end, b.offset,
                          BufferKindToString(b.kind),
                          b.shares_with >= 0 ? absl::StrCat(" (reuses buffer ", b.shares_with, ")")
                                             : "");
  }
  for (const std::string& note : notes_) absl::StrAppend(&out, "note: ", note, "\n");
  return out;
}

}  // namespace systolic
