// Feeds arbitrary bytes to the HLO proto reader (HloModuleProto, HloProto,
// HloSnapshot; binary or text). Nothing may crash; a module that reads and
// verifies must be written and read back structurally equal.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "core/hlo/hlo_proto_file.h"
#include "core/hlo/hlo_structural_equal.h"

namespace {

[[noreturn]] void Fail(const char* what, const absl::Status& status) {
  std::fprintf(stderr, "%s: %s\n", what, std::string(status.message()).c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto read = systolic::ParseHloProto(bytes, "fuzz input", /*verify=*/true);
  if (!read.ok() || !read->module.ok()) return 0;
  const systolic::HloModule& module = **read->module;
  auto written = systolic::SerializeHloModuleProto(module, systolic::ProtoFormat::kBinary);
  if (!written.ok()) Fail("a verified module cannot be written", written.status());
  auto again = systolic::ParseHloProto(*written, "written", /*verify=*/true);
  if (!again.ok()) Fail("a written module does not read back", again.status());
  if (!again->module.ok()) Fail("a written module does not read back", again->module.status());
  absl::Status equal = systolic::CompareModulesStructurally(module, **again->module);
  if (!equal.ok()) Fail("a written module reads back different", equal);
  return 0;
}
