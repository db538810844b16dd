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

// What the report says of the peak: the device allocations live just after the event that first
// reached it (index `peak` in the trace), and the NVTX ranges pushed and not yet popped on that
// event's thread then. One more pass, of the memory events and the range pushes and pops.
void describe_peak(const trace::EventSource& source, uint64_t peak, uint32_t thread,
                   ProcessReport& report) {
  MemoryReplay replay;
  std::vector<std::string> open;
  const auto wanted = [](trace::RecordTag tag) {
    return MemoryReplay::applies_to(tag) || tag == trace::RecordTag::range_push ||
           tag == trace::RecordTag::range_pop;
  };
  source.read(
      wanted,
      [&](const trace::Event& e, uint64_t index) {
        replay.apply(e);
        if (e.thread != thread || index == peak) return;
        if (const auto* push = std::get_if<trace::RangePush>(&e.record)) {
          open.emplace_back(source.tables().string(push->name_id));
        } else if (std::holds_alternative<trace::RangePop>(e.record) && !open.empty()) {
          open.pop_back();
        }
      },
      peak + 1);
  report.live_at_peak = replay.live_device_allocations();
  report.peak_nvtx_ranges = std::move(open);
}

// Device allocations per call stack, counted event by event.
class SiteCounter {
 public:
  void add(const trace::Event& e) {
    const auto* a = std::get_if<trace::Alloc>(&e.record);
    if (!a || a->captured || !trace::is_device_memory(a->kind)) return;
    Site& site = by_stack_[a->stack_id];
    site.stack_id = a->stack_id;
    ++site.allocations;
    site.bytes_allocated += a->size;
  }

  // Most bytes allocated first (ties by stack id), with what of them was live at the peak and
  // leaked.
  std::vector<Site> sites(const ProcessReport& report) {
    for (const AllocationInfo& a : report.live_at_peak)
      by_stack_[a.stack_id].live_at_peak_bytes += a.size;
    for (const AllocationInfo& a : report.leaks) by_stack_[a.stack_id].leaked_bytes += a.size;
    std::vector<Site> out;
    for (auto& [id, site] : by_stack_) out.push_back(site);
    std::sort(out.begin(), out.end(), [](const Site& a, const Site& b) {
      return a.bytes_allocated != b.bytes_allocated ? a.bytes_allocated > b.bytes_allocated
                                                    : a.stack_id < b.stack_id;
    });
    return out;
  }

 private:
  std::unordered_map<uint32_t, Site> by_stack_;
};

}  // namespace

ProcessReport analyze(const trace::EventSource& source, const std::string& trace_path) {
  const trace::Trace& trace = source.tables();
  ProcessReport report;
  report.trace_path = trace_path;
  report.pid = trace.header.pid;
  report.rank = trace.header.rank;
  report.host = trace.header.host;
  report.program = trace.header.program;
  report.source = trace.header.source;
  report.synthetic = trace.header.synthetic;
  report.truncated = trace.truncated;

  MemoryReplay replay;  // sees every event, so its peak index is the trace's
  KernelCounter kernels(trace);
  SizeHistogram sizes;
  SiteCounter sites;
  uint32_t peak_thread = 0;
  source.read([](trace::RecordTag) { return true; },
              [&](const trace::Event& e, uint64_t index) {
                replay.apply(e);
                if (replay.peak_event_index() == index) {
                  report.peak_time_ns = e.time_ns;
                  report.peak_seq = e.seq;
                  peak_thread = e.thread;
                }
                count_operation(e.record, report);
                report.duration_ns = std::max(report.duration_ns, e.time_ns);
                kernels.add(e);
                sizes.add(e);
                sites.add(e);
              });
  report.peak_requested_bytes = replay.peak_device_bytes();
  report.allocations = replay.allocations();
  report.frees = replay.frees();
  report.kinds = replay.kind_totals();
  report.devices = replay.device_totals();
  report.leaks = replay.live_device_allocations();
  for (const AllocationInfo& a : report.leaks) report.leaked_bytes += a.size;
  report.leaked_allocations = report.leaks.size();
  if (const auto peak = replay.peak_event_index())
    describe_peak(source, *peak, peak_thread, report);
  report.kernels = kernels.totals();
  report.size_histogram = sizes.buckets();
  report.sites = sites.sites(report);
  report.runtime = runtime_decisions(source);

  symbolize::Symbolizer symbolizer(trace.modules);
  for (const Site& site : report.sites) {
    std::vector<std::string>& frames = report.stacks[site.stack_id];
    for (uint64_t pc : trace.stack(site.stack_id)) frames.push_back(symbolizer.describe(pc));
  }
  return report;
}

}  // namespace tidepool::report
