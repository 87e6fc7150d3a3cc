// Where a profile's bytes go: a file being written (partial_file.h) or a
// string (tests, the fuzzer, in-memory round trips).
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace systolic::trace {

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual absl::Status Write(absl::string_view bytes) = 0;
  // Makes what was written readable by others (a file's bytes reach the
  // operating system, and the disk when `durable`).
  virtual absl::Status Flush(bool durable) { return absl::OkStatus(); }
};

class StringByteSink : public ByteSink {
 public:
  explicit StringByteSink(std::string* out) : out_(out) {}
  absl::Status Write(absl::string_view bytes) override {
    out_->append(bytes.data(), bytes.size());
    return absl::OkStatus();
  }

 private:
  std::string* out_;
};

}  // namespace systolic::trace
