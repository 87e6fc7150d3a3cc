#include "core/lazy/scan.h"

#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/autodiff.h"
#include "core/lazy/graph_ops.h"
#include "core/lazy/graph_walk.h"
#include "core/lazy/name_scope.h"

namespace systolic::lazy {
namespace {

NodePtr Placeholder(int64_t number, const Shape& shape, absl::string_view name) {
  Node::Options options;
  options.metadata = NameScope::MetadataFor(name);
  return Node::MakeOp(HloInstruction::CreateParameter(number, shape, std::string(name)), {}, {},
                      std::move(options));
}

// A stacked input's per-iteration slice: its leading dimension dropped.
Shape SliceShape(const Shape& stacked) {
  std::vector<int64_t> dims(stacked.dimensions().begin() + 1, stacked.dimensions().end());
  return Shape(stacked.element_type(), dims);
}

Shape StackedShape(int64_t length, const Shape& slice) {
  std::vector<int64_t> dims = {length};
  dims.insert(dims.end(), slice.dimensions().begin(), slice.dimensions().end());
  return Shape(slice.element_type(), dims);
}

// The body graph's ops and wiring; placeholders by number.
std::string BodySignature(const ScanBody& body) {
  const GraphWalk walk = WalkGraph(body.results);
  std::string text = absl::StrCat("scan length=", body.length, body.reverse ? " reverse" : "",
                                  " carries=", body.carries, " stacked=", body.stacked_inputs,
                                  " invariants=", body.invariants, "\n");
  for (const Node* node : walk.post_order) {
    std::vector<int64_t> operands;
    for (const NodePtr& operand : node->operands()) {
      operands.push_back(walk.position.at(operand.get()));
    }
    const bool placeholder = node->opcode() == HloOpcode::kParameter && !node->is_data();
    absl::StrAppend(&text, node->signature(),
                    placeholder ? absl::StrCat(" #", node->proto().parameter_number()) : "",
                    "(", absl::StrJoin(operands, ","), ")\n");
  }
  std::vector<int64_t> roots;
  for (const Node* root : walk.roots) roots.push_back(walk.position.at(root));
  absl::StrAppend(&text, "roots(", absl::StrJoin(roots, ","), ")");
  return text;
}

// `results` rebuilt with `replace`d nodes in place of theirs; nodes that
// depend on none of them are shared.
absl::StatusOr<std::vector<NodePtr>> Substitute(
    absl::Span<const NodePtr> results, const absl::flat_hash_map<const Node*, NodePtr>& replace) {
  const GraphWalk walk = WalkGraph(results);
  absl::flat_hash_map<const Node*, NodePtr> rebuilt(replace.begin(), replace.end());
  const absl::flat_hash_map<const Node*, NodePtr> owner = NodeOwners(results, walk);
  for (const Node* node : walk.post_order) {
    if (rebuilt.contains(node)) continue;
    bool changed = false;
    std::vector<NodePtr> operands;
    for (const NodePtr& operand : node->operands()) {
      auto found = rebuilt.find(operand.get());
      changed |= found != rebuilt.end() && found->second != operand;
      operands.push_back(found != rebuilt.end() ? found->second : operand);
    }
    if (!changed) {
      rebuilt[node] = owner.at(node);
      continue;
    }
    Node::Options options;
    options.metadata = node->metadata();
    options.stop_gradient = node->stop_gradient();
    options.scan = node->scan();
    rebuilt[node] = Node::MakeOp(node->proto().CloneWithNewOperands(node->shape(), {}),
                                 std::move(operands), node->computations(), std::move(options));
  }
  std::vector<NodePtr> out;
  for (const NodePtr& r : results) out.push_back(rebuilt.at(r.get()));
  return out;
}

}  // namespace

namespace graph {

absl::StatusOr<NodePtr> Scan(std::shared_ptr<const ScanBody> body, std::vector<NodePtr> operands,
                             absl::string_view name) {
  const std::string where = NameScope::MetadataFor(name).op_name;
  auto fail = [&](const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": ", why));
  };
  const int64_t c = body->carries, s = body->stacked_inputs, k = body->invariants;
  if (body->length < 1) return fail("a scan needs at least one iteration");
  if (int64_t(operands.size()) != c + s + k || int64_t(body->placeholders.size()) != c + s + k) {
    return fail(absl::StrCat("expected ", c + s + k, " operands and placeholders, got ",
                             operands.size(), " and ", body->placeholders.size()));
  }
  if (int64_t(body->results.size()) < c) return fail("the body returns fewer values than carries");
  std::vector<Shape> shapes;
  for (int64_t i = 0; i < c + s + k; ++i) {
    const Shape& given = operands[size_t(i)]->shape();
    const Shape& wanted = body->placeholders[size_t(i)]->shape();
    const bool stacked = i >= c && i < c + s;
    if (stacked && (given.rank() < 1 || given.dimensions(0) != body->length)) {
      return fail(absl::StrCat("stacked input ", i - c, " is ", given.ToString(),
                               ", not of leading dimension ", body->length));
    }
    if ((stacked ? SliceShape(given) : given) != wanted) {
      return fail(absl::StrCat("operand ", i, " is ", given.ToString(), ", the body takes ",
                               wanted.ToString()));
    }
  }
  for (int64_t i = 0; i < c; ++i) {
    if (body->results[size_t(i)]->shape() != operands[size_t(i)]->shape()) {
      return fail(absl::StrCat("the body returns ", body->results[size_t(i)]->shape().ToString(),
                               " for a carry of ", operands[size_t(i)]->shape().ToString()));
    }
    shapes.push_back(operands[size_t(i)]->shape());
  }
  for (size_t i = size_t(c); i < body->results.size(); ++i) {
    shapes.push_back(StackedShape(body->length, body->results[i]->shape()));
  }
  Node::Options options;
  options.metadata = NameScope::MetadataFor(name);
  options.scan = std::move(body);
  return Node::MakeOp(HloInstruction::Create(HloOpcode::kWhile, Shape::MakeTuple(shapes), {}),
                      std::move(operands), {}, std::move(options));
}

