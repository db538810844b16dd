// Guided local search over overlaps (see overlap_search.h).
#include "analyzer/packing/overlap_search.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <exception>
#include <numeric>
#include <random>
#include <system_error>
#include <thread>
#include <utility>

#include "analyzer/packing/orders.h"
#include "analyzer/packing/overlap_breakpoints.h"

namespace tidepool::packing {
namespace {

// A height not packed within this many local minima is tried again from the last packing, with a
// band half as high (the pair weights are kept). On nine cut instances on coarse times (2,000 and
// 10,000 items, two seeds, 5 s each from the portfolio's packing at 5 s), the mean height over the
// bound: 1,500 1.0660, 3,000 1.0622, 6,000 1.0589, 12,000 1.0624.
constexpr long kMinimaPerHeight = 6000;
// The first band removed is this share of the bound or kFirstBandOfGap of the way down to it, at
// least a grain: heights far above the grain come down in steps a search can repair, and far above
// the bound, in steps that get there (a stack of 200 items came down 8 bytes at a time without).
constexpr double kFirstBandShare = 1.0 / 500;
constexpr double kFirstBandOfGap = 1.0 / 16;
// A move must lower the item's weighted overlap by this share of it: on fine grains (2^20 grains
// high) smaller gains let the search creep down a slope for millions of moves without ever
// reaching a local minimum (c-2000-2: no height lower in 10 s; with it, 1.0539 -> 1.0377).
constexpr double kLeastGain = 1e-3;
// An item's offsets are all swept (no sort) when it has at most this many offsets per breakpoint of
// its weighted overlap (instances a few hundred grains high; one run each, 5 s from the portfolio's
// packing at 10 s: c-2000-11 1.0742 -> 1.0547, t-2000-19 1.0742 -> 1.0664, c-2000-5 1.0391 both).
constexpr std::int64_t kDenseSweepShare = 4;
// The search gives up after this many attempts in a row at one height with a band of one grain
// (so that it ends without a deadline, where the target cannot be packed): far more than 10 s
// allow on the cut instances (an attempt takes 0.1-1 s there).
constexpr int kMaxFailedAttempts = 100;
// The emptiest band is found row by row up to this height (in grains; a double per row), and above it
// at the rows where the fill changes (a sort of the items' bottoms and tops): an instance 2^32 bytes
// high on a grain of one byte cannot have a double per row (std::bad_alloc until session 32).
constexpr std::int64_t kRowByRowHeight = std::int64_t{1} << 22;
// Each item's sorted breakpoints are kept (overlap_breakpoints.h), up to this many in all (16
// bytes each: 64 MB).
constexpr std::size_t kMaxKeptBreakpoints = std::size_t{1} << 22;
// The deadline is read once per this many moves tried.
constexpr int kTriesPerClockRead = 64;

// Common time of two items' live intervals (ascending, apart: normalized).
double common_time(const Item& a, const Item& b) {
  Time common = 0;
  auto i = a.live.begin();
  auto j = b.live.begin();
  while (i != a.live.end() && j != b.live.end()) {
    common += std::max<Time>(0, std::min(i->upper, j->upper) - std::max(i->lower, j->lower));
    if (i->upper < j->upper) ++i; else ++j;
  }
  return static_cast<double>(common);
}

// Grains two items share in address, at offsets y and y_other (in grains).
std::int64_t common_grains(std::int64_t y, std::int64_t size, std::int64_t y_other, std::int64_t size_other) {
  return std::max<std::int64_t>(0, std::min(y + size, y_other + size_other) - std::max(y, y_other));
}

class OverlapSearch {
 public:
  OverlapSearch(const Problem& problem, std::span<const Bytes> offsets, Bytes target,
                std::uint64_t seed)
      : grain_(granularity(problem)), rng_(seed), kept_(problem.items.size(), kMaxKeptBreakpoints) {
    const std::size_t n = problem.items.size();
    size_.resize(n);
    alignment_.resize(n);
    y_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Item& item = problem.items[i];
      size_[i] = static_cast<std::int64_t>(item.size / grain_);
      alignment_[i] = static_cast<std::int64_t>(std::max<Bytes>(item.alignment / grain_, 1));
      y_[i] = static_cast<std::int64_t>(offsets[i] / grain_);
      height_ = std::max(height_, y_[i] + size_[i]);
    }
    target_ = static_cast<std::int64_t>((target + grain_ - 1) / grain_);
    band_ = std::max<std::int64_t>({1, static_cast<std::int64_t>(kFirstBandShare * static_cast<double>(target_)),
                                    static_cast<std::int64_t>(kFirstBandOfGap * static_cast<double>(height_ - target_))});
    for (const Item& item : problem.items) length_.push_back(static_cast<double>(live_length(item)));
    link_neighbours(problem);
    conflicts_.assign(n, 0);
    queued_.assign(n, false);
    swept_every_offset_.assign(n, false);
    place_in_conflicting_.assign(n, 0);
  }

