#include "core/stablehlo/stablehlo_importer.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/hlo_verifier.h"
#include "core/hlo/status_macros.h"
#include "core/stablehlo/mlir_parser.h"

namespace systolic::stablehlo {
namespace {

std::string ValueKey(const mlir::ValueRef& ref) {
  return ref.index >= 0 ? absl::StrCat(ref.name, "#", ref.index) : ref.name;
}

void CollectDefinitionsAndUses(const mlir::Region& region, absl::flat_hash_set<std::string>* defined,
                               std::vector<std::string>* used) {
  for (const mlir::Block& block : region.blocks) {
    for (const std::string& arg : block.argument_names) defined->insert(arg);
    for (const mlir::Operation& op : block.operations) {
      for (const mlir::ValueRef& ref : op.operands) used->push_back(ValueKey(ref));
      for (const std::string& r : op.results) {
        defined->insert(r);
        // `%r:2` defines r#0 and r#1; uses may also name the group.
        size_t hash = r.find('#');
        if (hash != std::string::npos) defined->insert(r.substr(0, hash));
      }
      for (const mlir::Region& nested : op.regions) {
        CollectDefinitionsAndUses(nested, defined, used);
      }
    }
  }
}

}  // namespace

ModuleImporter::ModuleImporter(const mlir::Module& syntax, std::string filename)
    : syntax_(syntax), filename_(std::move(filename)) {}

absl::Status ModuleImporter::Error(const mlir::SourceLocation& where,
                                   absl::string_view message) const {
  return absl::InvalidArgumentError(
      absl::StrCat(filename_, ":", where.line, ":", where.column, ": ", message));
}

std::unique_ptr<HloComputation> ModuleImporter::NewComputation(absl::string_view name) {
  return std::make_unique<HloComputation>(module_->UniqueName(name));
}

std::vector<std::string> ModuleImporter::FreeValues(const mlir::Region& region) {
  absl::flat_hash_set<std::string> defined;
  std::vector<std::string> used;
  CollectDefinitionsAndUses(region, &defined, &used);
  std::vector<std::string> free;
  absl::flat_hash_set<std::string> seen;
  for (const std::string& u : used) {
    if (!defined.contains(u) && seen.insert(u).second) free.push_back(u);
  }
  return free;
}

int ModuleImporter::AddProbeOutput(HloInstruction* value) {
  probe_outputs_.push_back(value);
  return int(probe_outputs_.size()) - 1;
}

absl::StatusOr<std::unique_ptr<HloModule>> ModuleImporter::Import(
    absl::string_view entry, std::vector<CheckProbe>* probes) {
  module_ = std::make_unique<HloModule>(syntax_.name.empty() ? "main" : syntax_.name);
  module_->set_source_filename(filename_);
  probes_ = probes;
  for (const auto& [key, value] : syntax_.attributes) {
    if ((key == "mhlo.num_partitions" || key == "mhlo.num_replicas") &&
        value.kind == mlir::Attribute::Kind::kInteger && value.int_value >= 1) {
      if (key == "mhlo.num_partitions") {
        module_->set_num_partitions(value.int_value);
      } else {
        module_->set_replica_count(value.int_value);
      }
    }
  }
  const mlir::Function* entry_function = nullptr;
  if (!entry.empty()) {
    entry_function = syntax_.FindFunction(entry);
    if (!entry_function) {
      return absl::NotFoundError(absl::StrCat(filename_, ": no function @", entry));
    }
  } else if ((entry_function = syntax_.FindFunction("main")) == nullptr) {
    std::vector<const mlir::Function*> public_functions;
    for (const mlir::Function& f : syntax_.functions) {
      if (f.visibility == "public") public_functions.push_back(&f);
    }
    if (public_functions.size() == 1) {
      entry_function = public_functions[0];
    } else if (syntax_.functions.size() == 1) {
      entry_function = &syntax_.functions[0];
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          filename_, ": several public functions and no @main; name the entry function"));
    }
  }
  SYSTOLIC_ASSIGN_OR_RETURN(HloComputation * entry_computation,
                            BuildFunction(*entry_function, /*is_entry=*/true));
  module_->set_entry_computation(entry_computation);
  return std::move(module_);
}

absl::StatusOr<HloComputation*> ModuleImporter::FunctionComputation(
    absl::string_view name, const mlir::SourceLocation& where) {
  auto it = functions_.find(std::string(name));
  if (it != functions_.end()) return it->second;
  if (std::find(in_progress_.begin(), in_progress_.end(), std::string(name)) !=
      in_progress_.end()) {
    return Error(where, absl::StrCat("@", name, " calls itself; recursion is not supported"));
  }
  const mlir::Function* f = syntax_.FindFunction(name);
  if (!f) return Error(where, absl::StrCat("call of undefined function @", name));
  return BuildFunction(*f, /*is_entry=*/false);
}

