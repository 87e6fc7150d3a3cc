#include "core/compiler/spmd/spmd_partitioner.h"

#include <algorithm>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/compiler/hlo_creation_utils.h"
#include "core/compiler/spmd/dot_partitioning.h"
#include "core/compiler/spmd/layout_mapping.h"
#include "core/compiler/spmd/reshard.h"
#include "core/compiler/spmd/sharding_grid.h"
#include "core/compiler/spmd/spmd_builder.h"
#include "core/compiler/spmd/windowed_partitioning.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/sharding_annotation.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

using spmd::PartitionedArray;
using spmd::ShardingGrid;
using spmd::SpmdBuilder;

// Partitioned computations sit beside their originals under this suffix
// until the originals are gone.
constexpr absl::string_view kPartitionedSuffix = ".partitioned";

// `sharding` spelled out for every element of a tuple shape.
HloSharding Expand(const HloSharding& sharding, const Shape& shape) {
  if (!shape.IsTuple()) return sharding.IsTuple() ? HloSharding::Replicate() : sharding;
  std::vector<HloSharding> elements;
  for (int64_t i = 0; i < shape.tuple_shapes_size(); ++i) {
    elements.push_back(Expand(TupleElementSharding(sharding, i), shape.tuple_shapes(i)));
  }
  return HloSharding::Tuple(std::move(elements));
}

HloSharding ShardingOf(const HloInstruction& instr) {
  return Expand(instr.has_sharding() ? instr.sharding() : HloSharding::Replicate(), instr.shape());
}

// `status` naming the instruction being partitioned and its line.
absl::Status InContext(const HloInstruction& instr, const absl::Status& status) {
  const auto& where = instr.source_location();
  return absl::Status(status.code(),
                      absl::StrCat("partitioning ", instr.name(),
                                   where.line > 0 ? absl::StrCat(" (line ", where.line, ")") : "",
                                   ": ", status.message()));
}

bool IsManual(const HloSharding& sharding) {
  if (sharding.IsTuple()) {
    return std::all_of(sharding.tuple_elements().begin(), sharding.tuple_elements().end(),
                       [](const HloSharding& e) { return IsManual(e); });
  }
  return sharding.IsManual();
}

// Partitions the computations of one module; every computation it builds
// is added to the module beside the original.
class ModulePartitioner {
 public:
  ModulePartitioner(HloModule* module, int64_t partitions, PassRunLog* log)
      : module_(module), partitions_(partitions), log_(log) {
    for (HloComputation* c : module->computations()) {
      for (HloInstruction* instr : c->instructions()) {
        if (instr->channel_id()) next_channel_ = std::max(next_channel_, *instr->channel_id() + 1);
      }
    }
  }

  // A partitioned copy of `original`, its parameters laid out by
  // `parameters` and its result by `root`.
  absl::StatusOr<HloComputation*> Partition(const HloComputation& original,
                                            const std::vector<HloSharding>& parameters,
                                            const HloSharding& root);

 private:
  struct Context {
    SpmdBuilder builder;
    absl::flat_hash_map<const HloInstruction*, HloInstruction*> local;
    absl::flat_hash_map<const HloInstruction*, HloSharding> sharding;
  };

  absl::Status Visit(Context& c, const HloInstruction& instr);
  absl::StatusOr<HloInstruction*> Handle(Context& c, const HloInstruction& instr);

  absl::StatusOr<ShardingGrid> Grid(const HloSharding& sharding, const Shape& shape) const {
    return ShardingGrid::Of(sharding, shape.rank(), partitions_);
  }
  absl::StatusOr<PartitionedArray> Array(Context& c, const HloInstruction& instr) const;
  // `instr`'s value (an array or a tuple) laid out by `target`.
  absl::StatusOr<HloInstruction*> ValueIn(Context& c, const HloInstruction& instr,
                                          const HloSharding& target);
  absl::StatusOr<HloInstruction*> Moved(Context& c, HloInstruction* local, const Shape& global,
                                        const HloSharding& from, const HloSharding& to);
  absl::StatusOr<Shape> LocalShape(const Shape& global, const HloSharding& sharding) const;

