#include "app/cli/device_arguments.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "core/eval/npy_file.h"
#include "core/eval/random_arguments.h"

namespace systolic::cli {

absl::StatusOr<std::vector<std::vector<Literal>>> LoadDeviceArguments(
    const HloComputation& entry, const std::vector<std::string>& arg_files,
    absl::Span<const Literal> file_arguments, int64_t seed, int64_t devices) {
  std::vector<std::vector<Literal>> args;
  if (arg_files.empty() && !file_arguments.empty()) {
    if (int64_t(file_arguments.size()) != entry.num_parameters()) {
      return absl::InvalidArgumentError(absl::StrCat("the file gives ", file_arguments.size(),
                                                     " arguments, the entry takes ",
                                                     entry.num_parameters(), " parameters"));
    }
    args.emplace_back();
    for (int64_t i = 0; i < entry.num_parameters(); ++i) {
      const Shape& parameter = entry.parameter_instruction(i)->shape();
      if (file_arguments[i].shape().ToString() != parameter.ToString()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "the file's argument ", i, " is ", file_arguments[i].shape().ToString(),
            ", parameter ", i, " is ", parameter.ToString()));
      }
      args[0].push_back(file_arguments[i].Clone());
    }
    return args;
  }
  if (arg_files.empty()) {
    for (int64_t d = 0; d < devices; ++d) {
      args.push_back(MakeRandomArguments(entry, uint64_t(seed), uint64_t(d)));
    }
    return args;
  }
  if (int64_t(arg_files.size()) != entry.num_parameters()) {
    return absl::InvalidArgumentError(absl::StrCat("--args gives ", arg_files.size(),
                                                   " files, the entry takes ",
                                                   entry.num_parameters(), " parameters"));
  }
  args.emplace_back();
  for (int64_t i = 0; i < entry.num_parameters(); ++i) {
    const Shape& shape = entry.parameter_instruction(i)->shape();
    std::optional<PrimitiveType> type;
    if (shape.IsArray()) type = shape.element_type();
    absl::StatusOr<Literal> literal = ReadNpyFile(arg_files[i], type);
    if (!literal.ok()) return literal.status();
    args[0].push_back(*std::move(literal));
  }
  return args;
}

}  // namespace systolic::cli
