// The tiling search (see tiling_search.h): an iterative depth-first search over the undoable
// skyline, then the greedy completion of its deepest partial packing.
#include "analyzer/packing/tiling_search.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>

#include "analyzer/packing/completion.h"
#include "analyzer/packing/earliest_ends.h"
#include "analyzer/packing/tiling_skyline.h"

namespace tidepool::packing {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
constexpr int kNoSection = -1;
// Item visits allowed when looking for a chain of items that tiles a valley (beyond it, assume
// there is one): the search needs it nearly exact; the completion only uses it to rank choices.
// The backward search from the valley's right end comes first, with fewer. A check cut at the
// limit leaves no dead ends behind, so limits too low make the same wide valleys be searched
// again and again (on 200,000 items, a forward limit of 10,000 left most seeds unsolved in 6 s).
constexpr int kChainWork = 30000;
constexpr int kBackwardChainWork = 2000;
constexpr int kCompletionChainWork = 64;
// In the completion, the candidates placed and checked at one run before taking the first that fits.
constexpr int kGreedyTries = 8;
// The node budget of the first restart (it doubles at each), and the seed of the random orders.
constexpr std::int64_t kFirstRestartNodes = 2000;
constexpr std::uint64_t kSeed = 1;
// Local restarts (see LocalRestarts) go back to a checkpoint (a multiple of kCheckpointDepth
// placements) behind the deepest one reached.
constexpr std::size_t kCheckpointDepth = 256;
constexpr std::int64_t kFirstLocalBudget = 4 * static_cast<std::int64_t>(kCheckpointDepth);
// From this many failed attempts in a row on, the local restarts unwind exponentially further.
constexpr int kEscalateAfter = 8;
// How often (in nodes) the deadline is looked at: a node can cost a few hundred microseconds (its
// chain checks may visit up to kChainWork + kBackwardChainWork items each).
constexpr std::int64_t kDeadlineStride = 128;

class TilingSearch {
 public:
  TilingSearch(const Problem& problem, const Timeline& timeline)
      : items_(problem.items),
        sections_(timeline.section_count()),
        capacity_(timeline.peak()),
        start_(items_.size()),
        end_(items_.size()),
        list_begin_(sections_ + 2, 0),
        list_(items_.size()),
        by_end_begin_(sections_ + 2, 0),
        by_end_(items_.size()),
        visited_(sections_ + 1, 0),
        visited_back_(sections_ + 1, 0) {
    for (std::size_t i = 0; i < items_.size(); ++i) {
      start_[i] = timeline.first_section(i);
      end_[i] = timeline.last_section_end(i);
      ++list_begin_[start_[i] + 1];
      ++by_end_begin_[end_[i] + 1];
    }
    std::partial_sum(list_begin_.begin(), list_begin_.end(), list_begin_.begin());
    std::partial_sum(by_end_begin_.begin(), by_end_begin_.end(), by_end_begin_.begin());
    std::iota(list_.begin(), list_.end(), 0);
    std::iota(by_end_.begin(), by_end_.end(), 0);
    std::ranges::sort(by_end_, [&](std::uint32_t a, std::uint32_t b) {
      return end_[a] != end_[b] ? end_[a] < end_[b] : start_[a] > start_[b];
    });
    sort_lists();
    reset();
  }

  // Restarts from scratch with doubling node budgets, each but the first trying the shapes of a
  // start in a random order; or (`local`, for large instances) one search that restarts locally.
  TilingResult run(std::int64_t node_budget, Deadline search_deadline, Deadline deadline, bool local) {
    TilingResult result;
    Outcome outcome = Outcome::gave_up;
    if (local) {
      outcome = search(node_budget, true, search_deadline, result.nodes);
    } else {
      std::int64_t restart_budget = kFirstRestartNodes;
      for (int restart = 0; outcome == Outcome::gave_up && result.nodes < node_budget && !search_deadline.passed(); ++restart) {
        if (restart > 0) {
          shuffle_shapes(random_());
          reset();
        }
        std::int64_t nodes = 0;
        outcome = search(std::min(restart_budget, node_budget - result.nodes), false, search_deadline, nodes);
        result.nodes += nodes;
        restart_budget = std::min(2 * restart_budget, node_budget);
      }
    }
    result.perfect = outcome == Outcome::found;
    if (!result.perfect) complete(deadline);
    result.offsets = offsets_;
    return result;
  }

