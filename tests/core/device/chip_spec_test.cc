#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/device/chip_figures.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/dataflow.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A complete, valid spec that tests edit one field of.
constexpr char kValidSpec[] = R"(name: "test"
tensor_cores_per_chip: 1
clock_mhz: 1000
mxu { count: 1 rows: 4 cols: 4 dataflow: WEIGHT_STATIONARY }
vector_unit { lanes: 8 sublanes: 1 ops_per_cycle: 1 transcendental_cycles: 4 }
vmem { capacity_mib: 1 }
hbm { capacity_gib: 1 bandwidth_gb_per_second: 16 }
dma { engines: 2 bandwidth_gb_per_second: 8 latency_ns: 500 outstanding_descriptors: 2 }
ici { links_per_chip: 4 bandwidth_gb_per_second_per_link: 1 hop_latency_ns: 1000 topology: TORUS_2D }
scalar_unit { kernel_issue_ns: 200 }
)";

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(ChipSpecTest, PresetNamesInTableOrder) {
  EXPECT_THAT(ChipPresetNames(), ElementsAre("v2", "v3", "v4", "v5e", "v5p", "v6e", "edge"));
}

TEST(ChipSpecTest, EveryPresetLoadsAndValidates) {
  for (const std::string& name : ChipPresetNames()) {
    absl::StatusOr<ChipSpec> spec = LoadChipSpec(name);
    ASSERT_TRUE(spec.ok()) << name << ": " << spec.status();
    EXPECT_EQ(spec->name(), name);
  }
}

// cores × MXUs × 2·R·C × clock reproduces the published bf16 peaks.
TEST(ChipSpecTest, PresetPeaksMatchPublishedFigures) {
  const std::pair<const char*, double> expected[] = {
      {"v2", 46}, {"v3", 123}, {"v4", 275}, {"v5e", 197}, {"v5p", 459}, {"v6e", 918}};
  for (const auto& [name, tflops] : expected) {
    const ChipSpec spec = *LoadChipSpec(name);
    EXPECT_NEAR(PeakFlopsPerSecond(spec) / 1e12, tflops, 0.5) << name;
  }
  // v4: 2 × 4 × 2·128·128 × 1.05e9 exactly.
  EXPECT_DOUBLE_EQ(PeakFlopsPerSecond(*LoadChipSpec("v4")), 2.0 * 4 * 2 * 128 * 128 * 1.05e9);
  // edge: 1 × 1 × 2·16·16 × 500 MHz = 256 GFLOP/s.
  EXPECT_DOUBLE_EQ(PeakFlopsPerSecond(*LoadChipSpec("edge")), 256e9);
}

TEST(ChipSpecTest, PresetFiguresFromTheTable) {
  const ChipSpec v5p = *LoadChipSpec("v5p");
  EXPECT_EQ(v5p.tensor_cores_per_chip(), 2);
  EXPECT_EQ(v5p.mxu().count(), 4);
  EXPECT_EQ(HbmBytes(v5p), int64_t{95} << 30);
  EXPECT_DOUBLE_EQ(HbmBytesPerSecond(v5p), 2765e9);
  EXPECT_EQ(v5p.ici().topology(), TORUS_3D);
  EXPECT_EQ(v5p.ici().links_per_chip(), 6);
  const ChipSpec v5e = *LoadChipSpec("v5e");
  EXPECT_EQ(v5e.ici().topology(), TORUS_2D);
  EXPECT_DOUBLE_EQ(IciBytesPerSecondPerLink(v5e), 50e9);
  const ChipSpec edge = *LoadChipSpec("edge");
  EXPECT_EQ(edge.mxu().rows(), 16);
  EXPECT_EQ(edge.mxu().dataflow(), OUTPUT_STATIONARY);
  EXPECT_EQ(VmemBytes(edge), 256 * 1024);
}

TEST(ChipSpecTest, DerivedPerCycleFigures) {
  const ChipSpec spec = *ParseChipSpec(kValidSpec, "test");
  EXPECT_DOUBLE_EQ(ClockHz(spec), 1e9);
  EXPECT_DOUBLE_EQ(HbmBytesPerCycle(spec), 16);
  EXPECT_DOUBLE_EQ(DmaBytesPerCycle(spec), 8);
  EXPECT_EQ(VmemBytes(spec), 1 << 20);
  EXPECT_EQ(VregElements(spec), 8);
}

