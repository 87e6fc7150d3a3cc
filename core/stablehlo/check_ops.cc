#include "core/stablehlo/check_ops.h"

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/stablehlo/stablehlo_importer.h"

namespace systolic::stablehlo {
namespace {

absl::Status CanRecord(ComputationBuilder& b, const mlir::Operation& op) {
  if (!b.importer().probes()) {
    return b.Error(op, absl::StrCat(op.name, " is a test assertion; run the file with `systolic check`"));
  }
  if (!b.importer().InEntry(b)) {
    return b.Error(op, absl::StrCat(op.name, " must be in the function that is run"));
  }
  return absl::OkStatus();
}

double NumberAttribute(const mlir::Operation& op, absl::string_view name, double fallback) {
  const mlir::Attribute* a = op.Attr(name);
  if (!a) return fallback;
  if (a->kind == mlir::Attribute::Kind::kFloat) return a->float_value;
  if (a->kind == mlir::Attribute::Kind::kInteger) return double(a->int_value);
  return fallback;
}

Results Record(ComputationBuilder& b, const mlir::Operation& op,
               const std::vector<HloInstruction*>& ops, CheckProbe::Kind kind, bool constant,
               double default_tolerance = 1e-4) {
  SYSTOLIC_RETURN_IF_ERROR(CanRecord(b, op));
  CheckProbe probe;
  probe.kind = kind;
  probe.op_name = op.name;
  probe.where = op.where;
  if (ops.empty()) return b.Error(op, absl::StrCat(op.name, " needs a value to check"));
  probe.actual_output = b.importer().AddProbeOutput(ops[0]);
  if (constant) {
    const mlir::Attribute* value = op.Attr("value");
    if (!value || !value->dense) return b.Error(op, absl::StrCat(op.name, " needs an expected dense value"));
    probe.expected_constant = value->dense;
  } else {
    if (ops.size() < 2) return b.Error(op, absl::StrCat(op.name, " needs an expected value"));
    probe.expected_output = b.importer().AddProbeOutput(ops[1]);
  }
  probe.tolerance = NumberAttribute(op, "tolerance", default_tolerance);
  probe.max_ulp = int64_t(NumberAttribute(op, "max_ulp_difference", 3));
  probe.min_ulp = int64_t(NumberAttribute(op, "min_ulp_difference", 0));
  b.importer().probes()->push_back(std::move(probe));
  return std::vector<HloInstruction*>{};
}

OpConverter Checker(CheckProbe::Kind kind, bool constant) {
  return [kind, constant](ComputationBuilder& b, const mlir::Operation& op,
                          const std::vector<HloInstruction*>& ops,
                          const std::vector<Shape>&) { return Record(b, op, ops, kind, constant); };
}

}  // namespace

void AddCheckConverters(absl::flat_hash_map<std::string, OpConverter>* m) {
  (*m)["check.expect_eq_const"] = Checker(CheckProbe::Kind::kEqual, true);
  (*m)["check.expect_almost_eq_const"] = Checker(CheckProbe::Kind::kAlmostEqual, true);
  (*m)["check.expect_eq"] = Checker(CheckProbe::Kind::kEqual, false);
  (*m)["check.expect_almost_eq"] = Checker(CheckProbe::Kind::kAlmostEqual, false);
  (*m)["check.expect_close"] = Checker(CheckProbe::Kind::kClose, false);
  (*m)["check.expect_serialized_eq"] = [](ComputationBuilder& b, const mlir::Operation& op,
                                          const std::vector<HloInstruction*>&,
                                          const std::vector<Shape>&) -> Results {
    return b.Error(op, "check.expect_serialized_eq needs interpreter probe files, which are not supported");
  };
}

Results RecordCheckCustomCall(ComputationBuilder& b, const mlir::Operation& op,
                              const std::vector<HloInstruction*>& ops) {
  const mlir::Attribute* target = op.Attr("call_target_name");
  std::string name = target ? target->text : "";
  mlir::Operation renamed = op;
  renamed.name = absl::StrCat("custom_call @", name);
  if (name == "check.expect_close") {
    return Record(b, renamed, ops, CheckProbe::Kind::kClose, false);
  }
  if (name == "check.expect_eq") return Record(b, renamed, ops, CheckProbe::Kind::kEqual, false);
  if (name == "check.expect_almost_eq") {
    // JAX's test data uses an absolute tolerance of 1e-3 here.
    return Record(b, renamed, ops, CheckProbe::Kind::kAlmostEqual, false, 1e-3);
  }
  if (name == "check.eq") {
    // Returns i1; the probe does the checking, so the value is true.
    SYSTOLIC_ASSIGN_OR_RETURN(auto none, Record(b, renamed, ops, CheckProbe::Kind::kEqual, false));
    (void)none;
    return std::vector<HloInstruction*>{
        b.Add(HloInstruction::CreateConstant(Literal::CreateR0<bool>(true)), op)};
  }
  return b.Error(op, absl::StrCat("unknown check custom call @", name));
}

}  // namespace systolic::stablehlo
