#include "core/eval/evaluation_memory.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "core/hlo/human_bytes.h"

namespace systolic::eval {
namespace {

constexpr size_t kValuesNamed = 5;

// MemAvailable from /proc/meminfo, in bytes.
std::optional<int64_t> MemAvailable() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  int64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return std::nullopt;
}

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
    std::vector<std::vector<const HloInstruction*>> frees(order.size() + 1);
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
      frees[freed_after(instruction)].push_back(instruction);
      for (const HloInstruction* value : frees[p]) live_bytes -= ShapeBytes(value->shape());
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

double ShapeBytes(const Shape& shape) {
  if (shape.IsTuple()) {
    double total = 0;
    for (const Shape& s : shape.tuple_shapes()) total += ShapeBytes(s);
    return total;
  }
  if (!shape.IsArray()) return 0;
  double n = primitive_util::ByteWidth(shape.element_type());
  for (int64_t d : shape.dimensions()) n *= double(std::max<int64_t>(d, 0));
  return n;
}

absl::StatusOr<int64_t> ParseByteSize(absl::string_view text) {
  const std::string lower = absl::AsciiStrToLower(absl::StripAsciiWhitespace(text));
  absl::string_view t = lower;
  if (!absl::ConsumeSuffix(&t, "ib")) absl::ConsumeSuffix(&t, "b");
  double scale = 1;
  const std::pair<char, double> units[] = {
      {'k', 1024.0}, {'m', 1024.0 * 1024}, {'g', 1024.0 * 1024 * 1024},
      {'t', 1024.0 * 1024 * 1024 * 1024}};
  for (const auto& [suffix, factor] : units) {
    if (!t.empty() && t.back() == suffix) {
      t.remove_suffix(1);
      scale = factor;
    }
  }
  double value = 0;
  if (!absl::SimpleAtod(t, &value) || !std::isfinite(value) || value <= 0 ||
      value * scale > 9.0e18) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "' is not a memory size (bytes, or with K, M, G or T: 8G)"));
  }
  return int64_t(value * scale);
}

absl::StatusOr<HostMemory> HostMemoryLimit() {
  if (const char* limit = std::getenv("SYSTOLIC_MEMORY_LIMIT"); limit != nullptr && *limit) {
    absl::StatusOr<int64_t> bytes = ParseByteSize(limit);
    if (!bytes.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("SYSTOLIC_MEMORY_LIMIT: ", bytes.status().message()));
    }
    return HostMemory{*bytes, "SYSTOLIC_MEMORY_LIMIT"};
  }
  if (std::optional<int64_t> available = MemAvailable()) {
    return HostMemory{*available, "MemAvailable in /proc/meminfo"};
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) {
    return HostMemory{int64_t(pages) * int64_t(page) / 2, "half the physical memory"};
  }
  return HostMemory{int64_t{8} << 30, "an assumed 8 GiB"};
}

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
