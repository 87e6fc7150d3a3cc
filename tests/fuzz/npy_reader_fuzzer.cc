// Feeds arbitrary bytes to the .npy reader. Nothing may crash; an array
// that reads must write and read back to the same shape and bytes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/eval/npy_file.h"

namespace {

void Fail(const char* what) {
  std::fprintf(stderr, "%s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<systolic::Literal> literal = systolic::ParseNpy(bytes);
  if (!literal.ok()) return 0;
  absl::StatusOr<std::string> written = systolic::SerializeNpy(*literal);
  if (!written.ok()) Fail("an array that was read does not write");
  absl::StatusOr<systolic::Literal> again = systolic::ParseNpy(*written);
  if (!again.ok()) Fail("a written array does not read");
  if (again->shape() != literal->shape() || again->size_bytes() != literal->size_bytes() ||
      (literal->size_bytes() > 0 &&
       std::memcmp(again->untyped_data(), literal->untyped_data(), size_t(literal->size_bytes())) != 0)) {
    Fail("an array does not read back as written");
  }
  return 0;
}