 private:
  struct Frame {
    TilingSkyline::Run run;
    std::size_t tried;     // candidates of the run's start looked at so far
    std::size_t rotation;  // where among them the candidates begin (wrapping around)
    std::uint32_t item;    // the item placed (or last tried) here
    std::size_t mark;      // the skyline's trail before it was placed
  };

  // Local restarts: after the k-th attempt in a row (kFirstLocalBudget << k nodes) that did not
  // pass the deepest checkpoint by kCheckpointDepth more placements, the search unwinds to k / 2
  // checkpoints behind the deepest (2^(k/2) - 1 from the kEscalateAfter-th on: a search stuck
  // that long went wrong further back) and goes on with the candidates of each new frame in a
  // random rotation. A search that went wrong early rarely recovers by backtracking, and on large
  // instances a restart from scratch costs too much and goes wrong again elsewhere.
  struct LocalRestarts {
    std::size_t deepest = 0;  // the deepest checkpoint reached
    int failures = 0;         // attempts since it was reached
    std::int64_t nodes = 0;   // in this attempt
    std::int64_t budget() const { return kFirstLocalBudget << std::min(failures, 30); }
  };

  // Each start's items by end descending, then size descending, alignment: items of one shape
  // are adjacent.
  void sort_lists() {
    std::ranges::sort(list_, [&](std::uint32_t a, std::uint32_t b) {
      if (start_[a] != start_[b]) return start_[a] < start_[b];
      if (end_[a] != end_[b]) return end_[a] > end_[b];
      if (items_[a].size != items_[b].size) return items_[a].size > items_[b].size;
      if (items_[a].alignment != items_[b].alignment) return items_[a].alignment < items_[b].alignment;
      return a < b;
    });
  }

  // Each start's items in a random order of their shapes (items of one shape stay adjacent).
  void shuffle_shapes(std::uint64_t seed) {
    const auto shape_key = [&](std::uint32_t i) {
      std::uint64_t key = seed;
      for (const std::uint64_t part : {static_cast<std::uint64_t>(end_[i]), static_cast<std::uint64_t>(items_[i].size),
                                       static_cast<std::uint64_t>(items_[i].alignment)}) {
        key = mix(key ^ part);
      }
      return key;
    };
    std::ranges::sort(list_, [&](std::uint32_t a, std::uint32_t b) {
      if (start_[a] != start_[b]) return start_[a] < start_[b];
      const std::uint64_t key_a = shape_key(a);
      const std::uint64_t key_b = shape_key(b);
      return key_a != key_b ? key_a < key_b : a < b;
    });
  }

  // splitmix64's finalizer: a well-spread hash of a 64-bit value.
  static std::uint64_t mix(std::uint64_t value) {
    value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
    value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
    return value ^ (value >> 31);
  }

  void reset() {
    synced_ = 0;
    dead_to_ = kNoSection;
    skyline_.emplace(sections_);
    placed_.assign(items_.size(), 0);
    offsets_.assign(items_.size(), kUnplaced);
    last_at_start_.assign(sections_ + 1, kNone);
    under_.assign(items_.size(), kNone);
    position_.resize(items_.size());
    for (std::uint32_t k = 0; k < list_.size(); ++k) position_[list_[k]] = k;
    unplaced_from_.assign(sections_ + 1, 0);
    unplaced_until_.assign(sections_ + 1, 0);
    for (std::size_t i = 0; i < items_.size(); ++i) {
      ++unplaced_from_[start_[i]];
      ++unplaced_until_[end_[i]];
    }
    placed_count_ = 0;
  }

  bool same_shape(std::uint32_t a, std::uint32_t b) const {
    return end_[a] == end_[b] && items_[a].size == items_[b].size && items_[a].alignment == items_[b].alignment;
  }

