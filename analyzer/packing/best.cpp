// The `best` portfolio (see best.h).
#include "analyzer/packing/best.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <numeric>
#include <optional>
#include <random>
#include <span>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include "analyzer/packing/bands.h"
#include "analyzer/packing/completion.h"
#include "analyzer/packing/cores.h"
#include "analyzer/packing/exact_search.h"
#include "analyzer/packing/hole_sweep.h"
#include "analyzer/packing/item_merging.h"
#include "analyzer/packing/local_search.h"
#include "analyzer/packing/orders.h"
#include "analyzer/packing/overlap_search.h"
#include "analyzer/packing/settle.h"
#include "analyzer/packing/tiling_search.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {
namespace {

// The hole sweep, first on instances with no slack up to kLargeInstance items: its share of the
// time (it ends sooner, at the optimum or where the tree of orders cannot take a hole and its
// guesses are spent: 0.01-0.4 s at 2,000-200,000 items; above, up to a second for nothing on
// every instance tried, time that the cut instances there need).
constexpr double kHoleSweepShare = 0.1;
// Above kLargeInstance items, the sweep's whole-step pass alone (every time one hole), first: its
// share of the time left (3-4 s with `best` at 1,000,000 grown items, where every time has one
// hole; 0.5 s to give up on cuts on coarse times and refilled instances, whose times have many
// holes; 2.5 s after the merged tiling, which it was first run after), less the free-blocks pass's
// reserve (kFreeBlocksTimelines), so that a packing is had in time.
constexpr double kLargeHoleSweepShare = 0.6;
// The exact search keeps an overlap graph and costs O(items) per node: it is for instances of a
// few thousand items.
constexpr std::size_t kExactMaxItems = 5000;
constexpr std::int64_t kExactMaxPairs = 20'000'000;
// Building its overlap lists took 0.09 s for 2,017,534 pairs (a 3,050-item block of
// refill:10000:1): the search starts only with more time left than this per pair, 2.4 times that.
constexpr double kExactSetupSecondsPerPair = 1e-7;
// Above this many items, a greedy pass costs seconds: only the cheapest orders run.
constexpr std::size_t kLargeInstance = 200'000;
// The greedy portfolio stops after a pass that found nothing lower, unless it took less than
// kCheapPassSeconds (cheap passes are always worth running).
constexpr int kMaxFruitlessPasses = 1;
constexpr double kCheapPassSeconds = 0.05;
// Above this many time-overlapping pairs, a gap pass takes seconds: they are left out.
constexpr std::int64_t kGapMaxPairs = 20'000'000;
// The share of the time left after the greedy portfolio that the exact search gets; local search
// over the order has the rest.
constexpr double kExactShare = 0.9;
// The exact search's descent below the best height gets 1 / kDescentBudgetShare of each node budget.
constexpr std::int64_t kDescentBudgetShare = 2;
// minimalloc's preorders (see ExactSearch::run): every budget is tried with each of them, since
// which one leads to a packing soonest varies a lot between instances. The ones led by T come
// first: each alone at doubling budgets, TWA or TAW found the packing at the bound of minimalloc's
// challenging A, B, C and E with 8 to over 60 times fewer nodes than WAT, and F at a budget where
// WAT did not; and a try at the budget that succeeds costs as much as all the tries before it.
constexpr std::array<std::string_view, 3> kPreorders = {"TWA", "TAW", "WAT"};
// The tiling search (instances with no slack, up to kLargeInstance items): its share of the
// time (its node budget: tiling_search.h).
constexpr double kTilingShare = 0.6;
// Its setup and completion are not stopped by the deadline: with a packing at hand, it is not begun
// with less time left than this many timeline builds (on perfect:200000:2:40000, 0.37 s with none
// left and 0.55 s more per second left, so past its deadline with less than about 11 builds left;
// it packed 1.80-1.90x there, against 1.08x at hand after bands).
constexpr double kTilingTimelines = 16;
// Tiling by bands (bands.h), first, up to kLargeInstance items: it tiles the cut instances it is
// for in hundredths of a second (guillotine cuts on fine times) to a second or two (50,000 items
// on coarse times); where blocks do not come apart, each gets a portfolio of its own, which packs
// it far lower than one for the whole instance gets the whole (tuning set of 15 cut instances of
// 2,000 items, against 30% with the blocks' shares at a third each: no worse on any, better on
// six, by up to 0.027x; refill:2000:3 at the optimum). When nothing comes apart, the block packer
// is a portfolio much like the rest of this one, with most of the time.
constexpr double kBandsShare = 0.9;
// Above kLargeInstance items, bands come after the hole sweep (which tiles cut instances on fine
// times and grown ones) and before the free-blocks pass (which refilled instances need: bands leave
// it kFreeBlocksTimelines times the timeline's build time, 5.5 at 1,000,000 items; on refilled
// instances nothing comes apart and the split gives up within a second). Until session 15 the
// free-blocks pass came first, and on coarse times took 1.5 s for nothing, time that folding the
// block bands leave needs: with that (and bands.cpp's guards per fold), 1,000,000 items on
// 10,000,000 time steps, seeds 1 and 3, 1.0745x and 1.0991x -> 1.0001x and 1.0000x at 10 s. When
// something came apart, the blocks left get that time too (the free-blocks pass is for instances
// where nothing does): perfect:1000000:1:3000000 1.0001x at 10 s -> 1.0000x in 7.4 s (alone;
// session 18). The merged tiling comes before bands on such an instance only when less than
// kMergedFirstTimelines timeline builds are left: since the hole sweep comes first, it tiled none
// of the large instances measured (cut on fine and coarse times, grown, refilled, 200,000-1,000,000
// items) and took 1.5-3.3 s that bands then lacked (at 10 s, perfect:1000000:1:3000000 and
// :2:3000000 1.1365x and 1.2546x -> 1.0000x in 6.0-6.5 s, the other 14 coarse ones of session 22 as
// before, or sooner); but the packing it completes is what short limits end with (at 4 s,
// perfect:1000000:1:10000000, :1:3000000 and :3:10000000 1.25x, 1.33x and 1.15x, against
// 1.94x-2.29x from the free-blocks pass when bands do not come apart in time; at 6 s, about 15
// timelines left, 1.07x, 1.14x and 1.00x without it, 1.16x, 1.33x and 1.11x with it; session 31).
// Blocks that bands leave over are merged as before (kMergingShare).
constexpr double kLargeBandsShare = 0.9;
constexpr double kMergedFirstTimelines = 13;
constexpr double kFreeBlocksTimelines = 6;
// Bands check their packing at the end (bands.h), which is not stopped by the deadline: 1.1-1.4
// times the timeline's build time at 1,000,000 items (1.3-1.9 before session 24's checker). Their
// deadline leaves room for it; block portfolios may use that room too (solve_deadline_).
constexpr double kCheckTimelines = 3;
// Then the tiling search on the merged instance (item_merging.h): its share of the time for the
// search; its completion may run a third longer.
constexpr double kMergedTilingShare = 0.3;
// Above kLargeInstance items (blocks that bands left over, and instances with little time left:
// kMergedFirstTimelines), merging (before the search) stops within this share of the solve's time
// left, less the first packing's reserve: at 1,000,000 items it took 1.3 s on instances that fold
// (perfect:1000000:1 into one item), 2.8 s on grown:1000000:1, which does not (before session 30's
// faster merging).
constexpr double kMergingShare = 0.5;
constexpr double kMergedCompletionOver = 4.0 / 3.0;
// Then on the instance merged with stacking within holes, and unless holes differ (for coarse
// times), up to this many items (finding holes costs up to 1,024 subset sums per item, 1 s at most
// at 50,000): each folds the cut instances it is for within a few tenths of a second, and takes
// time from what follows on instances of other kinds, so its share is small.
constexpr std::size_t kWithinHolesMaxItems = 50'000;
constexpr double kWithinHolesTilingShare = 0.1;
// Merging with regard to holes is not stopped by the deadline: it took 11-33 times as long as
// building the timeline on cut instances of 2,000-50,000 items. With a packing at hand, it is not
// begun with less time left than this many timeline builds (a 50,000-item instance ran 0.1 s past
// its limit for one begun with 4 ms left).
constexpr double kWithinHolesTimelines = 40;
// Above kLargeInstance items, the other passes that their deadline does not stop are not begun,
// with a packing at hand or not, without this many timeline builds left of the whole solve's time
// (solve_deadline_): the hole sweep's setup (its steps: half a timeline at 1,000,000 items) and
// merging with the search after it (a round of merges took 0.8-1.5 s at 1,000,000 items, merging
// perfect:1000000:1 into one item 2.3 timelines); and with no packing yet, kFirstPackingTimelines
// more for the first (one free-blocks pass, with its sort: 2.5-3.8 timelines at 1,000,000 items;
// with 6, perfect:1000000:1:3000000 and :10000000 were not merged at 4 s and ended at 2.29 and
// 2.10 instead of 1.33 and 1.25). Until session 23 they ran whenever there was no packing, and at
// 1,000,000 items a limit of 0.5 s was overrun by up to 5.5 s (grown:1000000:1: its merge, then
// free-blocks passes cut and dropped, then a greedy pass completed). Smaller instances run them
// regardless: they cost tenths of a second at most, and blocks that bands pack past their share
// still tile that way (the same guards on blocks of 1,000-5,000 items, merged into one item past
// their deadline before, left perfect:1000000:4:10000000 at 1.21 instead of the optimum).
constexpr double kSweepSetupTimelines = 2;
constexpr double kMergeTimelines = 2;
constexpr double kFirstPackingTimelines = 4;
// Instances with no slack, up to kLargeInstance items and kOverlapSearchMaxPairs, keep this share of
// the time for the search over overlaps from the portfolio's packing when that is above the bound
// (overlap_search.h). On nine cut instances on coarse times that the portfolio leaves highest
// (2,000 and 10,000 items), the search for two seeds from the portfolio's packing of 2 s, 3 s, 4 s
// and 5 s, for the rest of 10 s: mean height over the bound 1.0674, 1.0542, 1.0548, 1.0589 (the
// portfolio's alone at 10 s: 1.0946). Every other instance tried that the portfolio packs at the
// bound does so within 1 s (generated of 2,000-10,000 items, on fine and coarse times, grown and
// refilled), or within 2-3.3 s (c-2000-1).
constexpr double kOverlapShare = 0.6;
// The searches over overlaps run at once from that packing, with seeds of their own, one per core
// (of the portfolio's share of them: solve_in_two_orders) up to this many (each keeps its own
// pairs).
constexpr unsigned kMostOverlapSearches = 2;
// Setting the search over overlaps up (its neighbour lists) is not stopped by the deadline: 1-1.5 x
// 10^-7 s per time-overlapping pair at 690,000-2,870,000 pairs (0.09-0.43 s). It begins only with
// more time left than that. A block that bands leave over comes to its packer last, with what its
// folds and searches left of its share: on the nine 10,000-item cut instances above 2%, 1-15 blocks
// per instance came to the search with less than twice its setup left, some past their deadline,
// and spent 0.03-0.46 s per instance setting up searches that stopped within a few moves.
constexpr double kOverlapSetupSecondsPerPair = 1.5e-7;
// A block that bands leave over (packed by a portfolio of its own) is lowered by the search over
// overlaps too, when the instance it came from is not (too large, or too many pairs), or has at
// least this many items: there, the whole instance's search makes an attempt in 1-2 s, so few in
// its time, and blocks lowered first give it a lower start. On the held-out cut sets (one run
// each): 10,000 items, the nine above 2% 1.0756 -> 1.0595 on average (c-10000-5 1.1211 -> 1.0586);
// 2,000 items, blocks lowered too: c-2000-2 1.0376-1.0402 -> 1.0502-1.0673, c-2000-5 1.0312 ->
// 1.0664 in three runs each (the time the blocks take is the whole search's).
// perfect:200000:1:40000 (not lowered whole: too many pairs) 1.2037 -> 1.1676,
// perfect:250000:2:250000 (too large) 1.1238 -> 1.0851.
constexpr std::size_t kLowerBlocksOfItems = 5000;
// The share of the time left after bands that settling their packing may take (settle.h: it stops
// sooner once a round lowers nothing, usually within a few tenths of a second at 10,000 items).
constexpr double kSettleShare = 0.5;

// The whole solve stops this share of its time early, at most kMaxFinishingSeconds, for the steps
// that no deadline stops once begun (a move of the search over overlaps, its reweighing, a pass's
// completion, the final conversions): without it, `best` ended 2-26 ms past a 10 s limit on the
// held-out cut instances of 10,000 items, and 30-60 ms past it on 1,000,000 items.
constexpr double kFinishingShare = 0.01;
constexpr double kMaxFinishingSeconds = 0.1;

// Up to this many items, on two cores or more, two portfolios run at once, on the items as given
// and shuffled (solve_in_two_orders): where a portfolio ends turns on the order of the items, by
// the ties of every sort in it (c-2000-2's rows shuffled four ways: 1.029 to 1.126 at 10 s), so
// two orders give two draws; the second's order is drawn with this seed.
constexpr std::size_t kTwoOrdersMaxItems = kLargeInstance;
constexpr std::uint64_t kShuffleSeed = 0x7469646570;

// Seeds first, first + 1, ... for the searches over overlaps, one per core of `cores` up to
// kMostOverlapSearches.
std::vector<std::uint64_t> overlap_search_seeds(std::uint64_t first, unsigned cores) {
  std::vector<std::uint64_t> seeds(std::clamp(cores, 1U, kMostOverlapSearches));
  std::iota(seeds.begin(), seeds.end(), first);
  return seeds;
}

// What a portfolio tries on an instance with no slack before packing it: all of step 0 (best.h);
// all but bands (on a block that bands left over); or nothing (on a block that bands already
// tried to tile by the search and folds: trying again left the packing less time, and the
// tuning set's cut instances of seeds 24 and 25 ended 0.25% and 1.3% higher for it).
enum class Tilings { all, without_bands, none };
// Whether a portfolio on an instance with no slack ends with the search over overlaps when its
// packing is above the bound (Portfolio::run).
enum class Lowering { allowed, not_allowed };

class Portfolio {
 public:
  // `solve_deadline`: the whole solve's, when this portfolio packs a block that bands left over
  // (`deadline` is the block's share).
  // `overlap_seeds`: one per search over overlaps run at once (lower_by_overlaps_concurrently).
  Portfolio(const Problem& problem, Deadline deadline, std::vector<std::uint64_t> overlap_seeds,
            Tilings tilings = Tilings::all, std::optional<Deadline> solve_deadline = std::nullopt,
            Lowering lowering = Lowering::allowed)
      : problem_(problem),
        created_(Deadline::Clock::now()),
        timeline_(problem),
        timeline_seconds_(Deadline::seconds_since(created_)),
        grain_(granularity(problem)),
        lowest_possible_(timeline_.peak()),
        deadline_(deadline),
        solve_deadline_(solve_deadline.value_or(deadline)),
        tilings_(tilings),
        lowering_allowed_(lowering == Lowering::allowed),
        overlap_seeds_(std::move(overlap_seeds)) {}