  // The lowest packing found, in grains, if lower than the start. Stops early when `target_packed`
  // is set (by this search or another), and sets it when this one packs the target.
  std::optional<std::vector<std::int64_t>> run(Deadline deadline,
                                               std::atomic<bool>& target_packed) {
    packed_ = y_;
    packed_height_ = height_;
    bool lowered = false;
    int tries = 0;
    if (packed_height_ > target_) lower();
    while (packed_height_ > target_) {
      if (++tries == kTriesPerClockRead) {
        tries = 0;
        if (deadline.passed() || target_packed.load(std::memory_order_relaxed)) break;
      }
      if (!queue_.empty()) {
        try_move(pop());
        continue;
      }
      if (conflicting_.empty()) {
        packed_ = y_;
        packed_height_ = height_;
        lowered = true;
        failed_attempts_ = 0;
        if (packed_height_ > target_) lower();
        continue;
      }
      if (++minima_ - minima_at_lowering_ > kMinimaPerHeight) {
        if (band_ == 1 && ++failed_attempts_ == kMaxFailedAttempts) break;
        y_ = packed_;
        height_ = packed_height_;
        band_ = std::max<std::int64_t>(1, band_ / 2);
        lower();
        continue;
      }
      weigh_overlapping_pairs();
    }
    if (packed_height_ <= target_) target_packed.store(true, std::memory_order_relaxed);
    if (!lowered) return std::nullopt;
    return packed_;
  }

  Bytes grain() const { return grain_; }

 private:
  struct Neighbour {
    std::uint32_t item;
    std::uint32_t back;  // this pair's entry in the other item's list
    double common_time;
    double weight;
  };

  // Neighbour lists of the time-overlapping pairs, by a sweep over first starts.
  void link_neighbours(const Problem& problem) {
    const std::size_t n = problem.items.size();
    neighbours_.resize(n);
    std::vector<std::size_t> by_start(n);
    std::iota(by_start.begin(), by_start.end(), 0);
    std::ranges::sort(by_start, {}, [&](std::size_t i) { return first_start(problem.items[i]); });
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = by_start[k];
      const Time end = last_end(problem.items[i]);
      for (std::size_t m = k + 1; m < n && first_start(problem.items[by_start[m]]) < end; ++m) {
        const std::size_t j = by_start[m];
        const double time = common_time(problem.items[i], problem.items[j]);
        if (time == 0) continue;
        const auto at_i = static_cast<std::uint32_t>(neighbours_[i].size());
        const auto at_j = static_cast<std::uint32_t>(neighbours_[j].size());
        neighbours_[i].push_back({static_cast<std::uint32_t>(j), at_j, time, 1.0});
        neighbours_[j].push_back({static_cast<std::uint32_t>(i), at_i, time, 1.0});
      }
    }
  }

  // Removes the emptiest band of rows (emptiest_band), then looks at every item that overlaps.
  void lower() {
    const std::int64_t band = std::min(band_, height_ - target_);
    const std::int64_t row = emptiest_band(band);
    height_ -= band;
    for (std::size_t i = 0; i < y_.size(); ++i) {
      std::int64_t y = y_[i] >= row + band ? y_[i] - band : std::min(y_[i], row);
      y = std::min(y, height_ - size_[i]);
      y_[i] = y / alignment_[i] * alignment_[i];
    }
    recount();
    kept_.forget_all();
    queue_.clear();
    queued_.assign(queued_.size(), false);
    for (std::size_t i = 0; i < y_.size(); ++i) {
      if (conflicts_[i] > 0) push(i);
    }
    std::ranges::shuffle(queue_, rng_);
    minima_at_lowering_ = minima_;
  }

