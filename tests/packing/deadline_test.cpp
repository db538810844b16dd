// Anytime behaviour at the deadline: the greedy placement rules stop and leave kUnplaced, the
// completion places the rest above without moving anything, the reserve per unreached item, and
// `best` returning a valid packing when its time is already up (on a large instance, the quickest
// there is); deadlines beyond what the clock counts; stop flags, which pass a thread's deadlines at
// once, and `best` ending early when its thread's flag is set.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <random>
#include <string>
#include <thread>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/completion.h"
#include "analyzer/packing/generator.h"
#include "analyzer/packing/orders.h"
#include "analyzer/packing/placement.h"
#include "analyzer/packing/solver.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {
namespace {

// Items with random sizes, alignments and one or two intervals.
Problem random_problem(std::uint64_t seed, int count) {
  std::mt19937_64 random(seed);
  Problem problem;
  for (int i = 0; i < count; ++i) {
    const Time start = static_cast<Time>(random() % 2000);
    Item item{std::to_string(i), 1 + static_cast<Bytes>(random() % 500), Bytes{1} << (random() % 9), {}};
    item.live.push_back({start, start + 1 + static_cast<Time>(random() % 300)});
    if (random() % 3 == 0) {
      const Time again = item.live[0].upper + 1 + static_cast<Time>(random() % 200);
      item.live.push_back({again, again + 1 + static_cast<Time>(random() % 200)});
    }
    problem.items.push_back(item);
  }
  return problem;
}

Deadline already_passed() { return Deadline::after_seconds(-1); }

// A share of a deadline that never passes never passes either, rather than overflowing the clock;
// no time, or less, has passed already.
TEST(PackingDeadline, AfterMoreSecondsThanTheClockCountsIsNever) {
  const double forever = Deadline::never().seconds_left();
  for (const double seconds : {forever, forever / 3, 1e300}) {
    const Deadline deadline = Deadline::after_seconds(seconds);
    EXPECT_FALSE(deadline.passed());
    EXPECT_GT(deadline.seconds_left(), 1e9);
  }
  for (const double seconds : {0.0, -1.0, -1e300}) EXPECT_TRUE(Deadline::after_seconds(seconds).passed());
}

TEST(PackingDeadline, ReservesTimePerUnreachedItem) {
  const Deadline far = Deadline::after_seconds(1000).reserving_per_item(1.0);
  EXPECT_TRUE(far.passed_at(Deadline::kStride, 2000));  // 2,000 s kept back: past already
  EXPECT_FALSE(far.passed_at(Deadline::kStride, 10));
  EXPECT_FALSE(far.passed_at(Deadline::kStride - 1, 2000));  // only every kStride-th step looks
  EXPECT_FALSE(Deadline::never().passed_at(Deadline::kStride, 1'000'000));
}

TEST(PackingDeadline, EveryPlacerStopsAndTheCompletionIsValid) {
  const Problem problem = random_problem(5, 4000);
  const Timeline timeline(problem);
  const std::vector<std::size_t> order = order_by(problem, OrderKey::size);
  for (const Placer placer : {Placer::gaps_best, Placer::gaps_first, Placer::lowest_first, Placer::skyline, Placer::free_blocks}) {
    std::vector<Bytes> offsets = place(problem, timeline, order, placer, already_passed());
    ASSERT_FALSE(is_complete(offsets));
    const std::vector<Bytes> partial = offsets;
    const auto placed = std::ranges::count_if(partial, [](Bytes offset) { return offset != kUnplaced; });
    EXPECT_GT(placed, 0);  // it looks at the clock only every kStride steps
    complete_above(problem, offsets);
    ASSERT_TRUE(is_complete(offsets));
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      if (partial[i] != kUnplaced) {
        ASSERT_EQ(offsets[i], partial[i]) << "item " << i << " moved";
      }
    }
    const Verdict verdict = check(problem, {offsets, height_of(problem, offsets)});
    EXPECT_TRUE(verdict.valid) << verdict.reason;
  }
}

TEST(PackingDeadline, EveryPlacerFinishesWithoutADeadline) {
  const Problem problem = random_problem(6, 1500);
  const Timeline timeline(problem);
  const std::vector<std::size_t> order = order_by(problem, OrderKey::area);
  for (const Placer placer : {Placer::gaps_best, Placer::gaps_first, Placer::lowest_first, Placer::skyline, Placer::free_blocks}) {
    EXPECT_TRUE(is_complete(place(problem, timeline, order, placer, Deadline::never())));
  }
}