  // No packing is lower than this: the bound, or higher where the exact search proved it.
  Bytes lowest_possible() const { return lowest_possible_; }

  // The whole portfolio, then, for an instance with no slack packed above the bound, the search
  // over overlaps from its packing with kOverlapShare of the time (kept back from the rest).
  Solution run() {
    const Deadline whole = deadline_;
    const bool no_slack = has_no_slack(problem_, timeline_);
    const bool tiling = tilings_ != Tilings::none && no_slack;
    lowering_ =
        lowering_allowed_ && no_slack && !is_large() && overlap_pairs() <= kOverlapSearchMaxPairs;
    if (lowering_)
      deadline_ = Deadline::after_seconds((1 - kOverlapShare) * deadline_.seconds_left());
    Solution solution = run_portfolio(tiling);
    if (!lowering_ || solution.height <= lowest_possible_) return solution;
    if (!setup_fits(whole, kOverlapSetupSecondsPerPair)) return solution;
    if (auto lower = lower_by_overlaps_concurrently(problem_, solution.offsets, lowest_possible_,
                                                    whole, overlap_seeds_)) {
      solution.height = height_of(problem_, *lower);
      solution.offsets = std::move(*lower);
    }
    return solution;
  }

 private:
  // `tiling`: the instance has no slack and tilings are tried (step 0 of best.h).
  Solution run_portfolio(bool tiling) {
    if (tiling) {
      const bool large = is_large();
      if (!large) {
        run_hole_sweep(kHoleSweepShare, SweepPasses::all);
      } else {
        run_hole_sweep(kLargeHoleSweepShare, SweepPasses::whole_steps);
      }
      if (done(deadline_)) return std::move(best_.solution);
      const bool bands = tilings_ == Tilings::all;
      if (bands && !large) run_bands(kBandsShare);
      if (done(deadline_)) return std::move(best_.solution);
      std::vector<std::size_t> merged_counts;
      const bool bands_first =
          large && bands && deadline_.seconds_left() >= kMergedFirstTimelines * timeline_seconds_;
      if (!bands_first && may_begin(kMergeTimelines)) {
        merged_counts.push_back(run_merged_tiling(MergedProblem::Stacking::all, {}, kMergedTilingShare));
      }
      for (const auto stacking : {MergedProblem::Stacking::within_holes, MergedProblem::Stacking::unless_holes_differ}) {
        if (done(deadline_) || problem_.items.size() > kWithinHolesMaxItems) break;
        if (short_of(kWithinHolesTimelines * timeline_seconds_)) break;
        merged_counts.push_back(run_merged_tiling(stacking, merged_counts, kWithinHolesTilingShare));
      }
      if (done(deadline_)) return std::move(best_.solution);
      if (!large) {
        if (!short_of(kTilingTimelines * timeline_seconds_)) run_tiling();
      } else {
        if (bands) run_bands(kLargeBandsShare, kFreeBlocksTimelines * timeline_seconds_);
        if (done(deadline_)) return std::move(best_.solution);
        run_free_blocks();
      }
    }
    run_greedy();
    if (done(deadline_)) return std::move(best_.solution);
    if (!free_blocks_run_) run_free_blocks();
    if (done(deadline_)) return std::move(best_.solution);
    // Setting the exact search up (its overlap lists) is not stopped by the deadline.
    if (problem_.items.size() <= kExactMaxItems && overlap_pairs() <= kExactMaxPairs &&
        setup_fits(deadline_, kExactSetupSecondsPerPair)) {
      run_exact(Deadline::after_seconds(kExactShare * deadline_.seconds_left()));
    }
    // Local search re-places the whole order each step: not started when one pass would not fit.
    if (!done(deadline_) && deadline_.seconds_left() > placement_seconds_) {
      best_ = improve_order(problem_, timeline_, std::move(best_), lowest_possible_, deadline_, 1);
    }
    return std::move(best_.solution);
  }