  // The first row of the band of `band` rows that items fill least (live time x rows), ties drawn.
  std::int64_t emptiest_band(std::int64_t band) {
    return height_ <= kRowByRowHeight ? emptiest_band_by_rows(band) : emptiest_band_at_changes(band);
  }

  // Row by row: each row's fill, then every window of `band` rows.
  std::int64_t emptiest_band_by_rows(std::int64_t band) {
    occupancy_.assign(static_cast<std::size_t>(height_) + 1, 0.0);
    for (std::size_t i = 0; i < y_.size(); ++i) {
      occupancy_[static_cast<std::size_t>(y_[i])] += length_[i];
      occupancy_[static_cast<std::size_t>(y_[i] + size_[i])] -= length_[i];
    }
    double filled = 0;  // of the row
    for (std::int64_t r = 0; r < height_; ++r) {
      filled += occupancy_[static_cast<std::size_t>(r)];
      occupancy_[static_cast<std::size_t>(r)] = filled;
    }
    double window = 0;
    for (std::int64_t r = 0; r < band; ++r) window += occupancy_[static_cast<std::size_t>(r)];
    BandChoice choice{0, window};
    for (std::int64_t r = 1; r + band <= height_; ++r) {
      window += occupancy_[static_cast<std::size_t>(r + band - 1)] - occupancy_[static_cast<std::size_t>(r - 1)];
      consider_band(choice, r, window);
    }
    return choice.row;
  }

  // At the rows where the fill changes (items' bottoms and tops): a window's fill is linear in its
  // first row between the rows where its first or its last row crosses a change, so its least is
  // at one of those.
  std::int64_t emptiest_band_at_changes(std::int64_t band) {
    changes_.clear();
    for (std::size_t i = 0; i < y_.size(); ++i) {
      changes_.push_back({y_[i], length_[i], 0});
      changes_.push_back({y_[i] + size_[i], -length_[i], 0});
    }
    std::ranges::sort(changes_, {}, &FillChange::row);
    // Each change's `fill`: the row's fill from there on; `below`: the fill of the rows under it.
    double fill = 0;
    double below = 0;
    for (std::size_t k = 0; k < changes_.size(); ++k) {
      if (k > 0) below += fill * static_cast<double>(changes_[k].row - changes_[k - 1].row);
      fill += changes_[k].fill;
      changes_[k].fill = fill;
      changes_[k].below = below;
    }
    const auto filled_below = [&](std::int64_t row) {  // the fill of the rows under `row`
      const auto after = std::ranges::upper_bound(changes_, row, {}, &FillChange::row);
      if (after == changes_.begin()) return 0.0;
      const FillChange& at = *std::prev(after);
      return at.below + at.fill * static_cast<double>(row - at.row);
    };
    const std::int64_t last = height_ - band;
    starts_.assign({0, last});
    for (const FillChange& change : changes_) {
      for (const std::int64_t row : {change.row, change.row - band}) {
        if (row > 0 && row < last) starts_.push_back(row);
      }
    }
    std::ranges::sort(starts_);
    const auto repeated = std::ranges::unique(starts_);
    starts_.erase(repeated.begin(), repeated.end());
    BandChoice choice{0, filled_below(band)};
    for (std::size_t k = 1; k < starts_.size(); ++k) {
      const std::int64_t row = starts_[k];
      consider_band(choice, row, filled_below(row + band) - filled_below(row));
    }
    return choice.row;
  }

  // The emptiest band so far, and how many were found as empty (drawn among uniformly).
  struct BandChoice {
    std::int64_t row;
    double least;
    std::uint64_t ties = 1;
  };
  void consider_band(BandChoice& choice, std::int64_t row, double window) {
    if (window < choice.least - 0.5) {
      choice = {row, window, 1};
    } else if (window < choice.least + 0.5 && rng_() % ++choice.ties == 0) {
      choice.row = row;
    }
  }

