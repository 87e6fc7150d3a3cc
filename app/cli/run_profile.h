// The profile of one `systolic run`: the chip, the program with the
// compiler's snapshot after every pass, the compile, one run step, and the
// chip's timeline (a plane for the chip, a lane per core and unit, every
// event named by its HLO instruction with FLOPs, bytes and utilisation).
#pragma once

#include <string>

#include "core/compiler/compiler.h"
#include "core/device/chip_spec.pb.h"
#include "core/device/program_timing.h"
#include "core/trace/profile.h"

namespace systolic::cli {

trace::Profile MakeRunProfile(const std::string& title, const device::ChipSpec& spec,
                              const CompilationResult& compilation,
                              const device::ProgramTiming& timing);

}  // namespace systolic::cli