  absl::StatusOr<HloInstruction*> Elementwise(Context& c, const HloInstruction& instr);
  absl::StatusOr<HloInstruction*> Broadcast(Context& c, const HloInstruction& instr);
  absl::StatusOr<HloInstruction*> Transpose(Context& c, const HloInstruction& instr);
  absl::StatusOr<HloInstruction*> Reshape(Context& c, const HloInstruction& instr);
  absl::StatusOr<HloInstruction*> Reduce(Context& c, const HloInstruction& instr);
  absl::StatusOr<HloInstruction*> While(Context& c, const HloInstruction& instr);
  absl::StatusOr<HloInstruction*> Conditional(Context& c, const HloInstruction& instr);
  absl::StatusOr<HloInstruction*> Whole(Context& c, const HloInstruction& instr);
  absl::StatusOr<HloInstruction*> Unchanged(Context& c, const HloInstruction& instr);

  HloModule* module_;
  int64_t partitions_;
  PassRunLog* log_;
  int64_t next_channel_ = 1;
};

absl::StatusOr<Shape> ModulePartitioner::LocalShape(const Shape& global,
                                                    const HloSharding& sharding) const {
  if (global.IsTuple()) {
    std::vector<Shape> elements;
    for (int64_t i = 0; i < global.tuple_shapes_size(); ++i) {
      SYSTOLIC_ASSIGN_OR_RETURN(Shape e,
                                LocalShape(global.tuple_shapes(i), TupleElementSharding(sharding, i)));
      elements.push_back(std::move(e));
    }
    return Shape::MakeTuple(std::move(elements));
  }
  if (!global.IsArray()) return global;
  SYSTOLIC_ASSIGN_OR_RETURN(ShardingGrid grid, Grid(sharding, global));
  Shape local = global;
  const std::vector<int64_t> dimensions = spmd::ShardDimensions(grid, global);
  for (int64_t d = 0; d < global.rank(); ++d) local.set_dimensions(d, dimensions[d]);
  return local;
}

absl::StatusOr<PartitionedArray> ModulePartitioner::Array(Context& c,
                                                          const HloInstruction& instr) const {
  SYSTOLIC_ASSIGN_OR_RETURN(ShardingGrid grid, Grid(c.sharding.at(&instr), instr.shape()));
  return PartitionedArray{c.local.at(&instr), instr.shape(), std::move(grid)};
}

absl::StatusOr<HloInstruction*> ModulePartitioner::Moved(Context& c, HloInstruction* local,
                                                         const Shape& global,
                                                         const HloSharding& from,
                                                         const HloSharding& to) {
  if (global.IsTuple()) {
    std::vector<HloInstruction*> elements;
    for (int64_t i = 0; i < global.tuple_shapes_size(); ++i) {
      HloInstruction* element =
          c.builder.Add(HloInstruction::CreateGetTupleElement(local, i));
      SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * moved,
                                Moved(c, element, global.tuple_shapes(i), TupleElementSharding(from, i),
                                      TupleElementSharding(to, i)));
      elements.push_back(moved);
    }
    return c.builder.Add(HloInstruction::CreateTuple(elements));
  }
  if (!global.IsArray()) return local;
  SYSTOLIC_ASSIGN_OR_RETURN(ShardingGrid from_grid, Grid(from, global));
  SYSTOLIC_ASSIGN_OR_RETURN(ShardingGrid to_grid, Grid(to, global));
  if (!to_grid.IsTiled() && to_grid.manual() == 1 && from_grid.manual() > 1) {
    // Whole within each manual group: values never cross those groups.
    to_grid = from_grid.Regroup(std::vector<std::vector<int64_t>>(global.rank()));
  }
  return spmd::Reshard(c.builder, {local, global, std::move(from_grid)}, to_grid);
}

