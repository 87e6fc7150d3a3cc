// The user's layer names, as a stack of scopes ("mlp", "dense_1"): every
// operation recorded inside gets op_name="mlp/dense_1/<op>", which the
// lowered HLO carries as metadata, so the graph view and the profile name
// the user's layers. The stack is per thread, as name scopes are in the
// frameworks users know.
#pragma once

#include <string>

#include "absl/strings/string_view.h"
#include "core/hlo/op_metadata.h"

namespace systolic::lazy {

class NameScope {
 public:
  // Pushes `name` for the lifetime of this object.
  explicit NameScope(absl::string_view name);
  ~NameScope();
  NameScope(const NameScope&) = delete;
  NameScope& operator=(const NameScope&) = delete;

  // "mlp/dense_1" (empty outside every scope).
  static std::string CurrentPath();
  // Metadata of an op recorded now: op_type=`op_type`,
  // op_name="<path>/<op_type>".
  static OpMetadata MetadataFor(absl::string_view op_type);

 private:
  size_t previous_size_;
};

// Replaces the whole scope path while alive (autodiff records the gradient
// of an op under "gradients/<op's path>").
class ScopePathOverride {
 public:
  explicit ScopePathOverride(absl::string_view path);
  ~ScopePathOverride();
  ScopePathOverride(const ScopePathOverride&) = delete;
  ScopePathOverride& operator=(const ScopePathOverride&) = delete;

 private:
  std::string saved_;
};

}  // namespace systolic::lazy
