// Iterations from the stream's period: choose the boundary's phase where the least memory is
// live, then walk from window to window, resynchronising after an inserted or a missing event.
#include <algorithm>
#include <map>
#include <span>
#include <tuple>
#include <utility>

#include "analyzer/iteration/detection.h"
#include "analyzer/iteration/period.h"
#include "analyzer/iteration/symbols.h"
#include "analyzer/iteration/window_hash.h"

namespace tidepool::iteration {
namespace {

// How far (in events) a boundary may drift from where the period puts it, per iteration.
constexpr std::size_t max_drift = 32;
// An iteration that matches no copy exactly counts if this much of it matches event by event.
constexpr double min_window_match = 0.5;

// Bytes and allocations live before each position 0..n of the stream. Kept every `stride`
// positions and counted on from there: 16 bytes a position would be most of what detection holds.
using Live = std::pair<std::uint64_t, std::uint64_t>;
class LiveBefore {
 public:
  explicit LiveBefore(const EventStream& stream) : events_(stream.events) {
    checkpoints_.reserve(events_.size() / stride + 1);
    Live live{0, 0};
    for (std::size_t i = 0; i < events_.size(); ++i) {
      if (i % stride == 0) checkpoints_.push_back(live);
      live = after(live, events_[i]);
    }
    if (events_.size() % stride == 0) checkpoints_.push_back(live);
  }

  Live at(std::size_t position) const {
    Live live = checkpoints_[position / stride];
    for (std::size_t i = position - position % stride; i < position; ++i)
      live = after(live, events_[i]);
    return live;
  }

  static Live after(Live live, const Event& e) {
    if (e.kind == EventKind::alloc) live.first += e.bytes, ++live.second;
    if (e.kind == EventKind::free) live.first -= e.bytes, --live.second;
    return live;
  }

 private:
  static constexpr std::size_t stride = 64;
  std::span<const Event> events_;
  std::vector<Live> checkpoints_;  // checkpoints_[k]: live before position k * stride
};

// The boundary among positions [begin, begin + period): where the fewest bytes (then the fewest
// allocations) are live, as at the end of a training step; ties go to the position whose event
// has the smallest symbol, which does not depend on where the search started.
std::size_t boundary_phase(const LiveBefore& live, std::span<const std::uint64_t> symbols,
                           std::span<const Event> events, std::size_t begin, std::size_t period) {
  std::size_t best = begin;
  Live best_live = live.at(begin), here = best_live;
  for (std::size_t i = begin + 1; i < begin + period; ++i) {
    here = LiveBefore::after(here, events[i - 1]);
    if (std::tie(here, symbols[i]) < std::tie(best_live, symbols[best])) best = i, best_live = here;
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

// Steps from boundary to boundary with the reference iteration's length, and past an iteration
// that differs, to where the next (or previous) copy of the reference starts, within a drift.
struct Walker {
  std::span<const std::uint64_t> s;
  const LiveBefore& live;
  const WindowHasher& hash;
  std::size_t p;
  std::uint64_t reference;
  std::size_t reference_begin;

  std::size_t drift() const { return std::min(max_drift, p / 2); }
  bool exact_at(std::size_t begin) const { return begin + p <= s.size() && hash({begin, begin + p}) == reference; }
  // An iteration that matches no copy of the reference exactly: it still counts when it starts and
  // ends with as much memory live as the reference does, and mostly matches it event by event.
  bool resembles(std::size_t begin) const {
    return live.at(begin) == live.at(reference_begin) &&
           live.at(begin + p) == live.at(reference_begin + p) &&
           position_match(s, begin, reference_begin, p) >= min_window_match;
  }

  // Iterations from `start` on, in order.
  std::vector<Range> forward(std::size_t c) const {
    std::vector<Range> out;
    while (c + p <= s.size()) {
      std::optional<std::size_t> next;
      if (exact_at(c)) next = c + p;
      for (std::size_t delta = 0; delta <= drift() && !next; ++delta)
        for (std::size_t candidate : {c + p + delta, c + p - delta})
          if (!next && candidate > c && exact_at(candidate)) next = candidate;
      if (!next && resembles(c)) next = c + p;
      if (!next) break;
      out.push_back({c, *next});
      c = *next;
    }
    return out;
  }

  // Iterations that end at `end` and before, in order.
  std::vector<Range> backward(std::size_t c) const {
    std::vector<Range> out;
    while (c >= p) {
      std::optional<std::size_t> previous;
      if (exact_at(c - p)) previous = c - p;
      for (std::size_t delta = 0; delta <= drift() && !previous; ++delta)
        for (std::size_t candidate : {c - p - delta, c - p + delta})
          if (!previous && candidate < c && candidate >= p && exact_at(candidate - p))
            previous = candidate;
      if (!previous && resembles(c - p)) previous = c - p;
      if (!previous) break;
      out.push_back({*previous, c});
      c = *previous;
    }
    std::reverse(out.begin(), out.end());
    return out;
  }
};

}  // namespace

std::optional<Detection> detect_by_period(const EventStream& stream) {
  const std::vector<std::uint64_t> s = symbols(stream);
  const auto found = find_period(s);
  if (!found) return std::nullopt;
  const std::size_t p = found->period, n = s.size();
  const WindowHasher hash(s);

  const LiveBefore live(stream);
  const std::size_t start = boundary_phase(live, s, stream.events, found->region.begin, p);
  std::vector<std::uint64_t> windows;
  for (std::size_t c = start; c + p <= n; c += p) windows.push_back(hash({c, c + p}));
  const auto [common, occurrences] = most_common(windows);
  if (occurrences < 2) return std::nullopt;  // no iteration repeats exactly
  std::size_t reference_begin = start;
  while (hash({reference_begin, reference_begin + p}) != common) reference_begin += p;
  // An inserted or lost event shifts every later window: the most common content may then be a
  // rotation of the iteration. Rotate it back to where its own least memory is live.
  reference_begin = boundary_phase(live, s, stream.events, reference_begin, p);
  if (reference_begin + p > n) reference_begin -= p;
  const std::uint64_t reference = hash({reference_begin, reference_begin + p});

  const Walker walker{s, live, hash, p, reference, reference_begin};
  std::vector<Range> iterations = walker.backward(start);
  const std::vector<Range> forward = walker.forward(start);
  iterations.insert(iterations.end(), forward.begin(), forward.end());

  Detection d;
  d.kind = BoundaryKind::period;
  d.period = p;
  d.iterations = std::move(iterations);
  for (std::size_t i = 0; i < d.iterations.size(); ++i) {
    if (d.iterations[i].size() != p || hash(d.iterations[i]) != reference) continue;
    ++d.exact;
    d.reference = i;
  }
  if (d.iterations.size() < 2 || d.exact == 0) return std::nullopt;
  return d;
}

}  // namespace tidepool::iteration