  // Whether `deadline` leaves more time than a search's setup, which no deadline stops and which
  // costs `seconds_per_pair` per time-overlapping pair.
  bool setup_fits(Deadline deadline, double seconds_per_pair) {
    return deadline.seconds_left() > seconds_per_pair * static_cast<double>(overlap_pairs());
  }

  // Time-overlapping pairs of items, counted once.
  std::int64_t overlap_pairs() {
    if (!overlap_pairs_) overlap_pairs_ = ExactSearch::overlap_pairs(problem_);
    return *overlap_pairs_;
  }

  // Done when there is a packing and its height is proven optimal, or at the deadline.
  bool done(Deadline deadline) const {
    return !best_.order.empty() && (best_.solution.height <= lowest_possible_ || deadline.passed());
  }

  // Whether a pass begun now, after another packing, has less than `seconds` left: passes are
  // dropped when cut, so one that cannot finish is not begun.
  bool short_of(double seconds) const { return !best_.order.empty() && deadline_.seconds_left() < seconds; }

  bool is_large() const { return problem_.items.size() > kLargeInstance; }

  // The seconds that a large instance keeps back for its first packing (the free-blocks pass) while
  // it has none.
  double first_packing_reserve() const {
    return is_large() && best_.order.empty() ? kFirstPackingTimelines * timeline_seconds_ : 0;
  }

