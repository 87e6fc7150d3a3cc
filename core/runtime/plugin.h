// A runtime plugin loaded at run time: a shared library
// `libsystolic_plugin_<name>.so` found on a search path, whose one exported
// entry point returns the C ABI table. Loading checks the table's version
// (another major version is refused; a newer minor is accepted) and finds
// the optional extensions. Plugins stay loaded for the life of the process,
// as PJRT plugins do.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/runtime/systolic_c_api.h"

namespace systolic::runtime {

class Plugin {
 public:
  // `name_or_path`: a plugin name ("cpu") or a path to a shared library.
  // `search_path` comes before $SYSTOLIC_PLUGIN_PATH and the defaults.
  // Thread-safe; a plugin is loaded once.
  static absl::StatusOr<const Plugin*> Load(const std::string& name_or_path,
                                            const std::vector<std::string>& search_path = {});
  // Where plugins are looked for: `extra`, then $SYSTOLIC_PLUGIN_PATH
  // (colon-separated), then the build's and the install's plugin folders.
  static std::vector<std::string> SearchPath(const std::vector<std::string>& extra = {});
  // Names of the plugins found on the search path.
  static std::vector<std::string> Available(const std::vector<std::string>& extra = {});
  // The plugin a client uses when none is named: $SYSTOLIC_DEVICE, else "cpu".
  static std::string DefaultName();

  // A table's version against this runtime's.
  static absl::Status CheckVersion(const SYSTOLIC_Api& api, const std::string& path);

  const std::string& name() const { return name_; }
  const std::string& path() const { return path_; }
  const SYSTOLIC_Api* api() const { return api_; }
  int major_version() const { return api_->version.major_version; }
  int minor_version() const { return api_->version.minor_version; }
  // Plugin_Attributes as text ("platform", "timing", ...).
  const std::map<std::string, std::string>& attributes() const { return attributes_; }
  // Null when the plugin lacks the extension.
  const SYSTOLIC_CompileEvents_Extension* compile_events() const { return compile_events_; }
  const SYSTOLIC_ExecutionTiming_Extension* execution_timing() const { return timing_; }

  // The error as a status (OK for null); destroys the error.
  absl::Status ToStatus(SYSTOLIC_Error* error) const;

 private:
  Plugin() = default;
  static absl::StatusOr<Plugin*> Open(const std::string& path, const std::string& name);

  std::string name_;
  std::string path_;
  const SYSTOLIC_Api* api_ = nullptr;
  std::map<std::string, std::string> attributes_;
  const SYSTOLIC_CompileEvents_Extension* compile_events_ = nullptr;
  const SYSTOLIC_ExecutionTiming_Extension* timing_ = nullptr;
};

}  // namespace systolic::runtime
