// Naming, finding, reading and writing cached plans.
#include "runtime/optimize/plan_cache.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "analyzer/plan/plan_io.h"

namespace tidepool::runtime::optimize {
namespace {

namespace fs = std::filesystem;

constexpr char kRuntimeMember[] = "tidepool_runtime";

struct Fnv {
  uint64_t hash = 14695981039346656037ull;
  void add(std::string_view text) {
    for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
    hash = (hash ^ 0xff) * 1099511628211ull;  // a separator no text byte sequence can fake
  }
};

std::string hex16(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

std::string program_key(const Settings& settings) {
  Fnv fnv;
  std::error_code error;
  fnv.add(fs::read_symlink("/proc/self/exe", error).string());
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string all{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const size_t first_end = all.find('\0');
  fnv.add(first_end == std::string::npos ? std::string{}
                                         : all.substr(first_end + 1));  // the arguments
  fnv.add(settings.optimize_pool ? "pool" : "-");
  fnv.add(settings.optimize_swap ? "swap" : "-");
  fnv.add(settings.budget_bytes ? std::to_string(*settings.budget_bytes) : "-");
  fnv.add(std::to_string(settings.max_slowdown_pct));
  fnv.add(settings.link);
  return hex16(fnv.hash);
}

std::optional<CachedPlan> load_cached_plan(const std::string& directory, const std::string& key) {
  std::error_code error;
  std::optional<fs::path> newest;
  fs::file_time_type newest_time{};
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(key + ".") || !name.ends_with(".json")) continue;
    const auto time = entry.last_write_time(error);
    if (!newest || time > newest_time) {
      newest = entry.path();
      newest_time = time;
    }
  }
  if (!newest) return std::nullopt;
  try {
    CachedPlan cached{plan::read_plan(*newest), std::nullopt};
    std::ifstream in(*newest);
    const nlohmann::json json = nlohmann::json::parse(in);
    if (const auto it = json.find(kRuntimeMember);
        it != json.end() && it->contains("first_boundary")) {
      cached.first_boundary = it->at("first_boundary").get<uint64_t>();
    }
    return cached;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool store_cached_plan(const std::string& directory, const std::string& key,
                       const CachedPlan& cached) {
  const plan::Plan& plan = cached.plan;
  std::error_code error;
  fs::create_directories(directory, error);
  const std::string hex = plan.fingerprint.substr(plan.fingerprint.find(':') + 1);
  const fs::path final_path = fs::path(directory) / (key + "." + hex + ".json");
  const fs::path temporary =
      fs::path(directory) / (key + "." + hex + ".json.tmp" + std::to_string(getpid()));
  try {
    nlohmann::json json = nlohmann::json::parse(plan::to_json_text(plan));
    if (cached.first_boundary) json[kRuntimeMember] = {{"first_boundary", *cached.first_boundary}};
    std::ofstream out(temporary);
    out << json.dump(1) << '\n';
    if (!out.flush()) throw std::runtime_error("cannot write");
  } catch (const std::exception&) {
    fs::remove(temporary, error);
    return false;
  }
  fs::rename(temporary, final_path, error);
  if (error) fs::remove(temporary, error);
  return !error;
}

}  // namespace tidepool::runtime::optimize