  // Whether item i can go at offset `floor` in a run ending at `end` (in the completion, at the
  // floor aligned up, and without the capacity).
  bool fits(std::uint32_t i, int end, Bytes floor) const {
    if (placed_[i] || end_[i] > end) return false;
    if (completing_) return true;
    return (items_[i].alignment == 1 || floor % items_[i].alignment == 0) && floor + items_[i].size <= capacity_;
  }

  int place(std::uint32_t i, int run_begin, Bytes offset) {
    placed_[i] = 1;
    offsets_[i] = offset;
    under_[i] = last_at_start_[start_[i]];
    last_at_start_[start_[i]] = i;
    --unplaced_from_[start_[i]];
    --unplaced_until_[end_[i]];
    ++placed_count_;
    return skyline_->set_prefix(run_begin, end_[i], offset + items_[i].size);
  }

  void unplace(std::uint32_t i, std::size_t mark) {
    if (start_[i] >= dead_from_ && end_[i] <= dead_to_) dead_to_ = kNoSection;  // it may revive them
    skyline_->undo(mark);
    placed_[i] = 0;
    offsets_[i] = kUnplaced;
    last_at_start_[start_[i]] = under_[i];
    ++unplaced_from_[start_[i]];
    ++unplaced_until_[end_[i]];
    --placed_count_;
  }

  // The run that holds a placement and its neighbours must stay fillable.
  bool checks_pass(int begin) {
    const int end = skyline_->run_at(begin).end;
    if (!fillable(begin)) return false;
    if (begin > 0 && !fillable(skyline_->left_begin(begin))) return false;
    return end == sections_ || fillable(end);
  }

  // With no slack, the point above a run's left end is covered by an item that starts there when
  // the left neighbour is higher; the one above its right end by one that ends there when the
  // right neighbour is higher; a valley is tiled in time by a chain of items at its floor.
  bool fillable(int begin) {
    const TilingSkyline::Run run = skyline_->run_at(begin);
    if (run.floor == TilingSkyline::kClosed || (!completing_ && run.floor >= capacity_)) return true;
    const bool left_higher = skyline_->left_floor(begin) > run.floor;
    const bool right_higher = skyline_->right_floor(run.end) > run.floor;
    if (left_higher && right_higher) return chain_exists(begin, run.end, run.floor);
    if (left_higher) return unplaced_from_[begin] > 0;
    if (right_higher) return unplaced_until_[run.end] > 0;
    return true;
  }

  // Whether unplaced items that fit at `floor` lead from section `from` to `to` end to end: a
  // depth-first search in the order of the lists (longest items first until a restart). When it
  // fails, the sections it reached are dead ends for (to, floor): the next search for the same
  // pair skips them (the candidates of one run all leave a valley that ends at the same place),
  // until an item that starts among them and fits is unplaced again.
  bool chain_exists(int from, int to, Bytes floor) {
    if (dead_to_ == to && dead_floor_ == floor) {
      if (visited_[from] == stamp_) return false;
      dead_from_ = std::min(dead_from_, from);
    } else {
      ++stamp_;
      dead_to_ = to;
      dead_floor_ = floor;
      dead_from_ = from;
    }
    const Reach back = reach_backward(from, to, floor);
    if (back != Reach::unknown) {
      if (back == Reach::none) visited_[from] = stamp_;
      return back == Reach::found;
    }
    pending_.assign(1, from);
    visited_[from] = stamp_;
    int work = 0;
    const int work_limit = completing_ ? kCompletionChainWork : kChainWork;
    while (!pending_.empty()) {
      const int at = pending_.back();
      pending_.pop_back();
      for (std::size_t k = list_begin_[at + 1]; k-- > list_begin_[at];) {
        const std::uint32_t i = list_[k];
        if (!fits(i, to, floor)) continue;
        if (end_[i] == to || ++work > work_limit) {  // found, or assumed: what it reached is not dead
          dead_to_ = kNoSection;
          return true;
        }
        if (visited_[end_[i]] != stamp_) {
          visited_[end_[i]] = stamp_;
          pending_.push_back(end_[i]);
        }
      }
    }
    return false;
  }