absl::StatusOr<HloComputation*> ModuleImporter::BuildFunction(const mlir::Function& f,
                                                             bool is_entry) {
  in_progress_.push_back(f.name);
  HloComputation* computation = module_->AddEmbeddedComputation(NewComputation(f.name));
  if (is_entry) entry_computation_ = computation;
  ComputationBuilder builder(this, computation, nullptr);
  for (size_t i = 0; i < f.argument_types.size(); ++i) {
    auto shape = f.argument_types[i].ToShape();
    if (!shape.ok()) return Error(f.where, shape.status().message());
    HloInstruction* parameter = builder.AddParameter(int64_t(i), *shape, f.argument_names[i]);
    if (f.argument_types[i].quant) builder.SetQuant(parameter, f.argument_types[i].quant);
    builder.Define(f.argument_names[i], parameter);
  }
  if (f.body.blocks.size() != 1) {
    return Error(f.where, absl::StrCat("@", f.name, " must have exactly one block"));
  }
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<HloInstruction*> returned,
                            builder.ConvertBlock(f.body.blocks[0]));
  if (returned.size() != f.result_types.size()) {
    return Error(f.where, absl::StrCat("@", f.name, " returns ", returned.size(),
                                       " values but its signature has ", f.result_types.size()));
  }
  for (size_t i = 0; i < returned.size(); ++i) {
    // Dynamic or unsupported declared types are left to the verifier.
    auto declared = f.result_types[i].ToShape();
    if (!declared.ok() || !declared->IsArray()) continue;
    bool dynamic = false;
    for (int64_t d = 0; d < declared->rank(); ++d) dynamic |= declared->is_dynamic_dimension(d);
    const Shape& given = returned[i]->shape();
    if (!dynamic && given.IsArray() &&
        (given.element_type() != declared->element_type() ||
         given.dimensions() != declared->dimensions())) {
      return Error(f.where, absl::StrCat("@", f.name, " returns ", given.ToString(false),
                                         " as result ", i, " but its signature says ",
                                         declared->ToString(false)));
    }
  }
  std::vector<HloInstruction*> outputs = returned;
  if (is_entry && !probe_outputs_.empty()) {
    outputs.insert(outputs.end(), probe_outputs_.begin(), probe_outputs_.end());
  }
  HloInstruction* root;
  if (outputs.size() == 1 && !(is_entry && !probe_outputs_.empty())) {
    root = outputs[0];
  } else {
    mlir::Operation synthetic;
    synthetic.name = "func.return";
    synthetic.where = f.where;
    root = builder.Add(HloInstruction::CreateTuple(outputs), synthetic);
  }
  computation->set_root_instruction(root);
  SYSTOLIC_RETURN_IF_ERROR(ApplyShardings(f, computation));
  functions_[f.name] = computation;
  in_progress_.pop_back();
  return computation;
}

absl::Status ModuleImporter::ApplyShardings(const mlir::Function& f,
                                            HloComputation* computation) {
  for (size_t i = 0; i < f.argument_attributes.size(); ++i) {
    for (const auto& [key, value] : f.argument_attributes[i]) {
      if (key != "mhlo.sharding" && key != "sdy.sharding") continue;
      auto sharding = ShardingFromAttribute(value, syntax_);
      if (!sharding.ok()) return Error(value.where, sharding.status().message());
      computation->parameter_instruction(int64_t(i))->set_sharding(*std::move(sharding));
    }
  }
  std::vector<HloSharding> result_shardings;
  bool any = false;
  for (size_t i = 0; i < f.result_types.size(); ++i) {
    HloSharding s = HloSharding::Replicate();
    if (i < f.result_attributes.size()) {
      for (const auto& [key, value] : f.result_attributes[i]) {
        if (key != "mhlo.sharding" && key != "sdy.sharding") continue;
        auto sharding = ShardingFromAttribute(value, syntax_);
        if (!sharding.ok()) return Error(value.where, sharding.status().message());
        s = *std::move(sharding);
        any = true;
      }
    }
    result_shardings.push_back(std::move(s));
  }
  if (!any) return absl::OkStatus();
  HloInstruction* root = computation->root_instruction();
  if (root->shape().IsTuple()) {
    while (result_shardings.size() < size_t(root->shape().tuple_shapes_size())) {
      result_shardings.push_back(HloSharding::Replicate());
    }
    root->set_sharding(HloSharding::Tuple(std::move(result_shardings)));
  } else {
    root->set_sharding(std::move(result_shardings[0]));
  }
  return absl::OkStatus();
}