absl::StatusOr<HloInstruction*> ModulePartitioner::ValueIn(Context& c, const HloInstruction& instr,
                                                           const HloSharding& target) {
  return Moved(c, c.local.at(&instr), instr.shape(), c.sharding.at(&instr),
               Expand(target, instr.shape()));
}

absl::StatusOr<HloComputation*> ModulePartitioner::Partition(
    const HloComputation& original, const std::vector<HloSharding>& parameters,
    const HloSharding& root) {
  HloComputation* partitioned = module_->AddEmbeddedComputation(
      std::make_unique<HloComputation>(absl::StrCat(original.name(), kPartitionedSuffix)));
  const bool laid_out = original.root_instruction()->shape().has_layout();
  Context c{SpmdBuilder(partitioned, partitions_, module_->replica_count(), &next_channel_, laid_out,
                        log_),
            {}, {}};
  for (int64_t i = 0; i < original.num_parameters(); ++i) {
    const HloInstruction* parameter = original.parameter_instruction(i);
    const HloSharding sharding = Expand(parameters[i], parameter->shape());
    absl::StatusOr<Shape> local = LocalShape(parameter->shape(), sharding);
    if (!local.ok()) return InContext(*parameter, local.status());
    HloInstruction* added = partitioned->AddParameter(
        HloInstruction::CreateParameter(i, *local, parameter->name()));
    added->set_metadata(parameter->metadata());
    added->set_provenance(parameter->provenance());
    if (added->provenance().empty()) added->MergeProvenanceFrom(*parameter);
    c.local[parameter] = added;
    c.sharding[parameter] = sharding;
  }
  for (const HloInstruction* instr : original.MakeInstructionPostOrder()) {
    if (instr->opcode() == HloOpcode::kParameter) continue;
    SYSTOLIC_RETURN_IF_ERROR(Visit(c, *instr));
  }
  c.builder.set_source(original.root_instruction());
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * result,
                            ValueIn(c, *original.root_instruction(), root));
  partitioned->set_root_instruction(result);
  return partitioned;
}

absl::Status ModulePartitioner::Visit(Context& c, const HloInstruction& instr) {
  c.builder.set_source(&instr);
  c.sharding[&instr] = ShardingOf(instr);
  auto handled = Handle(c, instr);
  if (!handled.ok()) return InContext(instr, handled.status());
  HloInstruction* local = *handled;
  if (!IsManual(c.sharding[&instr])) local->clear_sharding();
  c.local[&instr] = local;
  return absl::OkStatus();
}

