#include "core/eval/scalar_function.h"

#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace systolic::eval {
namespace {

// One value of any array type.
struct alignas(16) ValueSlot {
  uint8_t bytes[16];
};

bool IsScalarArray(const Shape& shape) { return shape.IsArray() && shape.num_elements() == 1; }

}  // namespace

struct ScalarFunction::Program {
  struct Step {
    ElementwiseKernel kernel;
    std::vector<int> inputs;  // value indices
    int output;               // value index
  };
  // Value i lives at pointers[i]: an argument, a constant, or slots[i].
  std::vector<const void*> pointers;
  std::vector<ValueSlot> slots;
  std::vector<int> parameter_values;  // value index of parameter p
  std::vector<Step> steps;
  // Aliases (copy, reshape, bitcast of a scalar, get-tuple-element of a tuple
  // value): value index -> source value index, resolved in order.
  std::vector<std::pair<int, int>> aliases;
  std::vector<int> result_values;
  std::vector<int64_t> result_bytes;
  std::vector<Literal> constants;
};

ScalarFunction::ScalarFunction(ScalarFunction&&) noexcept = default;
ScalarFunction& ScalarFunction::operator=(ScalarFunction&&) noexcept = default;
ScalarFunction::~ScalarFunction() = default;

absl::StatusOr<ScalarFunction> ScalarFunction::Compile(const HloComputation& computation,
                                                       Fallback fallback) {
  ScalarFunction f;
  f.computation_ = &computation;
  f.fallback_ = std::move(fallback);
  for (const HloInstruction* p : computation.parameter_instructions()) {
    if (!IsScalarArray(p->shape())) {
      return absl::InvalidArgumentError(absl::StrCat("computation ", computation.name(),
                                                     " must take scalars, but parameter ",
                                                     p->name(), " is ", p->shape().ToString()));
    }
    f.parameter_types_.push_back(p->shape().element_type());
  }
  const HloInstruction* root = computation.root_instruction();
  if (root == nullptr) return absl::InvalidArgumentError("computation has no root");
  std::vector<const HloInstruction*> root_values;
  if (root->shape().IsTuple()) {
    for (const Shape& s : root->shape().tuple_shapes()) {
      if (!IsScalarArray(s)) {
        return absl::InvalidArgumentError(absl::StrCat("computation ", computation.name(),
                                                       " must return scalars, not ",
                                                       root->shape().ToString()));
      }
      f.result_types_.push_back(s.element_type());
    }
  } else {
    if (!IsScalarArray(root->shape())) {
      return absl::InvalidArgumentError(absl::StrCat("computation ", computation.name(),
                                                     " must return a scalar, not ",
                                                     root->shape().ToString()));
    }
    f.result_types_.push_back(root->shape().element_type());
  }

  // The usual reducer: one binary op of the two parameters.
  if (computation.num_parameters() == 2 && root->operand_count() == 2 &&
      HasElementwiseKernel(*root) && root->opcode() != HloOpcode::kCompare &&
      root->opcode() != HloOpcode::kComplex) {
    const HloInstruction* p0 = computation.parameter_instruction(0);
    const HloInstruction* p1 = computation.parameter_instruction(1);
    if ((root->operand(0) == p0 && root->operand(1) == p1) ||
        (root->operand(0) == p1 && root->operand(1) == p0)) {
      auto kernel = MakeElementwiseKernel(*root);
      if (kernel.ok() && f.parameter_types_[0] == f.parameter_types_[1] &&
          f.parameter_types_[0] == f.result_types_[0]) {
        f.binary_ = *kernel;
        f.binary_swapped_ = root->operand(0) == p1;
      }
    }
  }

  // Compile the steps; anything unexpected leaves the fallback in charge.
  auto program = std::make_unique<Program>();
  absl::flat_hash_map<const HloInstruction*, int> index;
  std::vector<HloInstruction*> order = computation.MakeInstructionPostOrder();
  program->pointers.resize(order.size(), nullptr);
  program->slots.resize(order.size());
  program->parameter_values.resize(computation.num_parameters(), -1);
  program->constants.reserve(order.size());
  bool ok = true;
  for (size_t i = 0; i < order.size() && ok; ++i) {
    const HloInstruction* instr = order[i];
    index[instr] = int(i);
    switch (instr->opcode()) {
      case HloOpcode::kParameter:
        program->parameter_values[instr->parameter_number()] = int(i);
        break;
      case HloOpcode::kConstant:
        if (!IsScalarArray(instr->shape())) {
          ok = false;
          break;
        }
        program->constants.push_back(instr->literal().Clone());
        program->pointers[i] = program->constants.back().untyped_data();
        break;
      case HloOpcode::kTuple:
        ok = instr == root;
        break;
      case HloOpcode::kCopy:
      case HloOpcode::kReshape:
      case HloOpcode::kBitcast:
      case HloOpcode::kBroadcast:
        ok = IsScalarArray(instr->shape()) && IsScalarArray(instr->operand(0)->shape()) &&
             instr->shape().element_type() == instr->operand(0)->shape().element_type();
        if (ok) program->aliases.push_back({int(i), index.at(instr->operand(0))});
        break;
      default: {
        if (!HasElementwiseKernel(*instr) || !IsScalarArray(instr->shape())) {
          ok = false;
          break;
        }
        auto kernel = MakeElementwiseKernel(*instr);
        if (!kernel.ok()) {
          ok = false;
          break;
        }
        Program::Step step{*kernel, {}, int(i)};
        for (const HloInstruction* operand : instr->operands()) {
          if (!IsScalarArray(operand->shape())) ok = false;
          step.inputs.push_back(index.at(operand));
        }
        program->steps.push_back(std::move(step));
        break;
      }
    }
  }
  if (ok) {
    if (root->opcode() == HloOpcode::kTuple) {
      for (const HloInstruction* e : root->operands()) program->result_values.push_back(index.at(e));
    } else {
      program->result_values.push_back(index.at(root));
    }
    for (PrimitiveType t : f.result_types_) {
      program->result_bytes.push_back(primitive_util::ByteWidth(t));
    }
    // Steps and aliases must interleave in post order: keep them as one list
    // by turning aliases into copy steps.
    std::vector<Program::Step> ordered;
    size_t s = 0, a = 0;
    while (s < program->steps.size() || a < program->aliases.size()) {
      bool take_alias = a < program->aliases.size() &&
                        (s == program->steps.size() ||
                         program->aliases[a].first < program->steps[s].output);
      if (take_alias) {
        auto [to, from] = program->aliases[a++];
        ordered.push_back(Program::Step{MakeCopyKernel(order[to]->shape().element_type()), {from}, to});
      } else {
        ordered.push_back(std::move(program->steps[s++]));
      }
    }
    program->steps = std::move(ordered);
    program->aliases.clear();
    for (const Program::Step& step : program->steps) {
      program->pointers[step.output] = program->slots[step.output].bytes;
    }
    f.program_ = std::move(program);
  }
  return f;
}

