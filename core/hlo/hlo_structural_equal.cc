#include "core/hlo/hlo_structural_equal.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace systolic {
namespace {

template <typename T>
absl::flat_hash_map<const T*, int64_t> Positions(const std::vector<T*>& items) {
  absl::flat_hash_map<const T*, int64_t> positions;
  for (int64_t i = 0; i < int64_t(items.size()); ++i) positions[items[i]] = i;
  return positions;
}

absl::Status Differ(absl::string_view where, absl::string_view what) {
  return absl::FailedPreconditionError(absl::StrCat(where, ": ", what));
}

}  // namespace

absl::Status CompareModulesStructurally(const HloModule& a, const HloModule& b) {
  if (a.replica_count() != b.replica_count() || a.num_partitions() != b.num_partitions()) {
    return Differ("module", "replica_count or num_partitions differ");
  }
  if (a.has_entry_computation_layout() != b.has_entry_computation_layout() ||
      (a.has_entry_computation_layout() &&
       a.entry_computation_layout().ToString() != b.entry_computation_layout().ToString())) {
    return Differ("module", "entry_computation_layout differs");
  }
  if (a.input_output_aliases() != b.input_output_aliases()) {
    return Differ("module", "input_output_alias differs");
  }
  if (a.buffer_donors() != b.buffer_donors()) return Differ("module", "buffer_donor differs");
  if (a.is_scheduled() != b.is_scheduled()) return Differ("module", "is_scheduled differs");
  if (a.frontend_attributes() != b.frontend_attributes()) {
    return Differ("module", "frontend_attributes differ");
  }
  std::vector<HloComputation*> ca = a.MakeComputationPostOrder();
  std::vector<HloComputation*> cb = b.MakeComputationPostOrder();
  if (ca.size() != cb.size()) {
    return Differ("module", absl::StrCat(ca.size(), " vs ", cb.size(), " computations"));
  }
  auto comp_pos_a = Positions(ca);
  auto comp_pos_b = Positions(cb);
  for (size_t c = 0; c < ca.size(); ++c) {
    std::string where = absl::StrCat("computation %", ca[c]->name());
    if ((ca[c] == a.entry_computation()) != (cb[c] == b.entry_computation())) {
      return Differ(where, "entry computation differs");
    }
    if (ca[c]->execution_thread() != cb[c]->execution_thread()) {
      return Differ(where, "execution thread differs");
    }
    std::vector<HloInstruction*> ia = ca[c]->MakeInstructionPostOrder();
    std::vector<HloInstruction*> ib = cb[c]->MakeInstructionPostOrder();
    if (ia.size() != ib.size()) {
      return Differ(where, absl::StrCat(ia.size(), " vs ", ib.size(), " instructions"));
    }
    auto pos_a = Positions(ia);
    auto pos_b = Positions(ib);
    for (size_t i = 0; i < ia.size(); ++i) {
      const HloInstruction& x = *ia[i];
      const HloInstruction& y = *ib[i];
      std::string at = absl::StrCat(where, ", %", x.name());
      if (x.opcode() != y.opcode()) {
        return Differ(at, absl::StrCat("opcode ", HloOpcodeString(x.opcode()), " vs ",
                                       HloOpcodeString(y.opcode())));
      }
      if (!(x.shape() == y.shape()) || x.shape().has_layout() != y.shape().has_layout()) {
        return Differ(at, absl::StrCat("shape ", x.shape().ToString(true), " vs ",
                                       y.shape().ToString(true)));
      }
      if (x.operand_count() != y.operand_count()) return Differ(at, "operand count differs");
      for (int64_t o = 0; o < x.operand_count(); ++o) {
        if (pos_a.at(x.operand(o)) != pos_b.at(y.operand(o))) {
          return Differ(at, absl::StrCat("operand ", o, " differs"));
        }
      }
      if (x.called_computations().size() != y.called_computations().size()) {
        return Differ(at, "called computations differ");
      }
      for (size_t k = 0; k < x.called_computations().size(); ++k) {
        if (comp_pos_a.at(x.called_computations()[k]) != comp_pos_b.at(y.called_computations()[k])) {
          return Differ(at, absl::StrCat("called computation ", k, " differs"));
        }
      }
      if (x.control_predecessors().size() != y.control_predecessors().size()) {
        return Differ(at, "control predecessors differ");
      }
      for (size_t k = 0; k < x.control_predecessors().size(); ++k) {
        if (pos_a.at(x.control_predecessors()[k]) != pos_b.at(y.control_predecessors()[k])) {
          return Differ(at, "control predecessors differ");
        }
      }
      if (!x.SameAttributesAs(y)) {
        return Differ(at, absl::StrCat("attributes differ:\n  ", x.ToString(), "\n  ", y.ToString()));
      }
      if (x.IsRoot() != y.IsRoot()) return Differ(at, "root differs");
    }
  }
  return absl::OkStatus();
}

}  // namespace systolic
