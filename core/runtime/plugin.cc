#include "core/runtime/plugin.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/hlo/status_macros.h"

namespace systolic::runtime {
namespace {

constexpr char kPrefix[] = "libsystolic_plugin_";
constexpr char kSuffix[] = ".so";

std::string FileNameOf(const std::string& name) { return absl::StrCat(kPrefix, name, kSuffix); }

// The folder of the running executable, for installed layouts
// (bin/../lib/systolic/plugins).
std::string ExecutableDir() {
  std::error_code error;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string() : self.parent_path().string();
}

}  // namespace

std::string Plugin::DefaultName() {
  const char* device = std::getenv("SYSTOLIC_DEVICE");
  return device != nullptr && *device != '\0' ? std::string(device) : std::string("cpu");
}

std::vector<std::string> Plugin::SearchPath(const std::vector<std::string>& extra) {
  std::vector<std::string> path = extra;
  if (const char* env = std::getenv("SYSTOLIC_PLUGIN_PATH")) {
    for (absl::string_view dir : absl::StrSplit(env, ':', absl::SkipEmpty())) {
      path.emplace_back(dir);
    }
  }
#ifdef SYSTOLIC_RUNTIME_BUILD_PLUGIN_DIR
  path.push_back(SYSTOLIC_RUNTIME_BUILD_PLUGIN_DIR);
#endif
  std::string exe = ExecutableDir();
  if (!exe.empty()) path.push_back(exe + "/../lib/systolic/plugins");
  return path;
}

std::vector<std::string> Plugin::Available(const std::vector<std::string>& extra) {
  std::set<std::string> names;
  for (const std::string& dir : SearchPath(extra)) {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
      std::string file = entry.path().filename().string();
      if (absl::StartsWith(file, kPrefix) && absl::EndsWith(file, kSuffix)) {
        names.insert(file.substr(sizeof(kPrefix) - 1,
                                 file.size() - (sizeof(kPrefix) - 1) - (sizeof(kSuffix) - 1)));
      }
    }
  }
  return std::vector<std::string>(names.begin(), names.end());
}

absl::Status Plugin::CheckVersion(const SYSTOLIC_Api& api, const std::string& path) {
  if (api.struct_size < SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Api, version)) {
    return absl::FailedPreconditionError(
        absl::StrCat("plugin ", path, " returned a table too small to hold a version"));
  }
  if (api.version.major_version != SYSTOLIC_API_MAJOR) {
    return absl::FailedPreconditionError(absl::StrCat(
        "plugin ", path, " implements the systolic C API version ", api.version.major_version,
        ".", api.version.minor_version, ", but this runtime needs major version ",
        SYSTOLIC_API_MAJOR, " (", SYSTOLIC_API_MAJOR, ".", SYSTOLIC_API_MINOR,
        " or a newer minor): rebuild the plugin against this runtime's systolic_c_api.h"));
  }
  if (api.version.minor_version >= SYSTOLIC_API_MINOR && api.struct_size < SYSTOLIC_Api_STRUCT_SIZE) {
    return absl::FailedPreconditionError(absl::StrCat(
        "plugin ", path, " claims version ", api.version.major_version, ".",
        api.version.minor_version, " but its table has ", api.struct_size, " bytes, fewer than ",
        SYSTOLIC_Api_STRUCT_SIZE));
  }
  return absl::OkStatus();
}

absl::Status Plugin::ToStatus(SYSTOLIC_Error* error) const {
  if (error == nullptr) return absl::OkStatus();
  SYSTOLIC_Error_Message_Args message{SYSTOLIC_Error_Message_Args_STRUCT_SIZE, nullptr, error,
                                      nullptr, 0};
  api_->Error_Message(&message);
  SYSTOLIC_Error_GetCode_Args code{SYSTOLIC_Error_GetCode_Args_STRUCT_SIZE, nullptr, error,
                                   SYSTOLIC_Error_Code_UNKNOWN};
  SYSTOLIC_Error* code_error = api_->Error_GetCode(&code);
  absl::Status status(code_error ? absl::StatusCode::kUnknown : absl::StatusCode(code.code),
                      absl::string_view(message.message, message.message_size));
  SYSTOLIC_Error_Destroy_Args destroy{SYSTOLIC_Error_Destroy_Args_STRUCT_SIZE, nullptr, error};
  api_->Error_Destroy(&destroy);
  if (code_error) {
    SYSTOLIC_Error_Destroy_Args destroy_code{SYSTOLIC_Error_Destroy_Args_STRUCT_SIZE, nullptr,
                                             code_error};
    api_->Error_Destroy(&destroy_code);
  }
  return status;
}

