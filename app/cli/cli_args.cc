#include "app/cli/cli_args.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace systolic::cli {

absl::StatusOr<CliArgs> CliArgs::Parse(const std::vector<std::string>& argv,
                                       const std::vector<OptionSpec>& specs) {
  CliArgs args;
  auto find = [&](const std::string& name) -> const OptionSpec* {
    for (const OptionSpec& s : specs) {
      if (s.name == name) return &s;
    }
    return nullptr;
  };
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--") {
      for (++i; i < argv.size(); ++i) args.positional_.push_back(argv[i]);
      break;
    }
    if (a.size() < 2 || a[0] != '-' || a[1] != '-') {
      args.positional_.push_back(a);
      continue;
    }
    std::string name = a.substr(2);
    std::optional<std::string> inline_value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    const OptionSpec* spec = find(name);
    if (!spec) return absl::InvalidArgumentError(absl::StrCat("unknown option --", name));
    if (spec->value_name.empty()) {
      if (inline_value) {
        return absl::InvalidArgumentError(absl::StrCat("--", name, " takes no value"));
      }
      args.values_[name] = "true";
    } else if (inline_value) {
      args.values_[name] = *inline_value;
    } else {
      if (i + 1 >= argv.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("--", name, " needs a value (", spec->value_name, ")"));
      }
      args.values_[name] = argv[++i];
    }
  }
  return args;
}

std::optional<std::string> CliArgs::Get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string CliArgs::GetOr(const std::string& name, const std::string& fallback) const {
  return Get(name).value_or(fallback);
}

absl::StatusOr<int64_t> CliArgs::GetInt(const std::string& name, int64_t fallback) const {
  auto v = Get(name);
  if (!v) return fallback;
  int64_t out;
  if (!absl::SimpleAtoi(*v, &out)) {
    return absl::InvalidArgumentError(absl::StrCat("--", name, " expects an integer, got '", *v,
                                                   "'"));
  }
  return out;
}

std::vector<std::string> CliArgs::GetList(const std::string& name) const {
  auto v = Get(name);
  if (!v || v->empty()) return {};
  return absl::StrSplit(*v, ',');
}

std::string FormatOptions(const std::vector<OptionSpec>& specs) {
  std::string out;
  size_t width = 0;
  std::vector<std::string> heads;
  for (const OptionSpec& s : specs) {
    heads.push_back(absl::StrCat("--", s.name, s.value_name.empty() ? "" : " ", s.value_name));
    width = std::max(width, heads.back().size());
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    absl::StrAppend(&out, "  ", heads[i], std::string(width - heads[i].size() + 3, ' '),
                    specs[i].help, "\n");
  }
  return out;
}

std::optional<std::string> CliArgs::OutputPath(std::vector<std::string>* inputs) const {
  std::optional<std::string> output = Get("output");
  for (size_t i = 0; i < positional_.size(); ++i) {
    if (positional_[i] == "-o" && i + 1 < positional_.size()) {
      output = positional_[++i];
    } else {
      inputs->push_back(positional_[i]);
    }
  }
  return output;
}

}  // namespace systolic::cli
