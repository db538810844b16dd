// Tiling by bands (see bands.h): the problem split top-down (band_split.h) into single items and
// blocks that split no further; those are folded (item_merging.h) and split again, or go to the
// tiling search, and what none of these tiles is packed (after a few splits with other guesses of
// holes). The split is kept as a tree, so that a block packed higher moves up what is stacked over
// it.
#include "analyzer/packing/bands.h"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "analyzer/packing/band_split.h"
#include "analyzer/packing/checker.h"
#include "analyzer/packing/completion.h"
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
// 1.0001x and 1.0007x, and no instance of 300,000-1,000,000 items higher. Since session 32's
// faster subset sums a fold took 10-11.5 timelines at 900,000-1,000,000 items (11-12.8 before),
// and 16 folded the blocks of perfect:1000000:1:1000000 and :3:1000000 that had 18.3-18.9 and
// 12.9-20.8 (at 1.0000x in 6.5-7.2 s and at 10 s when folded, 1.2544x and 1.2219x when not).
// Since session 37's faster holes a fold takes 6-9 timelines there (2.1-2.5 s against timelines of
// 0.26-0.28 s in `best`), and 11 fold the whole 1,000,000-item block of perfect:1000000:2:1000000,
// which had 12.3 (16 did not: 1.1537x in four runs; 11: 1.0328x, 1.0000x, 1.0328x; 9: 1.0328x
// twice). With 11 or 9, 20 other instances of 150,000-1,000,000 items (coarse and fine times,
// refill, grown) end as with 16, within each one's run-to-run spread, none past 10.01 s (session
// 40).
constexpr int kMaxFolds = 4;
constexpr std::size_t kMaxBlockItems = 50'000;
constexpr double kLargeFoldTimelines = 11;
// A second fold of a block too large to search begins only while its time is at least this many
// times what the first fold took: it takes about as long, and then the packings of both folds share
// what is left. perfect:1000000:1:300000 at 10 s folds its 1,000,000 items within holes in 2.4-2.6
// s, with 4.4-4.8 s left; when the second fold began (2.2 s, 5,755 items, no tiling), the first
// fold's packing had 0.77 s (1.0643 twice), and 3.9-4.2 s when it did not (1.0536; session 56).
constexpr double kRefoldTimes = 2;
// When a block has a packing already, the block packer is not begun with less than this many
// times its timeline's build time left (its first pass always ends in a complete packing: on that
// 512,444-item block, 4 timelines past the deadline).
constexpr double kPackerTimelines = 5;
// The shares of a block's time: each fold tried for a tiling (it fails fast or tiles within a few
// tenths of a second on the instances it is for), the search when a packing is wanted in the end,
// and each fold whose own blocks get packed; the block packer has the rest (about half). A block too
// large to search gives its packed folds all of its time instead (tile_block). Chosen on
// a tuning set of cut instances (scripts/bench/cut_instances.py 2000, seeds 16-30) and refill:2000:
// a packer given too little time packs large blocks far higher (a 1,364-item block: 1.17x in
// 0.4 s, 1.06x in 1.3 s).
constexpr double kTilingFoldShare = 1.0 / 8;
// A fold that took long (a block of hundreds of thousands of items: 1-2 s) is tried for a tiling
// for at least this many times what it took, up to half the time left: perfect:1000000:1:3000000
// folds its 716,753-item block in 1.9 s, and tiling the fold takes 0.4 s, more than an eighth of
// the 1.1-1.2 s left at 10 s (alone: 1.0001x -> 1.0000x in 7.0 s; session 18).
constexpr double kTilingPerFoldSecond = 0.3;
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
// Surest first guesses, where it must, the groups found first among the parts in their order; with
// them shuffled (seeds 1, 2, ...) it guesses others. The whole problem is split that way up to
// kSurestTries times, and the split that leaves fewest items in blocks is kept (on the tuning sets
// of cut instances, against one split: 10,000-item seeds 19 1.1523 -> 1.1328, 21, 29 and 17 lower;
// 2,000-item seeds 22, 26, 29 and two of seeds 31-60 lower, seed 27 1.0156 -> 1.0195 higher;
// session 17). Each further split is begun only with at least kSurestTryTimes times what the first
// took left (a 50,000-item instance on coarse times takes up to 1.8 s).
constexpr std::uint64_t kSurestTries = 4;
constexpr double kSurestTryTimes = 20;

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
  // `tilings_again`: the block packer tries tilings of its own even on blocks that the search and
  // folds failed to tile (the blocks of the packed folds of a block too large to search:
  // tile_block).
  explicit Tiler(const BlockPacker& pack_block, bool tilings_again = false)
      : pack_block_(pack_block), tilings_again_(tilings_again) {}

  // The whole problem, split both ways (Guessing, surest first kSurestTries times, the split that
  // leaves fewest items kept) when it is small enough to search. When the splits leave different
  // numbers of items in blocks, both are packed, the one that leaves fewer first, with half the
  // time, and the lower packing is kept (on the tuning sets of cut instances, against the first
  // split alone: 7 of 30 lower, 10,000-item seed 18 1.1445 -> 1.0000, seed 28 1.0746 -> 1.0117; 2
  // higher, seed 21 1.1763 -> 1.1934; session 16).
  // Past the first split, the time runs up to `apart` if it came apart.
  // A problem too large to search is first folded whole, as a block (tile_block), when its time up
  // to `apart` lets a fold begin: the split of such a problem mostly leaves nearly all of it in one
  // block (995,764 of perfect:1000000:1:300000's 1,000,000 items; all of perfect:1000000:2:1000000),
  // and it took 1.5-3 s before that block could be folded. Only when no fold packed it is it split.
  std::optional<Tiling> tile_whole(const Problem& problem, const Timeline& timeline, double timeline_seconds,
                                   Deadline deadline, Deadline apart) const {
    const bool large = problem.items.size() > kMaxBlockItems;
    if (large) {
      if (auto folded = tile_block(problem, timeline, timeline_seconds, apart, kMaxFolds, true, true)) return folded;
    }
    Split as_found = split_top_down(problem, Guessing::as_found, 0, deadline);
    const std::size_t left_as_found = items_left(as_found);
    // Left whole, a large problem has had its fold.
    if (large && left_whole(as_found, problem)) return std::nullopt;
    if (left_as_found < problem.items.size()) deadline = apart;
    if (problem.items.size() <= kMaxBlockItems) {
      const Deadline::Clock::time_point started = Deadline::Clock::now();
      Split surest = split_top_down(problem, Guessing::surest_first, 0, deadline);
      const double split_seconds = Deadline::seconds_since(started);
      for (std::uint64_t seed = 1; seed < kSurestTries && items_left(surest) > 0 &&
                                   deadline.seconds_left() >= kSurestTryTimes * split_seconds;
           ++seed) {
        Split other = split_top_down(problem, Guessing::surest_first, seed, deadline);
        if (items_left(other) < items_left(surest)) surest = std::move(other);
      }
      const std::size_t left_surest = items_left(surest);
      if (left_surest != left_as_found) {
        const bool surest_first = left_surest < left_as_found;
        const Deadline half = Deadline::after_seconds(deadline.seconds_left() / 2);
        std::optional<Tiling> tiled = pack_split(
            problem, std::move(surest_first ? surest : as_found), half, kMaxFolds, true, 0);
        if (tiled && tiled->perfect) return tiled;
        std::optional<Tiling> other = pack_split(
            problem, std::move(surest_first ? as_found : surest), deadline, kMaxFolds, true, 0);
        if (!tiled ||
            (other && height_of(problem, other->offsets) < height_of(problem, tiled->offsets)))
          return other;
        return tiled;
      }
    }
    return pack_split(problem, std::move(as_found), deadline, kMaxFolds, true, 0);
  }

 private:
  // With `pack`, the blocks that are not tiled are packed (and the packing may be above the lower
  // bound); without, none as soon as one is not tiled. `guesses`: the split's (split_with).
  std::optional<Tiling> tile(const Problem& problem, Deadline deadline, int folds_left, bool pack,
                             std::uint64_t guesses = 0) const {
    return pack_split(problem, split_with(problem, guesses, deadline), deadline, folds_left, pack,
                      guesses);
  }

  // The first split of a block (`guesses` 0) guesses holes as found. Others, for a block that did
  // not come apart, guess surest first (1, on blocks small enough to search: its bookkeeping is
  // per time and per item; on the tuning sets of cut instances, against the parts shuffled: 10,000-
  // item seeds 18 and 28 1.1445 -> 1.0938 and 1.0746 -> 1.0218, seed 17 1.0252 -> 1.0352, 2 more
  // lower by less; session 16), or as found among the parts shuffled (seeded by `guesses`).
  static Split split_with(const Problem& problem, std::uint64_t guesses, Deadline deadline) {
    if (guesses == 1 && problem.items.size() <= kMaxBlockItems) {
      return split_top_down(problem, Guessing::surest_first, 0, deadline);
    }
    return split_top_down(problem, Guessing::as_found, guesses, deadline);
  }

  // Whether nothing came apart: one block holds every item.
  static bool left_whole(const Split& split, const Problem& problem) {
    return split.left.size() == 1 && split.left.front().items.size() == problem.items.size();
  }

  // Whether a fold merged fewer than a tenth of a block's items. Among the folds of a block too
  // large to search, such a fold is left out, and is not tried for a tiling either: it is nearly
  // the block again, and its own fold is the other stacking's (perfect:1000000:1:300000's
  // 26,506-item block folds to 3,858 items unless holes differ and to 26,047 within holes, which
  // folds to the same 3,858 again: 0.4 s tiling it and a share of packing it spent twice over).
  static bool folds_nearly_nothing(const MergedProblem& folded, const Problem& block) {
    return folded.problem().items.size() * 10 > block.items.size() * 9;
  }

  static std::size_t items_left(const Split& split) {
    std::size_t left = 0;
    for (const Block& block : split.left) left += block.items.size();
    return left;
  }

  // The blocks a split left, tiled or packed, and the packing of the problem from them.
  std::optional<Tiling> pack_split(const Problem& problem, Split split, Deadline deadline,
                                   int folds_left, bool pack, std::uint64_t guesses) const {
    std::vector<Node>& nodes = split.nodes;
    for (const auto& [item, leaf] : split.single_items)
      nodes[leaf].height = problem.items[item].size;
    std::size_t left = items_left(split);
    // Nothing came apart. With other guesses, nothing is new. A block too large to search is
    // folded if there is time (folds tile some that the split does not take apart at all), and
    // packed by its folds' blocks: splitting it again or packing it whole is the caller's.
    const bool whole = left_whole(split, problem);
    if (whole && guesses != 0) return std::nullopt;
    const bool folds_only = whole && left > kMaxBlockItems;
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
      const Deadline until = Deadline::after_seconds(share * deadline.seconds_left());
      const Deadline::Clock::time_point building = Deadline::Clock::now();
      const Timeline timeline(part);
      std::optional<Tiling> tiled =
          tile_block(part, timeline, Deadline::seconds_since(building), until, folds_left, pack, folds_only);
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

  // A block folded and split again, or searched, if that tiles it. Else, with `pack`, the lowest
  // packing of the search's, the folds' with their blocks packed, and (unless `folds_only`) the
  // block split again with other guesses of holes (its blocks packed) and the block packer's.
  // `timeline` is the block's, and took `timeline_seconds` to build.
  std::optional<Tiling> tile_block(const Problem& block, const Timeline& timeline, double timeline_seconds,
                                   Deadline deadline, int folds_left, bool pack, bool folds_only) const {
    const bool no_slack = has_no_slack(block, timeline);
    std::vector<MergedProblem> folds;
    std::optional<Tiling> lowest;
    const auto keep = [&](Tiling tiling) {
      if (!lowest || height_of(block, tiling.offsets) < height_of(block, lowest->offsets)) lowest = std::move(tiling);
    };
    // Past the deadline (the split stopped there), straight to the packer: folding is not stopped
    // by deadlines.
    const bool searchable = block.items.size() <= kMaxBlockItems;
    double fold_seconds = 0;  // the last fold's
    const auto fold_fits = [&] {
      const double left = deadline.seconds_left();
      return searchable || (left >= kLargeFoldTimelines * timeline_seconds &&
                            left >= kRefoldTimes * fold_seconds);
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
          const Deadline::Clock::time_point fold_started = Deadline::Clock::now();
          MergedProblem folded(block, stacking);
          fold_seconds = Deadline::seconds_since(fold_started);
          if (folded.problem().items.size() == block.items.size()) continue;
          if (tilings_again_ && folds_nearly_nothing(folded, block)) continue;
          const double left = deadline.seconds_left();
          const Deadline share = Deadline::after_seconds(std::max(
              kTilingFoldShare * left, std::min(kTilingPerFoldSecond * fold_seconds, left / 2)));
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
    // Each attempt whose blocks get packed has a packed fold's share of the time left. Where the
    // block is too large to search, the blocks of its folds get the block packer's tilings again:
    // its merged tiling's completion packs them far lower than greedy passes do (the 6,599-item
    // fold of perfect:200000:1:40000, whole: 1.2335x with 0.3-2.1 s, 1.0552x in 0.04 s that way;
    // session 41: perfect:200000:1:40000 1.1799x -> 1.0333x, perfect:1000000:1:10000000 1.0326x ->
    // 1.0000x in 6.7 s). Searchable blocks keep `tiling_tried`: with tilings again on every block,
    // the held-out cut instances of 10,000 items ended higher (c-10000-5 1.0586x -> 1.1016x, -7
    // 1.0783x -> 1.1143x; -2 lower, 1.0847x -> 1.0546x), as the tuning set did in session 12.
    // The packed folds of such a block also share all of its time (the folds left to pack alike),
    // and once one has a packing, the block packer is left out: its greedy passes pack such a block
    // far higher (the 391,344-item block of perfect:400000:3:100000: 1.7131x with 0.49 s, against
    // 1.1009x by its fold), and the time kept for it went unused when it was not begun (the
    // 200,000-item block of perfect:200000:2:40000 left 3.1 s of its 8.2 s; the 995,764-item block
    // of perfect:1000000:1:300000, folded with 1.1 s left, 0.66 s of it). Session 42.
    // So are the searchable blocks among such a block's folds (`tilings_again_`). Where a fold
    // packed one, the block packer packed it lower once in six (perfect:300000:3:60000's
    // 4,985-item block: 1.0087x with 0.94 s, against 1.0785x by its fold; elsewhere 1.1982x with
    // 1.08 s against 1.0868x with 0.37 s, 1.1318x against 1.0875x, 1.0451x against 1.0231x, 1.2266x
    // against 1.0749x, and perfect:1000000:1:300000's 26,506-item block, whose fold had a quarter
    // of its time). Measured at 10 s on 38 generated instances of 100,000-1,000,000 items: lower
    // on 9 (perfect:1000000:1:300000 1.0590x -> 1.0536x, perfect:700000:2:200000 1.1263x ->
    // 1.0876x), higher on perfect:300000:3:60000 (1.0044x -> 1.03-1.04x) and, within its spread,
    // perfect:500000:2:150000; the same on the rest (session 54).
    const bool packed_by_folds = !searchable || tilings_again_;
    const auto packed = [&](const Problem& problem, std::uint64_t guesses, double share) {
      const Deadline until = Deadline::after_seconds(share * deadline.seconds_left());
      const Tiler folds_tiler(pack_block_, packed_by_folds);
      return folds_tiler.tile(problem, until, folds_left - 1, true, guesses);
    };
    bool fold_packed = false;
    for (std::size_t f = 0; f < folds.size(); ++f) {
      const MergedProblem& folded = folds[f];
      const double share =
          packed_by_folds ? 1.0 / static_cast<double>(folds.size() - f) : kPackedFoldShare;
      if (std::optional<Tiling> tiled = packed(folded.problem(), 0, share)) {
        tiled->offsets = folded.expand(tiled->offsets);
        if (tiled->perfect) return tiled;
        keep(std::move(*tiled));
        fold_packed = true;
      }
    }
    if (folds_only) return lowest;
    // The block did not come apart with the guesses of holes that split it off, and wrong guesses
    // join parts that are not one band. Split again with others.
    if (try_tiling && folds_left > 0) {
      for (std::uint64_t guesses = 1; guesses <= kResplits && fold_fits(); ++guesses) {
        if (std::optional<Tiling> tiled = packed(block, guesses, kPackedFoldShare)) {
          if (tiled->perfect) return tiled;
          keep(std::move(*tiled));
        }
      }
    }
    const bool packer_left_out = !searchable || (packed_by_folds && fold_packed);
    if (lowest &&
        (packer_left_out || deadline.seconds_left() < kPackerTimelines * timeline_seconds))
      return lowest;
    const bool tiling_tried = try_tiling && searchable && !tilings_again_;
    std::vector<Bytes> offsets = pack_block_(block, deadline, tiling_tried);
    const bool perfect = no_slack && height_of(block, offsets) == timeline.peak();
    keep({std::move(offsets), perfect});
    return lowest;
  }

  const BlockPacker& pack_block_;
  const bool tilings_again_;
};

}  // namespace

std::optional<std::vector<Bytes>> tile_by_bands(const Problem& problem, const Timeline& timeline,
                                                double timeline_seconds, Deadline deadline, Deadline apart,
                                                const BlockPacker& pack_block) {
  if (problem.items.empty() || !has_no_slack(problem, timeline)) return std::nullopt;
  std::optional<Tiling> tiled = Tiler(pack_block).tile_whole(problem, timeline, timeline_seconds, deadline, apart);
  if (!tiled) return std::nullopt;
  std::vector<Bytes>& offsets = tiled->offsets;
  // Bands hold their items by construction; the checker makes sure.
  if (!check(problem, {offsets, height_of(problem, offsets)}).valid) return std::nullopt;
  return offsets;
}

}  // namespace tidepool::packing
