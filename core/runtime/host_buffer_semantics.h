// What a host-to-device transfer may assume about the caller's data.
#pragma once

namespace systolic::runtime {

// The values match SYSTOLIC_HostBufferSemantics of the C ABI.
enum class HostBufferSemantics {
  kImmutableOnlyDuringCall = 0,          // copied before the call returns
  kImmutableUntilTransferCompletes = 1,  // read later; a done event says when
};

}  // namespace systolic::runtime
