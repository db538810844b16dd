// Iterations from the stream's period: choose the boundary's phase where the least memory is
// live, then walk from window to window, resynchronising after an inserted or a missing event.
#include <algorithm>
#include <map>
#include <utility>

#include "analyzer/iteration/detection.h"
#include "analyzer/iteration/period.h"
#include "analyzer/iteration/symbols.h"
#include "analyzer/iteration/window_hash.h"

namespace tidepool::iteration {
namespace {

// How far (in events) a boundary may drift from where the period puts it, per iteration.
constexpr std::size_t max_drift = 32;
// An iteration that matches nothing exactly still counts if this much of it matches position-wise.
constexpr double min_window_match = 0.5;

// The boundary among positions [begin, begin + period): where the fewest bytes (then the fewest
// allocations) are live, as at the end of a training step; ties go to the position whose event
// has the smallest symbol, which does not depend on where the search started.
std::size_t boundary_phase(const EventStream& stream, std::span<const std::uint64_t> symbols, std::size_t begin,
                           std::size_t period) {
  std::uint64_t bytes = 0, count = 0;
  for (std::size_t i = 0; i < begin; ++i) {
    const Event& e = stream.events[i];
    if (e.kind == EventKind::alloc) bytes += e.bytes, ++count;
    if (e.kind == EventKind::free) bytes -= e.bytes, --count;
  }
  auto key = std::make_tuple(bytes, count, symbols[begin]);
  std::size_t best = begin;
  for (std::size_t i = begin; i + 1 < begin + period; ++i) {
    const Event& e = stream.events[i];
    if (e.kind == EventKind::alloc) bytes += e.bytes, ++count;
    if (e.kind == EventKind::free) bytes -= e.bytes, --count;
    const auto candidate = std::make_tuple(bytes, count, symbols[i + 1]);
    if (candidate < key) key = candidate, best = i + 1;
  }
  return best;
}

// The most common window content and how often it occurs.
std::pair<std::uint64_t, std::size_t> most_common(const std::vector<std::uint64_t>& hashes) {
  std::map<std::uint64_t, std::size_t> counts;
  for (auto h : hashes) ++counts[h];
  return *std::max_element(counts.begin(), counts.end(), [](auto& a, auto& b) { return a.second < b.second; });
}

double position_match(std::span<const std::uint64_t> s, std::size_t a, std::size_t b, std::size_t length) {
  std::size_t equal = 0;
  for (std::size_t i = 0; i < length; ++i) equal += s[a + i] == s[b + i];
  return static_cast<double>(equal) / static_cast<double>(length);
}

}  // namespace

std::optional<Detection> detect_by_period(const EventStream& stream) {
  const std::vector<std::uint64_t> s = symbols(stream);
  const auto found = find_period(s);
  if (!found) return std::nullopt;
  const std::size_t p = found->period, n = s.size();
  const WindowHasher hash(s);

  std::size_t start = boundary_phase(stream, s, found->region.begin, p);
  std::vector<std::uint64_t> windows;
  for (std::size_t c = start; c + p <= n; c += p) windows.push_back(hash({c, c + p}));
  const auto [reference, occurrences] = most_common(windows);
  if (occurrences < 2) return std::nullopt;  // no iteration repeats exactly
  std::size_t reference_begin = start;
  for (std::size_t c = start; c + p <= n; c += p)
    if (hash({c, c + p}) == reference) {
      reference_begin = c;
      break;
    }

  Detection d;
  d.kind = BoundaryKind::period;
  d.period = p;
  const std::size_t drift = std::min(max_drift, p / 2);
  std::size_t c = start;
  while (c + p <= n) {
    if (hash({c, c + p}) == reference) {
      d.reference = d.iterations.size();
      ++d.exact;
      d.iterations.push_back({c, c + p});
      c += p;
      continue;
    }
    std::optional<std::size_t> next;
    for (std::size_t delta = 0; delta <= drift && !next; ++delta) {
      for (std::size_t candidate : {c + p + delta, c + p - delta}) {
        if (candidate > c && candidate + p <= n && hash({candidate, candidate + p}) == reference) {
          next = candidate;
          break;
        }
      }
    }
    if (!next && position_match(s, c, reference_begin, p) >= min_window_match) next = c + p;
    if (!next) break;
    d.iterations.push_back({c, *next});
    c = *next;
  }
  if (d.iterations.size() < 2 || d.exact == 0) return std::nullopt;
  return d;
}

}  // namespace tidepool::iteration