  // Whether a pass that its deadline does not stop, and that costs about `timelines` timeline
  // builds, may begin: always, but above kLargeInstance items only with that much of the solve's
  // time left, and the first packing's reserve.
  bool may_begin(double timelines) const {
    const double needed = first_packing_reserve() + timelines * timeline_seconds_;
    return !is_large() || solve_deadline_.seconds_left() >= needed;
  }

  // The deadline of a pass that must end in a complete packing (completion.h).
  Deadline reserving_for_completion() const {
    return packing::reserving_for_completion(deadline_, timeline_seconds_, problem_.items.size());
  }

  // The highest capacity on the grid that is at most `bytes`.
  Bytes on_grid(Bytes bytes) const { return bytes / grain_ * grain_; }

  // Keeps a packing if it is the lowest so far; returns whether it did.
  bool consider(std::vector<std::size_t> order, Placer placer, std::vector<Bytes> offsets) {
    const Bytes height = height_of(problem_, offsets);
    if (!best_.order.empty() && height >= best_.solution.height) return false;
    best_ = {std::move(order), placer, {std::move(offsets), height}};
    return true;
  }

  // Instances with no slack, swept in time hole by hole (hole_sweep.h): at the lower bound when
  // the holes are right, else nothing.
  // A large instance with no packing yet keeps back the time for its first (first_packing_reserve).
  void run_hole_sweep(double share, SweepPasses passes) {
    if (!may_begin(kSweepSetupTimelines)) return;
    const double left = deadline_.seconds_left();
    const Deadline deadline = Deadline::after_seconds(std::min(share * left, left - first_packing_reserve()));
    if (auto offsets = sweep_holes(problem_, timeline_, deadline, passes)) {
      consider_found(std::move(*offsets));
    }
  }