  // Grains items i (at offset y) and j (where it is) share in address.
  std::int64_t shared_grains(std::size_t i, std::int64_t y, std::size_t j) const {
    return common_grains(y, size_[i], y_[j], size_[j]);
  }

  // Each pair looked at once, from its first item (at each lowering, the whole instance's pairs).
  void recount() {
    std::ranges::fill(conflicts_, 0);
    for (std::size_t i = 0; i < y_.size(); ++i) {
      int conflicts = 0;
      for (const Neighbour& pair : neighbours_[i]) {
        if (pair.item < i) continue;
        const bool overlapping = shared_grains(i, y_[i], pair.item) > 0;
        conflicts += overlapping;
        conflicts_[pair.item] += overlapping;
      }
      conflicts_[i] += conflicts;
    }
    conflicting_.clear();
    for (std::size_t i = 0; i < y_.size(); ++i) {
      if (conflicts_[i] > 0) list_conflicting(i);
    }
  }

  void list_conflicting(std::size_t i) {
    place_in_conflicting_[i] = static_cast<std::uint32_t>(conflicting_.size());
    conflicting_.push_back(static_cast<std::uint32_t>(i));
  }

  // Item i's conflicts changed; whether it had any before.
  void conflicts_changed(std::size_t i, bool had) {
    if ((conflicts_[i] > 0) == had) return;
    if (!had) {
      list_conflicting(i);
      return;
    }
    const std::uint32_t place = place_in_conflicting_[i];
    conflicting_[place] = conflicting_.back();
    place_in_conflicting_[conflicting_[place]] = place;
    conflicting_.pop_back();
  }

  void push(std::size_t i) {
    if (queued_[i]) return;
    queued_[i] = true;
    queue_.push_back(i);
  }

  std::size_t pop() {
    const std::size_t i = queue_.back();
    queue_.pop_back();
    queued_[i] = false;
    return i;
  }

  // Moves an overlapping item to its best offset, if that lowers its weighted overlap enough.
  void try_move(std::size_t i) {
    if (conflicts_[i] == 0) return;
    const auto [y, least, now] = best_offset(i);
    if (!(least < now - kLeastGain * now)) return;
    move(i, y);
    for (const Neighbour& pair : neighbours_[i]) {
      if (conflicts_[pair.item] > 0) push(pair.item);
    }
    if (conflicts_[i] > 0) push(i);
  }

  // Where a neighbour's four breakpoints, in order, have the slope fall (Breakpoint::falls).
  static constexpr std::array<std::uint32_t, 4> kSlopeFalls = {0, 1, 1, 0};

  struct BestOffset {
    std::int64_t y;
    double overlap;  // weighted, at y
    double now;      // weighted, at the item's offset
  };

