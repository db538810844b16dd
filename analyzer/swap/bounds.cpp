// The floor and the link bound (see bounds.h).
#include "analyzer/swap/bounds.h"

#include <algorithm>
#include <set>
#include <vector>

#include "analyzer/swap/swap_op.h"

namespace tidepool::swap {
namespace {

struct Covering {  // a gap as seen from the ops it covers, in times unrolled around them
  std::size_t from, to;  // covers ops [from, to)
  double start, end;     // the gap opens (its access ends) and closes (its next access starts)
  Bytes size;
  bool clean;            // the host may already hold its data: it leaves without a copy
};

// Whether the host can hold a current copy at the gap opened by `access`: the access only read
// the buffer through a copy, and the data came from the host (persistent, or not the first use).
bool clean_capable(const Buffer& b, std::size_t access) {
  const Access& a = b.accesses[access];
  return !a.write && !a.by_kernel && (b.persistent || access > 0);
}

std::vector<Covering> coverings(const Model& model, const Simulation& base) {
  const auto n = model.ops.size();
  const double period = base.iteration_seconds;
  std::vector<Covering> out;
  for (const Buffer& b : model.buffers) {
    if (b.indirect) continue;
    const std::size_t m = b.accesses.size();
    for (std::size_t x = 0; x < m; ++x) {
      const bool last = x + 1 == m;
      if (last && !b.persistent) continue;
      const std::size_t a = b.accesses[x].op, k = b.accesses[last ? 0 : x + 1].op;
      const double start = base.op_end[a], end = base.op_start[k];
      const bool clean = clean_capable(b, x);
      if (a < k) {
        out.push_back({a + 1, k, start, end, b.size, clean});
      } else {  // wraps: ops after a see it close next iteration, ops before k see it open last one
        out.push_back({a + 1, n, start, end + period, b.size, clean});
        out.push_back({0, k, start - period, end, b.size, clean});
      }
    }
  }
  return out;
}

}  // namespace

Bounds compute_bounds(const Model& model, const Link& link, const Simulation& baseline,
                      double max_slowdown_pct) {
  const std::size_t n = model.ops.size();
  const std::vector<Bytes> live = live_bytes_per_op(model);
  const std::vector<Covering> gaps = coverings(model, baseline);
  const double period = baseline.iteration_seconds;
  const double extra = period * max_slowdown_pct / 100.0;
  const double longest = period + extra;
  std::vector<std::vector<std::size_t>> opening(n + 1), closing(n + 1);
  for (std::size_t g = 0; g < gaps.size(); ++g) {
    if (gaps[g].from >= gaps[g].to) continue;  // no op strictly inside
    opening[gaps[g].from].push_back(g);
    closing[gaps[g].to].push_back(g);
  }
  std::multiset<double> dirty_starts, ends;
  long double dirty = 0, clean = 0;
  Bounds bounds;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t g : closing[i]) {
      (gaps[g].clean ? clean : dirty) -= gaps[g].size;
      if (!gaps[g].clean) dirty_starts.erase(dirty_starts.find(gaps[g].start));
      ends.erase(ends.find(gaps[g].end));
    }
    for (std::size_t g : opening[i]) {
      (gaps[g].clean ? clean : dirty) += gaps[g].size;
      if (!gaps[g].clean) dirty_starts.insert(gaps[g].start);
      ends.insert(gaps[g].end);
    }
    const long double idle = dirty + clean;
    long double away = idle;
    if (!dirty_starts.empty()) {
      const double window = std::min(longest, baseline.op_start[i] - *dirty_starts.begin() + extra);
      away = std::min(away, clean + std::min<long double>(dirty, std::max(0.0, window) * link.bytes_per_second));
    }
    if (!ends.empty()) {
      const double window = std::min(longest, *ends.rbegin() - baseline.op_start[i] + extra);
      away = std::min<long double>(away, std::max(0.0, window) * link.bytes_per_second);
    }
    const auto here = static_cast<long double>(live[i]);
    bounds.floor_bytes = std::max(bounds.floor_bytes, static_cast<Bytes>(std::max<long double>(0, here - idle)));
    bounds.link_bound_bytes = std::max(bounds.link_bound_bytes, static_cast<Bytes>(std::max<long double>(0, here - away)));
  }
  return bounds;
}

}  // namespace tidepool::swap