  // Instances with no slack: the tiling search gets most of the time.
  void run_tiling() {
    TilingResult result = search_tiling(problem_, timeline_, tiling_budget(problem_),
                                        Deadline::after_seconds(kTilingShare * deadline_.seconds_left()),
                                        reserving_for_completion());
    consider_found(std::move(result.offsets));
  }

  // Instances with no slack, first with their items merged: an instance cut by guillotine cuts
  // folds into a few items, whatever its size; with coarse times, stacking with regard to holes
  // keeps it from folding wrongly. Not when merging changed nothing, left as many items as an
  // attempt before (`tried_counts`: likely the same merge), or left more items than the tiling
  // search gets through. Returns the number of merged items.
  std::size_t run_merged_tiling(MergedProblem::Stacking stacking, std::span<const std::size_t> tried_counts, double share) {
    const double before = solve_deadline_.seconds_left();
    const double merging_seconds = std::min(kMergingShare * before, before - first_packing_reserve());
    const Deadline merging = is_large() ? Deadline::after_seconds(merging_seconds) : Deadline::never();
    const MergedProblem merged(problem_, stacking, merging);
    const Problem& folded = merged.problem();
    const std::size_t count = folded.items.size();
    if (count == problem_.items.size() || std::ranges::find(tried_counts, count) != tried_counts.end() ||
        count > kLargeInstance) {
      return count;
    }
    const Timeline timeline(folded);
    const double left = deadline_.seconds_left();
    const TilingResult result = search_tiling(folded, timeline, tiling_budget(folded),
                                              Deadline::after_seconds(share * left),
                                              Deadline::after_seconds(kMergedCompletionOver * share * left));
    // With regard to holes, only a packing at the bound is kept: greedy completions are no better
    // than the plain merge's, and one kept as the best so far sends the local search elsewhere
    // (refill:2000:2 ended at 1.076 instead of 1.053).
    if (result.perfect || stacking == MergedProblem::Stacking::all) consider_found(merged.expand(result.offsets));
    return count;
  }

