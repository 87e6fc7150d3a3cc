#include "core/eval/fused_elementwise_plan.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "core/eval/parallel_ranges.h"
#include "core/eval/shape_ops.h"
#include "core/eval/strided_copy.h"

namespace systolic::eval {
namespace {

// Chunks a thread must have before another is started: below this the
// thread's start costs more than its share of the work.
constexpr int64_t kChunksPerThread = 256;

bool RowMajorLayout(const Shape& s) { return !s.has_layout() || s.layout().IsDescending(); }

// Ops that keep the row-major order of elements, so a chunk of the result is
// the same chunk of the operand.
bool IsLinearAlias(const HloInstruction* instr) {
  switch (instr->opcode()) {
    case HloOpcode::kReshape:
    case HloOpcode::kCopy:
      return true;
    case HloOpcode::kBitcast:
      return instr->shape().element_type() == instr->operand(0)->shape().element_type() &&
             RowMajorLayout(instr->shape()) && RowMajorLayout(instr->operand(0)->shape());
    default:
      return false;
  }
}

}  // namespace

std::unique_ptr<FusedElementwisePlan> FusedElementwisePlan::Build(const HloComputation& computation) {
  const HloInstruction* root = computation.root_instruction();
  if (root == nullptr) return nullptr;
  std::vector<const HloInstruction*> outputs;
  if (root->opcode() == HloOpcode::kTuple) {
    outputs.assign(root->operands().begin(), root->operands().end());
  } else {
    outputs.push_back(root);
  }
  if (outputs.empty()) return nullptr;
  std::unique_ptr<FusedElementwisePlan> plan(new FusedElementwisePlan());
  for (const HloInstruction* out : outputs) {
    if (!out->shape().IsArray()) return nullptr;
  }
  plan->count_ = outputs[0]->shape().num_elements();
  if (plan->count_ <= 1) return nullptr;
  for (const HloInstruction* out : outputs) {
    if (out->shape().num_elements() != plan->count_) return nullptr;
  }
  plan->result_shape_ = root->shape();
  for (const HloInstruction* out : outputs) {
    const int node = plan->NodeFor(out);
    if (node < 0) return nullptr;
    plan->outputs_.push_back(node);
  }
  bool any_kernel = false;
  for (const Node& n : plan->nodes_) any_kernel = any_kernel || n.kind == Node::kKernel;
  if (!any_kernel) return nullptr;
  // Kernels and views that produce an output write it in place.
  for (size_t j = 0; j < plan->outputs_.size(); ++j) {
    Node& n = plan->nodes_[plan->outputs_[j]];
    if ((n.kind == Node::kKernel || n.kind == Node::kView) && n.output < 0) n.output = int(j);
  }
  return plan;
}

FusedElementwisePlan::Source FusedElementwisePlan::SourceFor(const HloInstruction* instr) {
  if (instr->opcode() == HloOpcode::kParameter) {
    return Source{Source::kParameter, instr->parameter_number(), nullptr};
  }
  if (instr->opcode() == HloOpcode::kConstant && instr->has_literal()) {
    return Source{Source::kConstant, 0, &instr->literal()};
  }
  auto it = std::find(materialized_.begin(), materialized_.end(), instr);
  if (it == materialized_.end()) {
    materialized_.push_back(instr);
    it = materialized_.end() - 1;
  }
  return Source{Source::kMaterialized, int64_t(it - materialized_.begin()), nullptr};
}

int FusedElementwisePlan::AddNode(Node node, const HloInstruction* instr) {
  nodes_.push_back(std::move(node));
  const int id = int(nodes_.size()) - 1;
  if (instr != nullptr) memo_.push_back({instr, id});
  return id;
}

int FusedElementwisePlan::NodeFor(const HloInstruction* instr) {
  for (const auto& [done, id] : memo_) {
    if (done == instr) return id;
  }
  if (!instr->shape().IsArray() || instr->shape().num_elements() != count_) return -1;
  const PrimitiveType type = instr->shape().element_type();
  const std::vector<int64_t>& dims = instr->shape().dimensions();
  Node node{Node::kDirect, type, {}, {}, {}, {}, -1};
  auto view_of = [&](absl::StatusOr<ArrayView> view) {
    if (!view.ok()) return -1;
    node.kind = Node::kView;
    node.view = *std::move(view);
    node.source = SourceFor(instr->operand(0));
    return AddNode(std::move(node), instr);
  };
  switch (instr->opcode()) {
    case HloOpcode::kParameter:
    case HloOpcode::kConstant:
      node.source = SourceFor(instr);
      return AddNode(std::move(node), instr);
    case HloOpcode::kIota: {
      owned_.push_back(IotaLine(type, dims[instr->iota_dimension()]));
      auto view = BroadcastView(owned_.back().shape().dimensions(), dims, {instr->iota_dimension()});
      if (!view.ok()) return -1;
      node.kind = Node::kView;
      node.view = *std::move(view);
      node.source = Source{Source::kOwned, int64_t(owned_.size()) - 1, nullptr};
      return AddNode(std::move(node), instr);
    }
    case HloOpcode::kBroadcast:
      if (instr->operand(0)->shape().num_elements() == 1) {
        node.kind = Node::kFill;
        node.source = SourceFor(instr->operand(0));
        return AddNode(std::move(node), instr);
      }
      return view_of(BroadcastView(instr->operand(0)->shape().dimensions(), dims,
                                   instr->dimensions()));
    case HloOpcode::kTranspose:
      return view_of(TransposeView(instr->operand(0)->shape().dimensions(), instr->dimensions()));
    case HloOpcode::kSlice:
      return view_of(SliceView(instr->operand(0)->shape().dimensions(), instr->slice_starts(),
                               instr->slice_limits(), instr->slice_strides()));
    case HloOpcode::kReverse:
      return view_of(ReverseView(instr->operand(0)->shape().dimensions(), instr->dimensions()));
    default:
      break;
  }
  if (IsLinearAlias(instr)) {
    const int source = NodeFor(instr->operand(0));
    if (source < 0) return -1;
    node.kind = Node::kAlias;
    node.inputs = {source};
    return AddNode(std::move(node), instr);
  }
  if (HasElementwiseKernel(*instr)) {
    auto kernel = MakeElementwiseKernel(*instr);
    if (kernel.ok()) {
      std::vector<int> inputs;
      for (const HloInstruction* operand : instr->operands()) {
        int input;
        if (operand->shape().IsArray() && operand->shape().num_elements() == count_) {
          input = NodeFor(operand);
        } else if (operand->shape().IsArray() && operand->shape().num_elements() == 1) {
          Node fill{Node::kFill, operand->shape().element_type(), SourceFor(operand), {}, {}, {}, -1};
          input = AddNode(std::move(fill), nullptr);
        } else {
          input = -1;
        }
        if (input < 0) return -1;
        inputs.push_back(input);
      }
      node.kind = Node::kKernel;
      node.kernel = *kernel;
      node.inputs = std::move(inputs);
      return AddNode(std::move(node), instr);
    }
  }
  // Evaluated whole by the caller.
  node.source = SourceFor(instr);
  return AddNode(std::move(node), instr);
}

absl::StatusOr<Literal> FusedElementwisePlan::Run(absl::Span<const Literal* const> parameters,
                                                  absl::Span<const Literal* const> materialized) const {
  if (materialized.size() != materialized_.size()) {
    return absl::InvalidArgumentError("fused plan: wrong number of evaluated values");
  }
  auto literal_of = [&](const Source& s) -> absl::StatusOr<const Literal*> {
    switch (s.kind) {
      case Source::kParameter:
        if (s.index >= int64_t(parameters.size())) {
          return absl::InvalidArgumentError(absl::StrCat("fused plan: missing parameter ", s.index));
        }
        return parameters[s.index];
      case Source::kConstant:
        return s.literal;
      case Source::kMaterialized:
        return materialized[s.index];
      case Source::kOwned:
        return &owned_[s.index];
    }
    return absl::InternalError("fused plan: bad source");
  };

  // Every element of every output is written below.
  Literal result = Literal::CreateUninitialized(result_shape_);
  std::vector<uint8_t*> out_data;
  if (result_shape_.IsTuple()) {
    for (int64_t j = 0; j < result.tuple_size(); ++j) {
      out_data.push_back(static_cast<uint8_t*>(result.tuple_element(j).untyped_data()));
    }
  } else {
    out_data.push_back(static_cast<uint8_t*>(result.untyped_data()));
  }

  const int64_t chunk = std::min(count_, kElementwiseChunk);
  const size_t n = nodes_.size();
  std::vector<const uint8_t*> base(n, nullptr);  // kDirect, kFill, kView sources
  std::vector<int64_t> width(n);
  for (size_t i = 0; i < n; ++i) {
    const Node& node = nodes_[i];
    width[i] = primitive_util::ByteWidth(node.type);
    if (node.kind == Node::kDirect || node.kind == Node::kFill || node.kind == Node::kView) {
      auto literal = literal_of(node.source);
      if (!literal.ok()) return literal.status();
      const Literal& l = **literal;
      if (!l.shape().IsArray() || l.element_type() != node.type) {
        return absl::InvalidArgumentError(absl::StrCat("fused plan: a value has shape ",
                                                       l.shape().ToString()));
      }
      const int64_t expected =
          node.kind == Node::kDirect ? count_ : (node.kind == Node::kFill ? 1 : -1);
      if (expected >= 0 && l.element_count() != expected) {
        return absl::InvalidArgumentError(absl::StrCat("fused plan: ", l.shape().ToString(),
                                                       " has the wrong number of elements"));
      }
      base[i] = static_cast<const uint8_t*>(l.untyped_data());
    }
  }

  // Runs chunks [first, last) with scratch buffers of its own, so ranges of
  // chunks can run on several threads at once.
  auto run_chunks = [&](int64_t first, int64_t last) {
    std::vector<std::vector<uint8_t>> buffers(n);
    for (size_t i = 0; i < n; ++i) {
      const Node& node = nodes_[i];
      if (node.kind == Node::kFill) {
        buffers[i].resize(size_t(chunk * width[i]));
        FillElements(buffers[i].data(), base[i], chunk, width[i]);
      } else if ((node.kind == Node::kView || node.kind == Node::kKernel) && node.output < 0) {
        buffers[i].resize(size_t(chunk * width[i]));
      }
    }
    std::vector<const void*> ptr(n, nullptr);
    std::vector<const void*> inputs;
    for (int64_t c = first; c < last; ++c) {
      const int64_t start = c * chunk;
      const int64_t count = std::min(chunk, count_ - start);
      for (size_t i = 0; i < n; ++i) {
        const Node& node = nodes_[i];
        uint8_t* target = node.output >= 0 ? out_data[node.output] + start * width[i]
                                           : buffers[i].data();
        switch (node.kind) {
          case Node::kDirect:
            ptr[i] = base[i] + start * width[i];
            break;
          case Node::kFill:
            ptr[i] = buffers[i].data();
            break;
          case Node::kAlias:
            ptr[i] = ptr[node.inputs[0]];
            break;
          case Node::kView:
            GatherViewRange(node.view.dims, base[i], node.view.offset, node.view.strides, start,
                            count, target, width[i]);
            ptr[i] = target;
            break;
          case Node::kKernel:
            inputs.resize(node.inputs.size());
            for (size_t k = 0; k < node.inputs.size(); ++k) inputs[k] = ptr[node.inputs[k]];
            node.kernel.Run(inputs.data(), target, count);
            ptr[i] = target;
            break;
        }
      }
      for (size_t j = 0; j < outputs_.size(); ++j) {
        const int node = outputs_[j];
        if (nodes_[node].output == int(j)) continue;
        std::memcpy(out_data[j] + start * width[node], ptr[node], size_t(count * width[node]));
      }
    }
  };
  const int64_t chunks = (count_ + chunk - 1) / chunk;
  RunInParallel(chunks, kChunksPerThread, run_chunks);
  return result;
}

}  // namespace systolic::eval