TEST(ChipSpecTest, MissingFieldIsNamed) {
  absl::StatusOr<ChipSpec> spec =
      ParseChipSpec(Replace(kValidSpec, "rows: 4 ", ""), "my.textproto");
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(spec.status().message(), HasSubstr("my.textproto"));
  EXPECT_THAT(spec.status().message(), HasSubstr("mxu.rows is missing"));
}

TEST(ChipSpecTest, MissingMessageIsNamed) {
  absl::StatusOr<ChipSpec> spec = ParseChipSpec(
      Replace(kValidSpec,
              "dma { engines: 2 bandwidth_gb_per_second: 8 latency_ns: 500 "
              "outstanding_descriptors: 2 }",
              ""),
      "t");
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(), HasSubstr("dma is missing"));
}

TEST(ChipSpecTest, ZeroAndNegativeFieldsAreNamed) {
  absl::StatusOr<ChipSpec> zero = ParseChipSpec(Replace(kValidSpec, "cols: 4", "cols: 0"), "t");
  ASSERT_FALSE(zero.ok());
  EXPECT_THAT(zero.status().message(), HasSubstr("mxu.cols must be positive, got 0"));
  absl::StatusOr<ChipSpec> negative = ParseChipSpec(
      Replace(kValidSpec, "bandwidth_gb_per_second: 16", "bandwidth_gb_per_second: -1"), "t");
  ASSERT_FALSE(negative.ok());
  EXPECT_THAT(negative.status().message(),
              HasSubstr("hbm.bandwidth_gb_per_second must be positive, got -1"));
}

// An MXU without an int8 mode leaves its int8 rate out (the bf16 rate);
// given, it is checked like any field.
TEST(ChipSpecTest, TheInt8RateIsOptionalButPositive) {
  absl::StatusOr<ChipSpec> without = ParseChipSpec(kValidSpec, "t");
  ASSERT_TRUE(without.ok()) << without.status();
  EXPECT_EQ(PeakInt8OpsPerSecond(*without), PeakFlopsPerSecond(*without));
  absl::StatusOr<ChipSpec> twice =
      ParseChipSpec(Replace(kValidSpec, "cols: 4", "cols: 4 int8_macs_per_cycle: 2"), "t");
  ASSERT_TRUE(twice.ok()) << twice.status();
  EXPECT_EQ(PeakInt8OpsPerSecond(*twice), 2 * PeakFlopsPerSecond(*twice));
  absl::StatusOr<ChipSpec> zero =
      ParseChipSpec(Replace(kValidSpec, "cols: 4", "cols: 4 int8_macs_per_cycle: 0"), "t");
  ASSERT_FALSE(zero.ok());
  EXPECT_THAT(zero.status().message(), HasSubstr("mxu.int8_macs_per_cycle must be positive, got 0"));
}

// An ideal chip may leave a latency out (zero), never make it negative.
TEST(ChipSpecTest, DurationsMayBeZeroButNotNegative) {
  EXPECT_TRUE(ParseChipSpec(Replace(kValidSpec, "latency_ns: 500", "latency_ns: 0"), "t").ok());
  absl::StatusOr<ChipSpec> negative =
      ParseChipSpec(Replace(kValidSpec, "kernel_issue_ns: 200", "kernel_issue_ns: -1"), "t");
  ASSERT_FALSE(negative.ok());
  EXPECT_THAT(negative.status().message(),
              HasSubstr("scalar_unit.kernel_issue_ns must not be negative, got -1"));
}

// Protobuf strings must be UTF-8: a name or description that is not (here
// written with escapes, as raw bytes would be) is refused at load, not
// written back broken.
TEST(ChipSpecTest, StringsThatAreNotUtf8AreRefused) {
  absl::StatusOr<ChipSpec> name =
      ParseChipSpec(Replace(kValidSpec, "name: \"test\"", "name: \"te\\377st\""), "t");
  ASSERT_FALSE(name.ok());
  EXPECT_THAT(name.status().message(), HasSubstr("name is not UTF-8 text (byte 2)"));
  absl::StatusOr<ChipSpec> description = ParseChipSpec(
      Replace(kValidSpec, "name: \"test\"", "name: \"test\" description: \"\\xe2\\x82\""),
      "t");
  ASSERT_FALSE(description.ok());
  EXPECT_THAT(description.status().message(), HasSubstr("description is not UTF-8 text (byte 0)"));
  EXPECT_TRUE(ParseChipSpec(Replace(kValidSpec, "name: \"test\"",
                                    "name: \"test\" description: \"5 \\xe2\\x82\\xac chip\""),
                            "t")
                  .ok());
}