  // Instances with no slack, split top-down into bands and pieces in time by their holes (bands.h):
  // guillotine cuts on any times, and some other patterns whose leftover blocks the search tiles.
  // The blocks that do not come apart get a portfolio of their own.
  // `reserve`: the seconds kept back for what follows, unless something comes apart.
  void run_bands(double share, double reserve = 0) {
    const Lowering blocks_lowering = !lowering_ || problem_.items.size() >= kLowerBlocksOfItems
                                         ? Lowering::allowed
                                         : Lowering::not_allowed;
    const BlockPacker pack_block = [this, blocks_lowering](const Problem& block, Deadline deadline,
                                                           bool tiling_tried) {
      const Tilings tilings = tiling_tried ? Tilings::none : Tilings::without_bands;
      return Portfolio(block, deadline, overlap_seeds_, tilings, deadline_, blocks_lowering)
          .run()
          .offsets;
    };
    const auto keeping = [&](double kept) {
      return Deadline::after_seconds(share * (deadline_.seconds_left() - kept) -
                                     kCheckTimelines * timeline_seconds_);
    };
    const Deadline apart = keeping(0);
    if (is_large() && apart.passed()) return;  // no time for anything that comes apart
    if (auto offsets = tile_by_bands(problem_, timeline_, timeline_seconds_, keeping(reserve), apart, pack_block)) {
      consider_settled(std::move(*offsets));
    }
  }

  static std::int64_t tiling_budget(const Problem& problem) {
    return kTilingNodesPerItem * static_cast<std::int64_t>(problem.items.size());
  }

  void run_greedy() {
    const bool large = is_large();
    struct Run {
      OrderKey key;
      Placer placer;
    };
    // The skyline comes first: it is the fastest and the only one run on large instances; then
    // lowest first by area and by size, the first gap pass, lowest first by length (the best
    // start on several minimalloc instances, but slow on some large ones), and the other gap
    // passes. Gap passes cost about the number of time-overlapping pairs and are left out when
    // there are too many of them (counted only when one is next: counting sorts every interval
    // end, 0.03 s at 150,000 items, which ran past the deadline when no pass had time left).
    const auto gaps = [&] { return !large && overlap_pairs() <= kGapMaxPairs; };
    const std::array runs = {
        Run{OrderKey::size, Placer::skyline},          Run{OrderKey::area, Placer::lowest_first},
        Run{OrderKey::size, Placer::lowest_first},     Run{OrderKey::size_length, Placer::gaps_best},
        Run{OrderKey::length_size, Placer::lowest_first}, Run{OrderKey::size, Placer::gaps_best},
        Run{OrderKey::size, Placer::gaps_first},       Run{OrderKey::length_size, Placer::gaps_best},
        Run{OrderKey::area, Placer::gaps_best},        Run{OrderKey::start, Placer::gaps_best},
    };
    // After the first, a run starts only if the time left exceeds what the last one took, and
    // not after kMaxFruitlessPasses costly passes in a row that found nothing lower. When there
    // is a packing already, the first needs at least what building the timeline took (a pass
    // sorts the items too): at 1,000,000 items a skyline pass begun 0.26 s before the deadline
    // ran 0.23 s past it, and was dropped.
    double last_seconds = timeline_seconds_;
    int fruitless = 0;
    for (const Run& run : runs) {
      if (done(deadline_) || short_of(last_seconds)) return;
      if (fruitless >= kMaxFruitlessPasses) return;
      if (large && run.placer != Placer::skyline) continue;
      if ((run.placer == Placer::gaps_best || run.placer == Placer::gaps_first) && !gaps()) continue;
      // A pass cut by the deadline is dropped, unless it is the first: that one stops early
      // enough that what it did not reach can be placed above it (completion.h), so that there
      // is always a packing.
      const bool first = best_.order.empty();
      const Pass pass = run_pass(run.key, run.placer, first ? reserving_for_completion() : deadline_, first);
      if (!pass.kept) return;
      last_seconds = pass.seconds;
      fruitless = pass.improved || pass.seconds < kCheapPassSeconds ? 0 : fruitless + 1;
    }
  }

  // The allocator's sweep, largest first among the items that start together: cheap at any size
  // (no overlap pairs), and the best start on instances whose freed memory is refilled at once.
  // Then again with the longest first among equal sizes (at 1,000,000 items, grown 1.0980x ->
  // 1.0835x, refill 1.0238x -> 1.0200x; session 18). Each pass is dropped when cut by the deadline,
  // and not begun after another packing with less time left than the timeline's build (or the
  // pass before) took: its sort is not stopped by the deadline, and on perfect:150000:6:30000 a
  // pass begun 2 ms before it ended 40 ms after. A first packing is not cut: this pass costs what
  // completing one does (both keep ordered maps of free blocks: 1.1-1.8 s and 1.1-2.0 s at
  // 1,000,000 items), so stopping it to complete the rest above would be no sooner, and higher.
  void run_free_blocks() {
    free_blocks_run_ = true;
    double last_seconds = timeline_seconds_;
    for (const OrderKey key : {OrderKey::size, OrderKey::size_length}) {
      if (done(deadline_) || short_of(last_seconds)) return;
      const bool first = best_.order.empty();
      const Pass pass = run_pass(key, Placer::free_blocks, first ? Deadline::never() : deadline_, false);
      last_seconds = std::max(last_seconds, pass.seconds);
    }
  }

