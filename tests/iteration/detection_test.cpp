// detect_by_period on synthetic training streams: prologue, warm-up, noise, inserted and missing
// events, a partial tail, inner repetition of layers, a long stream, and a stream with no period.
#include <gtest/gtest.h>

#include <random>

#include "analyzer/iteration/detection.h"
#include "stream_builder.h"

namespace tidepool::iteration {
namespace {

using testing::StreamBuilder;

constexpr int kLayers = 6;

std::size_t step_length() {
  StreamBuilder b;
  b.training_step(kLayers);
  return b.size();
}

TEST(DetectByPeriod, SteadyStreamWithPrologueAndPartialTail) {
  StreamBuilder b;
  b.prologue(kLayers);
  const std::size_t prologue = b.size();
  for (int i = 0; i < 8; ++i) b.training_step(kLayers);
  b.launch("embedding");  // a partial last step
  b.alloc(1 << 12);
  const auto d = detect_by_period(b.stream());
  ASSERT_TRUE(d);
  EXPECT_EQ(d->kind, BoundaryKind::period);
  EXPECT_EQ(d->period, step_length());
  EXPECT_EQ(d->first_boundary(), prologue);
  ASSERT_EQ(d->iterations.size(), 8u);
  for (std::size_t i = 0; i < 8; ++i)
    EXPECT_EQ(d->iterations[i], (Range{prologue + i * step_length(), prologue + (i + 1) * step_length()}));
  EXPECT_EQ(d->exact, 8u);
  EXPECT_DOUBLE_EQ(d->regularity(), 1.0);
  EXPECT_EQ(d->reference, 7u);
}

TEST(DetectByPeriod, WarmUpIterationIsLeftBeforeTheFirstBoundary) {
  StreamBuilder b;
  b.prologue(kLayers);
  b.training_step(kLayers, /*warm_up=*/true);
  const std::size_t first_steady = b.size();
  for (int i = 0; i < 6; ++i) b.training_step(kLayers);
  const auto d = detect_by_period(b.stream());
  ASSERT_TRUE(d);
  EXPECT_EQ(d->period, step_length());
  EXPECT_EQ(d->first_boundary(), first_steady);
  EXPECT_EQ(d->iterations.size(), 6u);
  EXPECT_DOUBLE_EQ(d->regularity(), 1.0);
}

TEST(DetectByPeriod, NoiseInsertionsAndDeletionsKeepTheBoundaries) {
  StreamBuilder b;
  b.prologue(kLayers);
  const std::size_t prologue = b.size();
  for (int i = 0; i < 12; ++i) b.training_step(kLayers);
  auto& events = b.stream().events;
  const std::size_t p = step_length();
  events[prologue + 3 * p + 4].name = b.stream().intern("relu");                      // a different kernel
  events.insert(
      events.begin() + static_cast<std::ptrdiff_t>(prologue + 6 * p + 10),  // one more launch
      Event{.kind = EventKind::launch, .name = b.stream().intern("extra")});
  events.erase(events.begin() + static_cast<std::ptrdiff_t>(prologue + 9 * p + 1 + 3));  // a launch less
  const auto d = detect_by_period(b.stream());
  ASSERT_TRUE(d);
  EXPECT_EQ(d->period, p);
  ASSERT_EQ(d->iterations.size(), 12u);
  EXPECT_EQ(d->exact, 9u);
  EXPECT_EQ(d->iterations[3].size(), p);
  EXPECT_EQ(d->iterations[6].size(), p + 1);
  EXPECT_EQ(d->iterations[9].size(), p - 1);
  EXPECT_EQ(d->iterations[11].end, events.size());
  EXPECT_EQ(d->reference, 11u);
  EXPECT_DOUBLE_EQ(d->regularity(), 9.0 / 12.0);
}

TEST(DetectByPeriod, AnEarlyInsertionShiftsNoBoundary) {
  StreamBuilder b;
  b.prologue(kLayers);
  const std::size_t prologue = b.size();
  for (int i = 0; i < 12; ++i) b.training_step(kLayers);
  auto& events = b.stream().events;
  const std::size_t p = step_length();
  // One launch more in the second step: every later step starts one event later.
  events.insert(events.begin() + static_cast<std::ptrdiff_t>(prologue + p + 7),
                Event{.kind = EventKind::launch, .name = b.stream().intern("extra")});
  const auto d = detect_by_period(b.stream());
  ASSERT_TRUE(d);
  EXPECT_EQ(d->period, p);
  ASSERT_EQ(d->iterations.size(), 12u);
  EXPECT_EQ(d->exact, 11u);
  EXPECT_EQ(d->iterations[0], (Range{prologue, prologue + p}));
  EXPECT_EQ(d->iterations[1], (Range{prologue + p, prologue + 2 * p + 1}));
  for (std::size_t i = 2; i < 12; ++i) EXPECT_EQ(d->iterations[i].begin, prologue + i * p + 1);
}

TEST(DetectByPeriod, LongStreamWithSparseNoise) {
  StreamBuilder b;
  b.prologue(24);
  for (int i = 0; i < 300; ++i) b.training_step(24);
  std::mt19937_64 rng(11);
  auto& events = b.stream().events;
  const std::uint32_t noise = b.stream().intern("noise");
  for (int k = 0; k < 30; ++k) {
    auto& e = events[rng() % events.size()];
    if (e.kind == EventKind::launch) e.name = noise;
  }
  StreamBuilder one;
  one.training_step(24);
  const auto d = detect_by_period(b.stream());
  ASSERT_TRUE(d);
  EXPECT_EQ(d->period, one.size());
  EXPECT_GE(d->iterations.size(), 299u);
  EXPECT_GT(d->regularity(), 0.85);
}

TEST(DetectByPeriod, RandomProgramHasNoPeriod) {
  StreamBuilder b;
  std::mt19937_64 rng(12);
  std::vector<std::uint64_t> live;
  for (int i = 0; i < 3000; ++i) {
    const auto r = rng() % 3;
    if (r == 0) live.push_back(b.alloc(256 * (1 + rng() % 1000)));
    if (r == 1 && !live.empty()) {
      b.free(live.back());
      live.pop_back();
    }
    if (r == 2) b.launch("k" + std::to_string(rng() % 200));
  }
  EXPECT_FALSE(detect_by_period(b.stream()));
}

}  // namespace
}  // namespace tidepool::iteration