  // The aligned offset under the height with the least weighted overlap for item i (ties drawn at
  // random), that overlap, and the item's where it is (read off the same sweep). Each neighbour
  // adds a trapezoid in y: rising by its weight from where the two begin to share grains, flat
  // while the smaller is inside the larger, falling to where they part; the sum is swept over the
  // breakpoints, and on each linear piece the aligned ends are the candidates. A breakpoint names
  // its neighbour, whose weight it takes when swept, so that sorted breakpoints can be kept.
  BestOffset best_offset(std::size_t i) {
    const std::int64_t size = size_[i];
    const std::int64_t top = (height_ - size) / alignment_[i] * alignment_[i];
    const bool kept = kept_.kept(i);
    // Guessed from the item's last look: its offsets are all swept, and the slope's changes are
    // added up by offset while the neighbours are read instead of listed first (listing and then
    // adding them up was a fifth of the search's samples on c-10000-8, 256 grains high).
    const bool adding_up = !kept && swept_every_offset_[i];
    breakpoints_.clear();
    if (adding_up) slope_changes_.assign(static_cast<std::size_t>(top) + 1, 0.0);
    const std::span<const Neighbour> neighbours = neighbours_[i];  // held: push_back may reload
    if (signed_weights_.size() < 2 * neighbours.size())
      signed_weights_.resize(2 * neighbours.size());
    double* const signed_weights = signed_weights_.data();
    // Neighbour n's breakpoints (all four), and whether it shares offsets under the top at all.
    const auto breakpoints_of = [&](std::uint32_t n, std::array<std::int64_t, 4>& points) {
      const std::int64_t y = y_[neighbours[n].item];
      const std::int64_t other = size_[neighbours[n].item];
      const std::int64_t inside = std::min(size, other);
      points = {y - size, y - size + inside, y + other - inside, y + other};
      return points[3] > 0 && points[0] < top;
    };
    std::array<std::int64_t, 4> points{};
    // Lists neighbour n's breakpoints in (0, top).
    const auto list_breakpoints = [&](std::uint32_t n) {
      if (!breakpoints_of(n, points)) return;
      for (std::size_t k = 0; k < 4; ++k) {
        if (points[k] > 0 && points[k] < top)
          breakpoints_.push_back({points[k], n, kSlopeFalls[k]});
      }
    };
    double value = 0;
    double slope = 0;
    std::size_t under_top = 0;  // breakpoints in (0, top)
    for (std::uint32_t n = 0; n < neighbours.size(); ++n) {
      if (!breakpoints_of(n, points)) continue;
      const Neighbour& pair = neighbours[n];
      const double c = pair.weight * pair.common_time;
      signed_weights[2 * n] = c;
      signed_weights[2 * n + 1] = -c;
      value += c * static_cast<double>(common_grains(0, size, y_[pair.item], size_[pair.item]));
      for (std::size_t k = 0; k < 4; ++k) {
        const double change = signed_weights[2 * n + kSlopeFalls[k]];
        if (points[k] <= 0) {
          slope += change;
        } else if (points[k] < top) {
          ++under_top;
          if (adding_up)
            slope_changes_[static_cast<std::size_t>(points[k])] += change;
          else if (!kept)
            breakpoints_.push_back({points[k], n, kSlopeFalls[k]});
        }
      }
    }
    const bool every_offset = top <= kDenseSweepShare * static_cast<std::int64_t>(under_top);
    swept_every_offset_[i] = every_offset;
    if (adding_up && !every_offset) {  // guessed wrong: listed after all
      for (std::uint32_t n = 0; n < neighbours.size(); ++n) list_breakpoints(n);
    }
    std::span<const Breakpoint> sorted;
    if (kept) {  // the moved neighbours' breakpoints now, merged into the kept ones
      for (const std::uint32_t n : kept_.moved(i)) list_breakpoints(n);
      sort_breakpoints(breakpoints_, top, scratch_);
      sorted = kept_.patch(i, breakpoints_);
    }
    const auto change = [&](const Breakpoint& point) {
      return signed_weights[2 * point.neighbour + point.falls];
    };
    std::int64_t best_y = 0;
    double least = value;
    std::uint64_t ties = 1;
    const auto consider = [&](std::int64_t y, double overlap) {
      if (overlap < least - 1e-9 * least) {
        least = overlap;
        best_y = y;
        ties = 1;
      } else if (overlap <= least + 1e-9 * least && rng_() % ++ties == 0) {
        best_y = y;
      }
    };
    const std::int64_t align = alignment_[i];
    const std::int64_t here = y_[i];
    double now = 0;
    if (every_offset) {
      // Few offsets: every one is swept, with the slope's changes in an array instead of sorted.
      // The aligned ones are counted off, not found by division: a division per offset took a
      // tenth of the search's samples on c-2000-5 (256 grains high), where without it the search
      // tries 1.09 times the moves in 3 s (best of three runs each; 1.01 on c-10000-5, 1.04 on
      // c-2000-11).
      if (!adding_up) {
        slope_changes_.assign(static_cast<std::size_t>(top) + 1, 0.0);
        for (const Breakpoint& at : kept ? sorted : breakpoints_)
          slope_changes_[static_cast<std::size_t>(at.at)] += change(at);
      }
      std::int64_t next_aligned = 0;
      for (std::int64_t y = 0; y <= top; ++y) {
        slope += slope_changes_[static_cast<std::size_t>(y)];
        if (y == next_aligned) {
          consider(y, value);
          next_aligned += align;
        }
        if (y == here) now = value;
        value += slope;
      }
      return {best_y, least, now};
    }
    if (!kept) {
      sort_breakpoints(breakpoints_, top, scratch_);
      sorted = kept_.keep(i, breakpoints_);
    }
    std::int64_t y = 0;
    std::size_t k = 0;
    while (y < top) {
      // [y, end] is linear with `slope`; its aligned ends are the candidates (found without
      // dividing where every offset is aligned: the two 64-bit divisions per piece were among the
      // sweep's costliest instructions under `perf`). An offset between two pieces is a candidate
      // of both, and so is drawn twice as often among ties as 0 and the top; drawing each offset
      // once ended higher on 6 of the 7 tuning cut instances of 10,000 items not at the bound
      // (t-10000-26 1.0729 -> 1.0860; session 56).
      const std::int64_t end = k < sorted.size() ? sorted[k].at : top;
      const std::int64_t first = align == 1 ? y : (y + align - 1) / align * align;
      const std::int64_t last = align == 1 ? end : end / align * align;
      if (first <= end) consider(first, value + slope * static_cast<double>(first - y));
      if (last >= y && last != first) consider(last, value + slope * static_cast<double>(last - y));
      if (y <= here && here <= end) now = value + slope * static_cast<double>(here - y);
      value += slope * static_cast<double>(end - y);
      y = end;
      while (k < sorted.size() && sorted[k].at == y) slope += change(sorted[k++]);
    }
    if (top == 0) {
      consider(0, value);
      now = value;
    }
    return {best_y, least, now};
  }

