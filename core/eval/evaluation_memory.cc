#include "core/eval/evaluation_memory.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/host_memory.h"
#include "core/hlo/human_bytes.h"

namespace systolic::eval {
namespace {

constexpr size_t kValuesNamed = 5;

class Planner {
 public:
  EvaluationMemory Plan(const HloComputation& computation) {
    EvaluationMemory plan;
    const std::vector<HloInstruction*> order = computation.MakeInstructionPostOrder();
    const HloInstruction* root = computation.root_instruction();
    // Where each value is used last; the root and the parameters (the
    // caller's) stay to the end.
    absl::flat_hash_map<const HloInstruction*, size_t> last_use;
    for (size_t p = 0; p < order.size(); ++p) {
      for (const HloInstruction* operand : order[p]->operands()) last_use[operand] = p;
    }
    auto freed_after = [&](const HloInstruction* value) -> size_t {
      if (value == root || value->opcode() == HloOpcode::kParameter) return order.size();
      auto it = last_use.find(value);
      return it == last_use.end() ? order.size() : it->second;
    };
    // Positions whose values are freed after each position.
    std::vector<std::vector<size_t>> frees(order.size() + 1);
    std::vector<double> bytes(order.size(), 0);
    double live_bytes = 0;
    size_t peak_at = 0;
    for (size_t p = 0; p < order.size(); ++p) {
      const HloInstruction* instruction = order[p];
      // Dead code is never evaluated.
      if (instruction != root && instruction->opcode() != HloOpcode::kParameter &&
          !last_use.contains(instruction)) {
        continue;
      }
      bytes[p] = ShapeBytes(instruction->shape());
      double transient = 0;  // a callee's own values, while it runs
      if (instruction->opcode() != HloOpcode::kFusion) {
        for (const HloComputation* callee : instruction->called_computations()) {
          transient = std::max(transient, PeakOf(*callee));
        }
      }
      live_bytes += bytes[p];
      if (live_bytes + transient > plan.peak_bytes) {
        plan.peak_bytes = live_bytes + transient;
        peak_at = p;
      }
      frees[freed_after(instruction)].push_back(p);
      for (size_t value : frees[p]) live_bytes -= bytes[value];
    }
    // The values live at the peak: made by then, freed after it.
    for (size_t q = 0; q <= peak_at && q < order.size(); ++q) {
      if (bytes[q] > 0 && freed_after(order[q]) >= peak_at) {
        plan.at_peak.push_back({order[q], bytes[q]});
      }
    }
    std::sort(plan.at_peak.begin(), plan.at_peak.end(),
              [](const LiveValue& a, const LiveValue& b) { return a.bytes > b.bytes; });
    if (plan.at_peak.size() > kValuesNamed) plan.at_peak.resize(kValuesNamed);
    return plan;
  }

 private:
  double PeakOf(const HloComputation& computation) {
    auto found = peaks_.find(&computation);
    if (found != peaks_.end()) return found->second;
    peaks_[&computation] = 0;  // a recursive call adds nothing more
    const double peak = Plan(computation).peak_bytes;
    peaks_[&computation] = peak;
    return peak;
  }

  absl::flat_hash_map<const HloComputation*, double> peaks_;
};

}  // namespace

EvaluationMemory PlanEvaluationMemory(const HloComputation& computation) {
  return Planner().Plan(computation);
}

absl::Status CheckEvaluationFits(const HloModule& module, int64_t devices) {
  const HloComputation* entry = module.entry_computation();
  if (entry == nullptr) return absl::OkStatus();
  absl::StatusOr<HostMemory> host = HostMemoryLimit();
  if (!host.ok()) return host.status();
  const EvaluationMemory plan = PlanEvaluationMemory(*entry);
  devices = std::max<int64_t>(devices, 1);
  const double needed = plan.peak_bytes * double(devices);
  if (needed <= double(host->bytes)) return absl::OkStatus();
  std::string values;
  for (const LiveValue& v : plan.at_peak) {
    absl::StrAppend(&values, values.empty() ? "" : ", ", "%", v.instruction->name(), " ",
                    v.instruction->shape().ToString(), " ", HumanBytes(v.bytes));
  }
  const std::string per_device =
      devices > 1 ? absl::StrCat(" (", devices, " devices \u00d7 ", HumanBytes(plan.peak_bytes), ")") : "";
  return absl::ResourceExhaustedError(absl::StrCat(
      "evaluating ", module.name(), " needs about ", HumanBytes(needed), " of host memory at its peak",
      per_device, ", but ", HumanBytes(double(host->bytes)), " may be used (", host->source,
      host->source == "SYSTOLIC_MEMORY_LIMIT" ? "" : "; --memory-limit sets another",
      "). The largest values then: ", values,
      ". --timing-only simulates the program without its values."));
}

}  // namespace systolic::eval
