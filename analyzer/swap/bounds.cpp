// The floor and the link bound (see bounds.h).
#include "analyzer/swap/bounds.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
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
    if (b.never_swapped) continue;
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

// Per op [0, n), the value of the first gap (in `order`) that covers it, or `none`: each op is
// painted once, skipping painted runs with a union-find.
std::vector<double> paint(const std::vector<Covering>& gaps, const std::vector<std::pair<double, std::size_t>>& order,
                          std::size_t n, double none, double Covering::*value) {
  std::vector<double> out(n, none);
  std::vector<std::size_t> next(n + 1);  // the first unpainted op at or after i
  for (std::size_t i = 0; i <= n; ++i) next[i] = i;
  auto find = [&](std::size_t i) {
    std::size_t root = i;
    while (next[root] != root) root = next[root];
    while (next[i] != root) i = std::exchange(next[i], root);
    return root;
  };
  for (const auto& [key, g] : order) {
    for (std::size_t i = find(gaps[g].from); i < gaps[g].to; i = find(i + 1)) {
      out[i] = gaps[g].*value;
      next[i] = i + 1;
    }
  }
  return out;
}

}  // namespace

Bounds compute_bounds(const Model& model, const Link& link, const Simulation& baseline,
                      double max_slowdown_pct) {
  const std::size_t n = model.ops.size();
  const std::vector<Bytes> live = live_bytes_per_op(model);
  std::vector<Covering> gaps = coverings(model, baseline);
  std::erase_if(gaps, [](const Covering& g) { return g.from >= g.to; });  // no op strictly inside
  const double period = baseline.iteration_seconds;
  const double extra = period * max_slowdown_pct / 100.0;
  const double longest = period + extra;
  constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  // Per op: the idle bytes (clean and dirty), the earliest start of a dirty gap over it, and the
  // latest end of any gap over it.
  std::vector<long double> dirty(n + 1, 0), clean(n + 1, 0);
  std::vector<std::pair<double, std::size_t>> dirty_by_start, by_end;  // (key, gap): sorted by key
  for (std::size_t g = 0; g < gaps.size(); ++g) {
    auto& sum = gaps[g].clean ? clean : dirty;
    sum[gaps[g].from] += gaps[g].size;
    sum[gaps[g].to] -= gaps[g].size;
    if (!gaps[g].clean) dirty_by_start.push_back({gaps[g].start, g});
    by_end.push_back({-gaps[g].end, g});
  }
  // Gaps with equal keys paint the same value, so the order among them does not matter.
  std::sort(dirty_by_start.begin(), dirty_by_start.end());
  std::sort(by_end.begin(), by_end.end());
  const std::vector<double> earliest_dirty_start = paint(gaps, dirty_by_start, n, kNone, &Covering::start);
  const std::vector<double> latest_end = paint(gaps, by_end, n, kNone, &Covering::end);
  long double dirty_here = 0, clean_here = 0;
  Bounds bounds;
  for (std::size_t i = 0; i < n; ++i) {
    dirty_here += dirty[i];
    clean_here += clean[i];
    const long double idle = dirty_here + clean_here;
    long double away = idle;
    if (!std::isnan(earliest_dirty_start[i])) {
      const double window = std::min(longest, baseline.op_start[i] - earliest_dirty_start[i] + extra);
      away = std::min(away, clean_here + std::min<long double>(dirty_here, std::max(0.0, window) * link.bytes_per_second));
    }
    if (!std::isnan(latest_end[i])) {
      const double window = std::min(longest, latest_end[i] - baseline.op_start[i] + extra);
      away = std::min<long double>(away, std::max(0.0, window) * link.bytes_per_second);
    }
    const auto here = static_cast<long double>(live[i]);
    bounds.floor_bytes = std::max(bounds.floor_bytes, static_cast<Bytes>(std::max<long double>(0, here - idle)));
    bounds.link_bound_bytes = std::max(bounds.link_bound_bytes, static_cast<Bytes>(std::max<long double>(0, here - away)));
  }
  return bounds;
}

}  // namespace tidepool::swap
