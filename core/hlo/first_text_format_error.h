// Keeps the first error of a protobuf text-format parse with its 1-based
// line and column ("3:7: message"); the parser reports them 0-based.
// Header-only: its users link protobuf themselves.
#pragma once

#include <string>

#include "absl/strings/str_cat.h"
#include "google/protobuf/io/tokenizer.h"

namespace systolic {

class FirstTextFormatError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (!message_.empty()) return;
    message_ = absl::StrCat(line + 1, ":", column + 1, ": ", message);
  }
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

}  // namespace systolic
