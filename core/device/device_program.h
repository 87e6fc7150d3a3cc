// A device program: what each TensorCore of one chip runs, as ops on its
// units with dependencies. Independent of HLO; the compiler's lowering builds
// these, and DeviceSimulator runs them.
//
// Each unit issues its ops in program order (the core's schedule is static,
// as a VLIW bundle stream is), so an op starts when it is the oldest
// unfinished op of its unit, its dependencies have ended, and the VMEM
// buffers it allocates fit. Durations come from the chip spec, not from the
// program: a matmul costs what the MXU model says, a DMA moves its bytes at
// the bandwidth it gets.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/device/systolic_mapping.h"

namespace systolic::device {

enum class UnitKind {
  kMxu,     // one of the core's matrix units
  kVector,  // the vector unit (VPU and its transcendental unit)
  kDma,     // one of the core's DMA engines (HBM <-> VMEM)
  kScalar,  // the scalar unit: issue, address arithmetic, synchronisation
  kIci,     // the core's share of the chip's inter-chip links: collectives
};

struct UnitId {
  UnitKind kind = UnitKind::kScalar;
  int index = 0;  // which MXU / DMA engine; 0 for the vector and scalar units
  friend bool operator==(const UnitId&, const UnitId&) = default;
};

inline UnitId Mxu(int index) { return {UnitKind::kMxu, index}; }
inline UnitId Dma(int index) { return {UnitKind::kDma, index}; }
inline UnitId VectorUnit() { return {UnitKind::kVector, 0}; }
inline UnitId ScalarUnit() { return {UnitKind::kScalar, 0}; }
inline UnitId IciUnit() { return {UnitKind::kIci, 0}; }

// C[M,N] += A[M,K]·B[K,N] on one MXU, operands in VMEM.
struct MatmulWork {
  GemmShape gemm;  // K in MXU steps
  // MACs each step does per processing element: 2 for int8 operands on an
  // MXU with an int8 mode, so the FLOPs count the whole contraction.
  int64_t macs_per_step = 1;
};

// An element-wise pass of the vector unit over `elements` values.
struct VectorWork {
  int64_t elements = 0;
  int64_t ops_per_element = 1;             // ALU ops (add, mul, max, ...)
  int64_t transcendentals_per_element = 0;  // exp, log, tanh, ...
};

enum class DmaDirection { kHbmToVmem, kVmemToHbm };

struct DmaWork {
  int64_t bytes = 0;
  DmaDirection direction = DmaDirection::kHbmToVmem;
};

// Work of a known length (scalar bookkeeping, a barrier, a sync flag).
struct FixedWork {
  int64_t cycles = 0;
  double flops = 0;
};

// The scalar unit issuing one kernel; its length comes from the chip spec.
struct KernelIssueWork {};

// Nothing to do: ends as soon as its dependencies have, without waiting for
// its unit or holding up the unit's other ops (a kernel's "done").
struct JoinWork {};

using OpWork =
    std::variant<MatmulWork, VectorWork, DmaWork, FixedWork, KernelIssueWork, JoinWork>;

using OpId = int32_t;         // index into CoreProgram::ops()
using VmemBufferId = int32_t;  // index into CoreProgram::buffers()

struct DeviceOp {
  std::string name;
  UnitId unit;
  OpWork work;
  std::vector<OpId> deps;               // earlier ops of the same core
  std::vector<VmemBufferId> allocates;  // reserved in VMEM when the op starts
  std::vector<VmemBufferId> frees;      // released when the op ends
};

struct VmemBuffer {
  std::string name;
  int64_t bytes = 0;
};

// The program of one TensorCore.
class CoreProgram {
 public:
  VmemBufferId AddVmemBuffer(std::string name, int64_t bytes);
  OpId Add(DeviceOp op);

  const std::vector<DeviceOp>& ops() const { return ops_; }
  const std::vector<VmemBuffer>& buffers() const { return buffers_; }

 private:
  std::vector<DeviceOp> ops_;
  std::vector<VmemBuffer> buffers_;
};

// One chip: core i runs cores[i]; cores run in parallel and share the HBM.
struct ChipProgram {
  std::vector<CoreProgram> cores;
};

}  // namespace systolic::device
