// Tiling by bands (see bands.h): blocks cut in time and split into bands (connected parts, by
// union-find over the items, joined hole by hole at each time inside the block), until blocks are
// single items or split no further; those are folded (item_merging.h) and split again, or go to
// the tiling search.
#include "analyzer/packing/bands.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <utility>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/completion.h"
#include "analyzer/packing/holes.h"
#include "analyzer/packing/item_merging.h"
#include "analyzer/packing/tiling_search.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {
namespace {

// A block left over is folded and split again at most this many times over, and only up to this
// many items (folding is not stopped by deadlines: it takes up to 1 s at 50,000 items).
constexpr int kMaxFolds = 4;
constexpr std::size_t kMaxFoldedItems = 50'000;
constexpr std::int64_t kBlockNodesPerItem = 100 * kTilingNodesPerItem;

struct Block {
  std::vector<std::uint32_t> items;
  Time begin = 0;
  Time end = 0;
  Bytes base = 0;
  // What made the block, so that the same is not tried on it again: a cut in time (it is split
  // into bands next) or a split into bands (it is cut in time next).
  bool cut = false;
  bool banded = false;
};

// Splits the blocks of one problem; sets the offsets of the items that come apart.
class BandSplitter {
 public:
  explicit BandSplitter(const Problem& problem)
      : problem_(problem), parent_(problem.items.size()), stamp_(problem.items.size(), 0) {}

  // Returns the blocks that split no further, or none at the deadline (a cut tree as deep as the
  // instance is large, one item peeled off at each level, costs O(items^2)).
  std::optional<std::vector<Block>> split(std::vector<Bytes>& offsets, Deadline deadline) {
    Block all{std::vector<std::uint32_t>(problem_.items.size()), std::numeric_limits<Time>::max(),
              std::numeric_limits<Time>::min(), 0};
    std::iota(all.items.begin(), all.items.end(), 0U);
    for (const std::uint32_t i : all.items) {
      all.begin = std::min(all.begin, start(i));
      all.end = std::max(all.end, end(i));
    }
    std::vector<Block> todo = {std::move(all)};
    std::vector<Block> left;
    while (!todo.empty()) {
      if (deadline.passed()) return std::nullopt;  // a clock read per block: far less than its work
      Block block = std::move(todo.back());
      todo.pop_back();
      if (block.items.size() == 1) {
        offsets[block.items.front()] = block.base;
      } else if ((block.cut || !cut_in_time(block, todo)) && (block.banded || !split_into_bands(block, todo))) {
        left.push_back(std::move(block));
      }
    }
    return left;
  }

 private:
  struct Event {
    Time time;
    std::uint32_t item;
    Bytes change;  // +size where the item starts, -size where it ends
  };

  Time start(std::uint32_t i) const { return problem_.items[i].live.front().lower; }
  Time end(std::uint32_t i) const { return problem_.items[i].live.front().upper; }

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
  void unite(std::uint32_t a, std::uint32_t b) { parent_[find(a)] = find(b); }

  // The block's connected parts, as bands from its base up. Holes are found between parts rather
  // than items: at each time inside the block, the parts that items end or start in, with their
  // net change there (a part whose items ending and starting there balance needs no other); the
  // smallest groups of parts whose changes cancel are the holes (holes.h; where that is ambiguous,
  // the groups found first: the result is checked). Times with too many parts to tell wait until
  // parts joined elsewhere make them fewer; those that never do join all their unbalanced parts.
  bool split_into_bands(const Block& block, std::vector<Block>& todo) {
    ++generation_;
    events_.clear();
    for (const std::uint32_t i : block.items) {
      if (start(i) > block.begin) events_.push_back({start(i), i, problem_.items[i].size});
      if (end(i) < block.end) events_.push_back({end(i), i, -problem_.items[i].size});
    }
    std::ranges::sort(events_, {}, &Event::time);
    std::vector<std::pair<std::size_t, std::size_t>> waiting;  // the events of one time
    for (std::size_t k = 0; k < events_.size();) {
      std::size_t next = k;
      for (; next < events_.size() && events_[next].time == events_[k].time; ++next) {}
      waiting.emplace_back(k, next);
      k = next;
    }
    for (bool progress = true; progress && !waiting.empty();) {
      progress = false;
      std::erase_if(waiting, [&](const auto& events) {
        const bool joined = join_holes(events.first, events.second, false);
        progress = progress || joined;
        return joined;
      });
    }
    for (const auto& [first, last] : waiting) join_holes(first, last, true);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> by_part;  // (root, item)
    by_part.reserve(block.items.size());
    for (const std::uint32_t i : block.items) by_part.emplace_back(find(i), i);
    std::ranges::sort(by_part);
    if (by_part.front().first == by_part.back().first) return false;
    Bytes base = block.base;
    for (std::size_t k = 0; k < by_part.size();) {
      Block band{{}, block.begin, block.end, base, false, true};
      for (const std::uint32_t root = by_part[k].first; k < by_part.size() && by_part[k].first == root; ++k) {
        const std::uint32_t i = by_part[k].second;
        band.items.push_back(i);
        if (start(i) == block.begin) base += problem_.items[i].size;  // the band's height
      }
      todo.push_back(std::move(band));
    }
    return true;
  }

