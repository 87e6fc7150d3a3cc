#include "core/compiler/hlo_memory_scheduler.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"
#include "core/compiler/hlo_dataflow_analysis.h"

namespace systolic {

std::vector<HloInstruction*> HloMemoryScheduler::ListSchedule(const HloComputation& computation) {
  const std::vector<HloInstruction*> post_order = computation.MakeInstructionPostOrder();
  const HloDataflowAnalysis dataflow(computation);
  const int64_t n = int64_t(post_order.size());
  absl::flat_hash_map<const HloInstruction*, int64_t> position;
  for (int64_t i = 0; i < n; ++i) position[post_order[i]] = i;

  // Unscheduled readers per buffer; a buffer is freed after its last reader.
  std::vector<int64_t> readers_left(dataflow.buffers().size());
  for (const LogicalBuffer& b : dataflow.buffers()) {
    readers_left[b.id] = int64_t(dataflow.Readers(b.id).size());
  }
  std::vector<int64_t> waiting(n, 0);  // unscheduled operands and control predecessors
  std::vector<bool> scheduled(n, false);
  for (int64_t i = 0; i < n; ++i) {
    const HloInstruction* instr = post_order[i];
    absl::flat_hash_set<const HloInstruction*> distinct(instr->operands().begin(),
                                                        instr->operands().end());
    waiting[i] += int64_t(distinct.size());
    waiting[i] += int64_t(instr->control_predecessors().size());
  }

  // Bytes freed minus bytes defined by running `instr` now.
  auto priority = [&](const HloInstruction* instr) -> int64_t {
    if (instr->opcode() == HloOpcode::kParameter) return std::numeric_limits<int64_t>::max();
    int64_t gain = 0;
    for (int64_t b : dataflow.DefinedBy(instr)) gain -= dataflow.buffer(b).size_bytes;
    std::vector<int64_t> counted;
    for (const HloInstruction* op : instr->operands()) {
      for (int64_t b : dataflow.BuffersOf(op)) {
        if (readers_left[b] == 1 && !dataflow.IsLiveOut(b) &&
            std::find(counted.begin(), counted.end(), b) == counted.end() &&
            dataflow.buffer(b).instruction->opcode() != HloOpcode::kParameter &&
            dataflow.buffer(b).instruction->opcode() != HloOpcode::kConstant) {
          counted.push_back(b);
          gain += dataflow.buffer(b).size_bytes;
        }
      }
    }
    return gain;
  };

  using Entry = std::tuple<int64_t, int64_t, int64_t>;  // priority, -position, version
  std::priority_queue<Entry> ready;
  std::vector<int64_t> version(n, 0);
  auto push = [&](int64_t i) { ready.emplace(priority(post_order[i]), -i, ++version[i]); };
  for (int64_t i = 0; i < n; ++i) {
    if (waiting[i] == 0) push(i);
  }
  std::vector<HloInstruction*> order;
  order.reserve(n);
  while (!ready.empty()) {
    auto [p, neg_pos, v] = ready.top();
    ready.pop();
    const int64_t i = -neg_pos;
    if (scheduled[i] || v != version[i]) continue;
    scheduled[i] = true;
    HloInstruction* instr = post_order[i];
    order.push_back(instr);
    // Buffers with one reader left make that reader more attractive.
    if (!HloDataflowAnalysis::IsForwarding(*instr) || instr->opcode() == HloOpcode::kWhile) {
      std::vector<int64_t> done;
      for (const HloInstruction* op : instr->operands()) {
        for (int64_t b : dataflow.BuffersOf(op)) {
          if (std::find(done.begin(), done.end(), b) != done.end()) continue;
          done.push_back(b);
          if (--readers_left[b] != 1) continue;
          for (const HloInstruction* reader : dataflow.Readers(b)) {
            const int64_t r = position.at(reader);
            if (!scheduled[r] && waiting[r] == 0) push(r);
          }
        }
      }
    }
    auto release = [&](const HloInstruction* next) {
      const int64_t j = position.at(next);
      if (--waiting[j] == 0) push(j);
    };
    for (const HloInstruction* user : instr->users()) release(user);  // users are distinct
    for (const HloInstruction* succ : instr->control_successors()) release(succ);
  }
  // Anything left (unreachable through the ready set) keeps post order.
  if (int64_t(order.size()) != n) {
    for (int64_t i = 0; i < n; ++i) {
      if (!scheduled[i]) order.push_back(post_order[i]);
    }
  }
  return order;
}

int64_t HloMemoryScheduler::PeakMemory(const HloComputation& computation,
                                       const std::vector<HloInstruction*>& order) {
  const HloDataflowAnalysis dataflow(computation);
  const int64_t n = int64_t(order.size());
  absl::flat_hash_map<const HloInstruction*, int64_t> position;
  for (int64_t i = 0; i < n; ++i) position[order[i]] = i;
  std::vector<int64_t> delta(n + 2, 0);
  for (const LogicalBuffer& b : dataflow.buffers()) {
    const HloOpcode op = b.instruction->opcode();
    int64_t start = (op == HloOpcode::kParameter || op == HloOpcode::kConstant)
                        ? 0
                        : position.at(b.instruction);
    int64_t end = start;
    for (const HloInstruction* reader : dataflow.Readers(b.id)) {
      end = std::max(end, position.at(reader));
    }
    if (dataflow.IsLiveOut(b.id)) end = n;
    delta[start] += b.size_bytes;
    delta[end + 1] -= b.size_bytes;
  }
  int64_t live = 0, peak = 0;
  for (int64_t i = 0; i <= n; ++i) {
    live += delta[i];
    peak = std::max(peak, live);
  }
  return peak;
}

absl::StatusOr<bool> HloMemoryScheduler::Run(HloModule* module) {
  bool changed = !module->is_scheduled();
  for (HloComputation* computation : module->MakeComputationPostOrder()) {
    if (computation->IsFusionComputation()) continue;
    std::vector<HloInstruction*> list = ListSchedule(*computation);
    std::vector<HloInstruction*> post = computation->MakeInstructionPostOrder();
    const int64_t list_peak = PeakMemory(*computation, list);
    const int64_t post_peak = PeakMemory(*computation, post);
    std::vector<HloInstruction*>& chosen = list_peak <= post_peak ? list : post;
    if (computation->IsEntryComputation()) {
      run_log().AddDecision(absl::StrFormat(
          "%%%s: %s schedule, peak %d bytes (list %d, post order %d)", computation->name(),
          list_peak <= post_peak ? "list" : "post-order", std::min(list_peak, post_peak),
          list_peak, post_peak));
    }
    const std::vector<HloInstruction*>* old = module->schedule(computation);
    if (old == nullptr || *old != chosen) changed = true;
    module->set_schedule(computation, std::move(chosen));
  }
  module->set_is_scheduled(true);
  if (changed) run_log().CountRewrite("scheduled the module");
  return changed;
}

}  // namespace systolic
