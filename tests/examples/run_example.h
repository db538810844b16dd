// Runs an example program on simcuda as a subprocess (LD_LIBRARY_PATH=simcuda's directory, and
// SIMCUDA_STATS pointing into a private temporary folder) and gives back what it printed and the
// statistics simcuda wrote.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace examples_test {

struct ExampleRun {
  int exit_code = -1;
  std::string out;
  std::string err;
  nlohmann::json stats;  // simcuda's SIMCUDA_STATS object; null when none was written

  // The rest of the first stdout line starting with `prefix` ("" when there is none).
  std::string out_value(std::string_view prefix) const;
  // The JSON object of the example's "bookkeeping: {...}" line on stderr (null when missing).
  nlohmann::json bookkeeping() const;
};

ExampleRun run_example(std::string_view name, const std::vector<std::string>& args,
                       const std::vector<std::string>& extra_env = {});
// The same for any program, by path.
ExampleRun run_program(const std::string& path, const std::vector<std::string>& args,
                       const std::vector<std::string>& extra_env = {});

// The path of an example binary in the build tree.
std::string example_path(std::string_view name);

}  // namespace examples_test