absl::StatusOr<HloInstruction*> ModulePartitioner::Handle(Context& c, const HloInstruction& instr) {
  const HloSharding& sharding = c.sharding.at(&instr);
  const bool all_manual =
      IsManual(sharding) &&
      std::all_of(instr.operands().begin(), instr.operands().end(),
                  [&](const HloInstruction* op) { return IsManual(c.sharding.at(op)); });
  if (all_manual && instr.opcode() != HloOpcode::kWhile &&
      instr.opcode() != HloOpcode::kConditional) {
    return Unchanged(c, instr);
  }
  if (IsShardingAnnotation(instr)) return ValueIn(c, *instr.operand(0), sharding);
  switch (instr.opcode()) {
    case HloOpcode::kTuple: {
      std::vector<HloInstruction*> elements;
      for (int64_t i = 0; i < instr.operand_count(); ++i) {
        SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * e,
                                  ValueIn(c, *instr.operand(i), TupleElementSharding(sharding, i)));
        elements.push_back(e);
      }
      return c.builder.Add(HloInstruction::CreateTuple(elements));
    }
    case HloOpcode::kGetTupleElement: {
      const HloInstruction& tuple = *instr.operand(0);
      HloInstruction* element = c.builder.Add(
          HloInstruction::CreateGetTupleElement(c.local.at(&tuple), instr.tuple_index()));
      return Moved(c, element, instr.shape(),
                   TupleElementSharding(c.sharding.at(&tuple), instr.tuple_index()), sharding);
    }
    case HloOpcode::kBroadcast:
      return Broadcast(c, instr);
    case HloOpcode::kTranspose:
      return Transpose(c, instr);
    case HloOpcode::kReshape:
      return Reshape(c, instr);
    case HloOpcode::kDot: {
      SYSTOLIC_ASSIGN_OR_RETURN(PartitionedArray lhs, Array(c, *instr.operand(0)));
      SYSTOLIC_ASSIGN_OR_RETURN(PartitionedArray rhs, Array(c, *instr.operand(1)));
      SYSTOLIC_ASSIGN_OR_RETURN(ShardingGrid result, Grid(sharding, instr.shape()));
      return spmd::PartitionDot(c.builder, instr, lhs, rhs, result);
    }
    case HloOpcode::kReduce:
      return Reduce(c, instr);
    case HloOpcode::kConvolution:
    case HloOpcode::kReduceWindow: {
      if (instr.shape().IsTuple() || instr.operand_count() > 2) return Whole(c, instr);
      SYSTOLIC_ASSIGN_OR_RETURN(PartitionedArray input, Array(c, *instr.operand(0)));
      SYSTOLIC_ASSIGN_OR_RETURN(PartitionedArray second, Array(c, *instr.operand(1)));
      SYSTOLIC_ASSIGN_OR_RETURN(ShardingGrid result, Grid(sharding, instr.shape()));
      SYSTOLIC_ASSIGN_OR_RETURN(std::optional<HloInstruction*> windowed,
                                spmd::PartitionWindowed(c.builder, instr, input, second, result));
      if (windowed) return *windowed;
      return Whole(c, instr);
    }
    case HloOpcode::kWhile:
      return While(c, instr);
    case HloOpcode::kConditional:
      return Conditional(c, instr);
    case HloOpcode::kAllReduce:
      // A cross-replica sum of each partition's shard is the shard of the
      // sum: the layout does not change.
      if (!instr.channel_id() && instr.shape().IsArray()) return Elementwise(c, instr);
      return Whole(c, instr);
    default:
      if (instr.IsElementwise() && instr.shape().IsArray()) return Elementwise(c, instr);
      return Whole(c, instr);
  }
}

absl::StatusOr<HloInstruction*> ModulePartitioner::Unchanged(Context& c,
                                                             const HloInstruction& instr) {
  std::vector<HloInstruction*> operands;
  for (const HloInstruction* op : instr.operands()) operands.push_back(c.local.at(op));
  return c.builder.Add(instr.CloneWithNewOperands(instr.shape(), operands));
}

absl::StatusOr<HloInstruction*> ModulePartitioner::Elementwise(Context& c,
                                                               const HloInstruction& instr) {
  const HloSharding& sharding = c.sharding.at(&instr);
  std::vector<HloInstruction*> operands;
  for (const HloInstruction* op : instr.operands()) {
    // Scalar operands (a clamp's bounds, a select's predicate) are whole.
    const bool scalar = op->shape().rank() != instr.shape().rank();
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * local,
                              ValueIn(c, *op, scalar ? HloSharding::Replicate() : sharding));
    operands.push_back(local);
  }
  SYSTOLIC_ASSIGN_OR_RETURN(Shape local, LocalShape(instr.shape(), sharding));
  return c.builder.Add(instr.CloneWithNewOperands(local, operands));
}

absl::StatusOr<HloInstruction*> ModulePartitioner::Broadcast(Context& c,
                                                             const HloInstruction& instr) {
  const HloSharding& sharding = c.sharding.at(&instr);
  SYSTOLIC_ASSIGN_OR_RETURN(ShardingGrid result, Grid(sharding, instr.shape()));
  const ShardingGrid operand_grid = spmd::BroadcastOperandGrid(result, instr.dimensions());
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * operand,
                            ValueIn(c, *instr.operand(0), operand_grid.ToSharding()));
  SYSTOLIC_ASSIGN_OR_RETURN(Shape local, LocalShape(instr.shape(), sharding));
  return c.builder.Add(instr.CloneWithNewOperands(local, {operand}));
}

