// The few figures `tidepool run` prints for each trace it leaves (peak device memory, counts,
// leaks), read from the file in two streaming passes instead of loading the whole trace
// (trace/in_order.h): the memory it takes is about a byte per event, the allocations live at a
// time, and the memory events that reach the file ahead of earlier ones (each thread's events
// come in their own chunks). The figures are those `report::analyze` gives.
#pragma once

#include <cstdint>
#include <filesystem>

namespace tidepool::report {

struct TraceSummary {
  uint32_t pid = 0;
  int32_t rank = -1;
  bool truncated = false;
  uint64_t peak_requested_bytes = 0;
  uint64_t allocations = 0;  // device memory, as the report counts them
  uint64_t frees = 0;
  uint64_t kernel_launches = 0;  // not captured into graphs
  uint64_t leaked_bytes = 0;
};

// Throws trace::TraceError (one line, prefixed by the path) as read_trace does.
TraceSummary summarize_trace(const std::filesystem::path& path);

}  // namespace tidepool::report
