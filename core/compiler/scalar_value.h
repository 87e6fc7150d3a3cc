// Integer and pred scalars known without running the program: constants,
// and values each device computes from constants and its own ids
// (partition-id, replica-id), such as the "is this shard past the
// diagonal" predicates ring attention branches on. Looks through copies,
// converts, tuple plumbing and the fusions a compiled module wraps these in.
#pragma once

#include <cstdint>
#include <optional>

#include "core/hlo/hlo_instruction.h"

namespace systolic {

// What `instruction` stands for once fusion boundaries, scalar copies and
// converts and get-tuple-element of a tuple are looked through.
const HloInstruction* LookThroughPlumbing(const HloInstruction* instruction);

// The value of an integer or pred scalar that constants alone determine
// (a constant, or arithmetic on constants); nullopt otherwise.
std::optional<int64_t> ScalarConstantValue(const HloInstruction& instruction);

struct DeviceIds {
  int64_t replica = 0;
  int64_t partition = 0;
};

// The value `instruction` (an integer or pred scalar) has on device `ids`
// when it is computed only from constants and the device's ids through
// integer arithmetic, compares, selects and converts; nullopt when it
// depends on anything else.
std::optional<int64_t> ScalarValueOnDevice(const HloInstruction& instruction,
                                           const DeviceIds& ids);

}  // namespace systolic
