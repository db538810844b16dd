// The split of band_split.h: a block cut in time by a sweep over its items by start, split into
// bands by union-find over its items (one pass over its events per time), then each piece or band
// split again.
#include "analyzer/packing/band_split.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <set>

#include "analyzer/packing/holes.h"

namespace tidepool::packing {
namespace {

// Splits the blocks of one problem.
class BandSplitter {
 public:
  BandSplitter(const Problem& problem, Guessing guessing, std::uint64_t seed)
      : problem_(problem),
        parent_(problem.items.size()),
        stamp_(problem.items.size(), 0),
        band_stamp_(problem.items.size(), 0),
        band_index_(problem.items.size()),
        guessing_(guessing),
        shuffle_(seed != 0),
        random_(seed) {}

  Split split(Deadline deadline) {
    Block all{std::vector<std::uint32_t>(problem_.items.size()), std::numeric_limits<Time>::max(),
              std::numeric_limits<Time>::min()};
    std::iota(all.items.begin(), all.items.end(), 0U);
    for (const std::uint32_t i : all.items) {
      all.begin = std::min(all.begin, start(i));
      all.end = std::max(all.end, end(i));
    }
    split_.nodes = {Node{}};
    std::vector<Block> todo = {std::move(all)};
    while (!todo.empty()) {
      Block block = std::move(todo.back());
      todo.pop_back();
      if (block.items.size() == 1) {
        split_.single_items.emplace_back(block.items.front(), block.node);
      } else if (deadline.passed() ||  // a clock read per block: far less than its work
                 ((block.cut || !cut_in_time(block, todo)) &&
                  (block.banded || !split_into_bands(block, todo, deadline)))) {
        split_.left.push_back(std::move(block));
      }
    }
    return std::move(split_);
  }

 private:
  struct Event {
    Time time;
    std::uint32_t item;
    Bytes change;  // +size where the item starts, -size where it ends
  };

  Time start(std::uint32_t i) const { return problem_.items[i].live.front().lower; }
  Time end(std::uint32_t i) const { return problem_.items[i].live.front().upper; }

  // The events of one time, waiting for its holes to be joined.
  struct Waiting {
    std::size_t first = 0;  // in events_
    std::size_t last = 0;
    bool joined = false;
    bool queued = false;
    std::size_t parts = 0;  // when last looked at: the parts it had, if few enough to guess, else 0
  };

  // Union-find over the items; `generation_` starts a fresh one per block.
  std::uint32_t find(std::uint32_t x) {
    if (stamp_[x] != generation_) {
      stamp_[x] = generation_;
      parent_[x] = x;
    }
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }
  void unite(std::uint32_t a, std::uint32_t b) {
    const std::uint32_t joined = find(a);
    parent_[joined] = find(b);
    if (guessing_ == Guessing::surest_first) wake_watchers(joined);
  }

  // Guessing::surest_first. A time that waits watches the parts it had; when one of them joins
  // another (its root changes), the time is looked at again: its holes may be certain now. (When a
  // part it did not have joins one it had whose root stays, that part's net there is the same.)
  void join_surest_first() {
    const std::size_t items = problem_.items.size();
    if (watchers_.size() < items) watchers_.resize(items);
    queue_.clear();
    for (std::uint32_t t = 0; t < waiting_.size(); ++t) queue_.push_back(t);
    for (Waiting& time : waiting_) time.queued = true;
    guessable_.clear();
    for (;;) {
      while (!queue_.empty()) {
        const std::uint32_t t = queue_.back();
        queue_.pop_back();
        Waiting& time = waiting_[t];
        time.queued = false;
        if (time.joined) continue;
        if (time.parts != 0) guessable_.erase({time.parts, t});
        if (join_holes(time, Unclear::wait)) {
          time.joined = true;
          continue;
        }
        for (const auto& [root, net] : nets_) watchers_[root].push_back(t);
        const bool few = ending_.size() <= kMaxHoleSide && starting_.size() <= kMaxHoleSide;
        time.parts = few ? nets_.size() : 0;
        if (few) guessable_.insert({time.parts, t});
      }
      if (guessable_.empty()) break;
      const std::uint32_t t = guessable_.begin()->second;
      guessable_.erase(guessable_.begin());
      waiting_[t].joined = join_holes(waiting_[t], Unclear::guess);
    }
    for (const Waiting& time : waiting_) {
      for (std::size_t k = time.first; k < time.last; ++k) watchers_[events_[k].item].clear();
    }
  }

