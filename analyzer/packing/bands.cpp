// Tiling by bands (see bands.h): blocks cut in time and split into bands (connected parts, by
// union-find over the items, joined hole by hole at each time inside the block), until blocks are
// single items or split no further; those are folded (item_merging.h) and split again, or go to
// the tiling search, and what none of these tiles is packed (after a few splits with other guesses
// of holes). The split is kept as a tree, so that a block packed higher moves up what is stacked
// over it.
#include "analyzer/packing/bands.h"

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <utility>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/completion.h"
#include "analyzer/packing/holes.h"
#include "analyzer/packing/item_merging.h"
#include "analyzer/packing/tiling_search.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {
namespace {

// A block left over is folded and split again at most this many times over. Blocks are searched
// only up to kMaxBlockItems (the search restarts locally from there on, and the block packer runs
// its own). Folding is not stopped by deadlines (finding holes costs up to 1,024 subset sums per
// item: up to 1 s at 50,000 items, 0.3 s at 71,967, 1.5-1.7 s at 512,444, 3 s at 951,102), so
// each fold (or split with other guesses) of a larger block begins only while its time is at
// least kLargeFoldTimelines times what building its timeline took: a fold took 7-17 times as long
// on blocks of 72,000-951,000 items (25-39 times on 2,000), and its packing needs some more. With
// 50, the 512,444-item block of perfect:1000000:1:10000000 was not folded at 10 s (1.0745x); with
// 25 it was (1.0001x to 1.0326x, as the load goes), but the 914,012- and 951,102-item blocks of
// perfect:1000000:1:5000000 and perfect:1000000:2:10000000 were not (1.2480x, 1.1986x); with 18,
// 1.0001x and 1.0007x, and no instance of 300,000-1,000,000 items higher.
constexpr int kMaxFolds = 4;
constexpr std::size_t kMaxBlockItems = 50'000;
constexpr double kLargeFoldTimelines = 18;
// When a block has a packing already, the block packer is not begun with less than this many
// times its timeline's build time left (its first pass always ends in a complete packing: on that
// 512,444-item block, 4 timelines past the deadline).
constexpr double kPackerTimelines = 5;
// The shares of a block's time: each fold tried for a tiling (it fails fast or tiles within a few
// tenths of a second on the instances it is for), the search when a packing is wanted in the end,
// and each fold whose own blocks get packed; the block packer has the rest (about half). Chosen on
// a tuning set of cut instances (scripts/bench/cut_instances.py 2000, seeds 16-30) and refill:2000:
// a packer given too little time packs large blocks far higher (a 1,364-item block: 1.17x in
// 0.4 s, 1.06x in 1.3 s).
constexpr double kTilingFoldShare = 1.0 / 8;
constexpr double kSearchShare = 1.0 / 8;
constexpr double kPackedFoldShare = 1.0 / 4;
constexpr std::int64_t kBlockNodesPerItem = 100 * kTilingNodesPerItem;
// A block that neither folds nor the search tiles is split again this many times, with other
// guesses of holes, before the block packer has it (each with a packed fold's share; a split that
// leaves the block whole is dropped). Against none, on the tuning sets: 2,000-item seed 17 1.0002 ->
// 1.0000 (5.3 s), 10,000-item seeds 17 and 21 1.0352 -> 1.0252 and 1.1978 -> 1.1763, 30 more
// 2,000-item instances (seeds 31-60) one at the bound that was not (1.0117, now 3.2 s) and one
// lower (1.0011 -> 1.0003); none higher.
constexpr std::uint64_t kResplits = 2;

// The split is a tree of blocks: a node's children are stacked (bands) or side by side (pieces in
// time). A leaf's height is known once it is packed; the others' follow, then the bases.
struct Node {
  std::uint32_t parent = 0;  // the root is its own parent
  bool stacked = false;
  Bytes height = 0;
  Bytes base = 0;
};

struct Block {
  std::vector<std::uint32_t> items;
  Time begin = 0;
  Time end = 0;
  std::uint32_t node = 0;
  // What made the block, so that the same is not tried on it again: a cut in time (it is split
  // into bands next) or a split into bands (it is cut in time next).
  bool cut = false;
  bool banded = false;
};

// What a split leaves: the tree, the items that came apart (item, its leaf) and the blocks that
// did not.
struct Split {
  std::vector<Node> nodes;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> single_items;
  std::vector<Block> left;
};

// Splits the blocks of one problem.
class BandSplitter {
 public:
  // With a seed other than 0, the parts at a time are shuffled before their holes are guessed (the
  // guess keeps the groups found first: holes.h), for other guesses than the first split's.
  BandSplitter(const Problem& problem, std::uint64_t seed)
      : problem_(problem),
        parent_(problem.items.size()),
        stamp_(problem.items.size(), 0),
        band_stamp_(problem.items.size(), 0),
        band_index_(problem.items.size()),
        shuffle_(seed != 0),
        random_(seed) {}