  void move(std::size_t i, std::int64_t y) {
    const bool was_conflicting = conflicts_[i] > 0;
    for (const Neighbour& pair : neighbours_[i]) {
      const std::size_t j = pair.item;
      kept_.neighbour_moved(j, pair.back);
      const bool before = shared_grains(i, y_[i], j) > 0;
      const bool after = shared_grains(i, y, j) > 0;
      const int counted = int{after} - int{before};
      if (counted == 0) continue;
      const bool other_was = conflicts_[j] > 0;
      conflicts_[i] += counted;
      conflicts_[j] += counted;
      conflicts_changed(j, other_was);
    }
    conflicts_changed(i, was_conflicting);
    y_[i] = y;
  }

  // At a local minimum: every overlapping pair weighs more, the most overlapping by 1. The pairs
  // are listed in one pass (found in two, once for the largest overlap and again to weigh them,
  // this was a fifth of the search's samples on c-10000-8, 256 grains high).
  void weigh_overlapping_pairs() {
    double most = 0;
    overlapping_.clear();
    in_order_.assign(conflicting_.begin(), conflicting_.end());
    std::ranges::sort(in_order_);  // the pairs weighed, and so the items queued, in item order
    for (const std::uint32_t i : in_order_) {
      const std::span<const Neighbour> neighbours = neighbours_[i];
      for (std::uint32_t n = 0; n < neighbours.size(); ++n) {
        const Neighbour& pair = neighbours[n];
        if (pair.item < i) continue;
        const double overlap =
            pair.common_time * static_cast<double>(shared_grains(i, y_[i], pair.item));
        if (overlap == 0) continue;
        most = std::max(most, overlap);
        overlapping_.push_back({i, n, overlap});
      }
    }
    for (const OverlappingPair& overlapping : overlapping_) {
      Neighbour& pair = neighbours_[overlapping.item][overlapping.neighbour];
      pair.weight += overlapping.overlap / most;
      neighbours_[pair.item][pair.back].weight = pair.weight;
      push(overlapping.item);
      push(pair.item);
    }
    std::ranges::shuffle(queue_, rng_);
  }