  void wake_watchers(std::uint32_t root) {
    for (const std::uint32_t t : watchers_[root]) {
      if (waiting_[t].joined || waiting_[t].queued) continue;
      waiting_[t].queued = true;
      queue_.push_back(t);
    }
    watchers_[root].clear();
  }

  // The block's connected parts, as bands from its base up. Holes are found between parts rather
  // than items: at each time inside the block, the parts that items end or start in, with their
  // net change there (a part whose items ending and starting there balance needs no other); the
  // smallest groups of parts whose changes cancel are the holes (holes.h; where that is ambiguous,
  // the groups found first: the result is checked). Times with too many parts to tell wait until
  // parts joined elsewhere make them fewer; those that never do are guessed at with more parts
  // looked at, and beyond that join all their unbalanced parts.
  bool split_into_bands(const Block& block, std::vector<Block>& todo, Deadline deadline) {
    ++generation_;
    events_.clear();
    for (const std::uint32_t i : block.items) {
      if (start(i) > block.begin) events_.push_back({start(i), i, problem_.items[i].size});
      if (end(i) < block.end) events_.push_back({end(i), i, -problem_.items[i].size});
    }
    std::ranges::sort(events_, {}, &Event::time);
    waiting_.clear();
    for (std::size_t k = 0; k < events_.size();) {
      std::size_t next = k;
      for (; next < events_.size() && events_[next].time == events_[k].time; ++next) {
      }
      waiting_.push_back({k, next});
      k = next;
    }
    if (guessing_ == Guessing::as_found) {
      // Rounds until no time is joined, or until the deadline: the times left are joined below,
      // as one hole each (sound, coarser bands). At 1,000,000 items on coarse times these rounds
      // take 0.9-1.3 s; unstopped, they ran 0.24 s past the split's deadline in a traced run.
      std::uint64_t looked_at = 0;
      for (bool progress = true; progress && !waiting_.empty();) {
        progress = false;
        std::erase_if(waiting_, [&](const Waiting& time) {
          if (deadline.passed_at(++looked_at, 0, Deadline::kCostlyStride)) return false;
          const bool joined = join_holes(time, Unclear::guess);
          progress = progress || joined;
          return joined;
        });
      }
    } else {
      join_surest_first();
    }
    // Times with too many parts to guess at before are guessed at now, looking at more parts
    // (kMaxGuessSide a side: 2^20 subsets take 10-20 ms, so not past the deadline); beyond that,
    // all their parts are one hole.
    for (const Waiting& time : waiting_) {
      if (time.joined) continue;
      if (deadline.passed() || !join_holes(time, Unclear::guess, kMaxGuessSide)) {
        join_holes(time, Unclear::one_hole);
      }
    }
    // The bands by root, each with its items in the block's order (by start, after a cut in time:
    // the next cut need not sort them).
    std::vector<std::pair<std::uint32_t, Block>> bands;  // (root, band)
    for (const std::uint32_t i : block.items) {
      const std::uint32_t root = find(i);
      if (band_stamp_[root] != generation_) {
        band_stamp_[root] = generation_;
        band_index_[root] = static_cast<std::uint32_t>(bands.size());
        bands.emplace_back(root, Block{{}, block.begin, block.end, 0, false, true});
      }
      bands[band_index_[root]].second.items.push_back(i);
    }
    if (bands.size() == 1) return false;
    std::ranges::sort(bands, {}, &std::pair<std::uint32_t, Block>::first);
    split_.nodes[block.node].stacked = true;
    for (auto& [root, band] : bands) {
      band.node = child_of(block.node);
      todo.push_back(std::move(band));
    }
    return true;
  }

  // What join_holes does at a time whose holes sizes do not tell for certain.
  enum class Unclear {
    wait,      // nothing
    guess,     // the groups found first, if the parts are few enough to look at
    one_hole,  // all its parts in one hole (coarser bands, still sound)
  };

