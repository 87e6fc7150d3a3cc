#include "core/device/device_program_validator.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "core/device/chip_figures.h"
#include "core/device/core_units.h"

namespace systolic::device {

absl::Status ValidateChipProgram(const ChipSpec& spec, const ChipProgram& program) {
  if (int64_t(program.cores.size()) > spec.tensor_cores_per_chip()) {
    return absl::InvalidArgumentError(absl::StrCat("program has ", program.cores.size(),
                                                   " cores; chip ", spec.name(), " has ",
                                                   spec.tensor_cores_per_chip()));
  }
  const CoreUnits units(spec);
  const int64_t vmem = VmemBytes(spec);
  for (size_t c = 0; c < program.cores.size(); ++c) {
    const CoreProgram& core = program.cores[c];
    const int64_t buffer_count = int64_t(core.buffers().size());
    for (const VmemBuffer& buffer : core.buffers()) {
      if (buffer.bytes <= 0 || buffer.bytes > vmem) {
        return absl::InvalidArgumentError(
            absl::StrCat("core ", c, ": VMEM buffer '", buffer.name, "' of ", buffer.bytes,
                         " bytes (VMEM holds ", vmem, ")"));
      }
    }
    std::vector<int> allocations(buffer_count), frees(buffer_count);
    for (size_t i = 0; i < core.ops().size(); ++i) {
      const DeviceOp& op = core.ops()[i];
      // Built only for an error message.
      auto where = [&] { return absl::StrCat("core ", c, " op ", i, " '", op.name, "'"); };
      if (!units.Contains(op.unit)) {
        return absl::InvalidArgumentError(absl::StrCat(
            where(), ": no unit ", CoreUnits::Name(op.unit), " on chip ", spec.name()));
      }
      const bool is_dma = std::holds_alternative<DmaWork>(op.work);
      const bool on_dma = op.unit.kind == UnitKind::kDma;
      const bool is_matmul = std::holds_alternative<MatmulWork>(op.work);
      if (is_dma != on_dma || (is_matmul && op.unit.kind != UnitKind::kMxu) ||
          (std::holds_alternative<VectorWork>(op.work) && op.unit.kind != UnitKind::kVector) ||
          (std::holds_alternative<KernelIssueWork>(op.work) &&
           op.unit.kind != UnitKind::kScalar)) {
        return absl::InvalidArgumentError(absl::StrCat(
            where(), ": its work cannot run on ", CoreUnits::Name(op.unit)));
      }
      for (OpId dep : op.deps) {
        if (dep < 0 || size_t(dep) >= i) {
          return absl::InvalidArgumentError(
              absl::StrCat(where(), ": depends on op ", dep, ", which is not an earlier op"));
        }
      }
      auto check_buffers = [&](const std::vector<VmemBufferId>& ids, std::vector<int>& uses,
                               const char* verb, const char* participle) -> absl::Status {
        for (VmemBufferId id : ids) {
          if (id < 0 || id >= buffer_count) {
            return absl::InvalidArgumentError(
                absl::StrCat(where(), ": ", verb, " unknown VMEM buffer ", id));
          }
          if (++uses[id] > 1) {
            return absl::InvalidArgumentError(absl::StrCat(
                where(), ": VMEM buffer '", core.buffers()[id].name, "' is ", participle,
                " by more than one op"));
          }
        }
        return absl::OkStatus();
      };
      if (absl::Status s = check_buffers(op.allocates, allocations, "allocates", "allocated"); !s.ok()) return s;
      if (absl::Status s = check_buffers(op.frees, frees, "frees", "freed"); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace systolic::device
