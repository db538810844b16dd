// Command-line flags of the example programs: "--name value" pairs of non-negative integers, each
// with a default; --help lists them. Bad input ends the program with one line on stderr.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace examples {

struct FlagSpec {
  std::string name;
  int64_t default_value;
  int64_t min_value;
  int64_t max_value;
  std::string help;
};

class Flags {
 public:
  Flags(std::string_view program, std::vector<FlagSpec> specs, int argc, char** argv);

  // The flag's value; the name must be one of the specs.
  int64_t operator[](std::string_view name) const;

 private:
  [[noreturn]] void usage_error(std::string_view message) const;
  void print_help() const;

  std::string_view program_;
  std::vector<FlagSpec> specs_;
  std::map<std::string, int64_t, std::less<>> values_;
};

}  // namespace examples