  // The same search backwards first, from `to` by the items that end there, longest first: it
  // settles most valleys whose right end no chain reaches, which the forward search could only
  // learn by exploring everything it reaches.
  enum class Reach { found, none, unknown };
  Reach reach_backward(int from, int to, Bytes floor) {
    ++back_stamp_;
    pending_.assign(1, to);
    int work = 0;
    const int work_limit = completing_ ? kCompletionChainWork : kBackwardChainWork;
    while (!pending_.empty()) {
      const int at = pending_.back();
      pending_.pop_back();
      for (std::size_t k = by_end_begin_[at]; k < by_end_begin_[at + 1]; ++k) {
        const std::uint32_t i = by_end_[k];
        if (start_[i] < from || !fits(i, to, floor)) continue;
        if (start_[i] == from) return Reach::found;
        if (++work > work_limit) return Reach::unknown;
        if (visited_back_[start_[i]] != back_stamp_) {
          visited_back_[start_[i]] = back_stamp_;
          pending_.push_back(start_[i]);
        }
      }
    }
    return Reach::none;
  }

  // The next item to try at a frame: it fits, and differs in shape from the one tried last.
  std::uint32_t next_candidate(Frame& frame) const {
    const std::size_t first = list_begin_[frame.run.begin];
    const std::size_t count = list_begin_[frame.run.begin + 1] - first;
    while (frame.tried < count) {
      const std::uint32_t i = list_[first + (frame.rotation + frame.tried++) % count];
      if (!fits(i, frame.run.end, frame.run.floor)) continue;
      if (frame.item != kNone && same_shape(i, frame.item)) continue;
      if (!completing_ && frame.rotation == 0 && out_of_order(i, frame.run)) continue;
      return i;
    }
    return kNone;
  }

  // Items of one interval stacked directly one on another can swap (when both keep their
  // alignment wherever the stack lies: one alignment that divides both sizes), so such a stack is
  // only tried in the order of the lists: an item does not go straight onto one of its interval
  // that comes after it there. Not between items of one shape: a frame tries only the first of
  // them it meets, which in a rotation need not be the first in the lists. Frames in a random
  // rotation (local restarts) do not ask: their first tries would mostly be out of order (asking
  // there, the search found no packing of 6,000-item cut instances in 10 M nodes that it finds in
  // 20,000-60,000 without). The last item placed that starts at the run's left end is the one
  // under the run there, if any starting there is.
  bool out_of_order(std::uint32_t i, const TilingSkyline::Run& run) const {
    const std::uint32_t below = last_at_start_[run.begin];
    if (below == kNone || position_[below] < position_[i] || end_[below] != end_[i] ||
        offsets_[below] + items_[below].size != run.floor || same_shape(below, i)) {
      return false;
    }
    const Bytes alignment = items_[i].alignment;
    return items_[below].alignment == alignment && items_[i].size % alignment == 0 && items_[below].size % alignment == 0;
  }

  // Keeps the deepest partial packing: deepest_[0, synced_) equals the items of the frames.
  void note_depth() {
    if (placed_count_ <= deepest_.size()) return;
    deepest_.resize(placed_count_);
    for (std::size_t k = synced_; k < placed_count_; ++k) deepest_[k] = stack_[k].item;
    synced_ = placed_count_;
  }

  // Opens a frame at the lowest run; false when all runs are closed.
  bool open(std::size_t rotation) {
    const std::optional<TilingSkyline::Run> run = skyline_->take_lowest();
    if (run) stack_.push_back({*run, 0, rotation, kNone, 0});
    return run.has_value();
  }

  // Takes the frames above `depth` off the stack, undoing their placements.
  void unwind(std::size_t depth) {
    synced_ = std::min(synced_, depth);
    while (stack_.size() > depth) {
      const Frame& frame = stack_.back();
      if (frame.item != kNone && placed_[frame.item]) unplace(frame.item, frame.mark);
      skyline_->requeue(frame.run.begin);
      stack_.pop_back();
    }
  }

