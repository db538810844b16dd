// The plan cache: plans made online, kept in a directory so that the next run of the same program
// enforces from its first iteration. A file is named `<program key>.<fingerprint hex>.json`; the
// program key hashes the executable's path, its arguments and the settings that shape a plan.
// Beside the plan, the file keeps (as a member plan readers ignore) the event at which the first
// planned iteration started: the same program with the same arguments starts it there again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analyzer/plan/plan.h"
#include "runtime/settings.h"

namespace tidepool::runtime::optimize {

// 16 hex digits.
std::string program_key(const Settings& settings);

struct CachedPlan {
  plan::Plan plan;
  std::optional<uint64_t> first_boundary;  // the event count at which the first iteration started
};

// The newest cached plan of this program, if any (an unreadable file counts as none).
std::optional<CachedPlan> load_cached_plan(const std::string& directory, const std::string& key);

// Writes the plan (atomically: a temporary file renamed); false when it cannot.
bool store_cached_plan(const std::string& directory, const std::string& key,
                       const CachedPlan& cached);

}  // namespace tidepool::runtime::optimize
