// A slice a user names: "v4:2x2x2" (chip preset or spec file, then chips per
// axis) or just "4x2" (the default chip), and "v5e:16x16*4" for four such
// slices joined by the data-centre network. The text, and the chip spec
// with its ICI topology that it stands for.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/device/chip_spec.pb.h"
#include "core/device/ici_topology.h"

namespace systolic::device {

struct TopologyText {
  std::string chip;  // "" when not given
  std::array<int64_t, 3> bounds = {1, 1, 1};
  int64_t slices = 1;
};

absl::StatusOr<TopologyText> ParseTopologyText(absl::string_view text);

struct Slice {
  ChipSpec spec;
  IciTopology topology;
  // "v4:2x2x2", "v5e:16x16*4"
  std::string Name() const;
};

// Chips of `spec` along each axis (trailing axes of one chip dropped), in
// `slices` slices.
absl::StatusOr<Slice> MakeSlice(ChipSpec spec, std::vector<int64_t> bounds, int64_t slices = 1);

// Errors: text that is not a topology, an unknown chip, a shape the chip's
// interconnect cannot form.
absl::StatusOr<Slice> LoadSlice(absl::string_view text, absl::string_view default_chip = "v4");

// The slice of `spec` chips that runs a program on `devices` devices when
// the user named none: the most nearly square 2D torus (a ring for primes).
absl::StatusOr<Slice> SliceForDevices(const ChipSpec& spec, int64_t devices);

}  // namespace systolic::device