TEST(PackingDeadline, BestAnswersAtOncePastItsDeadline) {
  // A perfect instance (the tiling search's path) and a random one (the greedy portfolio's).
  for (const Problem& problem : {generate_perfect(8000, 4).problem, random_problem(7, 8000)}) {
    const Solution solution = solve("best", problem, already_passed());
    const Verdict verdict = check(problem, solution);
    EXPECT_TRUE(verdict.valid) << verdict.reason;
    EXPECT_GE(solution.height, lower_bound(problem));
  }
}

// Above 200,000 items, with no time left, `best` begins nothing that its deadline does not stop
// (the sweep's setup, merging, bands) and answers with the quickest packing there is: one
// free-blocks pass, not cut (completing a cut one costs as much).
TEST(PackingDeadline, BestPastItsDeadlineOnALargeInstanceMakesOneFreeBlocksPass) {
  const Problem problem = generate_perfect(200'001, 3).problem;
  const Solution solution = solve("best", problem, already_passed());
  const Verdict verdict = check(problem, solution);
  EXPECT_TRUE(verdict.valid) << verdict.reason;
  const Timeline timeline(problem);
  const std::vector<Bytes> pass =
      place(problem, timeline, order_by(problem, OrderKey::size), Placer::free_blocks, Deadline::never());
  EXPECT_EQ(solution.height, height_of(problem, pass));
}

// A set flag passes every deadline of its thread, with no time left, but never(); not another
// thread's, and not once its scope ends.
TEST(PackingDeadline, AStopFlagPassesTheDeadlinesOfItsThread) {
  std::atomic<bool> stop = false;
  const Deadline far = Deadline::after_seconds(1000);
  {
    const StopDeadlinesWhen stopping(stop);
    EXPECT_FALSE(far.passed());
    EXPECT_GT(far.seconds_left(), 900);
    stop = true;
    EXPECT_TRUE(far.passed());
    EXPECT_EQ(far.seconds_left(), 0);
    EXPECT_TRUE(far.passed_at(Deadline::kStride, 0));
    EXPECT_FALSE(far.passed_at(Deadline::kStride - 1, 0));  // only every kStride-th step looks
    EXPECT_TRUE(Deadline::after_seconds(500).passed());
    EXPECT_FALSE(Deadline::never().passed());
    EXPECT_FALSE(Deadline::never().passed_at(Deadline::kStride, 0));
    bool passed_elsewhere = true;
    std::jthread([&] { passed_elsewhere = far.passed(); }).join();
    EXPECT_FALSE(passed_elsewhere);
  }
  EXPECT_FALSE(far.passed());
}

// An inner flag adds to the outer ones; a thread that inherits the flags of another is stopped by
// them too.
TEST(PackingDeadline, StopFlagsNestAndAreInherited) {
  std::atomic<bool> outer = false;
  std::atomic<bool> inner = false;
  const Deadline far = Deadline::after_seconds(1000);
  const StopDeadlinesWhen outer_stopping(outer);
  {
    const StopDeadlinesWhen inner_stopping(inner);
    outer = true;
    EXPECT_TRUE(far.passed());
    outer = false;
    inner = true;
    EXPECT_TRUE(far.passed());
    const StopDeadlinesWhen::Inherited flags = StopDeadlinesWhen::current();
    bool passed_there = false;
    std::jthread([&] {
      const StopDeadlinesWhen inheriting = StopDeadlinesWhen::inheriting(flags);
      passed_there = far.passed();
    }).join();
    EXPECT_TRUE(passed_there);
  }
  EXPECT_FALSE(far.passed());  // the inner flag is gone; the outer is not set
  outer = true;
  EXPECT_TRUE(far.passed());
}

// `best` (two portfolios at once on two cores or more, on threads of their own) ends soon after its
// thread's flag is set, with a valid packing, though its deadline is a minute away: a caller can
// stop it.
TEST(PackingDeadline, BestEndsWhenItsThreadIsStopped) {
  for (const Problem& problem : {generate_perfect(2000, 2, 400).problem, random_problem(7, 2000)}) {
    std::atomic<bool> stop = false;
    const StopDeadlinesWhen stopping(stop);
    std::jthread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      stop = true;
    });
    const auto started = std::chrono::steady_clock::now();
    const Solution solution = solve("best", problem, Deadline::after_seconds(60));
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    EXPECT_LT(seconds, 20);
    const Verdict verdict = check(problem, solution);
    EXPECT_TRUE(verdict.valid) << verdict.reason;
  }
}

}  // namespace
}  // namespace tidepool::packing
