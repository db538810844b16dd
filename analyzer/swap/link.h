// The host link the swaps travel over: one host-to-device and one device-to-host copy engine,
// each with a bandwidth and a per-copy latency, plus the host-side cost of mapping and unmapping
// a swapped buffer's physical memory.
#pragma once

#include <string>
#include <string_view>

#include "analyzer/swap/model.h"

namespace tidepool::swap {

struct Link {
  std::string name;
  double bytes_per_second = 50e9;  // each direction
  double latency_seconds = 10e-6;  // per copy
  double map_seconds = 20e-6;      // cuMemCreate/cuMemMap/cuMemSetAccess before a swap-in
  double unmap_seconds = 20e-6;    // cuMemUnmap/release after a swap-out

  // The time one copy of `bytes` occupies its engine.
  double copy_seconds(Bytes bytes) const {
    return latency_seconds + static_cast<double>(bytes) / bytes_per_second;
  }
};

// "pcie4" (25 GB/s), "pcie5" (50 GB/s), "nvlink-c2c" (300 GB/s), or a number of GB/s (10^9
// bytes per second) such as "64". Throws std::invalid_argument with a one-line message otherwise.
Link parse_link(std::string_view text);

}  // namespace tidepool::swap
