// The text report, section by section. Long lists are cut to their first entries.
#include "analyzer/report/text_report.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "analyzer/report/runtime_decisions_text.h"
#include "analyzer/report/units.h"

namespace tidepool::report {
namespace {

constexpr size_t kMaxLiveShown = 20;
constexpr size_t kMaxLeaksShown = 10;
constexpr size_t kMaxKernelsShown = 10;
constexpr size_t kMaxSitesShown = 10;
constexpr size_t kMaxFramesShown = 8;

class Out {
 public:
  [[gnu::format(printf, 2, 3)]] void line(const char* format, ...) {
    va_list args;
    va_start(args, format);
    va_list again;
    va_copy(again, args);
    const int length = std::vsnprintf(nullptr, 0, format, args);
    va_end(args);
    if (length > 0) {
      const size_t at = text_.size();
      text_.resize(at + static_cast<size_t>(length) + 1);
      std::vsnprintf(text_.data() + at, static_cast<size_t>(length) + 1, format, again);
      text_.back() = '\n';
    } else {
      text_ += '\n';
    }
    va_end(again);
  }
  void blank() { text_ += '\n'; }
  void text(const std::string& lines) { text_ += lines; }
  std::string take() { return std::move(text_); }

 private:
  std::string text_;
};

const char* c(const std::string& s) { return s.c_str(); }
unsigned long long u(uint64_t v) { return v; }

std::string rank_text(int32_t rank) { return rank < 0 ? "-" : std::to_string(rank); }

void frames(Out& out, const ProcessReport& p, uint32_t stack_id, const char* indent) {
  const auto it = p.stacks.find(stack_id);
  if (it == p.stacks.end() || it->second.empty()) {
    out.line("%sat <no stack recorded>", indent);
    return;
  }
  const std::vector<std::string>& f = it->second;
  for (size_t i = 0; i < std::min(f.size(), kMaxFramesShown); ++i) {
    out.line("%sat %s", indent, c(f[i]));
  }
  if (f.size() > kMaxFramesShown) out.line("%s... %zu more frames", indent, f.size() - kMaxFramesShown);
}

void allocations(Out& out, const ProcessReport& p, const std::vector<AllocationInfo>& list,
                 size_t limit) {
  out.line("  %12s  %8s  %-15s  %-18s  %s", "size", "id", "kind", "address", "allocated at");
  for (size_t i = 0; i < std::min(list.size(), limit); ++i) {
    const AllocationInfo& a = list[i];
    char address[24];
    std::snprintf(address, sizeof address, "0x%llx", u(a.address));
    out.line("  %12s  %8llu  %-15s  %-18s  %s", c(human_bytes(a.size)), u(a.alloc_id),
             trace::to_string(a.kind).data(), address, c(human_duration(a.time_ns)));
    frames(out, p, a.stack_id, "      ");
  }
  if (list.size() > limit) out.line("  ... and %zu more", list.size() - limit);
}

void summary_table(Out& out, std::span<const ProcessReport> processes) {
  out.line("%zu processes", processes.size());
  out.line("  %5s  %8s  %-16s  %-16s  %14s  %8s  %8s  %10s  %12s", "rank", "pid", "host", "program",
           "peak", "allocs", "frees", "launches", "leaked");
  for (const ProcessReport& p : processes) {
    out.line("  %5s  %8u  %-16s  %-16s  %14s  %8llu  %8llu  %10llu  %12s", c(rank_text(p.rank)),
             p.pid, c(p.host), c(p.program), c(human_bytes(p.peak_requested_bytes)),
             u(p.allocations), u(p.frees), u(p.kernel_launches), c(human_bytes(p.leaked_bytes)));
  }
  out.blank();
}

std::string ratio_text(uint64_t value, uint64_t bound) {
  if (bound == 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.3fx", static_cast<double>(value) / static_cast<double>(bound));
  return text;
}

void swap_table(Out& out, const IterationPlans& plans) {
  if (!plans.swap_error.empty()) {
    out.line("  swap: no plan (%s)", c(plans.swap_error));
    return;
  }
  out.line("  swap to host over %s (%.0f GB/s each way)%s: unoptimized peak %s", c(plans.link),
           plans.link_bytes_per_second / 1e9,
           plans.durations_estimated ? ", kernel times from a cost model" : "",
           c(human_bytes(plans.unoptimized_peak_bytes)));
  out.line("    %-8s  %8s  %14s  %10s  %14s  %14s  %14s", "planner", "allowed", "peak", "slowdown",
           "moved", "floor", "link bound");
  for (const SwapResult& r : plans.swap) {
    out.line("    %-8s  %7.0f%%  %14s  %9.2f%%  %14s  %14s  %14s", c(r.planner), r.max_slowdown_pct,
             c(human_bytes(r.peak_bytes)), r.simulated_slowdown_pct, c(human_bytes(r.bytes_moved)),
             c(human_bytes(r.floor_bytes)), c(human_bytes(r.link_bound_bytes)));
  }
}

void iteration_plans(Out& out, const IterationPlans& plans) {
  out.line("iteration and plans:");
  if (!plans.no_iteration_reason.empty()) {
    out.line("  no iteration: %s", c(plans.no_iteration_reason));
    out.blank();
    return;
  }
  out.line("  iteration: %llu events (%llu allocations, %llu operations), %llu seen from event "
           "#%llu, %.0f%% regular (boundary: %s)",
           u(plans.period_events), u(plans.allocations_per_iteration), u(plans.operations_per_iteration),
           u(plans.iterations_seen), u(plans.first_boundary), plans.regularity * 100, c(plans.boundary));
  out.line("  observed peak in the iteration: %s; live at its start %s, escaping it %s (outside the pool)",
           c(human_bytes(plans.observed_peak_bytes)), c(human_bytes(plans.live_at_start_bytes)),
           c(human_bytes(plans.escaping_bytes)));
  out.line("  pool lower bound: %s (%llu bytes); solvers limited to %.2f s each:",
           c(human_bytes(plans.lower_bound_bytes)), u(plans.lower_bound_bytes), plans.solver_seconds);
  out.line("    %-18s  %14s  %10s  %9s", "solver", "arena", "vs bound", "seconds");
  for (const SolverResult& s : plans.solvers) {
    out.line("    %-18s  %14s  %10s  %9.3f", c(s.solver), c(human_bytes(s.arena_bytes)),
             c(ratio_text(s.arena_bytes, plans.lower_bound_bytes)), s.seconds);
  }
  swap_table(out, plans);
  out.blank();
}

void process(Out& out, const ProcessReport& p) {
  out.line("== %s (pid %u, rank %s, host %s): %s", c(p.program), p.pid, c(rank_text(p.rank)),
           c(p.host), c(p.trace_path));
  if (p.synthetic) out.line("synthetic trace (%s): not a recording of a real program", c(p.source));
  if (p.truncated) {
    out.line(
        "warning: the trace is truncated (the program was killed, or its disk was full?); read up to "
        "its last whole record");
  }
  out.line("duration: %s", c(human_duration(p.duration_ns)));
  if (p.peak_requested_bytes > 0) {
    std::string ranges;
    for (const std::string& r : p.peak_nvtx_ranges) ranges += (ranges.empty() ? ", in NVTX range " : " > ") + r;
    out.line("peak device memory: %s (%llu bytes requested) at %s (event #%llu%s)",
             c(human_bytes(p.peak_requested_bytes)), u(p.peak_requested_bytes),
             c(human_duration(p.peak_time_ns)), u(p.peak_seq), c(ranges));
  } else {
    out.line("peak device memory: 0 bytes (no device allocations)");
  }
  out.line("device allocations: %llu, frees: %llu, kernel launches: %llu, graph launches: %llu, "
           "copies: %llu, sets: %llu",
           u(p.allocations), u(p.frees), u(p.kernel_launches), u(p.graph_launches), u(p.copies),
           u(p.sets));
  out.line("leaked: %s (%llu bytes) in %llu allocations", c(human_bytes(p.leaked_bytes)),
           u(p.leaked_bytes), u(p.leaked_allocations));
  if (p.devices.size() > 1) {
    for (const DeviceTotals& d : p.devices) {
      out.line("  device %d: peak %s (%llu bytes), leaked %s", d.device,
               c(human_bytes(d.peak_requested_bytes)), u(d.peak_requested_bytes),
               c(human_bytes(d.leaked_bytes)));
    }
  }
  out.blank();

  if (!p.kinds.empty()) {
    out.line("memory by kind:");
    out.line("  %-15s  %8s  %8s  %14s  %14s  %14s", "kind", "allocs", "frees", "allocated",
             "peak live", "live at exit");
    for (const KindTotals& k : p.kinds) {
      out.line("  %-15s  %8llu  %8llu  %14s  %14s  %14s", trace::to_string(k.kind).data(),
               u(k.allocations), u(k.frees), c(human_bytes(k.bytes_allocated)),
               c(human_bytes(k.peak_live_bytes)), c(human_bytes(k.live_bytes_at_exit)));
    }
    out.line("  (device memory: device, device_pitched, stream_ordered, pool, vmm_physical)");
    out.blank();
  }
  if (!p.live_at_peak.empty()) {
    out.line("live at the peak: %zu allocations, largest first", p.live_at_peak.size());
    allocations(out, p, p.live_at_peak, kMaxLiveShown);
    out.blank();
  }
  if (!p.leaks.empty()) {
    out.line("leaks: %zu allocations live at the end, largest first", p.leaks.size());
    allocations(out, p, p.leaks, kMaxLeaksShown);
    out.blank();
  }
  if (!p.kernels.empty()) {
    out.line("kernels touching the most memory:");
    out.line("  %14s  %10s  %14s  %s", "bytes touched", "launches", "max per launch", "kernel");
    for (size_t i = 0; i < std::min(p.kernels.size(), kMaxKernelsShown); ++i) {
      const KernelTotals& k = p.kernels[i];
      out.line("  %14s  %10llu  %14s  %s%s", c(human_bytes(k.bytes_touched)), u(k.launches),
               c(human_bytes(k.max_bytes_per_launch)), c(k.name),
               k.undecoded_launches ? " (parameters not decoded)" : "");
    }
    if (p.kernels.size() > kMaxKernelsShown) {
      out.line("  ... and %zu more kernels", p.kernels.size() - kMaxKernelsShown);
    }
    out.blank();
  }
  if (!p.size_histogram.empty()) {
    out.line("device allocation sizes:");
    out.line("  %-24s  %8s  %14s", "size", "allocs", "bytes");
    for (const SizeBucket& b : p.size_histogram) {
      const std::string low = human_bytes(b.min_bytes);
      const std::string high = human_bytes(b.min_bytes ? 2 * b.min_bytes : 2);
      char range[64];
      std::snprintf(range, sizeof range, "[%s, %s)", c(low), c(high));
      out.line("  %-24s  %8llu  %14s", range, u(b.allocations), c(human_bytes(b.bytes)));
    }
    out.blank();
  }
  if (!p.sites.empty()) {
    out.line("allocation sites, by bytes allocated:");
    for (size_t i = 0; i < std::min(p.sites.size(), kMaxSitesShown); ++i) {
      const Site& s = p.sites[i];
      out.line("  %s in %llu allocations; %s live at the peak, %s leaked",
               c(human_bytes(s.bytes_allocated)), u(s.allocations),
               c(human_bytes(s.live_at_peak_bytes)), c(human_bytes(s.leaked_bytes)));
      frames(out, p, s.stack_id, "      ");
    }
    if (p.sites.size() > kMaxSitesShown) out.line("  ... and %zu more sites", p.sites.size() - kMaxSitesShown);
    out.blank();
  }
  if (p.runtime) out.text(runtime_decisions_text(*p.runtime));
  if (p.plans) iteration_plans(out, *p.plans);
}

}  // namespace

std::string text_report(std::span<const ProcessReport> processes) {
  Out out;
  if (processes.size() > 1) summary_table(out, processes);
  for (const ProcessReport& p : processes) process(out, p);
  return out.take();
}

}  // namespace tidepool::report