  // Joins the parts in each hole at one time (events_[first, last)); returns false if there are
  // too many to tell the holes apart, unless `forced` (then they are one hole).
  bool join_holes(std::size_t first, std::size_t last, bool forced) {
    nets_.clear();
    for (std::size_t k = first; k < last; ++k) nets_.emplace_back(find(events_[k].item), events_[k].change);
    std::ranges::sort(nets_);
    std::size_t parts = 0;
    for (std::size_t k = 0; k < nets_.size();) {
      const std::uint32_t root = nets_[k].first;
      Bytes net = 0;
      for (; k < nets_.size() && nets_[k].first == root; ++k) net += nets_[k].second;
      if (net != 0) nets_[parts++] = {root, net};
    }
    nets_.resize(parts);
    ending_.clear();
    starting_.clear();
    for (const auto& [root, net] : nets_) (net < 0 ? ending_ : starting_).push_back(net < 0 ? -net : net);
    std::optional<HoleSplit> split;
    if (!forced && ending_.size() > 1 && starting_.size() > 1) {
      split = split_into_holes(ending_, starting_, Ambiguity::first_found);
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
    std::ranges::sort(block.items, {}, [&](std::uint32_t i) { return start(i); });
    std::vector<Block> pieces = {Block{{}, block.begin, block.end, block.base, true}};
    Time reach = block.begin;
    for (const std::uint32_t i : block.items) {
      if (start(i) >= reach && !pieces.back().items.empty()) {
        pieces.back().end = start(i);
        pieces.push_back(Block{{}, start(i), block.end, block.base, true});
      }
      pieces.back().items.push_back(i);
      reach = std::max(reach, end(i));
    }
    if (pieces.size() == 1) return false;
    for (Block& piece : pieces) todo.push_back(std::move(piece));
    return true;
  }

  const Problem& problem_;
  std::vector<std::uint32_t> parent_;
  std::vector<std::uint32_t> stamp_;
  std::uint32_t generation_ = 0;
  std::vector<Event> events_;
  std::vector<std::pair<std::uint32_t, Bytes>> nets_;
  std::vector<Bytes> ending_;
  std::vector<Bytes> starting_;
};

// The offsets of a block's items from its base, or none.
std::optional<std::vector<Bytes>> tile_block(const Problem& block, Deadline deadline, int folds_left);

std::optional<std::vector<Bytes>> tile(const Problem& problem, Deadline deadline, int folds_left) {
  std::vector<Bytes> offsets(problem.items.size(), kUnplaced);
  std::optional<std::vector<Block>> split = BandSplitter(problem).split(offsets, deadline);
  if (!split) return std::nullopt;
  std::vector<Block>& blocks = *split;
  std::size_t left = 0;
  for (const Block& block : blocks) left += block.items.size();
  // Smallest first: one block that cannot be tiled ends the attempt, and small ones fail fast.
  std::ranges::sort(blocks, {}, [](const Block& block) { return block.items.size(); });
  for (const Block& block : blocks) {
    Problem part;
    part.items.reserve(block.items.size());
    for (const std::uint32_t i : block.items) part.items.push_back(problem.items[i]);
    const double share = static_cast<double>(block.items.size()) / static_cast<double>(left);
    const std::optional<std::vector<Bytes>> tiled = tile_block(part, Deadline::after_seconds(share * deadline.seconds_left()), folds_left);
    if (!tiled) return std::nullopt;
    left -= block.items.size();
    for (std::size_t k = 0; k < block.items.size(); ++k) offsets[block.items[k]] = block.base + (*tiled)[k];
  }
  return offsets;
}

std::optional<std::vector<Bytes>> tile_block(const Problem& block, Deadline deadline, int folds_left) {
  const Timeline timeline(block);
  if (!has_no_slack(block, timeline)) return std::nullopt;  // bands of a wrong guess
  if (folds_left > 0 && block.items.size() <= kMaxFoldedItems) {
    // Folded, a block's items are fewer and larger: sums tell holes apart better, and cuts in time
    // appear where stacks now end together. Stacking unless holes differ first, then within holes
    // (item_merging.h: each folds some instances right that the other does not).
    for (const auto stacking : {MergedProblem::Stacking::unless_holes_differ, MergedProblem::Stacking::within_holes}) {
      const MergedProblem folded(block, stacking);
      if (folded.problem().items.size() == block.items.size()) continue;
      const Deadline share = Deadline::after_seconds(deadline.seconds_left() / 3);
      if (const auto tiled = tile(folded.problem(), share, folds_left - 1)) return folded.expand(*tiled);
    }
  }
  // The block's share of the time stops the search, or a node budget far above the one callers
  // usually give (refill:2000:3 had a block tiled only with 100 times as many nodes).
  const std::int64_t budget = kBlockNodesPerItem * static_cast<std::int64_t>(block.items.size());
  const TilingResult tiled = search_tiling(block, timeline, budget, deadline, deadline);
  if (!tiled.perfect) return std::nullopt;
  return tiled.offsets;
}

}  // namespace

std::optional<std::vector<Bytes>> tile_by_bands(const Problem& problem, const Timeline& timeline, Deadline deadline) {
  if (problem.items.empty() || !has_no_slack(problem, timeline)) return std::nullopt;
  std::optional<std::vector<Bytes>> offsets = tile(problem, deadline, kMaxFolds);
  if (!offsets) return std::nullopt;
  // Bands hold their items by construction; the checker makes sure.
  const Bytes height = height_of(problem, *offsets);
  if (height != timeline.peak() || !check(problem, {*offsets, height}).valid) return std::nullopt;
  return offsets;
}

}  // namespace tidepool::packing