absl::Status ScalarFunction::Call(const void* const* args, void* const* results) {
  if (program_ == nullptr) return CallFallback(args, results);
  Program& p = *program_;
  for (size_t i = 0; i < p.parameter_values.size(); ++i) {
    if (p.parameter_values[i] >= 0) p.pointers[p.parameter_values[i]] = args[i];
  }
  const void* inputs[4];
  for (const Program::Step& step : p.steps) {
    for (size_t k = 0; k < step.inputs.size(); ++k) inputs[k] = p.pointers[step.inputs[k]];
    step.kernel.Run(inputs, p.slots[step.output].bytes, 1);
  }
  // Results last, so they may overwrite the arguments.
  for (size_t r = 0; r < p.result_values.size(); ++r) {
    const void* src = p.pointers[p.result_values[r]];
    if (src != results[r]) std::memmove(results[r], src, size_t(p.result_bytes[r]));
  }
  return absl::OkStatus();
}

absl::Status ScalarFunction::CallFallback(const void* const* args, void* const* results) {
  std::vector<Literal> literals;
  std::vector<const Literal*> pointers;
  literals.reserve(parameter_types_.size());
  for (size_t i = 0; i < parameter_types_.size(); ++i) {
    const Shape& shape = computation_->parameter_instruction(int64_t(i))->shape();
    literals.emplace_back(shape);
    std::memcpy(literals.back().untyped_data(), args[i],
                size_t(primitive_util::ByteWidth(parameter_types_[i])));
  }
  for (const Literal& l : literals) pointers.push_back(&l);
  auto value = fallback_(*computation_, pointers);
  if (!value.ok()) return value.status();
  for (size_t r = 0; r < result_types_.size(); ++r) {
    const Literal& element = value->shape().IsTuple() ? value->tuple_element(int64_t(r)) : *value;
    std::memcpy(results[r], element.untyped_data(), size_t(primitive_util::ByteWidth(result_types_[r])));
  }
  return absl::OkStatus();
}

}  // namespace systolic::eval