  // The attempt ran out of nodes: back to a checkpoint behind the deepest (at least the frame on
  // top, whose item is not placed, goes), on with new random rotations.
  void restart_locally(LocalRestarts& restarts) {
    note_depth();
    ++restarts.failures;
    const int half = restarts.failures / 2;
    const std::size_t back = restarts.failures < kEscalateAfter ? static_cast<std::size_t>(half)
                                                                : (std::size_t{1} << std::min(half, 40)) - 1;
    const std::size_t checkpoint = restarts.deepest / kCheckpointDepth;
    const std::size_t depth = checkpoint > back ? (checkpoint - back) * kCheckpointDepth : 0;
    unwind(std::min(depth, stack_.size() - 1));
    restarts.nodes = 0;
    open(random_());
  }

  // Depth-first search at the lower bound: found, exhausted (there is no packing at the bound)
  // or gave up (budget or deadline). With local restarts, exhausted is still a proof: the last
  // attempt below every frame that was backtracked over explored all of its candidates.
  enum class Outcome { found, exhausted, gave_up };
  Outcome search(std::int64_t node_budget, bool local, Deadline deadline, std::int64_t& nodes) {
    stack_.clear();
    LocalRestarts restarts;
    if (!open(0)) return placed_count_ == items_.size() ? Outcome::found : Outcome::exhausted;
    while (true) {
      Frame& frame = stack_.back();
      if (frame.item != kNone && placed_[frame.item]) {
        note_depth();
        synced_ = std::min(synced_, stack_.size() - 1);
        unplace(frame.item, frame.mark);
      }
      const std::uint32_t candidate = next_candidate(frame);
      if (candidate == kNone) {
        skyline_->requeue(frame.run.begin);
        stack_.pop_back();
        if (stack_.empty()) return Outcome::exhausted;
        continue;
      }
      if (nodes >= node_budget || ((nodes + 1) % kDeadlineStride == 0 && deadline.passed())) {
        note_depth();
        return Outcome::gave_up;
      }
      ++nodes;
      if (local && ++restarts.nodes > restarts.budget()) {
        restart_locally(restarts);
        continue;
      }
      frame.item = candidate;
      frame.mark = skyline_->mark();
      const int run = place(candidate, frame.run.begin, frame.run.floor);
      if (!checks_pass(run)) continue;
      if (placed_count_ == items_.size()) return Outcome::found;
      if (local && stack_.size() >= restarts.deepest + kCheckpointDepth) {
        restarts = {stack_.size() / kCheckpointDepth * kCheckpointDepth, 0, 0};
      }
      open(local && restarts.failures > 0 ? random_() : 0);
    }
  }

  // Replays the deepest partial packing, then places the rest greedily: at the lowest run, the
  // first of a few candidates that passes the checks, else the first that fits, else a raise.
  void complete(Deadline deadline) {
    sort_lists();
    reset();
    for (const std::uint32_t i : deepest_) {
      const TilingSkyline::Run run = *skyline_->take_lowest();
      place(i, run.begin, run.floor);
    }
    completing_ = true;  // items fit differently now: the dead ends known do not hold
    dead_to_ = kNoSection;
    EarliestEnds earliest(sections_);
    std::vector<std::size_t> last_unplaced(list_begin_.begin() + 1, list_begin_.end());
    const auto update_earliest = [&](int start) {
      std::size_t& last = last_unplaced[start];
      while (last > list_begin_[start] && placed_[list_[last - 1]]) --last;
      earliest.set(start, last > list_begin_[start] ? end_[list_[last - 1]] : EarliestEnds::kNoEnd);
    };
    for (int s = 0; s < sections_; ++s) update_earliest(s);
    for (std::uint64_t step = 1; placed_count_ < items_.size() && !deadline.passed_at(step, items_.size() - placed_count_); ++step) {
      // A run closes only when no unplaced item lives in it, so one stays open.
      const std::optional<TilingSkyline::Run> run = skyline_->take_lowest();
      if (!run) throw std::logic_error("tiling search: unplaced items but no open run");
      if (const std::uint32_t i = pick(*run); i != kNone) {
        place(i, run->begin, align_up(run->floor, items_[i].alignment));
        update_earliest(run->begin);
        continue;
      }
      raise(*run, earliest);
    }
  }