  // One greedy pass, `placer` in the order of `key` until `stop`: a pass cut there is completed
  // above when `complete_if_cut`, else dropped (not kept). Its packing is kept if it is the
  // lowest, and the time of the pass that gave the best packing is noted for the local search.
  struct Pass {
    bool kept = false;
    bool improved = false;
    double seconds = 0;
  };
  Pass run_pass(OrderKey key, Placer placer, Deadline stop, bool complete_if_cut) {
    const Deadline::Clock::time_point started = Deadline::Clock::now();
    const Bytes before = best_.order.empty() ? 0 : best_.solution.height;
    std::vector<std::size_t> order = order_by(problem_, key);
    std::vector<Bytes> offsets = place(problem_, timeline_, order, placer, stop);
    if (!is_complete(offsets)) {
      if (!complete_if_cut) return {};
      complete_above(problem_, offsets);
    }
    consider(std::move(order), placer, std::move(offsets));
    const Pass pass{true, before == 0 || best_.solution.height < before, Deadline::seconds_since(started)};
    if (pass.improved) placement_seconds_ = pass.seconds;
    return pass;
  }

  // A packing from a search, with the order of its offsets (for the local search).
  void consider_found(std::vector<Bytes> offsets) {
    std::vector<std::size_t> order = order_by_offset(offsets);
    consider(std::move(order), Placer::lowest_first, std::move(offsets));
  }

  // A packing from bands, above the bound when blocks were packed above their height: settled
  // (settle.h), with a share of the time left, and the local search goes on from it by first fit
  // (its placement rule). Settling costs gap passes (0.5 s each on a 50,000-item cut instance on
  // coarse times), so not on large instances. On the tuning sets of cut instances, 10,000 items,
  // the settled packing is lower on 10 of 15 (one fall, 1.1343x -> 1.1188x on seed 20; rounds of
  // falls and rises: 1.1188x -> 1.0853x). A settled packing is never higher than the one it came
  // from, so that one is considered only when none was settled (not even one fall in time).
  void consider_settled(std::vector<Bytes> offsets) {
    const bool settle_it = height_of(problem_, offsets) > lowest_possible_ &&
                           !is_large() &&
                           overlap_pairs() <= kGapMaxPairs;
    if (settle_it) {
      const Deadline share = Deadline::after_seconds(kSettleShare * deadline_.seconds_left());
      Settled settled = settle(problem_, timeline_, offsets, share);
      if (settled.fall_seconds > 0) {
        std::vector<std::size_t> order = order_by_offset(settled.offsets);
        if (consider(std::move(order), Placer::gaps_first, std::move(settled.offsets))) {
          placement_seconds_ = settled.fall_seconds;  // what a step of the local search costs
        }
        return;
      }
    }
    consider_found(std::move(offsets));
  }

  // Tries a capacity with each preorder; returns whether it was found, proven infeasible or not.
  SearchStatus attempt(ExactSearch& search, Bytes capacity, std::int64_t budget, Deadline deadline) {
    std::vector<Bytes> offsets;
    for (const std::string_view preorder : kPreorders) {
      const SearchStatus status = search.run(preorder, capacity, budget, deadline, offsets);
      if (status == SearchStatus::found) consider_found(std::move(offsets));
      if (status != SearchStatus::gave_up) return status;
      if (deadline.passed()) break;
    }
    return SearchStatus::gave_up;
  }

  // At doubling node budgets: the lowest capacity not proven infeasible (the lower bound, first),
  // then capacities below the best height found, a sixteenth of the gap to the lower bound at a
  // time, the step halving (down to one grain) when nothing is found. The descent gets half the
  // budget (at least the first one): on most instances the lower bound is what is found in the
  // end, and with the full budget the descent took two thirds of the time (minimalloc A); with a
  // quarter, minimalloc D (whose bound is out of reach) took 3 s instead of 2 s to come below the
  // best height known.
  void run_exact(Deadline deadline) {
    ExactSearch search(problem_, timeline_);
    const std::int64_t first_budget = 2 * static_cast<std::int64_t>(problem_.items.size());
    for (std::int64_t budget = first_budget; !done(deadline); budget *= 2) {
      const Bytes lowest = lowest_possible_;
      if (attempt(search, lowest, budget, deadline) == SearchStatus::infeasible) lowest_possible_ = lowest + grain_;
      const std::int64_t descent_budget = std::max(first_budget, budget / kDescentBudgetShare);
      Bytes step = std::max(grain_, on_grid((best_.solution.height - lowest_possible_) / 16));
      while (!done(deadline) && best_.solution.height - step >= lowest_possible_) {
        const Bytes below = best_.solution.height - step;
        const SearchStatus found_below = attempt(search, below, descent_budget, deadline);
        if (found_below == SearchStatus::infeasible) lowest_possible_ = below + grain_;
        if (found_below == SearchStatus::found) continue;
        if (step == grain_) break;
        step = std::max(grain_, on_grid(step / 2));
      }
    }
  }

