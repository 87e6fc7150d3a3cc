// The small scalar computations ops call: the reducer of reduce and
// reduce-window, the combiner of all-reduce and reduce-scatter, the select
// and scatter of select-and-scatter. Nodes name them by kind; lowering builds
// each (kind, element type) once per module.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/hlo/hlo_computation.h"
#include "core/hlo/primitive_type.h"

namespace systolic::lazy {

enum class ScalarComputation : uint8_t { kAdd, kMax, kMin, kGe };

// "add", "max", "min", "ge"
const char* ScalarComputationName(ScalarComputation kind);

// (T[], T[]) -> T[] (pred[] for kGe).
ProgramShape ScalarComputationProgramShape(ScalarComputation kind, PrimitiveType type);

// A computation named e.g. "add.f32" computing `kind` on two scalars of `type`.
std::unique_ptr<HloComputation> BuildScalarComputation(ScalarComputation kind,
                                                       PrimitiveType type);

}  // namespace systolic::lazy