absl::StatusOr<HloComputation*> ModuleImporter::IsolatedRegionComputation(
    const mlir::Region& region, absl::string_view name_hint, const mlir::Operation& owner) {
  if (region.blocks.size() != 1) {
    return Error(owner.where, absl::StrCat(owner.name, ": a region must have one block"));
  }
  const mlir::Block& block = region.blocks[0];
  HloComputation* computation = module_->AddEmbeddedComputation(NewComputation(name_hint));
  ComputationBuilder builder(this, computation, nullptr);
  for (size_t i = 0; i < block.argument_types.size(); ++i) {
    auto shape = block.argument_types[i].ToShape();
    if (!shape.ok()) return Error(owner.where, shape.status().message());
    HloInstruction* parameter = builder.AddParameter(int64_t(i), *shape, block.argument_names[i]);
    if (block.argument_types[i].quant) builder.SetQuant(parameter, block.argument_types[i].quant);
    builder.Define(block.argument_names[i], parameter);
  }
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<HloInstruction*> returned, builder.ConvertBlock(block));
  if (returned.empty()) return Error(owner.where, absl::StrCat(owner.name, ": region returns nothing"));
  computation->set_root_instruction(
      returned.size() == 1 ? returned[0]
                           : builder.Add(HloInstruction::CreateTuple(returned), owner));
  return computation;
}

absl::StatusOr<ModuleImporter::CapturingRegion> ModuleImporter::CapturingRegionComputation(
    const mlir::Region& region, absl::string_view name_hint,
    const std::vector<Shape>& leading_shapes, const std::vector<std::string>& leading_names,
    const std::vector<std::string>& captured, const ComputationBuilder& enclosing,
    const mlir::Operation& owner, bool append_captured_to_result) {
  if (region.blocks.size() != 1) {
    return Error(owner.where, absl::StrCat(owner.name, ": a region must have one block"));
  }
  std::vector<Shape> shapes = leading_shapes;
  for (const std::string& name : captured) {
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * outer, enclosing.Lookup({name, -1, owner.where}));
    shapes.push_back(outer->shape());
  }
  HloComputation* computation = module_->AddEmbeddedComputation(NewComputation(name_hint));
  ComputationBuilder builder(this, computation, nullptr);
  HloInstruction* param = builder.AddParameter(0, Shape::MakeTuple(shapes), "state");
  std::vector<HloInstruction*> elements;
  for (size_t i = 0; i < shapes.size(); ++i) {
    elements.push_back(builder.Add(HloInstruction::CreateGetTupleElement(param, int64_t(i)), owner));
  }
  for (size_t i = 0; i < leading_names.size(); ++i) builder.Define(leading_names[i], elements[i]);
  for (size_t i = 0; i < captured.size(); ++i) {
    builder.Define(captured[i], elements[leading_shapes.size() + i]);
  }
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<HloInstruction*> returned,
                            builder.ConvertBlock(region.blocks[0]));
  if (append_captured_to_result) {
    // A loop body passes the captured values through unchanged.
    for (size_t i = 0; i < captured.size(); ++i) {
      returned.push_back(elements[leading_shapes.size() + i]);
    }
  }
  if (returned.empty()) return Error(owner.where, absl::StrCat(owner.name, ": region returns nothing"));
  HloInstruction* root = returned.size() == 1 && !append_captured_to_result
                             ? returned[0]
                             : builder.Add(HloInstruction::CreateTuple(returned), owner);
  computation->set_root_instruction(root);
  return CapturingRegion{computation, captured};
}

// --- Shardings ------------------------------------------------------------------

