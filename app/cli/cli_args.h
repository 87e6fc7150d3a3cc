// Command-line arguments of one subcommand: `--name value`, `--name=value`,
// boolean `--flag`, and positional arguments.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace systolic::cli {

struct OptionSpec {
  std::string name;        // without the dashes
  std::string value_name;  // empty for a boolean flag
  std::string help;
};

class CliArgs {
 public:
  static absl::StatusOr<CliArgs> Parse(const std::vector<std::string>& argv,
                                       const std::vector<OptionSpec>& specs);

  const std::vector<std::string>& positional() const { return positional_; }
  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  std::optional<std::string> Get(const std::string& name) const;
  std::string GetOr(const std::string& name, const std::string& fallback) const;
  // Integer option; an unparsable value is an error naming the option.
  absl::StatusOr<int64_t> GetInt(const std::string& name, int64_t fallback) const;
  // A comma-separated list ("a.npy,b.npy"); empty when absent.
  std::vector<std::string> GetList(const std::string& name) const;
  // The output file of `-o OUT` (which reaches the parser as two positional
  // arguments) or `--output OUT`; `inputs` gets the other positionals.
  std::optional<std::string> OutputPath(std::vector<std::string>* inputs) const;

 private:
  std::vector<std::string> positional_;
  std::map<std::string, std::string> values_;
};

// "  --name VALUE   help" lines for a usage message.
std::string FormatOptions(const std::vector<OptionSpec>& specs);

}  // namespace systolic::cli