absl::StatusOr<HloInstruction*> ModulePartitioner::Transpose(Context& c,
                                                             const HloInstruction& instr) {
  const HloSharding& sharding = c.sharding.at(&instr);
  SYSTOLIC_ASSIGN_OR_RETURN(ShardingGrid result, Grid(sharding, instr.shape()));
  const ShardingGrid operand_grid = spmd::TransposeOperandGrid(result, instr.dimensions());
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * operand,
                            ValueIn(c, *instr.operand(0), operand_grid.ToSharding()));
  SYSTOLIC_ASSIGN_OR_RETURN(Shape local, LocalShape(instr.shape(), sharding));
  return c.builder.Add(instr.CloneWithNewOperands(local, {operand}));
}

absl::StatusOr<HloInstruction*> ModulePartitioner::Reshape(Context& c,
                                                           const HloInstruction& instr) {
  const HloSharding& sharding = c.sharding.at(&instr);
  SYSTOLIC_ASSIGN_OR_RETURN(ShardingGrid result, Grid(sharding, instr.shape()));
  const std::optional<ShardingGrid> operand_grid =
      spmd::ReshapeOperandGrid(result, instr.operand(0)->shape(), instr.shape());
  if (!operand_grid) return Whole(c, instr);
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * operand,
                            ValueIn(c, *instr.operand(0), operand_grid->ToSharding()));
  SYSTOLIC_ASSIGN_OR_RETURN(Shape local, LocalShape(instr.shape(), sharding));
  return c.builder.Add(instr.CloneWithNewOperands(local, {operand}));
}

absl::StatusOr<HloInstruction*> ModulePartitioner::Reduce(Context& c, const HloInstruction& instr) {
  const int64_t inputs = instr.operand_count() / 2;
  const HloInstruction& first = *instr.operand(0);
  SYSTOLIC_ASSIGN_OR_RETURN(PartitionedArray operand, Array(c, first));
  const std::vector<int64_t>& reduced = instr.dimensions();
  auto is_reduced = [&](int64_t d) {
    return std::find(reduced.begin(), reduced.end(), d) != reduced.end();
  };
  // The operands keep the first one's tiling; a variadic reduce (its
  // reducer pairs values, as an argmax does) cannot be summed across
  // partitions, so its reduced dimensions are gathered first.
  std::vector<std::vector<int64_t>> sources;
  std::vector<int64_t> split_reduced;
  for (int64_t d = 0; d < first.shape().rank(); ++d) {
    const bool keep = !is_reduced(d) || inputs == 1;
    sources.push_back(keep ? std::vector<int64_t>{d} : std::vector<int64_t>{});
    if (keep && is_reduced(d) && operand.grid.tiles(d) > 1) split_reduced.push_back(d);
  }
  const ShardingGrid input_grid = operand.grid.Regroup(sources);
  std::vector<HloInstruction*> operands;
  for (int64_t i = 0; i < inputs; ++i) {
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * local,
                              ValueIn(c, *instr.operand(i), input_grid.ToSharding()));
    operands.push_back(local);
  }
  std::vector<HloInstruction*> inits;
  for (int64_t i = inputs; i < instr.operand_count(); ++i) {
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * local,
                              ValueIn(c, *instr.operand(i), HloSharding::Replicate()));
    inits.push_back(local);
  }
  if (!split_reduced.empty()) {
    // Padding past the end must leave the reduction unchanged.
    operands[0] = c.builder.MaskPadding(operands[0], input_grid, first.shape(), split_reduced,
                                        inits[0]);
  }
  std::vector<std::vector<int64_t>> kept;
  for (int64_t d = 0; d < first.shape().rank(); ++d) {
    if (!is_reduced(d)) kept.push_back({d});
  }
  const ShardingGrid partial = input_grid.Regroup(kept);
  const HloSharding partial_sharding =
      instr.shape().IsTuple()
          ? HloSharding::Tuple(std::vector<HloSharding>(inputs, partial.ToSharding()))
          : partial.ToSharding();
  SYSTOLIC_ASSIGN_OR_RETURN(Shape local, LocalShape(instr.shape(), partial_sharding));
  std::vector<HloInstruction*> all = operands;
  all.insert(all.end(), inits.begin(), inits.end());
  HloInstruction* reduced_local = c.builder.Add(instr.CloneWithNewOperands(local, all));
  reduced_local->clear_sharding();
  if (!split_reduced.empty()) {
    reduced_local = c.builder.AllReduce(reduced_local, instr.to_apply(),
                                        input_grid.GroupsAlong(split_reduced));
  }
  return Moved(c, reduced_local, instr.shape(), partial_sharding, c.sharding.at(&instr));
}

