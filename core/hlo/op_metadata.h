// Source information attached to an instruction (`metadata={...}`) and the
// string attributes a front end passes through (`frontend_attributes={...}`).
#pragma once

#include "absl/strings/string_view.h"
#include <cstdint>
#include <map>
#include <string>

namespace systolic {

struct OpMetadata {
  std::string op_type;
  std::string op_name;
  std::string source_file;
  int64_t source_line = 0;
  int64_t source_end_line = 0;
  int64_t source_column = 0;
  int64_t source_end_column = 0;
  std::string deduplicated_name;
  bool preserve_layout = false;
  std::string scheduling_name;
  int64_t stack_frame_id = 0;

  bool empty() const { return *this == OpMetadata(); }
  // Body between the braces: `op_type="Add" op_name="a/b" source_line=3`.
  std::string ToString() const;
  friend bool operator==(const OpMetadata&, const OpMetadata&) = default;
};

// Sorted by key so printing is deterministic.
using FrontendAttributes = std::map<std::string, std::string>;
// "{a="x",b="y"}"
std::string FrontendAttributesToString(const FrontendAttributes& attributes);

// A string in HLO text: quotes and backslashes escaped, control characters as \n, \t or \xNN.
std::string QuoteString(absl::string_view text);

}  // namespace systolic