absl::StatusOr<std::vector<NodePtr>> ScanCotangents(const NodePtr& scan, const NodePtr& cotangent,
                                                    const std::vector<bool>& needed) {
  const ScanBody& forward = *scan->scan();
  if (!forward.saves_carry_inputs) {
    return absl::UnimplementedError(absl::StrCat(
        "autodiff differentiates scans of layers only (", scan->metadata().op_name, ")"));
  }
  const int64_t s = forward.stacked_inputs, k = forward.invariants;
  // Invariants whose cotangent is wanted accumulate it over the layers.
  std::vector<int64_t> summed;
  for (int64_t i = 0; i < k; ++i) {
    if (needed[size_t(1 + s + i)]) summed.push_back(i);
  }
  const int64_t g = int64_t(summed.size());
  // The reverse loop's placeholders: the carry's cotangent and the summed
  // invariants' cotangents; the saved carry inputs and each stacked input's
  // slice; the invariants.
  auto body = std::make_shared<ScanBody>();
  body->length = forward.length;
  body->reverse = !forward.reverse;
  body->carries = 1 + g;
  body->stacked_inputs = 1 + s;
  body->invariants = k;
  int64_t number = 0;
  const NodePtr d_carry = Placeholder(number++, cotangent->shape(), "d_carry");
  body->placeholders.push_back(d_carry);
  for (int64_t i : summed) {
    body->placeholders.push_back(
        Placeholder(number++, forward.placeholders[size_t(1 + s + i)]->shape(), "d_invariant"));
  }
  absl::flat_hash_map<const Node*, NodePtr> replace;
  std::vector<NodePtr> fresh;
  for (int64_t i = 0; i < 1 + s + k; ++i) {
    const NodePtr& original = forward.placeholders[size_t(i)];
    NodePtr placeholder =
        Placeholder(number++, original->shape(), i == 0 ? "saved_carry" : i <= s ? "layer" : "invariant");
    replace[original.get()] = placeholder;
    fresh.push_back(placeholder);
    body->placeholders.push_back(std::move(placeholder));
  }
  std::vector<NodePtr> wrt(fresh.begin(), fresh.begin() + 1 + s);
  for (int64_t i : summed) wrt.push_back(fresh[size_t(1 + s + i)]);
  // Rematerialised: the layer runs again from its saved input.
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<NodePtr> recomputed,
                            Substitute({forward.results[0]}, replace));
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<NodePtr> grads,
                            GradientNodes(recomputed[0], wrt, d_carry));
  body->results.push_back(grads[0]);
  for (int64_t j = 0; j < g; ++j) {
    SYSTOLIC_ASSIGN_OR_RETURN(NodePtr sum, Binary(HloOpcode::kAdd, body->placeholders[size_t(1 + j)],
                                                  grads[size_t(1 + s + j)], "accumulate"));
    body->results.push_back(std::move(sum));
  }
  for (int64_t i = 0; i < s; ++i) body->results.push_back(grads[size_t(1 + i)]);
  body->signature = BodySignature(*body);

  std::vector<NodePtr> operands = {cotangent};
  for (int64_t i : summed) {
    SYSTOLIC_ASSIGN_OR_RETURN(NodePtr zeros,
                              Full(0, scan->operand(1 + s + i)->shape(), "zeros"));
    operands.push_back(std::move(zeros));
  }
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr saved, GetTupleElement(scan, 1, "saved_carries"));
  operands.push_back(std::move(saved));
  for (int64_t i = 0; i < s + k; ++i) operands.push_back(scan->operand(1 + i));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr backward, Scan(std::move(body), std::move(operands), "scan"));

  std::vector<NodePtr> out(size_t(scan->operand_count()));
  auto element = [&](int64_t index) { return GetTupleElement(backward, index); };
  if (needed[0]) {
    SYSTOLIC_ASSIGN_OR_RETURN(out[0], element(0));
  }
  for (int64_t i = 0; i < s; ++i) {
    if (needed[size_t(1 + i)]) {
      SYSTOLIC_ASSIGN_OR_RETURN(out[size_t(1 + i)], element(1 + g + i));
    }
  }
  for (int64_t j = 0; j < g; ++j) {
    SYSTOLIC_ASSIGN_OR_RETURN(out[size_t(1 + s + summed[size_t(j)])], element(1 + j));
  }
  return out;
}

}  // namespace graph