absl::StatusOr<HloInstruction*> ModulePartitioner::While(Context& c, const HloInstruction& instr) {
  const HloSharding& state = c.sharding.at(&instr);
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * init, ValueIn(c, *instr.operand(0), state));
  SYSTOLIC_ASSIGN_OR_RETURN(HloComputation * condition,
                            Partition(*instr.while_condition(), {state}, HloSharding::Replicate()));
  SYSTOLIC_ASSIGN_OR_RETURN(HloComputation * body, Partition(*instr.while_body(), {state}, state));
  return c.builder.Add(HloInstruction::CreateWhile(init->shape(), condition, body, init));
}

absl::StatusOr<HloInstruction*> ModulePartitioner::Conditional(Context& c,
                                                               const HloInstruction& instr) {
  const HloSharding& result = c.sharding.at(&instr);
  std::vector<HloInstruction*> operands;
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * index,
                            ValueIn(c, *instr.operand(0), HloSharding::Replicate()));
  operands.push_back(index);
  std::vector<HloComputation*> branches;
  for (int64_t b = 0; b < instr.branch_count(); ++b) {
    const HloComputation& branch = *instr.branch_computation(b);
    const HloInstruction& argument = *instr.operand(b + 1);
    // A branch takes its argument as its parameter is annotated, else as
    // the argument is.
    const HloInstruction* parameter = branch.parameter_instruction(0);
    const HloSharding layout =
        parameter->has_sharding() ? ShardingOf(*parameter) : c.sharding.at(&argument);
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * local, ValueIn(c, argument, layout));
    operands.push_back(local);
    SYSTOLIC_ASSIGN_OR_RETURN(HloComputation * partitioned, Partition(branch, {layout}, result));
    branches.push_back(partitioned);
  }
  SYSTOLIC_ASSIGN_OR_RETURN(Shape local, LocalShape(instr.shape(), result));
  auto conditional = instr.CloneWithNewOperands(local, operands);
  for (int64_t b = 0; b < int64_t(branches.size()); ++b) {
    conditional->set_called_computation(b, branches[b]);
  }
  return c.builder.Add(std::move(conditional));
}

absl::StatusOr<HloInstruction*> ModulePartitioner::Whole(Context& c, const HloInstruction& instr) {
  std::vector<HloInstruction*> operands;
  for (const HloInstruction* op : instr.operands()) {
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * whole,
                              ValueIn(c, *op, HloSharding::Replicate()));
    operands.push_back(whole);
  }
  HloInstruction* whole = c.builder.Add(instr.CloneWithNewOperands(instr.shape(), operands));
  whole->clear_sharding();
  return Moved(c, whole, instr.shape(), Expand(HloSharding::Replicate(), instr.shape()),
               c.sharding.at(&instr));
}