absl::StatusOr<Plugin*> Plugin::Open(const std::string& path, const std::string& name) {
  // One link-map namespace for the host and every plugin: a single libc (one
  // malloc, one thread library), libstdc++, abseil and protobuf. A plugin
  // keeps its own copy of the core private because it is linked to export
  // only its entry point and to bind its symbols to itself (version script,
  // -Bsymbolic, --exclude-libs); the generated protobuf messages, which must
  // register once per process, live in the shared systolic_protos that host
  // and plugins both link. RTLD_LOCAL keeps the plugin's symbols out of the
  // global scope, so the next plugin loaded cannot bind to them.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return absl::NotFoundError(absl::StrCat("cannot load plugin ", path, ": ", dlerror()));
  }
  auto get_api = reinterpret_cast<SYSTOLIC_GetApiFn>(dlsym(handle, SYSTOLIC_API_ENTRY_POINT));
  if (get_api == nullptr) {
    dlclose(handle);
    return absl::NotFoundError(absl::StrCat("plugin ", path, " does not export ",
                                            SYSTOLIC_API_ENTRY_POINT, "()"));
  }
  const SYSTOLIC_Api* api = get_api();
  if (api == nullptr) {
    return absl::InternalError(absl::StrCat("plugin ", path, ": ", SYSTOLIC_API_ENTRY_POINT,
                                            "() returned no table"));
  }
  SYSTOLIC_RETURN_IF_ERROR(CheckVersion(*api, path));
  auto plugin = std::unique_ptr<Plugin>(new Plugin());
  plugin->name_ = name;
  plugin->path_ = path;
  plugin->api_ = api;
  SYSTOLIC_Plugin_Initialize_Args init{SYSTOLIC_Plugin_Initialize_Args_STRUCT_SIZE, nullptr};
  SYSTOLIC_RETURN_IF_ERROR(plugin->ToStatus(api->Plugin_Initialize(&init)));
  SYSTOLIC_Plugin_Attributes_Args attributes{SYSTOLIC_Plugin_Attributes_Args_STRUCT_SIZE,
                                             nullptr, nullptr, 0};
  SYSTOLIC_RETURN_IF_ERROR(plugin->ToStatus(api->Plugin_Attributes(&attributes)));
  for (size_t i = 0; i < attributes.num_attributes; ++i) {
    const SYSTOLIC_NamedValue& value = attributes.attributes[i];
    std::string key(value.name, value.name_size);
    switch (value.type) {
      case SYSTOLIC_NamedValue_kString:
        plugin->attributes_[key] = std::string(value.string_value, value.value_size);
        break;
      case SYSTOLIC_NamedValue_kInt64:
        plugin->attributes_[key] = absl::StrCat(value.int64_value);
        break;
      case SYSTOLIC_NamedValue_kBool:
        plugin->attributes_[key] = value.bool_value ? "true" : "false";
        break;
      default:
        break;
    }
  }
  for (const SYSTOLIC_Extension_Base* ext = api->extension_start; ext != nullptr; ext = ext->next) {
    if (ext->type == SYSTOLIC_Extension_Type_CompileEvents &&
        ext->struct_size >= SYSTOLIC_CompileEvents_Extension_STRUCT_SIZE) {
      plugin->compile_events_ = reinterpret_cast<const SYSTOLIC_CompileEvents_Extension*>(ext);
    } else if (ext->type == SYSTOLIC_Extension_Type_ExecutionTiming &&
               ext->struct_size >= SYSTOLIC_ExecutionTiming_Extension_STRUCT_SIZE) {
      plugin->timing_ = reinterpret_cast<const SYSTOLIC_ExecutionTiming_Extension*>(ext);
    }
  }
  return plugin.release();
}

absl::StatusOr<const Plugin*> Plugin::Load(const std::string& name_or_path,
                                           const std::vector<std::string>& search_path) {
  static std::mutex mu;
  static auto* loaded = new std::map<std::string, Plugin*>();  // by path; never unloaded
  std::lock_guard<std::mutex> lock(mu);

  std::string path, name = name_or_path;
  if (absl::StrContains(name_or_path, '/')) {
    path = name_or_path;
    name = std::filesystem::path(path).stem().string();
    if (absl::StartsWith(name, kPrefix)) name = name.substr(sizeof(kPrefix) - 1);
  } else {
    std::vector<std::string> dirs = SearchPath(search_path);
    for (const std::string& dir : dirs) {
      std::string candidate = absl::StrCat(dir, "/", FileNameOf(name_or_path));
      std::error_code error;
      if (std::filesystem::exists(candidate, error)) {
        path = std::filesystem::weakly_canonical(candidate, error).string();
        break;
      }
    }
    if (path.empty()) {
      std::vector<std::string> available = Available(search_path);
      return absl::NotFoundError(absl::StrCat(
          "no plugin '", name_or_path, "': looked for ", FileNameOf(name_or_path), " in ",
          absl::StrJoin(dirs, ", "), "; available plugins: ",
          available.empty() ? std::string("none") : absl::StrJoin(available, ", "),
          " (set SYSTOLIC_PLUGIN_PATH to add folders)"));
    }
  }
  if (auto it = loaded->find(path); it != loaded->end()) return it->second;
  SYSTOLIC_ASSIGN_OR_RETURN(Plugin * plugin, Open(path, name));
  loaded->emplace(path, plugin);
  return plugin;
}

}  // namespace systolic::runtime
