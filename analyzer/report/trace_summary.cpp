// The run's figures from a trace file read in order (trace/in_order.h): the memory events are
// replayed and the launches counted as they come.
#include "analyzer/report/trace_summary.h"

#include <variant>

#include "analyzer/report/memory_replay.h"
#include "analyzer/trace/in_order.h"

namespace tidepool::report {

TraceSummary summarize_trace(const std::filesystem::path& path) {
  const trace::InOrderReader reader(path);
  TraceSummary summary;
  summary.pid = reader.trace().header.pid;
  summary.rank = reader.trace().header.rank;
  summary.truncated = reader.trace().truncated;

  MemoryReplay memory;
  reader.read(
      [](trace::RecordTag tag) {
        return tag == trace::RecordTag::launch || MemoryReplay::applies_to(tag);
      },
      [&](trace::Event&& e, uint64_t) {
        if (const auto* launch = std::get_if<trace::Launch>(&e.record)) {
          if (!launch->captured) ++summary.kernel_launches;
        } else {
          memory.apply(e);
        }
      });
  summary.peak_requested_bytes = memory.peak_device_bytes();
  summary.allocations = memory.allocations();
  summary.frees = memory.frees();
  for (const AllocationInfo& a : memory.live_device_allocations()) summary.leaked_bytes += a.size;
  return summary;
}

}  // namespace tidepool::report
