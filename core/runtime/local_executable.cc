#include "core/runtime/local_executable.h"

#include "absl/strings/str_cat.h"

namespace systolic::runtime {
namespace {

void CollectLeaves(const Shape& shape, int64_t parameter_number, ShapeIndex* index,
                   std::vector<ValueLeaf>* out) {
  if (shape.IsTuple()) {
    for (int64_t i = 0; i < shape.tuple_shapes_size(); ++i) {
      index->push_back(i);
      CollectLeaves(shape.tuple_shapes(i), parameter_number, index, out);
      index->pop_back();
    }
    return;
  }
  out->push_back(ValueLeaf{shape, parameter_number, *index});
}

// Rebuilds a tuple-shaped value from consecutive leaves.
Literal AssembleTuple(const Shape& shape, const std::vector<const Literal*>& leaves,
                      size_t* next) {
  if (!shape.IsTuple()) return leaves[(*next)++]->Clone();
  std::vector<Literal> elements;
  for (const Shape& element : shape.tuple_shapes()) {
    elements.push_back(AssembleTuple(element, leaves, next));
  }
  return Literal::MakeTuple(std::move(elements));
}

void SplitInto(Literal value, std::vector<Literal>* out) {
  if (!value.shape().IsTuple()) {
    out->push_back(std::move(value));
    return;
  }
  for (Literal& element : std::move(value).DecomposeTuple()) SplitInto(std::move(element), out);
}

constexpr int64_t kCheapInstructions = 32;
constexpr int64_t kCheapBytes = 1 << 20;

bool IsCheap(const HloModule& module) {
  int64_t instructions = 0, bytes = 0;
  for (const HloComputation* computation : module.computations()) {
    for (const HloInstruction* instruction : computation->instructions()) {
      ++instructions;
      switch (instruction->opcode()) {
        case HloOpcode::kWhile:
        case HloOpcode::kCustomCall:
        case HloOpcode::kAllReduce:
        case HloOpcode::kAllGather:
        case HloOpcode::kAllToAll:
        case HloOpcode::kReduceScatter:
        case HloOpcode::kCollectivePermute:
        case HloOpcode::kConvolution:
        case HloOpcode::kSort:
          return false;
        default:
          break;
      }
      const Shape& shape = instruction->shape();
      if (shape.IsArray()) bytes += shape.num_elements() * primitive_util::ByteWidth(shape.element_type());
    }
  }
  return instructions <= kCheapInstructions && bytes <= kCheapBytes;
}

}  // namespace

absl::StatusOr<std::shared_ptr<LocalExecutable>> LocalExecutable::Create(
    int64_t program_id, std::string fingerprint, std::shared_ptr<const HloModule> module,
    std::unique_ptr<BackendExecutable> compiled, CompileOptions options,
    std::vector<LocalDevice*> devices) {
  std::shared_ptr<LocalExecutable> executable(new LocalExecutable());
  executable->program_id_ = program_id;
  executable->fingerprint_ = std::move(fingerprint);
  executable->compiled_ = std::move(compiled);
  executable->options_ = std::move(options);
  executable->devices_ = std::move(devices);
  const HloComputation* entry = module->entry_computation();
  if (entry == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("module '", module->name(), "' has no entry computation"));
  }
  ShapeIndex index;
  for (const HloInstruction* parameter : entry->parameter_instructions()) {
    int64_t first = int64_t(executable->parameters_.size());
    CollectLeaves(parameter->shape(), parameter->parameter_number(), &index,
                  &executable->parameters_);
    executable->parameter_leaf_ranges_.emplace_back(first,
                                                    int64_t(executable->parameters_.size()) - first);
  }
  CollectLeaves(entry->root_instruction()->shape(), -1, &index, &executable->outputs_);
  executable->output_aliases_.assign(executable->outputs_.size(), -1);
  for (const InputOutputAlias& alias : module->input_output_aliases()) {
    int64_t output = -1, parameter = -1;
    for (size_t i = 0; i < executable->outputs_.size(); ++i) {
      if (executable->outputs_[i].index == alias.output_index) output = int64_t(i);
    }
    for (size_t i = 0; i < executable->parameters_.size(); ++i) {
      const ValueLeaf& leaf = executable->parameters_[i];
      if (leaf.parameter_number == alias.parameter_number &&
          leaf.index == alias.parameter_index) {
        parameter = int64_t(i);
      }
    }
    if (output < 0 || parameter < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "module '", module->name(), "': input_output_alias ",
          ShapeIndexToString(alias.output_index), ": (", alias.parameter_number, ", ",
          ShapeIndexToString(alias.parameter_index), ") names no array output or parameter"));
    }
    executable->output_aliases_[output] = parameter;
  }
  executable->cheap_ = IsCheap(*module) && executable->devices_.size() == 1;
  executable->module_ = std::move(module);
  return executable;
}

std::string LocalExecutable::Label() const {
  return absl::StrCat("execute of '", name(), "' (program ", program_id_, ")");
}

std::vector<const Literal*> LocalExecutable::AssembleParameters(
    const std::vector<const Literal*>& leaves, std::vector<Literal>* storage) const {
  std::vector<const Literal*> parameters;
  const HloComputation* entry = module_->entry_computation();
  // Tuples are built into `storage`, which must not reallocate meanwhile.
  int64_t tuples = 0;
  for (const HloInstruction* parameter : entry->parameter_instructions()) {
    tuples += parameter->shape().IsTuple();
  }
  storage->reserve(storage->size() + tuples);
  for (size_t p = 0; p < parameter_leaf_ranges_.size(); ++p) {
    const Shape& shape = entry->parameter_instruction(int64_t(p))->shape();
    size_t next = size_t(parameter_leaf_ranges_[p].first);
    if (!shape.IsTuple()) {
      parameters.push_back(leaves[next]);
      continue;
    }
    storage->push_back(AssembleTuple(shape, leaves, &next));
    parameters.push_back(&storage->back());
  }
  return parameters;
}

std::vector<Literal> LocalExecutable::SplitResult(Literal root) {
  std::vector<Literal> leaves;
  SplitInto(std::move(root), &leaves);
  return leaves;
}

}  // namespace systolic::runtime
