#include "core/lazy/name_scope.h"

#include "absl/strings/str_cat.h"

namespace systolic::lazy {
namespace {

// The joined path; scopes append "/name" and restore the previous length.
std::string& Path() {
  thread_local std::string path;
  return path;
}

}  // namespace

NameScope::NameScope(absl::string_view name) : previous_size_(Path().size()) {
  if (name.empty()) return;
  std::string& path = Path();
  if (!path.empty()) path.push_back('/');
  path.append(name.data(), name.size());
}

NameScope::~NameScope() { Path().resize(previous_size_); }

std::string NameScope::CurrentPath() { return Path(); }

OpMetadata NameScope::MetadataFor(absl::string_view op_type) {
  OpMetadata metadata;
  metadata.op_type = std::string(op_type);
  const std::string& path = Path();
  metadata.op_name = path.empty() ? std::string(op_type) : absl::StrCat(path, "/", op_type);
  return metadata;
}

ScopePathOverride::ScopePathOverride(absl::string_view path) : saved_(Path()) {
  Path() = std::string(path);
}

ScopePathOverride::~ScopePathOverride() { Path() = saved_; }

}  // namespace systolic::lazy