  std::uint32_t pick(const TilingSkyline::Run& run) {
    Frame frame{run, 0, 0, kNone, 0};
    std::uint32_t first_fitting = kNone;
    for (int tries = 0; tries < kGreedyTries; ++tries) {
      const std::uint32_t i = next_candidate(frame);
      if (i == kNone) break;
      if (first_fitting == kNone) first_fitting = i;
      const std::size_t mark = skyline_->mark();
      const bool good = checks_pass(place(i, run.begin, align_up(run.floor, items_[i].alignment)));
      unplace(i, mark);
      if (good) return i;
      frame.item = i;
    }
    return first_fitting;
  }

  // Nothing starts at the run's left end and fits: up to the next section where an item starts
  // that ends inside the run, everything live began further left (and needs the left neighbour's
  // floor) or ends beyond the run (and needs at least the right neighbour's); rise to the lower.
  void raise(const TilingSkyline::Run& run, const EarliestEnds& earliest) {
    const int stop = earliest.first(run.begin + 1, run.end, run.end);
    const bool starts_before_stop = earliest.first(run.begin, stop, EarliestEnds::kNoEnd - 1) < stop;
    const Bytes left = skyline_->left_floor(run.begin);
    skyline_->set_prefix(run.begin, stop, starts_before_stop ? std::min(left, skyline_->right_floor(run.end)) : left);
  }

  const std::vector<Item>& items_;
  const int sections_;
  const Bytes capacity_;
  std::vector<int> start_;
  std::vector<int> end_;
  std::vector<std::size_t> list_begin_;  // per start section: where its items begin in list_
  std::vector<std::uint32_t> list_;
  std::vector<std::size_t> by_end_begin_;  // per end section: where its items begin in by_end_
  std::vector<std::uint32_t> by_end_;      // by end, then start descending
  std::vector<std::uint32_t> visited_;   // per section: the stamp of the last chain search there
  std::uint32_t stamp_ = 0;
  std::vector<std::uint32_t> visited_back_;  // the same for the backward search
  std::uint32_t back_stamp_ = 0;
  std::vector<int> pending_;
  // The dead ends of the last chain search that failed: the sections stamped with stamp_ in
  // [dead_from_, dead_to_) cannot reach dead_to_ at dead_floor_ (kNoSection: none known).
  int dead_from_ = 0;
  int dead_to_ = kNoSection;
  Bytes dead_floor_ = 0;

  std::optional<TilingSkyline> skyline_;
  std::vector<char> placed_;
  std::vector<Bytes> offsets_;
  std::vector<std::uint32_t> position_;       // per item: its place in list_
  std::vector<std::uint32_t> last_at_start_;  // per section: the item placed last that starts there
  std::vector<std::uint32_t> under_;          // per placed item: last_at_start_ before it was placed
  std::vector<int> unplaced_from_;   // per section: unplaced items starting there
  std::vector<int> unplaced_until_;  // per section border: unplaced items ending there
  std::size_t placed_count_ = 0;
  bool completing_ = false;

  std::vector<Frame> stack_;
  std::mt19937_64 random_{kSeed};
  std::vector<std::uint32_t> deepest_;
  std::size_t synced_ = 0;
};

}  // namespace

bool has_no_slack(const Problem& problem, const Timeline& timeline) {
  const Bytes peak = timeline.peak();
  return std::ranges::all_of(problem.items, [](const Item& item) { return item.live.size() == 1; }) &&
         std::ranges::all_of(timeline.section_totals(), [&](Bytes total) { return total == peak; });
}

TilingResult search_tiling(const Problem& problem, const Timeline& timeline, std::int64_t node_budget,
                           Deadline search_deadline, Deadline deadline, std::size_t local_restarts_from) {
  TilingResult result = TilingSearch(problem, timeline)
                            .run(node_budget, search_deadline, deadline, problem.items.size() >= local_restarts_from);
  if (!is_complete(result.offsets)) complete_above(problem, result.offsets);
  return result;
}

}  // namespace tidepool::packing
