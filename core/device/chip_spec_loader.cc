#include "core/device/chip_spec_loader.h"

#include <fstream>
#include <sstream>
#include <system_error>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/device/chip_presets.h"
#include "core/device/chip_spec_validator.h"
#include "core/hlo/first_text_format_error.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"

namespace systolic::device {

std::vector<std::string> ChipPresetNames() {
  std::vector<std::string> names;
  for (const EmbeddedChipPreset& preset : EmbeddedChipPresets()) names.push_back(preset.name);
  return names;
}

absl::StatusOr<ChipSpec> ParseChipSpec(absl::string_view text, absl::string_view source) {
  ChipSpec spec;
  FirstTextFormatError errors;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(std::string(text), &spec)) {
    return absl::InvalidArgumentError(absl::StrCat(
        source, ":", errors.message().empty() ? "0:0: unreadable chip spec" : errors.message()));
  }
  if (absl::Status status = ValidateChipSpec(spec); !status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(source, ": invalid chip spec: ",
                                                   status.message()));
  }
  return spec;
}

absl::StatusOr<ChipSpec> LoadChipSpec(absl::string_view preset_or_path) {
  for (const EmbeddedChipPreset& preset : EmbeddedChipPresets()) {
    if (preset_or_path == preset.name) {
      return ParseChipSpec(preset.text, absl::StrCat("preset ", preset.name));
    }
  }
  const std::string path(preset_or_path);
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    return absl::NotFoundError(absl::StrCat("'", path, "' is neither a chip preset (",
                                            absl::StrJoin(ChipPresetNames(), ", "),
                                            ") nor a spec file"));
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof()) {
    return absl::UnavailableError(absl::StrCat("cannot read chip spec '", path, "'"));
  }
  return ParseChipSpec(text.str(), path);
}

std::string ChipSpecToText(const ChipSpec& spec) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(spec, &text);
  return text;
}

}  // namespace systolic::device
