#include "core/device/core_units.h"

#include "absl/strings/str_cat.h"

namespace systolic::device {

bool CoreUnits::Contains(UnitId unit) const {
  switch (unit.kind) {
    case UnitKind::kMxu: return unit.index >= 0 && unit.index < mxus_;
    case UnitKind::kDma: return unit.index >= 0 && unit.index < dma_engines_;
    case UnitKind::kVector:
    case UnitKind::kScalar:
    case UnitKind::kIci: return unit.index == 0;
  }
  return false;
}

int CoreUnits::Slot(UnitId unit) const {
  switch (unit.kind) {
    case UnitKind::kMxu: return unit.index;
    case UnitKind::kVector: return mxus_;
    case UnitKind::kDma: return mxus_ + 1 + unit.index;
    case UnitKind::kScalar: return mxus_ + 1 + dma_engines_;
    case UnitKind::kIci: return mxus_ + 2 + dma_engines_;
  }
  return -1;
}

UnitId CoreUnits::Unit(int slot) const {
  if (slot < mxus_) return Mxu(slot);
  if (slot == mxus_) return VectorUnit();
  if (slot < mxus_ + 1 + dma_engines_) return Dma(slot - mxus_ - 1);
  if (slot == mxus_ + 1 + dma_engines_) return ScalarUnit();
  return IciUnit();
}

std::string CoreUnits::Name(UnitId unit) {
  switch (unit.kind) {
    case UnitKind::kMxu: return absl::StrCat("MXU ", unit.index);
    case UnitKind::kVector: return "vector";
    case UnitKind::kDma: return absl::StrCat("DMA ", unit.index);
    case UnitKind::kScalar: return "scalar";
    case UnitKind::kIci: return "ICI";
  }
  return "?";
}

}  // namespace systolic::device
