#include "tests/core/runtime/engine_test_backend.h"

#include <chrono>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"

namespace systolic::runtime {
namespace {

class TestExecutable : public BackendExecutable {};

absl::StatusOr<Literal> Elementwise(const HloInstruction& instruction,
                                    const std::vector<const Literal*>& operands) {
  Literal out(instruction.shape());
  for (int64_t i = 0; i < out.element_count(); ++i) {
    double a = operands[0]->GetAsDouble(i);
    double b = operands.size() > 1 ? operands[1]->GetAsDouble(i) : 0;
    double r = 0;
    switch (instruction.opcode()) {
      case HloOpcode::kAdd: r = a + b; break;
      case HloOpcode::kSubtract: r = a - b; break;
      case HloOpcode::kMultiply: r = a * b; break;
      case HloOpcode::kNegate: r = -a; break;
      case HloOpcode::kCopy: r = a; break;
      default: break;
    }
    out.SetFromDouble(i, r);
  }
  return out;
}

absl::StatusOr<Literal> Run(const HloComputation& computation,
                            const std::vector<const Literal*>& parameters) {
  absl::flat_hash_map<const HloInstruction*, Literal> values;
  for (HloInstruction* instruction : computation.MakeInstructionPostOrder()) {
    std::vector<const Literal*> operands;
    for (const HloInstruction* operand : instruction->operands()) {
      operands.push_back(&values.at(operand));
    }
    Literal value;
    switch (instruction->opcode()) {
      case HloOpcode::kParameter:
        value = parameters[instruction->parameter_number()]->Clone();
        break;
      case HloOpcode::kConstant:
        value = instruction->literal().Clone();
        break;
      case HloOpcode::kAdd:
      case HloOpcode::kSubtract:
      case HloOpcode::kMultiply:
      case HloOpcode::kNegate:
      case HloOpcode::kCopy: {
        SYSTOLIC_ASSIGN_OR_RETURN(value, Elementwise(*instruction, operands));
        break;
      }
      case HloOpcode::kTuple: {
        std::vector<Literal> elements;
        for (const Literal* operand : operands) elements.push_back(operand->Clone());
        value = Literal::MakeTuple(std::move(elements));
        break;
      }
      case HloOpcode::kGetTupleElement:
        value = operands[0]->tuple_element(instruction->tuple_index()).Clone();
        break;
      case HloOpcode::kCustomCall: {
        const std::string& target = instruction->custom_call_target();
        std::string config = instruction->backend_config();
        if (config.size() >= 2 && config.front() == '"') config = config.substr(1, config.size() - 2);
        if (target == "test.fail") return absl::AbortedError(config);
        if (target == "test.sleep") {
          int64_t ms = 0;
          if (!absl::SimpleAtoi(config, &ms)) ms = 0;
          std::this_thread::sleep_for(std::chrono::milliseconds(ms));
          value = operands[0]->Clone();
          break;
        }
        return absl::UnimplementedError(absl::StrCat("test backend: no custom call '", target, "'"));
      }
      default:
        return absl::UnimplementedError(absl::StrCat("test backend: ", instruction->ToString()));
    }
    values.emplace(instruction, std::move(value));
  }
  return std::move(values.at(computation.root_instruction()));
}

class TestBackend : public Backend {
 public:
  std::string platform_name() const override { return "test"; }
  std::string platform_version() const override { return "test 1"; }
  std::string timing_support() const override { return "none"; }

  absl::StatusOr<BackendPlatform> Configure(const ClientConfig& config) override {
    BackendPlatform platform;
    int64_t n = config.num_devices > 0 ? config.num_devices : 2;
    for (int64_t i = 0; i < n; ++i) {
      BackendDevice device;
      device.kind = "test";
      device.memory_limit_bytes = 0;
      platform.devices.push_back(device);
    }
    platform.topology.platform_name = "test";
    platform.topology.chip = "host";
    platform.topology.bounds = {1, 1, 1};
    platform.topology.cores_per_chip = n;
    return platform;
  }

  absl::StatusOr<std::unique_ptr<BackendExecutable>> Compile(
      const HloModule& module, const CompileOptions& options) override {
    for (const HloComputation* computation : module.computations()) {
      for (const HloInstruction* instruction : computation->instructions()) {
        if (instruction->opcode() == HloOpcode::kCustomCall &&
            instruction->custom_call_target() == "test.compile_error") {
          return absl::InvalidArgumentError("test backend: compile error requested");
        }
      }
    }
    return std::make_unique<TestExecutable>();
  }

  absl::StatusOr<std::vector<Literal>> Execute(
      const BackendExecutable& executable, const HloModule& module,
      const std::vector<std::vector<const Literal*>>& arguments,
      std::vector<ExecutionTiming>* timings) override {
    std::vector<Literal> results;
    for (const auto& participant : arguments) {
      SYSTOLIC_ASSIGN_OR_RETURN(Literal result, Run(*module.entry_computation(), participant));
      results.push_back(std::move(result));
      timings->push_back(ExecutionTiming{false, 0, 0, "the test backend does not time programs"});
    }
    return results;
  }
};

}  // namespace

std::unique_ptr<Backend> NewTestBackend() { return std::make_unique<TestBackend>(); }

}  // namespace systolic::runtime
