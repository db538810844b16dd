// UnplacedByStart (the skyline's index of unplaced items) against a scan of the items: items
// taken at random, and every query of the first start in a range that ends by a bound.
#include "analyzer/packing/unplaced_by_start.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "analyzer/packing/timeline.h"

namespace tidepool::packing {
namespace {

TEST(PackingUnplacedByStart, AgreesWithAScanOfTheItems) {
  std::mt19937_64 random(5);
  for (int round = 0; round < 40; ++round) {
    Problem problem;
    const int items = 1 + static_cast<int>(random() % 80);
    for (int i = 0; i < items; ++i) {
      const Time start = static_cast<Time>(random() % 60);
      problem.items.push_back(
          {std::to_string(i), 1, 1, {{start, start + 1 + static_cast<Time>(random() % 20)}}});
    }
    const Timeline timeline(problem);
    std::vector<std::uint32_t> rank(problem.items.size());
    for (std::size_t i = 0; i < rank.size(); ++i) rank[i] = static_cast<std::uint32_t>(i);
    UnplacedByStart index(timeline, rank);
    std::vector<bool> placed(problem.items.size(), false);
    const int sections = timeline.section_count();
    const auto scan = [&](int from, int to, int bound) {
      int first = to;
      for (std::size_t i = 0; i < placed.size(); ++i) {
        const int start = timeline.first_section(i);
        if (!placed[i] && start >= from && start < first && timeline.last_section_end(i) <= bound)
          first = start;
      }
      return first;
    };
    while (!index.empty()) {
      for (int from = 0; from <= sections; ++from) {
        for (int to = from; to <= sections; ++to) {
          const int bound = static_cast<int>(random() % static_cast<std::uint64_t>(sections + 2));
          ASSERT_EQ(index.first_start_ending_by(from, to, bound), scan(from, to, bound))
              << "round " << round << " [" << from << ", " << to << ") bound " << bound;
        }
      }
      // Take the latest-ending unplaced item of a random start section, as the skyline does.
      const int start = static_cast<int>(random() % static_cast<std::uint64_t>(sections));
      if (const auto taken = index.take_fitting(start, sections)) {
        ASSERT_FALSE(placed[*taken]);
        ASSERT_EQ(timeline.first_section(*taken), start);
        for (std::size_t i = 0; i < placed.size(); ++i) {
          if (!placed[i] && timeline.first_section(i) == start) {
            ASSERT_LE(timeline.last_section_end(i), timeline.last_section_end(*taken));
          }
        }
        placed[*taken] = true;
      }
    }
  }
}

}  // namespace
}  // namespace tidepool::packing
