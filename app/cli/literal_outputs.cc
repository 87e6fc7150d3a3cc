#include "app/cli/literal_outputs.h"

#include <cctype>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace systolic::cli {
namespace {

void AppendLeaves(const Literal& l, std::vector<int64_t>& path, std::vector<LiteralLeaf>& out) {
  if (l.shape().IsTuple()) {
    for (int64_t i = 0; i < l.tuple_size(); ++i) {
      path.push_back(i);
      AppendLeaves(l.tuple_element(i), path, out);
      path.pop_back();
    }
    return;
  }
  out.push_back({absl::StrCat("{", absl::StrJoin(path, ","), "}"), &l});
}

}  // namespace

std::vector<LiteralLeaf> LeavesOf(const Literal& literal) {
  std::vector<LiteralLeaf> out;
  std::vector<int64_t> path;
  AppendLeaves(literal, path, out);
  return out;
}

std::string NpyName(const std::string& index) {
  std::string name = "out";
  for (char c : index) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      name.push_back(c);
    } else if (c == ',' || (c == '{' && index != "{}")) {
      name.push_back('_');
    }
  }
  return name + ".npy";
}

}  // namespace systolic::cli
