// Appends the tiled kernels of HLO instructions to one TensorCore's program:
// DMA of each step's operands HBM -> VMEM, the step's compute, DMA of the
// finished output back, double buffered so that the next steps' operands
// arrive while the current one computes. Every op is named after its HLO
// instruction ("fusion.3/mxu m0 n1 k0 in0") and the builder keeps the side
// table op -> instruction.
//
// Buffers per stream (an MXU, or the vector unit): a step's operands are
// loaded only once the step two before it in the stream has computed (its
// buffers are then free), and an output is opened only once the output two
// before it has been written back. So a stream holds at most two steps of
// operands and two outputs, which lowering sizes to fit its VMEM share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/device/device_program.h"

namespace systolic::device {

struct TileStep {
  std::string label;              // "mxu m0 n1 k0", "vpu 3"
  int stream = 0;                 // steps of one stream reuse its buffers in turn
  UnitId unit;
  OpWork work;
  std::vector<int64_t> in_bytes;  // one DMA per entry (entries <= 0 skipped)
  bool opens_output = true;       // the first step of an output tile (K loop)
  bool closes_output = true;      // the last: epilogue, then DMA out
  int64_t output_bytes = 0;       // in VMEM, and written back to HBM
  std::optional<VectorWork> epilogue;
};

class CoreProgramBuilder {
 public:
  // `dma_engines` of the core: with two or more, the last one writes results
  // back and the others load operands, so write-backs never hold up loads.
  CoreProgramBuilder(CoreProgram* program, int dma_engines);

  // Appends one instruction's kernel: the scalar unit issues it once
  // `after` (producers, fences) has ended, then its loads run. Returns the
  // kernel's "done" join (on the scalar unit's lane), which ends when all of
  // its work has.
  OpId AddKernel(const std::string& instruction, const std::vector<TileStep>& steps,
                 const std::vector<OpId>& after);
  // A single op of known length on `unit` (the scalar unit unless given).
  OpId AddFixed(const std::string& instruction, const std::string& label, FixedWork work,
                const std::vector<OpId>& after, UnitId unit = ScalarUnit());

  // The HLO instruction of every op, by op id.
  const std::vector<std::string>& instruction_of_op() const { return instruction_of_op_; }

 private:
  OpId Add(const std::string& instruction, DeviceOp op);
  UnitId NextLoadEngine();
  UnitId StoreEngine() const;

  CoreProgram* program_;
  int dma_engines_;
  int next_load_engine_ = 0;
  std::vector<std::string> instruction_of_op_;
};

}  // namespace systolic::device
