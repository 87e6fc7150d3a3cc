// Files of XLA's HLO protos: HloModuleProto, HloProto (what
// `--xla_dump_hlo_as_proto` writes) and HloSnapshot (a module with the
// arguments of one execution), each in binary or text format, told apart by
// content. Errors name the file and say what is wrong with it.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_proto_sniff.h"

namespace systolic {

// True when `head` (a file's first bytes) holds an HLO proto of any kind.
bool LooksLikeHloProto(absl::string_view head);

// The module of `bytes` (the whole content of the file `path`, named in
// errors) and a snapshot's arguments, verified when `verify`.
absl::StatusOr<HloFileModule> ParseHloProto(absl::string_view bytes, const std::string& path,
                                            bool verify);
absl::StatusOr<HloFileModule> ReadHloProtoFile(const std::string& path, bool verify);

enum class ProtoFormat { kBinary, kText };

// `module` as an HloModuleProto, as XLA reads it.
absl::StatusOr<std::string> SerializeHloModuleProto(const HloModule& module, ProtoFormat format);
// The same, written atomically to `path`.
absl::Status WriteHloModuleProtoFile(const HloModule& module, const std::string& path,
                                     ProtoFormat format);

}  // namespace systolic