namespace {

// #sdy.sharding<@mesh, [{"x"}, {}], replicated={"y"}>
absl::StatusOr<HloSharding> SdyShardingToHlo(absl::string_view raw, const mlir::Module& module) {
  absl::string_view text = absl::StripAsciiWhitespace(raw);
  if (!absl::ConsumePrefix(&text, "@")) return absl::InvalidArgumentError("sdy.sharding needs a mesh");
  size_t comma = text.find(',');
  if (comma == absl::string_view::npos) return absl::InvalidArgumentError("malformed sdy.sharding");
  std::string mesh_name(text.substr(0, comma));
  const std::vector<std::pair<std::string, int64_t>>* axes = nullptr;
  for (const auto& [name, mesh_axes] : module.meshes) {
    if (name == mesh_name) axes = &mesh_axes;
  }
  if (!axes) return absl::NotFoundError(absl::StrCat("sdy mesh @", mesh_name, " is not defined"));
  text = absl::StripAsciiWhitespace(text.substr(comma + 1));
  if (!absl::ConsumePrefix(&text, "[")) return absl::InvalidArgumentError("malformed sdy.sharding");
  size_t close = text.find(']');
  if (close == absl::string_view::npos) return absl::InvalidArgumentError("malformed sdy.sharding");
  absl::string_view dims_text = text.substr(0, close);
  std::vector<std::vector<int64_t>> dim_axes;
  size_t pos = 0;
  while ((pos = dims_text.find('{', pos)) != absl::string_view::npos) {
    size_t end = dims_text.find('}', pos);
    if (end == absl::string_view::npos) return absl::InvalidArgumentError("malformed sdy.sharding");
    std::vector<int64_t> axis_ids;
    for (absl::string_view a : absl::StrSplit(dims_text.substr(pos + 1, end - pos - 1), ',')) {
      a = absl::StripAsciiWhitespace(a);
      if (absl::EndsWith(a, "?")) a.remove_suffix(1);  // open dimension
      if (a.empty()) continue;
      if (!absl::ConsumePrefix(&a, "\"") || !absl::ConsumeSuffix(&a, "\"")) {
        return absl::UnimplementedError(absl::StrCat("sdy sub-axes like ", a, " are not supported"));
      }
      int64_t id = -1;
      for (size_t k = 0; k < axes->size(); ++k) {
        if ((*axes)[k].first == a) id = int64_t(k);
      }
      if (id < 0) return absl::NotFoundError(absl::StrCat("mesh axis \"", a, "\" is not in @", mesh_name));
      axis_ids.push_back(id);
    }
    dim_axes.push_back(std::move(axis_ids));
    pos = end + 1;
  }
  std::vector<int64_t> tile_dims, perm, mesh_sizes;
  std::vector<bool> used(axes->size(), false);
  for (const auto& [name, size] : *axes) mesh_sizes.push_back(size);
  for (const auto& ids : dim_axes) {
    int64_t product = 1;
    for (int64_t id : ids) {
      product *= (*axes)[id].second;
      perm.push_back(id);
      used[id] = true;
    }
    tile_dims.push_back(product);
  }
  int64_t replicated = 1;
  for (size_t k = 0; k < axes->size(); ++k) {
    if (!used[k]) {
      perm.push_back(int64_t(k));
      replicated *= (*axes)[k].second;
    }
  }
  int64_t total = 1;
  for (int64_t s : mesh_sizes) total *= s;
  if (total == replicated) return HloSharding::Replicate();
  std::vector<HloSharding::SubgroupType> subgroups;
  if (replicated > 1) {
    tile_dims.push_back(replicated);
    subgroups.push_back(HloSharding::SubgroupType::kReplicated);
  }
  if (mesh_sizes.empty()) return HloSharding::Replicate();
  SYSTOLIC_ASSIGN_OR_RETURN(TileAssignment tiles,
                            TileAssignment::Iota(tile_dims, mesh_sizes, perm));
  return HloSharding::Tile(std::move(tiles), std::move(subgroups));
}

}  // namespace

absl::StatusOr<HloSharding> ShardingFromAttribute(const mlir::Attribute& attribute,
                                                  const mlir::Module& module) {
  if (attribute.kind == mlir::Attribute::Kind::kString) {
    return ParseSharding(attribute.text);
  }
  if (attribute.kind == mlir::Attribute::Kind::kStruct && attribute.text == "sdy.sharding") {
    const mlir::Attribute* raw = attribute.Field("_raw");
    if (!raw) return absl::InvalidArgumentError("malformed sdy.sharding");
    return SdyShardingToHlo(raw->text, module);
  }
  return absl::InvalidArgumentError("a sharding must be a string or #sdy.sharding<...>");
}

absl::StatusOr<std::unique_ptr<HloModule>> ParseStableHlo(absl::string_view text,
                                                          const std::string& filename,
                                                          int first_line) {
  SYSTOLIC_ASSIGN_OR_RETURN(mlir::Module syntax, mlir::ParseModule(text, {filename, first_line}));
  ModuleImporter importer(syntax, filename);
  SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> module, importer.Import(""));
  absl::Status verified = VerifyHloModule(*module);
  if (!verified.ok()) {
    return absl::InternalError(absl::StrCat(filename, ": the imported module does not verify: ",
                                            verified.message()));
  }
  return module;
}

}  // namespace systolic::stablehlo
