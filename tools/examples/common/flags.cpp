// Parsing of "--name value" integer flags (see flags.h).
#include "tools/examples/common/flags.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace examples {

Flags::Flags(std::string_view program, std::vector<FlagSpec> specs, int argc, char** argv)
    : program_(program), specs_(std::move(specs)) {
  for (const FlagSpec& spec : specs_) values_[spec.name] = spec.default_value;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      print_help();
      std::exit(0);
    }
    if (!arg.starts_with("--")) usage_error("unexpected argument '" + std::string(arg) + "'");
    std::string_view name = arg.substr(2);
    std::string_view text;
    if (size_t eq = name.find('='); eq != std::string_view::npos) {
      text = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else if (i + 1 < argc) {
      text = argv[++i];
    } else {
      usage_error("flag --" + std::string(name) + " needs a value");
    }
    auto found = values_.find(name);
    if (found == values_.end()) usage_error("unknown flag --" + std::string(name));
    int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size()) {
      usage_error("flag --" + std::string(name) + " wants an integer, got '" + std::string(text) +
                  "'");
    }
    for (const FlagSpec& spec : specs_) {
      if (spec.name == name && (value < spec.min_value || value > spec.max_value)) {
        usage_error("flag --" + spec.name + " must be between " + std::to_string(spec.min_value) +
                    " and " + std::to_string(spec.max_value));
      }
    }
    found->second = value;
  }
}

int64_t Flags::operator[](std::string_view name) const {
  return values_.find(name)->second;
}

void Flags::usage_error(std::string_view message) const {
  std::fprintf(stderr, "%.*s: %.*s (see --help)\n", static_cast<int>(program_.size()),
               program_.data(), static_cast<int>(message.size()), message.data());
  std::exit(2);
}

void Flags::print_help() const {
  std::printf("usage: %.*s [--flag value]...\n", static_cast<int>(program_.size()),
              program_.data());
  for (const FlagSpec& spec : specs_) {
    std::printf("  --%-14s %s (default %lld)\n", spec.name.c_str(), spec.help.c_str(),
                static_cast<long long>(spec.default_value));
  }
}

}  // namespace examples