  // At the deadline, the blocks not split yet are left as they are (a cut tree as deep as the
  // instance is large, one item peeled off at each level, costs O(items^2)).
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
                 ((block.cut || !cut_in_time(block, todo)) && (block.banded || !split_into_bands(block, todo)))) {
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
    if (shuffle_ && !forced) std::ranges::shuffle(nets_, random_);
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
    const auto by_start = [&](std::uint32_t i) { return std::pair(start(i), i); };
    if (!std::ranges::is_sorted(block.items, {}, by_start)) {
      std::ranges::sort(block.items, {}, by_start);
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
  std::vector<std::pair<std::uint32_t, Bytes>> nets_;
  std::vector<Bytes> ending_;
  std::vector<Bytes> starting_;
  const bool shuffle_;
  std::mt19937_64 random_;
};

// A packing of a problem (or a block) from its base, and whether it is at the lower bound.
struct Tiling {
  std::vector<Bytes> offsets;
  bool perfect = false;
};

// Nodes' heights from their leaves', then bases from the root down (children come after their
// parent in `nodes`).
void place_nodes(std::vector<Node>& nodes) {
  for (std::size_t k = nodes.size() - 1; k > 0; --k) {
    Node& parent = nodes[nodes[k].parent];
    parent.height = parent.stacked ? parent.height + nodes[k].height : std::max(parent.height, nodes[k].height);
  }
  std::vector<Bytes> next_base(nodes.size(), 0);
  for (std::size_t k = 1; k < nodes.size(); ++k) {
    const std::uint32_t parent = nodes[k].parent;
    nodes[k].base = nodes[parent].base + next_base[parent];
    if (nodes[parent].stacked) next_base[parent] += nodes[k].height;
  }
}

class Tiler {
 public:
  explicit Tiler(const BlockPacker& pack_block) : pack_block_(pack_block) {}

  // With `pack`, the blocks that are not tiled are packed (and the packing may be above the lower
  // bound); without, none as soon as one is not tiled. `seed`: the split's guesses (BandSplitter).
  std::optional<Tiling> tile(const Problem& problem, Deadline deadline, int folds_left, bool pack,
                             std::uint64_t seed = 0) const {
    Split split = BandSplitter(problem, seed).split(deadline);
    std::vector<Node>& nodes = split.nodes;
    for (const auto& [item, leaf] : split.single_items) nodes[leaf].height = problem.items[item].size;
    std::size_t left = 0;
    for (const Block& block : split.left) left += block.items.size();
    // Nothing came apart and the block is too large to fold or search: packing it is the caller's.
    // With other guesses (a seed), nothing is new.
    const bool whole = split.left.size() == 1 && left == problem.items.size();
    if (whole && (left > kMaxBlockItems || seed != 0)) return std::nullopt;
    // Smallest first: they take little time, and the large ones then share what is left.
    std::ranges::sort(split.left, {}, [](const Block& block) { return block.items.size(); });
    // A block's items by start, ties as an unstable sort from the order of the problem leaves them:
    // the order the block packers were tuned with (until session 15, every block's items were
    // sorted that way when it was cut in time). The order matters to them as much as a change of
    // method: with ties by index, 23 of the 94 cut instances measured ended higher and 11 lower.
    // Not on blocks too large to search, whose time goes to folding them (two sorts of 914,012
    // items left perfect:1000000:1:5000000 short of the time to fold its block: 1.0001 -> 1.2480).
    for (Block& block : split.left) {
      if (block.items.size() > kMaxBlockItems) continue;
      std::ranges::sort(block.items);
      const auto start = [&](std::uint32_t i) { return first_start(problem.items[i]); };
      std::ranges::sort(block.items, {}, start);
    }
    std::vector<std::vector<Bytes>> packed;
    packed.reserve(split.left.size());
    bool perfect = true;
    for (const Block& block : split.left) {
      Problem part;
      part.items.reserve(block.items.size());
      for (const std::uint32_t i : block.items) part.items.push_back(problem.items[i]);
      const double share = static_cast<double>(block.items.size()) / static_cast<double>(left);
      std::optional<Tiling> tiled = tile_block(part, Deadline::after_seconds(share * deadline.seconds_left()), folds_left, pack);
      if (!tiled) return std::nullopt;
      left -= block.items.size();
      perfect = perfect && tiled->perfect;
      nodes[block.node].height = height_of(part, tiled->offsets);
      packed.push_back(std::move(tiled->offsets));
    }
    place_nodes(nodes);
    std::vector<Bytes> offsets(problem.items.size(), kUnplaced);
    for (const auto& [item, leaf] : split.single_items) offsets[item] = nodes[leaf].base;
    for (std::size_t b = 0; b < split.left.size(); ++b) {
      const Block& block = split.left[b];
      for (std::size_t k = 0; k < block.items.size(); ++k) offsets[block.items[k]] = nodes[block.node].base + packed[b][k];
    }
    return Tiling{std::move(offsets), perfect};
  }

 private:
  // A block folded and split again, or searched, if that tiles it. Else, with `pack`, the lowest
  // packing of the search's, the folds' with their blocks packed, the block split again with other
  // guesses of holes (its blocks packed), and the block packer's.
  std::optional<Tiling> tile_block(const Problem& block, Deadline deadline, int folds_left, bool pack) const {
    const Deadline::Clock::time_point started = Deadline::Clock::now();
    const Timeline timeline(block);
    const double timeline_seconds = Deadline::seconds_since(started);
    const bool no_slack = has_no_slack(block, timeline);
    std::vector<MergedProblem> folds;
    std::optional<Tiling> lowest;
    const auto keep = [&](Tiling tiling) {
      if (!lowest || height_of(block, tiling.offsets) < height_of(block, lowest->offsets)) lowest = std::move(tiling);
    };
    // Past the deadline (the split stopped there), straight to the packer: folding is not stopped
    // by deadlines.
    const bool searchable = block.items.size() <= kMaxBlockItems;
    const auto fold_fits = [&] {
      return searchable || deadline.seconds_left() >= kLargeFoldTimelines * timeline_seconds;
    };
    const bool try_tiling = no_slack && !deadline.passed() && fold_fits();
    if (try_tiling) {
      if (folds_left > 0) {
        // Folded, a block's items are fewer and larger: sums tell holes apart better, and cuts in
        // time appear where stacks now end together. Stacking unless holes differ first, then
        // within holes (item_merging.h: each folds some instances right that the other does not);
        // on blocks too large to search, where there is time for one fold only, within holes
        // first: it folds into more items, which the packed fold then packs closer to the bound
        // (perfect:1000000:1:10000000 at 10 s, 1.0597x the other way round; seeds 3-5 the same
        // either way).
        using enum MergedProblem::Stacking;
        const std::array stackings = searchable ? std::array{unless_holes_differ, within_holes}
                                                : std::array{within_holes, unless_holes_differ};
        for (const auto stacking : stackings) {
          if (!fold_fits()) break;
          MergedProblem folded(block, stacking);
          if (folded.problem().items.size() == block.items.size()) continue;
          const Deadline share = Deadline::after_seconds(kTilingFoldShare * deadline.seconds_left());
          if (const auto tiled = tile(folded.problem(), share, folds_left - 1, false)) {
            return Tiling{folded.expand(tiled->offsets), true};
          }
          folds.push_back(std::move(folded));
        }
      }
      // A node budget far above the one callers usually give (refill:2000:3 had a block tiled only
      // with 100 times as many nodes).
      if (searchable) {
        const std::int64_t budget = kBlockNodesPerItem * static_cast<std::int64_t>(block.items.size());
        const Deadline search = pack ? Deadline::after_seconds(kSearchShare * deadline.seconds_left()) : deadline;
        TilingResult result = search_tiling(block, timeline, budget, search, search);
        if (result.perfect) return Tiling{std::move(result.offsets), true};
        keep({std::move(result.offsets), false});
      }
    }
    if (!pack) return std::nullopt;
    // Each attempt whose blocks get packed has a packed fold's share of the time left.
    const auto packed = [&](const Problem& problem, std::uint64_t seed) {
      const Deadline share = Deadline::after_seconds(kPackedFoldShare * deadline.seconds_left());
      return tile(problem, share, folds_left - 1, true, seed);
    };
    for (const MergedProblem& folded : folds) {
      if (std::optional<Tiling> tiled = packed(folded.problem(), 0)) {
        tiled->offsets = folded.expand(tiled->offsets);
        if (tiled->perfect) return tiled;
        keep(std::move(*tiled));
      }
    }
    // The block did not come apart with the guesses of holes that split it off, and wrong guesses
    // join parts that are not one band. Split again with others.
    if (try_tiling && folds_left > 0) {
      for (std::uint64_t seed = 1; seed <= kResplits && fold_fits(); ++seed) {
        if (std::optional<Tiling> tiled = packed(block, seed)) {
          if (tiled->perfect) return tiled;
          keep(std::move(*tiled));
        }
      }
    }
    if (lowest && deadline.seconds_left() < kPackerTimelines * timeline_seconds) return lowest;
    std::vector<Bytes> offsets = pack_block_(block, deadline, try_tiling && searchable);
    const bool perfect = no_slack && height_of(block, offsets) == timeline.peak();
    keep({std::move(offsets), perfect});
    return lowest;
  }

  const BlockPacker& pack_block_;
};

}  // namespace

std::optional<std::vector<Bytes>> tile_by_bands(const Problem& problem, const Timeline& timeline, Deadline deadline,
                                                const BlockPacker& pack_block) {
  if (problem.items.empty() || !has_no_slack(problem, timeline)) return std::nullopt;
  std::optional<Tiling> tiled = Tiler(pack_block).tile(problem, deadline, kMaxFolds, true);
  if (!tiled) return std::nullopt;
  std::vector<Bytes>& offsets = tiled->offsets;
  // Bands hold their items by construction; the checker makes sure.
  if (!check(problem, {offsets, height_of(problem, offsets)}).valid) return std::nullopt;
  return offsets;
}

}  // namespace tidepool::packing
