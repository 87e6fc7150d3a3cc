// Which collectives run asynchronously as a -start / -done pair, and the
// synchronous collective each pair stands for. The async conversion, the
// latency-hiding scheduler and the collective cost models share these
// answers.
#pragma once

#include <optional>

#include "core/hlo/hlo_instruction.h"
#include "core/hlo/hlo_opcode.h"

namespace systolic {

// The -start opcode of a synchronous collective that has one (all-reduce,
// all-gather, collective-permute); nullopt for the others.
std::optional<HloOpcode> AsyncStartOpcodeOf(HloOpcode synchronous);
// The -done opcode that completes `start`.
std::optional<HloOpcode> AsyncDoneOpcodeOf(HloOpcode start);

bool IsAsyncCollectiveStart(const HloInstruction& instruction);
bool IsAsyncCollectiveDone(const HloInstruction& instruction);

// The synchronous collective `instruction` runs: itself for a synchronous
// collective, the matching one for a -start or -done; nullopt for anything
// else (collective-broadcast included: no interconnect model times it, so it
// counts as compute).
std::optional<HloOpcode> CollectiveKindOf(const HloInstruction& instruction);

}  // namespace systolic