  const Problem& problem_;
  const Deadline::Clock::time_point created_;
  const Timeline timeline_;
  const double timeline_seconds_;  // what building timeline_ took
  const Bytes grain_;
  Bytes lowest_possible_;  // no packing is lower (the bound, or proven by the exact search)
  Deadline deadline_;  // the portfolio's: less than the solve's when the overlap search follows
  // The whole solve's deadline (deadline_ but in a block's portfolio), against which passes that
  // their deadline does not stop are weighed (may_begin): a block's portfolio may run past its
  // share into the slack that bands keep (kLargeBandsShare, kCheckTimelines). Blocks of 134,000-
  // 586,000 items of perfect:1000000:2:20000000 are merged into 15-321 items past their share and
  // tiled that way (1.0837; with those blocks refused, 1.2514).
  const Deadline solve_deadline_;
  const Tilings tilings_;
  const bool lowering_allowed_;
  const std::vector<std::uint64_t> overlap_seeds_;
  bool lowering_ = false;  // the search over overlaps follows the portfolio (run)
  bool free_blocks_run_ = false;
  std::optional<std::int64_t> overlap_pairs_;
  OrderedSolution best_;
  double placement_seconds_ = 0;  // what the greedy pass of the best packing took
};

// The portfolio on `problem` with `cores`, stopped once `settled` is set; sets it when its packing
// is proven optimal, so that a portfolio beside it stops.
Solution solve_settling(const Problem& problem, Deadline deadline, std::uint64_t first_seed,
                        unsigned cores, std::atomic<bool>& settled) {
  const StopDeadlinesWhen stopping(settled);
  const CoreShare share(cores);
  Portfolio portfolio(problem, deadline, overlap_search_seeds(first_seed, cores));
  Solution solution = portfolio.run();
  if (solution.height <= portfolio.lowest_possible()) settled = true;
  return solution;
}

// Two portfolios at once, one on the items as given (on the caller's thread), one on them shuffled,
// each with half the cores: the lower packing (the first on a tie). Both stop as soon as one packs
// the bound. An error of the first propagates; one of the second (its copy of the problem doubles
// the memory) only leaves the first's packing.
Solution solve_in_two_orders(const Problem& problem, Deadline deadline, unsigned cores) {
  std::vector<std::size_t> order(problem.items.size());
  std::iota(order.begin(), order.end(), 0);
  std::ranges::shuffle(order, std::mt19937_64(kShuffleSeed));
  Problem shuffled;
  shuffled.items.reserve(order.size());
  for (const std::size_t i : order) shuffled.items.push_back(problem.items[i]);
  std::atomic<bool> settled = false;
  std::optional<Solution> second;
  Solution first;
  const StopDeadlinesWhen::Inherited callers = StopDeadlinesWhen::current();
  {
    std::jthread other;
    try {
      other = std::jthread([&] {
        const StopDeadlinesWhen stopping = StopDeadlinesWhen::inheriting(callers);
        try {
          second = solve_settling(shuffled, deadline, 1 + kMostOverlapSearches, cores / 2, settled);
        } catch (...) {  // std::bad_alloc, say: the first's packing is the answer
        }
      });
    } catch (const std::system_error&) {
      // No thread: the first alone, with every core.
      return solve_settling(problem, deadline, 1, cores, settled);
    }
    try {
      first = solve_settling(problem, deadline, 1, cores - cores / 2, settled);
    } catch (...) {
      settled = true;  // the error is the answer: the other stops before it propagates
      throw;
    }
  }  // joined
  if (!second || second->height >= first.height) return first;
  for (std::size_t k = 0; k < order.size(); ++k) first.offsets[order[k]] = second->offsets[k];
  first.height = second->height;
  return first;
}

}  // namespace

Solution solve_best(const Problem& problem, Deadline deadline) {
  if (problem.items.empty()) return {};
  const double left = deadline.seconds_left();
  const double finishing = std::min(kFinishingShare * left, kMaxFinishingSeconds);
  const Deadline solving = Deadline::after_seconds(left - finishing);
  const unsigned cores = CoreShare::current();
  // Without a deadline, nothing would stop the second portfolio when the first ends.
  const bool two_orders =
      cores >= 2 && problem.items.size() <= kTwoOrdersMaxItems && !solving.is_never();
  if (two_orders) return solve_in_two_orders(problem, solving, cores);
  return Portfolio(problem, solving, overlap_search_seeds(1, cores)).run();
}

}  // namespace tidepool::packing
