// One trace -> one ProcessReport.
#include "analyzer/report/analyze.h"

#include <algorithm>
#include <unordered_map>

#include "analyzer/report/kernel_totals.h"
#include "analyzer/report/memory_replay.h"
#include "analyzer/report/runtime_decisions.h"
#include "analyzer/report/size_histogram.h"
#include "analyzer/symbolize/symbolizer.h"

namespace tidepool::report {
namespace {

void count_operation(const trace::Record& record, ProcessReport& report) {
  std::visit(
      [&](const auto& r) {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, trace::Launch>) {
          if (!r.captured) ++report.kernel_launches;
        } else if constexpr (std::is_same_v<R, trace::GraphLaunch>) {
          ++report.graph_launches;
        } else if constexpr (std::is_same_v<R, trace::Copy>) {
          if (!r.captured) ++report.copies;
        } else if constexpr (std::is_same_v<R, trace::Set>) {
          if (!r.captured) ++report.sets;
        }
      },
      record);
}

// The device allocations live just after the event that first reached the peak.
std::vector<AllocationInfo> live_at_peak(const trace::Trace& trace, size_t peak_index) {
  MemoryReplay replay;
  for (size_t i = 0; i <= peak_index; ++i) replay.apply(trace.events[i]);
  return replay.live_device_allocations();
}

// The NVTX ranges pushed and not yet popped on the peak event's thread, at the peak.
std::vector<std::string> open_ranges(const trace::Trace& trace, size_t peak_index) {
  const uint32_t thread = trace.events[peak_index].thread;
  std::vector<std::string> open;
  for (size_t i = 0; i < peak_index; ++i) {
    const trace::Event& e = trace.events[i];
    if (e.thread != thread) continue;
    if (const auto* push = std::get_if<trace::RangePush>(&e.record)) {
      open.emplace_back(trace.string(push->name_id));
    } else if (std::holds_alternative<trace::RangePop>(e.record) && !open.empty()) {
      open.pop_back();
    }
  }
  return open;
}

std::vector<Site> sites(const trace::Trace& trace, const ProcessReport& report) {
  std::unordered_map<uint32_t, Site> by_stack;
  for (const trace::Event& e : trace.events) {
    const auto* a = std::get_if<trace::Alloc>(&e.record);
    if (!a || a->captured || !trace::is_device_memory(a->kind)) continue;
    Site& site = by_stack[a->stack_id];
    site.stack_id = a->stack_id;
    ++site.allocations;
    site.bytes_allocated += a->size;
  }
  for (const AllocationInfo& a : report.live_at_peak) by_stack[a.stack_id].live_at_peak_bytes += a.size;
  for (const AllocationInfo& a : report.leaks) by_stack[a.stack_id].leaked_bytes += a.size;
  std::vector<Site> out;
  for (auto& [id, site] : by_stack) out.push_back(site);
  std::sort(out.begin(), out.end(), [](const Site& a, const Site& b) {
    return a.bytes_allocated != b.bytes_allocated ? a.bytes_allocated > b.bytes_allocated
                                                  : a.stack_id < b.stack_id;
  });
  return out;
}

}  // namespace

ProcessReport analyze(const trace::Trace& trace, const std::string& trace_path) {
  ProcessReport report;
  report.trace_path = trace_path;
  report.pid = trace.header.pid;
  report.rank = trace.header.rank;
  report.host = trace.header.host;
  report.program = trace.header.program;
  report.source = trace.header.source;
  report.synthetic = trace.header.synthetic;
  report.truncated = trace.truncated;

  MemoryReplay replay;
  for (const trace::Event& e : trace.events) {
    replay.apply(e);
    count_operation(e.record, report);
    report.duration_ns = std::max(report.duration_ns, e.time_ns);
  }
  report.peak_requested_bytes = replay.peak_device_bytes();
  report.allocations = replay.allocations();
  report.frees = replay.frees();
  report.kinds = replay.kind_totals();
  report.devices = replay.device_totals();
  report.leaks = replay.live_device_allocations();
  for (const AllocationInfo& a : report.leaks) report.leaked_bytes += a.size;
  report.leaked_allocations = report.leaks.size();
  if (const auto peak = replay.peak_event_index()) {
    report.peak_time_ns = trace.events[*peak].time_ns;
    report.peak_seq = trace.events[*peak].seq;
    report.live_at_peak = live_at_peak(trace, *peak);
    report.peak_nvtx_ranges = open_ranges(trace, *peak);
  }
  report.kernels = kernel_totals(trace);
  report.size_histogram = size_histogram(trace);
  report.sites = sites(trace, report);
  report.runtime = runtime_decisions(trace);

  symbolize::Symbolizer symbolizer(trace.modules);
  for (const Site& site : report.sites) {
    std::vector<std::string>& frames = report.stacks[site.stack_id];
    for (uint64_t pc : trace.stack(site.stack_id)) frames.push_back(symbolizer.describe(pc));
  }
  return report;
}

}  // namespace tidepool::report
