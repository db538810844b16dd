// Quoting for /bin/sh, for the benchmarks that run their commands through it (popen, system).
#pragma once

#include <string>
#include <string_view>

namespace tidepool::cli {

// The word in single quotes, each ' in it written as '\''.
inline std::string shell_quoted(std::string_view word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string_view("'\\''") : std::string_view(&c, 1);
  return out + "'";
}

}  // namespace tidepool::cli
