#include "core/compiler/hlo_dataflow_analysis.h"

#include <algorithm>

#include "core/compiler/shape_size.h"

namespace systolic {
namespace {

// Array leaves of `shape` with their indices, in order.
void Leaves(const Shape& shape, ShapeIndex* index, std::vector<std::pair<ShapeIndex, Shape>>* out) {
  if (shape.IsTuple()) {
    for (int64_t i = 0; i < shape.tuple_shapes_size(); ++i) {
      index->push_back(i);
      Leaves(shape.tuple_shapes(i), index, out);
      index->pop_back();
    }
  } else if (shape.IsArray()) {
    out->emplace_back(*index, shape);
  }
}

int64_t LeafCount(const Shape& shape) {
  if (!shape.IsTuple()) return shape.IsArray() ? 1 : 0;
  int64_t n = 0;
  for (const Shape& s : shape.tuple_shapes()) n += LeafCount(s);
  return n;
}

}  // namespace

bool HloDataflowAnalysis::IsForwarding(const HloInstruction& instr) {
  switch (instr.opcode()) {
    case HloOpcode::kTuple:
    case HloOpcode::kGetTupleElement:
    case HloOpcode::kBitcast:
    case HloOpcode::kWhile:
    case HloOpcode::kOptimizationBarrier:
    case HloOpcode::kDomain:
    case HloOpcode::kAddDependency:
      return true;
    default:
      return false;
  }
}

int64_t HloDataflowAnalysis::LeafNumber(const Shape& shape, const ShapeIndex& index) {
  const Shape* s = &shape;
  int64_t number = 0;
  for (int64_t i : index) {
    if (!s->IsTuple() || i < 0 || i >= s->tuple_shapes_size()) return -1;
    for (int64_t j = 0; j < i; ++j) number += LeafCount(s->tuple_shapes(j));
    s = &s->tuple_shapes(i);
  }
  return s->IsArray() ? number : -1;
}

HloDataflowAnalysis::HloDataflowAnalysis(const HloComputation& computation)
    : computation_(computation) {
  static const std::vector<int64_t> kNone;
  for (const HloInstruction* instr : computation.MakeInstructionPostOrder()) {
    std::vector<int64_t>& points_to = points_to_[instr];
    auto of = [&](const HloInstruction* op) -> const std::vector<int64_t>& {
      auto it = points_to_.find(op);
      return it == points_to_.end() ? kNone : it->second;
    };
    switch (instr->opcode()) {
      case HloOpcode::kTuple:
        for (const HloInstruction* op : instr->operands()) {
          const auto& ops = of(op);
          points_to.insert(points_to.end(), ops.begin(), ops.end());
        }
        continue;
      case HloOpcode::kGetTupleElement:
      // The -done of an async collective hands out the result its start
      // allocated (element 1 of the start's tuple) instead of a new buffer.
      case HloOpcode::kAllGatherDone:
      case HloOpcode::kCollectivePermuteDone: {
        const Shape& tuple = instr->operand(0)->shape();
        const auto& ops = of(instr->operand(0));
        const int64_t index =
            instr->opcode() == HloOpcode::kGetTupleElement ? instr->tuple_index() : 1;
        if (!tuple.IsTuple() || index >= tuple.tuple_shapes_size()) break;
        int64_t first = 0;
        for (int64_t j = 0; j < index; ++j) first += LeafCount(tuple.tuple_shapes(j));
        const int64_t count = LeafCount(instr->shape());
        if (first + count <= int64_t(ops.size())) {
          points_to.assign(ops.begin() + first, ops.begin() + first + count);
        }
        continue;
      }
      case HloOpcode::kAllReduceDone:
        points_to = of(instr->operand(0));
        continue;
      default:
        break;
    }
    if (IsForwarding(*instr) && instr->operand_count() > 0 &&
        LeafCount(instr->operand(0)->shape()) == LeafCount(instr->shape())) {
      points_to = of(instr->operand(0));
      continue;
    }
    std::vector<std::pair<ShapeIndex, Shape>> leaves;
    ShapeIndex index;
    Leaves(instr->shape(), &index, &leaves);
    std::vector<int64_t>& defined = defined_[instr];
    for (auto& [leaf_index, leaf_shape] : leaves) {
      LogicalBuffer b;
      b.id = int64_t(buffers_.size());
      b.instruction = instr;
      b.index = leaf_index;
      b.size_bytes = ByteSizeOf(leaf_shape);
      b.shape = std::move(leaf_shape);
      defined.push_back(b.id);
      points_to.push_back(b.id);
      buffers_.push_back(std::move(b));
    }
  }
  readers_.resize(buffers_.size());
  live_out_.assign(buffers_.size(), false);
  for (const HloInstruction* instr : computation.MakeInstructionPostOrder()) {
    // A forwarding instruction passes buffers on; a loop also runs in them.
    if (IsForwarding(*instr) && instr->opcode() != HloOpcode::kWhile) continue;
    for (const HloInstruction* op : instr->operands()) {
      for (int64_t b : BuffersOf(op)) {
        auto& readers = readers_[b];
        if (readers.empty() || readers.back() != instr) readers.push_back(instr);
      }
    }
  }
  if (computation.root_instruction() != nullptr) {
    for (int64_t b : BuffersOf(computation.root_instruction())) live_out_[b] = true;
  }
}

absl::Span<const int64_t> HloDataflowAnalysis::BuffersOf(const HloInstruction* instr) const {
  auto it = points_to_.find(instr);
  if (it == points_to_.end()) return {};
  return it->second;
}

absl::Span<const int64_t> HloDataflowAnalysis::DefinedBy(const HloInstruction* instr) const {
  auto it = defined_.find(instr);
  if (it == defined_.end()) return {};
  return it->second;
}

}  // namespace systolic
