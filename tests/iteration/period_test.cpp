// find_period on raw symbol streams: exact and noisy repetitions, prologues, partial tails, the
// FFT path for long streams, and streams that do not repeat.
#include "analyzer/iteration/period.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace tidepool::iteration {
namespace {

std::vector<std::uint64_t> random_block(std::size_t length, std::uint64_t alphabet, std::mt19937_64& rng) {
  std::vector<std::uint64_t> block(length);
  for (auto& s : block) s = rng() % alphabet;
  return block;
}

std::vector<std::uint64_t> repeat(const std::vector<std::uint64_t>& block, std::size_t times, std::size_t tail) {
  std::vector<std::uint64_t> out;
  for (std::size_t t = 0; t < times; ++t) out.insert(out.end(), block.begin(), block.end());
  out.insert(out.end(), block.begin(), block.begin() + static_cast<std::ptrdiff_t>(tail));
  return out;
}

TEST(Period, ExactRepetitionWithPartialTail) {
  std::mt19937_64 rng(1);
  const auto s = repeat(random_block(37, 1000, rng), 10, 20);
  const auto p = find_period(s);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->period, 37u);
  EXPECT_EQ(p->region.begin, 0u);
  EXPECT_EQ(p->region.end, s.size());
  EXPECT_DOUBLE_EQ(p->match_fraction, 1.0);
}

TEST(Period, PrologueIsLeftOutOfTheRegion) {
  std::mt19937_64 rng(2);
  auto s = random_block(300, 1000, rng);  // longer than the repetitions' period
  const auto body = repeat(random_block(41, 1000, rng), 12, 0);
  s.insert(s.end(), body.begin(), body.end());
  const auto p = find_period(s);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->period, 41u);
  EXPECT_GE(p->region.begin, 295u);
  EXPECT_LE(p->region.begin, 300u);
}

TEST(Period, SmallestPeriodWinsOverItsMultiples) {
  std::mt19937_64 rng(3);
  const auto s = repeat(random_block(5, 1000, rng), 2000, 3);  // long: the FFT path
  const auto p = find_period(s);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->period, 5u);
}

TEST(Period, LongNoisyStreamThroughTheFft) {
  std::mt19937_64 rng(4);
  auto s = repeat(random_block(997, 100000, rng), 40, 500);
  for (std::size_t i = 0; i < s.size(); i += 211) s[i] = rng();  // about 0.5% noise
  const auto p = find_period(s);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->period, 997u);
  EXPECT_GT(p->match_fraction, 0.98);
}

TEST(Period, FewDistinctSymbolsThroughTheFft) {
  std::mt19937_64 rng(5);
  const auto s = repeat(random_block(50, 3, rng), 100, 0);
  const auto p = find_period(s);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->period, 50u);
}

TEST(Period, RandomStreamsHaveNone) {
  std::mt19937_64 rng(6);
  EXPECT_FALSE(find_period(random_block(5000, 1000, rng)));
  EXPECT_FALSE(find_period(random_block(1000, 1000, rng)));
  EXPECT_FALSE(find_period(random_block(5000, 2, rng)));
  EXPECT_FALSE(find_period(random_block(3, 2, rng)));
}

TEST(Period, OneRepetitionIsNotAPeriod) {
  std::mt19937_64 rng(7);
  auto s = random_block(100, 1000, rng);
  const auto once = random_block(60, 1000, rng);
  s.insert(s.end(), once.begin(), once.end());
  s.insert(s.end(), once.begin(), once.begin() + 30);
  EXPECT_FALSE(find_period(s));
}

}  // namespace
}  // namespace tidepool::iteration
