// Parsing a binary protobuf without the library's own logging: a string
// field that is not valid UTF-8 makes protobuf print an ERROR line on
// stderr, though every caller reports the failure itself, naming the file.
// Only for targets that link protobuf.
#pragma once

#include <climits>
#include <cstddef>

#include "absl/strings/string_view.h"
#include "google/protobuf/message_lite.h"
#include "google/protobuf/stubs/logging.h"

namespace systolic {

inline bool ParseProtoQuietly(absl::string_view bytes, google::protobuf::MessageLite* message) {
  if (bytes.size() > size_t(INT_MAX)) return false;
  google::protobuf::LogSilencer quiet;
  return message->ParseFromArray(bytes.data(), int(bytes.size()));
}

}  // namespace systolic