Tensor ScanLayers(const Tensor& carry, absl::Span<const Tensor> stacked,
                  absl::FunctionRef<Tensor(const Tensor& carry, absl::Span<const Tensor> layer)> body,
                  absl::string_view name) {
  std::vector<Tensor> inputs = {carry};
  inputs.insert(inputs.end(), stacked.begin(), stacked.end());
  return RecordOp(inputs, [&]() -> absl::StatusOr<NodePtr> {
    NameScope scope(name);
    auto traced = std::make_shared<ScanBody>();
    traced->carries = 1;
    traced->stacked_inputs = int64_t(stacked.size());
    traced->saves_carry_inputs = true;
    traced->length = stacked.empty() ? 0 : stacked[0].dim(0);
    for (const Tensor& t : stacked) {
      if (t.rank() < 1 || t.dim(0) != traced->length) {
        return absl::InvalidArgumentError(
            absl::StrCat(NameScope::CurrentPath(), ": stacked tensors of different lengths (",
                         t.shape().ToString(), ", ", traced->length, " layers)"));
      }
    }
    int64_t number = 0;
    const NodePtr carry_in = Placeholder(number++, carry.shape(), "carry");
    traced->placeholders.push_back(carry_in);
    std::vector<Tensor> layer;
    for (const Tensor& t : stacked) {
      NodePtr slice = Placeholder(number++, SliceShape(t.shape()), "layer");
      traced->placeholders.push_back(slice);
      layer.push_back(Tensor::Make(carry.device(), slice));
    }
    const Tensor out = body(Tensor::Make(carry.device(), carry_in), layer);
    if (!out.ok()) return out.status();
    // Device data the body reads from outside becomes a loop invariant.
    std::vector<NodePtr> results = {out.node(), carry_in};
    std::vector<NodePtr> invariants;
    absl::flat_hash_map<const Node*, NodePtr> replace;
    const GraphWalk walk = WalkGraph(results);
    const absl::flat_hash_map<const Node*, NodePtr> owner = NodeOwners(results, walk);
    for (const Node* node : walk.post_order) {
      if (!node->is_data()) continue;
      NodePtr invariant = Placeholder(number++, node->shape(), "invariant");
      replace[node] = invariant;
      traced->placeholders.push_back(std::move(invariant));
      invariants.push_back(owner.at(node));
    }
    traced->invariants = int64_t(invariants.size());
    SYSTOLIC_ASSIGN_OR_RETURN(traced->results, Substitute(results, replace));
    traced->signature = BodySignature(*traced);

    std::vector<NodePtr> operands = {carry.node()};
    for (const Tensor& t : stacked) operands.push_back(t.node());
    operands.insert(operands.end(), invariants.begin(), invariants.end());
    SYSTOLIC_ASSIGN_OR_RETURN(NodePtr loop, graph::Scan(std::move(traced), std::move(operands)));
    return graph::GetTupleElement(loop, 0, "carry");
  });
}

}  // namespace systolic::lazy