bool HasLayoutSharding(const HloSharding& sharding) {
  if (sharding.IsTuple()) {
    return std::any_of(sharding.tuple_elements().begin(), sharding.tuple_elements().end(),
                       HasLayoutSharding);
  }
  return !sharding.IsManual() && !sharding.IsUnknown();
}

}  // namespace

namespace {

bool HasLayoutShardings(const HloModule& module) {
  for (const HloComputation* c : module.computations()) {
    if (c->IsFusionComputation()) continue;
    for (const HloInstruction* instr : c->instructions()) {
      if (instr->has_sharding() && HasLayoutSharding(instr->sharding())) return true;
    }
  }
  return false;
}

}  // namespace

std::optional<std::string> SpmdPartitioner::AlreadyPartitionedReason(const HloModule& module) {
  const HloComputation* entry = module.entry_computation();
  if (entry != nullptr && absl::EndsWith(entry->name(), "_spmd")) {
    return absl::StrCat("its entry computation ", entry->name(),
                        " is named as XLA's SPMD partitioner names its output");
  }
  if (module.is_scheduled()) {
    return std::string("it is scheduled, which XLA does only after partitioning");
  }
  return std::nullopt;
}

bool SpmdPartitioner::NeedsPartitioning(const HloModule& module, int64_t num_partitions) {
  if (num_partitions == 0) num_partitions = module.num_partitions();
  if (num_partitions <= 1 || module.entry_computation() == nullptr) return false;
  const std::optional<bool> use = module.use_spmd_partitioning();
  if (use == false) return false;
  if (use != true && AlreadyPartitionedReason(module)) return false;
  return HasLayoutShardings(module);
}

std::string SpmdPartitioner::DescribeDecision(const HloModule& module, int64_t num_partitions) {
  if (num_partitions == 0) num_partitions = module.num_partitions();
  if (num_partitions <= 1) return "not partitioned: one partition";
  if (!HasLayoutShardings(module)) {
    return absl::StrCat("not partitioned: no sharding lays out a value over the ", num_partitions,
                        " partitions");
  }
  const std::optional<bool> use = module.use_spmd_partitioning();
  if (use == false) return "not partitioned: --spmd off";
  if (use != true) {
    if (std::optional<std::string> reason = AlreadyPartitionedReason(module)) {
      return absl::StrCat("not partitioned: already partitioned (", *reason,
                          "); each of the ", num_partitions,
                          " devices runs it as it is (--spmd on to partition it again)");
    }
  }
  return absl::StrCat("partitioned over ", num_partitions, " partitions",
                      use == true ? " (--spmd on)" : " (sharding annotations)");
}

absl::StatusOr<bool> SpmdPartitioner::Run(HloModule* module) {
  const int64_t partitions = num_partitions_ > 0 ? num_partitions_ : module->num_partitions();
  if (!NeedsPartitioning(*module, partitions)) return false;
  HloComputation* entry = module->entry_computation();
  std::vector<HloSharding> parameters;
  for (const HloInstruction* p : entry->parameter_instructions()) parameters.push_back(ShardingOf(*p));
  ModulePartitioner partitioner(module, partitions, &run_log());
  SYSTOLIC_ASSIGN_OR_RETURN(
      HloComputation * partitioned,
      partitioner.Partition(*entry, parameters, ShardingOf(*entry->root_instruction())));
  const std::string name = entry->name();
  module->set_entry_computation(partitioned);
  module->RemoveUnusedComputations();
  partitioned->SetName(name);
  for (HloComputation* c : module->computations()) {
    if (absl::EndsWith(c->name(), kPartitionedSuffix)) {
      c->SetName(c->name().substr(0, c->name().size() - kPartitionedSuffix.size()));
    }
  }
  module->set_num_partitions(partitions);
  if (module->has_entry_computation_layout()) {
    module->set_entry_computation_layout(partitioned->ComputeProgramShape());
  }
  module->clear_schedule();
  module->set_is_scheduled(false);
  return true;
}

}  // namespace systolic
