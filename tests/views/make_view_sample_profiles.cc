// Writes the profiles the screenshot tests open: `mlp_2x2.sysprof` (the
// mlp_layer program before and after fusion, six steps on a 2x2 torus) and
// `mlp_long.sysprof` (400 steps, a quarter of a million events).
#include <cstdio>
#include <filesystem>
#include <string>

#include "tests/views/view_test_profile.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_view_sample_profiles OUTPUT_DIR\n");
    return 2;
  }
  const std::filesystem::path out(argv[1]);
  std::error_code error;
  std::filesystem::create_directories(out, error);
  using systolic::views::testing::WriteMlpProfile;
  const bool ok = WriteMlpProfile((out / "mlp_2x2.sysprof").string(), {.chips = 4, .steps = 6}) &&
                  WriteMlpProfile((out / "mlp_long.sysprof").string(),
                                  {.chips = 4, .steps = 400, .repeats_per_step = 8});
  if (!ok) std::fprintf(stderr, "make_view_sample_profiles: cannot write into %s\n", argv[1]);
  return ok ? 0 : 1;
}