  // Joins the parts in each hole at one time, looking at up to `max_side` parts a side; returns
  // whether it did.
  bool join_holes(const Waiting& time, Unclear unclear, std::size_t max_side = kMaxHoleSide) {
    const bool forced = unclear == Unclear::one_hole;
    nets_.clear();
    for (std::size_t k = time.first; k < time.last; ++k)
      nets_.emplace_back(find(events_[k].item), events_[k].change);
    std::ranges::sort(nets_);
    std::size_t parts = 0;
    for (std::size_t k = 0; k < nets_.size();) {
      const std::uint32_t root = nets_[k].first;
      Bytes net = 0;
      for (; k < nets_.size() && nets_[k].first == root; ++k) net += nets_[k].second;
      if (net != 0) nets_[parts++] = {root, net};
    }
    nets_.resize(parts);
    if (shuffle_ && !forced) std::ranges::shuffle(nets_, random_);
    ending_.clear();
    starting_.clear();
    for (const auto& [root, net] : nets_)
      (net < 0 ? ending_ : starting_).push_back(net < 0 ? -net : net);
    std::optional<HoleSplit> split;
    if (!forced && ending_.size() > 1 && starting_.size() > 1) {
      split = split_into_holes(
          ending_, starting_,
          unclear == Unclear::guess ? Ambiguity::first_found : Ambiguity::unknown, max_side);
      if (!split) return false;
    }
    std::vector<std::uint32_t> hole_root(split ? split->holes : 1, kUnknownHole);
    std::size_t e = 0;
    std::size_t s = 0;
    for (const auto& [root, net] : nets_) {
      const std::uint32_t hole = !split ? 0 : net < 0 ? split->ending[e++] : split->starting[s++];
      if (hole_root[hole] == kUnknownHole) {
        hole_root[hole] = root;
      } else {
        unite(root, hole_root[hole]);
      }
    }
    return true;
  }

  // Pieces of the block between times that no item is live across.
  bool cut_in_time(Block& block, std::vector<Block>& todo) {
    const auto by_start = [&](std::uint32_t i) { return std::pair(start(i), i); };
    if (!std::ranges::is_sorted(block.items, {}, by_start)) {
      // Sorted as (start, item) pairs side by side: through each item's intervals, a comparison
      // took two loads from far apart (5% of perfect:1000000:1:300000's samples at 10 s).
      starts_.clear();
      for (const std::uint32_t i : block.items) starts_.push_back(by_start(i));
      std::ranges::sort(starts_);
      for (std::size_t k = 0; k < starts_.size(); ++k) block.items[k] = starts_[k].second;
    }
    std::vector<Block> pieces = {Block{{}, block.begin, block.end, 0, true}};
    Time reach = block.begin;
    for (const std::uint32_t i : block.items) {
      if (start(i) >= reach && !pieces.back().items.empty()) {
        pieces.back().end = start(i);
        pieces.push_back(Block{{}, start(i), block.end, 0, true});
      }
      pieces.back().items.push_back(i);
      reach = std::max(reach, end(i));
    }
    if (pieces.size() == 1) return false;
    for (Block& piece : pieces) {
      piece.node = child_of(block.node);
      todo.push_back(std::move(piece));
    }
    return true;
  }

  std::uint32_t child_of(std::uint32_t node) {
    split_.nodes.push_back(Node{node});
    return static_cast<std::uint32_t>(split_.nodes.size() - 1);
  }

  const Problem& problem_;
  Split split_;
  std::vector<std::uint32_t> parent_;
  std::vector<std::uint32_t> stamp_;
  std::vector<std::uint32_t> band_stamp_;  // per root: generation_ when band_index_ was set
  std::vector<std::uint32_t> band_index_;
  std::uint32_t generation_ = 0;
  std::vector<Event> events_;
  std::vector<Waiting> waiting_;
  // Guessing::surest_first: per root, the times that wait for it to join; the times to look at
  // again; the times whose parts are few enough to guess, by their number.
  std::vector<std::vector<std::uint32_t>> watchers_;
  std::vector<std::uint32_t> queue_;
  std::set<std::pair<std::size_t, std::uint32_t>> guessable_;
  std::vector<std::pair<std::uint32_t, Bytes>> nets_;
  std::vector<Bytes> ending_;
  std::vector<Bytes> starting_;
  std::vector<std::pair<Time, std::uint32_t>> starts_;  // cut_in_time's sort
  const Guessing guessing_;
  const bool shuffle_;
  std::mt19937_64 random_;
};

}  // namespace

Split split_top_down(const Problem& problem, Guessing guessing, std::uint64_t seed,
                     Deadline deadline) {
  return BandSplitter(problem, guessing, seed).split(deadline);
}

}  // namespace tidepool::packing
