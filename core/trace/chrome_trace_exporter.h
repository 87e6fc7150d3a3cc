// Export to the Chrome trace event format (JSON), which Perfetto and
// chrome://tracing open: one process per chip (and the host), one thread
// per lane ("core 0 / MXU 1"), complete events ("X") with the stats as
// args, metadata events ("M") naming them, and flow events ("s"/"f") for
// transfers. Written as a stream: memory does not grow with the trace.
//
// Within a thread complete events must nest or not overlap; where a lane's
// events partially overlap (a DMA queue, an imported lane), the later ones
// go to extra threads of that lane ("DMA 0 #2"). Times are microseconds
// with nanosecond decimals, truncated from picoseconds so nesting holds.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "core/trace/byte_sink.h"
#include "core/trace/profile.h"

namespace systolic::trace {

struct ChromeTraceStats {
  int64_t complete_events = 0;
  int64_t flow_events = 0;
  int64_t threads = 0;       // lanes plus extra threads for overlaps
  int64_t bytes = 0;
};

// `profile.timeline` must be finalized (profiles read from files are).
absl::Status ExportChromeTrace(const Profile& profile, ByteSink* sink,
                               ChromeTraceStats* stats = nullptr);
// To a file, written atomically.
absl::Status ExportChromeTraceFile(const Profile& profile, const std::string& path,
                                   ChromeTraceStats* stats = nullptr);

}  // namespace systolic::trace
