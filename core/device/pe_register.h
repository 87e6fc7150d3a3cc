// One operand register of a processing element in the cycle-accurate grids.
#pragma once

#include "core/hlo/float_types.h"

namespace systolic::device {

struct PeRegister {
  bfloat16 value{0.0f};
  bool valid = false;  // holds an operand this cycle (padding included)
  bool real = false;   // the operand comes from the GEMM, not from padding
};

}  // namespace systolic::device