  const Bytes grain_;
  std::mt19937_64 rng_;
  std::vector<std::int64_t> size_, alignment_, y_;  // in grains
  std::vector<std::vector<Neighbour>> neighbours_;
  std::vector<int> conflicts_;         // neighbours each item overlaps
  // The items with conflicts, in no order, and each one's place there (kept as moves change them:
  // at each local minimum, a scan of all items for them was 3% of the search's samples on
  // c-10000-8).
  std::vector<std::uint32_t> conflicting_;
  std::vector<std::uint32_t> place_in_conflicting_;
  std::vector<std::uint32_t> in_order_;  // weigh_overlapping_pairs': conflicting_, sorted
  std::vector<std::size_t> queue_;     // overlapping items to try moving
  std::vector<bool> queued_;
  struct OverlappingPair {
    std::uint32_t item;
    std::uint32_t neighbour;  // in the item's list
    double overlap;           // common time x common grains
  };
  std::vector<OverlappingPair> overlapping_;  // weigh_overlapping_pairs'
  std::vector<Breakpoint> breakpoints_;
  std::vector<Breakpoint> scratch_;    // sort_breakpoints'
  std::vector<double>
      signed_weights_;  // best_offset's: by neighbour, weight x common time and its negative
  KeptBreakpoints kept_;
  std::vector<double> length_;     // each item's live time
  std::vector<double> occupancy_;  // by row: the live time of the items in it
  struct FillChange {
    std::int64_t row;
    double fill;   // the change of a row's fill here, then the fill from here on
    double below;  // the fill of the rows under this one
  };
  std::vector<FillChange> changes_;  // on instances higher than kRowByRowHeight
  std::vector<std::int64_t> starts_;  // the bands' first rows looked at there
  std::vector<double> slope_changes_;  // by offset, when every offset is swept
  std::vector<bool> swept_every_offset_;  // by item, at its last look (best_offset's guess)
  std::int64_t height_ = 0, target_ = 0, band_ = 1;
  std::vector<std::int64_t> packed_;  // the lowest packing found
  std::int64_t packed_height_ = 0;
  long minima_ = 0, minima_at_lowering_ = 0;
  int failed_attempts_ = 0;  // in a row, with a band of one grain
};

// One search with `seed`, its packing in bytes; it stops early once `target_packed` is set.
std::optional<std::vector<Bytes>> lower_until(const Problem& problem,
                                              std::span<const Bytes> offsets, Bytes target,
                                              Deadline deadline, std::uint64_t seed,
                                              std::atomic<bool>& target_packed) {
  OverlapSearch search(problem, offsets, target, seed);
  auto lowered = search.run(deadline, target_packed);
  if (!lowered) return std::nullopt;
  std::vector<Bytes> result(lowered->size());
  for (std::size_t i = 0; i < result.size(); ++i) result[i] = static_cast<Bytes>((*lowered)[i]) * search.grain();
  return result;
}

}  // namespace

std::optional<std::vector<Bytes>> lower_by_overlaps(const Problem& problem,
                                                    std::span<const Bytes> offsets, Bytes target,
                                                    Deadline deadline, std::uint64_t seed) {
  std::atomic<bool> target_packed = false;
  return lower_until(problem, offsets, target, deadline, seed, target_packed);
}

std::optional<std::vector<Bytes>> lower_by_overlaps_concurrently(
    const Problem& problem, std::span<const Bytes> offsets, Bytes target, Deadline deadline,
    std::span<const std::uint64_t> seeds) {
  std::atomic<bool> target_packed = false;
  std::vector<std::optional<std::vector<Bytes>>> found(seeds.size());
  std::vector<std::exception_ptr> errors(seeds.size());
  const StopDeadlinesWhen::Inherited callers = StopDeadlinesWhen::current();
  const auto search = [&](std::size_t k) {
    const StopDeadlinesWhen stopping = StopDeadlinesWhen::inheriting(callers);
    try {
      found[k] = lower_until(problem, offsets, target, deadline, seeds[k], target_packed);
    } catch (...) {
      errors[k] = std::current_exception();
      target_packed = true;  // no reason to go on: the error is what the caller gets
    }
  };
  {
    std::vector<std::jthread> others;
    for (std::size_t k = 1; k < seeds.size(); ++k) {
      try {
        others.emplace_back(search, k);
      } catch (const std::system_error&) {
        break;  // no more threads: the searches started are enough
      }
    }
    if (!seeds.empty()) search(0);
  }  // joined
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  std::optional<std::vector<Bytes>> lowest;
  Bytes lowest_height = 0;
  for (auto& offsets_found : found) {
    if (!offsets_found) continue;
    const Bytes height = height_of(problem, *offsets_found);
    if (!lowest || height < lowest_height) {
      lowest = std::move(offsets_found);
      lowest_height = height;
    }
  }
  return lowest;
}

}  // namespace tidepool::packing
