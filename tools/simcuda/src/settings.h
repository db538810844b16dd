// simcuda's settings: the SIMCUDA_* environment variables, read once at load.
#pragma once

#include <cstdint>
#include <string>

namespace simcuda {

struct Settings {
  uint64_t memory_bytes = 16ull << 30;  // SIMCUDA_MEMORY: device capacity (K/M/G suffixes, powers of 1024)
  double link_gbps = 50;                // SIMCUDA_LINK_GBPS: host<->device bandwidth, GB/s
  std::string stats_path;               // SIMCUDA_STATS: JSON written at exit, %p -> pid
  unsigned threads = 1;                 // SIMCUDA_THREADS: threads a large twin or copy may use
  double oom_rate = 0;                  // SIMCUDA_OOM_RATE: the chance that a memory request fails
  uint64_t oom_seed = 1;                // ... and the seed of its draws ("RATE:SEED")
  std::string error;                    // a bad setting, reported by cuInit; empty when all are valid
};

const Settings& settings();

// "16G" -> 17179869184; false on anything else than digits with an optional K/M/G suffix.
bool parse_bytes(const std::string& text, uint64_t& bytes);

}  // namespace simcuda
