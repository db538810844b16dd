// Lifetimes and persistence of one iteration's allocations.
#include "analyzer/iteration/lifetimes.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace tidepool::iteration {

std::uint64_t IterationLifetimes::persistent_bytes() const {
  std::uint64_t total = 0;
  for (const auto& a : allocations)
    if (a.persistent) total += a.bytes;
  return total;
}

IterationLifetimes lifetimes(const EventStream& stream, Range iteration) {
  IterationLifetimes out;
  out.iteration = iteration;
  std::unordered_map<std::uint64_t, std::size_t> open;  // allocation id → index in out.allocations
  std::unordered_map<std::uint64_t, std::uint64_t> live;  // allocation id → bytes
  std::uint64_t live_bytes = 0;
  for (std::size_t i = 0; i < iteration.end; ++i) {
    const Event& e = stream.events[i];
    if (i == iteration.begin) out.live_at_start_bytes = out.peak_bytes = live_bytes;
    if (e.kind == EventKind::alloc) {
      if (!live.emplace(e.allocation, e.bytes).second)
        throw std::runtime_error("event " + std::to_string(i) + ": allocation " + std::to_string(e.allocation) +
                                 " is made again while still live");
      live_bytes += e.bytes;
      if (i >= iteration.begin) {
        open[e.allocation] = out.allocations.size();
        out.allocations.push_back({out.allocations.size(), e.bytes, i - iteration.begin, iteration.size(), true});
      }
    } else if (e.kind == EventKind::free) {
      const auto it = live.find(e.allocation);
      if (it == live.end())
        throw std::runtime_error("event " + std::to_string(i) + ": allocation " + std::to_string(e.allocation) +
                                 " is freed but not live");
      live_bytes -= it->second;
      live.erase(it);
      if (const auto o = open.find(e.allocation); o != open.end()) {
        out.allocations[o->second].end = i - iteration.begin;
        out.allocations[o->second].persistent = false;
        open.erase(o);
      }
    }
    if (i >= iteration.begin) out.peak_bytes = std::max(out.peak_bytes, live_bytes);
  }
  return out;
}

}  // namespace tidepool::iteration
