// The units of one TensorCore of a chip spec, numbered densely (MXUs, the
// vector unit, DMA engines, the scalar unit, the ICI unit) and named as
// timeline lanes.
#pragma once

#include <string>

#include "core/device/chip_spec.pb.h"
#include "core/device/device_program.h"

namespace systolic::device {

class CoreUnits {
 public:
  explicit CoreUnits(const ChipSpec& spec)
      : mxus_(spec.mxu().count()), dma_engines_(spec.dma().engines()) {}

  int count() const { return mxus_ + dma_engines_ + 3; }
  bool Contains(UnitId unit) const;
  // 0 .. count()-1; requires Contains(unit).
  int Slot(UnitId unit) const;
  UnitId Unit(int slot) const;
  // "MXU 0", "vector", "DMA 1", "scalar", "ICI".
  static std::string Name(UnitId unit);

 private:
  int mxus_;
  int dma_engines_;
};

}  // namespace systolic::device
