#include "core/hlo/op_metadata.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace systolic {

std::string QuoteString(absl::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += absl::StrFormat("\\x%02x", c);
        } else {
          out += char(c);
        }
    }
  }
  return out + "\"";
}

std::string OpMetadata::ToString() const {
  std::vector<std::string> parts;
  if (!op_type.empty()) parts.push_back(absl::StrCat("op_type=", QuoteString(op_type)));
  if (!op_name.empty()) parts.push_back(absl::StrCat("op_name=", QuoteString(op_name)));
  if (!source_file.empty()) {
    parts.push_back(absl::StrCat("source_file=", QuoteString(source_file)));
  }
  if (source_line != 0) parts.push_back(absl::StrCat("source_line=", source_line));
  if (source_end_line != 0) parts.push_back(absl::StrCat("source_end_line=", source_end_line));
  if (source_column != 0) parts.push_back(absl::StrCat("source_column=", source_column));
  if (source_end_column != 0) {
    parts.push_back(absl::StrCat("source_end_column=", source_end_column));
  }
  if (!deduplicated_name.empty()) {
    parts.push_back(absl::StrCat("deduplicated_name=", QuoteString(deduplicated_name)));
  }
  if (preserve_layout) parts.push_back("preserve_layout=true");
  if (!scheduling_name.empty()) {
    parts.push_back(absl::StrCat("scheduling_name=", QuoteString(scheduling_name)));
  }
  if (stack_frame_id != 0) parts.push_back(absl::StrCat("stack_frame_id=", stack_frame_id));
  return absl::StrJoin(parts, " ");
}

std::string FrontendAttributesToString(const FrontendAttributes& attributes) {
  std::vector<std::string> parts;
  for (const auto& [key, value] : attributes) {
    parts.push_back(absl::StrCat(key, "=", QuoteString(value)));
  }
  return absl::StrCat("{", absl::StrJoin(parts, ","), "}");
}

}  // namespace systolic
