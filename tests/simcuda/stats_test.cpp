// SIMCUDA_STATS: a probe program with a known sequence writes its counts at exit.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

// Runs the probe with SIMCUDA_STATS set (and any more variables); the one stats file it left.
nlohmann::json run_probe(const std::string& argument, const std::string& more_variables = "") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("simcuda_stats_test_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string command = "SIMCUDA_STATS=" + (dir / "stats.%p.json").string() +
                              " SIMCUDA_MEMORY=64M " + more_variables + " " SIMCUDA_STATS_PROBE
                              " " + argument + " > " + (dir / "out.txt").string();
  EXPECT_EQ(std::system(command.c_str()), 0);
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().filename().string().rfind("stats.", 0) == 0) files.push_back(entry.path());
  EXPECT_EQ(files.size(), 1u) << "one process initialized simcuda";
  if (files.empty()) return {};
  EXPECT_NE(files[0].filename().string().find_first_of("0123456789"), std::string::npos);  // %p became the pid
  auto stats = nlohmann::json::parse(std::ifstream(files[0]));
  std::filesystem::remove_all(dir);
  return stats;
}

TEST(SimcudaStats, TheFileCountsWhatTheProgramDid) {
  const auto stats = run_probe("");

  constexpr uint64_t kPitched = 512 * 3;  // 100 bytes wide rounds to a 512-byte pitch
  constexpr uint64_t kVmm = 2 << 20;
  EXPECT_EQ(stats["peak_requested_bytes"], 1000 + kPitched + 3000 + kVmm);
  EXPECT_EQ(stats["peak_device_bytes"], 1024 + kPitched + 3072 + kVmm);  // blocks of 512 bytes
  EXPECT_EQ(stats["allocations"], 4);
  EXPECT_EQ(stats["frees"], 3);
  EXPECT_EQ(stats["kernel_launches"], 2);
  EXPECT_EQ(stats["device_bytes_at_exit"], 1024);  // the plain allocation; the pool released at exit
  EXPECT_EQ(stats["simulated_time_ns"], 2 * 1003000);
}

TEST(SimcudaStats, AForkedChildNeitherWaitsNorWrites) {
  // In the sanitizer build, LeakSanitizer at the child's exit cannot suspend the parent's stream
  // worker (the child lacks it), skips its stack and would call what only that stack holds leaked.
  const char* asan_options = std::getenv("ASAN_OPTIONS");
  const std::string no_leak_check =
      "ASAN_OPTIONS='" + std::string(asan_options ? asan_options : "") + ":detect_leaks=0'";
  const auto stats = run_probe("fork", no_leak_check);
  EXPECT_EQ(stats["allocations"], 4);
  EXPECT_EQ(stats["kernel_launches"], 2);
}

TEST(SimcudaStats, EveryGraphLaunchCountsItsKernels) {
  const auto stats = run_probe("graph");
  EXPECT_EQ(stats["kernel_launches"], 2 + 3);  // the captured launch itself ran nothing
  EXPECT_EQ(stats["simulated_time_ns"], 5 * 1003000);
}

TEST(SimcudaStats, ManagedMemoryIsCountedApartFromDeviceMemory) {
  const auto stats = run_probe("managed");
  EXPECT_EQ(stats["managed_allocations"], 2);
  EXPECT_EQ(stats["peak_managed_bytes"], 5000 + 7000);
  EXPECT_EQ(stats["managed_bytes_at_exit"], 7000);
  EXPECT_EQ(stats["allocations"], 4);  // the device figures are those of the plain run
  EXPECT_EQ(stats["frees"], 3);
  EXPECT_EQ(stats["peak_requested_bytes"], 1000 + 512 * 3 + 3000 + (2 << 20));
}

TEST(SimcudaStats, OutOfMemoryIsInjectedAtTheRateAndSeedAsked) {
  const auto none = run_probe("oom");
  EXPECT_EQ(none["injected_out_of_memory"], 0);
  EXPECT_EQ(none["allocations"], 300);

  const auto all = run_probe("oom", "SIMCUDA_OOM_RATE=1");
  EXPECT_EQ(all["injected_out_of_memory"], 400) << "every device and pinned host request";
  EXPECT_EQ(all["allocations"], 0);

  const auto some = run_probe("oom", "SIMCUDA_OOM_RATE=0.25:7");
  const uint64_t injected = some["injected_out_of_memory"];
  const uint64_t device_refused = 300 - some["allocations"].get<uint64_t>();
  EXPECT_GT(device_refused, 0u);
  EXPECT_LT(device_refused, 300u);
  EXPECT_GT(injected, device_refused) << "pinned host requests were refused too";
  EXPECT_GT(injected, 40u);  // about 100 expected
  EXPECT_LT(injected, 160u);
  const auto again = run_probe("oom", "SIMCUDA_OOM_RATE=0.25:7");
  EXPECT_EQ(again["injected_out_of_memory"], injected) << "the same seed, the same draws";
  EXPECT_EQ(again["allocations"], some["allocations"]);
}

// Runs the probe with one more environment variable; its exit status and everything it printed.
std::pair<int, std::string> run_probe_with(const std::string& variable) {
  const std::string command = variable + " " SIMCUDA_STATS_PROBE " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, ""};
  std::string output;
  char buffer[256];
  while (fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  const int status = pclose(pipe);
  return {WEXITSTATUS(status), output};
}

TEST(SimcudaStats, BadSettingsAreOneLineErrors) {
  for (const char* bad :
       {"SIMCUDA_MEMORY=12Q", "SIMCUDA_THREADS=0", "SIMCUDA_THREADS=257", "SIMCUDA_THREADS=two",
        "SIMCUDA_THREADS=-1", "SIMCUDA_THREADS=2x", "SIMCUDA_OOM_RATE=1.5", "SIMCUDA_OOM_RATE=-0.1",
        "SIMCUDA_OOM_RATE=nan", "SIMCUDA_OOM_RATE=0.5:", "SIMCUDA_OOM_RATE=0.5:x",
        "SIMCUDA_OOM_RATE=0.5:-3", "SIMCUDA_OOM_RATE=half"}) {
    const auto [status, output] = run_probe_with(bad);
    EXPECT_NE(status, 0) << bad;
    const std::string name(bad, std::strchr(bad, '=') - bad);
    const std::string expected = "simcuda: bad " + name + "='" + (std::strchr(bad, '=') + 1) + "'";
    EXPECT_NE(output.find(expected + " (want"), std::string::npos) << output;
  }
}

TEST(SimcudaStats, ThreadCountsFromOneTo256AreAccepted) {
  for (const char* threads : {"SIMCUDA_THREADS=1", "SIMCUDA_THREADS=256"}) {
    const auto [status, output] = run_probe_with(threads);
    EXPECT_EQ(status, 0) << threads << ": " << output;
  }
}

}  // namespace