TEST(ChipSpecTest, EveryProblemIsListed) {
  std::string text = Replace(kValidSpec, "clock_mhz: 1000", "clock_mhz: 0");
  text = Replace(text, "name: \"test\"", "");
  absl::StatusOr<ChipSpec> spec = ParseChipSpec(text, "t");
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(), HasSubstr("name is missing"));
  EXPECT_THAT(spec.status().message(), HasSubstr("clock_mhz must be positive, got 0"));
}

TEST(ChipSpecTest, UnknownDataflowNamesFieldAndPosition) {
  absl::StatusOr<ChipSpec> spec = ParseChipSpec(
      Replace(kValidSpec, "WEIGHT_STATIONARY", "ROW_STATIONARY"), "chip.textproto");
  ASSERT_FALSE(spec.ok());
  // Line 4 is the mxu block; protobuf's parser places the error where it
  // stopped, just after the value (column 57, the closing brace).
  EXPECT_THAT(spec.status().message(), HasSubstr("chip.textproto:4:57: Unknown enumeration value"));
  EXPECT_THAT(spec.status().message(), HasSubstr("ROW_STATIONARY"));
  EXPECT_THAT(spec.status().message(), HasSubstr("dataflow"));
}

TEST(ChipSpecTest, UnsetDataflowIsMissing) {
  absl::StatusOr<ChipSpec> spec =
      ParseChipSpec(Replace(kValidSpec, "dataflow: WEIGHT_STATIONARY", ""), "t");
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(), HasSubstr("mxu.dataflow is missing"));
}

TEST(ChipSpecTest, TextErrorsGiveLineAndColumn) {
  absl::StatusOr<ChipSpec> spec =
      ParseChipSpec(Replace(kValidSpec, "vmem { capacity_mib: 1 }", "vmem { capacity_mib: }"),
                    "bad.textproto");
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(), HasSubstr("bad.textproto:6:"));
  absl::StatusOr<ChipSpec> unknown =
      ParseChipSpec(Replace(kValidSpec, "clock_mhz: 1000", "clock_ghz: 1"), "bad.textproto");
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.status().message(), HasSubstr("bad.textproto:3:10:"));
  EXPECT_THAT(unknown.status().message(), HasSubstr("clock_ghz"));
}

TEST(ChipSpecTest, LoadsUserFile) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "systolic_chip_spec_test.textproto";
  {
    std::ofstream out(path);
    out << Replace(kValidSpec, "name: \"test\"", "name: \"mine\"");
  }
  absl::StatusOr<ChipSpec> spec = LoadChipSpec(path.string());
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->name(), "mine");
  EXPECT_DOUBLE_EQ(PeakFlopsPerSecond(*spec), 2.0 * 16 * 1e9);
  std::filesystem::remove(path);
}

TEST(ChipSpecTest, UnknownPresetOrPathIsNotFound) {
  absl::StatusOr<ChipSpec> spec = LoadChipSpec("v9");
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(spec.status().message(), HasSubstr("v2, v3, v4, v5e, v5p, v6e, edge"));
}

TEST(ChipSpecTest, TextRoundTrip) {
  const ChipSpec spec = *LoadChipSpec("v3");
  absl::StatusOr<ChipSpec> again = ParseChipSpec(ChipSpecToText(spec), "round trip");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->SerializeAsString(), spec.SerializeAsString());
}

TEST(DataflowTest, ShortAndLongNames) {
  EXPECT_EQ(*ParseDataflow("os"), OUTPUT_STATIONARY);
  EXPECT_EQ(*ParseDataflow("WS"), WEIGHT_STATIONARY);
  EXPECT_EQ(*ParseDataflow("input-stationary"), INPUT_STATIONARY);
  EXPECT_EQ(*ParseDataflow("OUTPUT_STATIONARY"), OUTPUT_STATIONARY);
  absl::StatusOr<Dataflow> bad = ParseDataflow("rs");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("unknown dataflow 'rs'"));
  EXPECT_EQ(DataflowShortName(INPUT_STATIONARY), "is");
  EXPECT_EQ(DataflowLongName(WEIGHT_STATIONARY), "weight-stationary");
}

}  // namespace
}  // namespace systolic::device
