// Feeds arbitrary bytes to the profile reader. Nothing may crash; a profile
// that reads must write and read back to the same bytes, and export.
//
// The first byte chooses what the rest is: a whole file (read strictly or
// with recovery), one chunk's protobuf payload (skipping the checksums the
// fuzzer could hardly forge, to reach the decoder's checks), or an XSpace.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "core/trace/byte_sink.h"
#include "core/trace/chrome_trace_exporter.h"
#include "core/trace/profile.pb.h"
#include "core/trace/profile_chunk_decoder.h"
#include "core/trace/profile_reader.h"
#include "core/trace/profile_writer.h"
#include "core/trace/xspace_importer.h"

namespace {

using systolic::trace::Profile;

void Fail(const char* what, const absl::Status& status) {
  std::fprintf(stderr, "%s: %s\n", what, std::string(status.message()).c_str());
  std::abort();
}

// Written, read back and written again: the same bytes; exported: no error.
void CheckRoundTrip(const Profile& profile) {
  absl::StatusOr<std::string> first = systolic::trace::SerializeProfile(profile);
  if (!first.ok()) Fail("a profile that was read does not write", first.status());
  absl::StatusOr<Profile> again = systolic::trace::ParseProfile(*first);
  if (!again.ok()) Fail("a written profile does not read", again.status());
  absl::StatusOr<std::string> second = systolic::trace::SerializeProfile(*again);
  if (!second.ok() || *second != *first) {
    std::fprintf(stderr, "a profile does not read back as written\n");
    std::abort();
  }
  if (profile.timeline.event_count() < 100000) {
    std::string json;
    systolic::trace::StringByteSink sink(&json);
    absl::Status exported = systolic::trace::ExportChromeTrace(profile, &sink);
    if (!exported.ok()) Fail("a profile that was read does not export", exported);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const absl::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  const systolic::trace::ReadOptions options{.recover_unfinished = (data[0] & 1) != 0,
                                             .max_chunk_bytes = 16 << 20};
  switch ((data[0] >> 1) % 3) {
    case 0: {
      absl::StatusOr<Profile> profile = systolic::trace::ParseProfile(input, options);
      if (profile.ok()) CheckRoundTrip(*profile);
      break;
    }
    case 1: {
      systolic::trace::proto::Profile chunk;
      if (!chunk.ParseFromArray(input.data(), int(input.size()))) break;
      Profile profile;
      systolic::trace::ProfileChunkDecoder decoder(&profile);
      if (!decoder.Merge(chunk).ok()) break;
      if (!decoder.Finish(options.recover_unfinished).ok()) break;
      CheckRoundTrip(profile);
      break;
    }
    case 2: {
      absl::StatusOr<Profile> profile = systolic::trace::ImportXSpace(input);
      if (profile.ok()) CheckRoundTrip(*profile);
      break;
    }
  }
  return 0;
}
