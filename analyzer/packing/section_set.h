// A set of section indices in [0, size) with the largest member at or before a section found in
// O(log64 size): a bit per section, and above it, level by level, a bit per word that is not
// empty. Flat arrays, no node per member: the skyline (skyline_fit.cpp) keeps its segment starts
// here, where a std::map allocated a node per segment and missed the cache on every lookup.
// Internal to the packing library.
#pragma once

#include <bit>
#include <cstdint>
#include <ranges>
#include <span>
#include <vector>

namespace tidepool::packing {

class SectionSet {
 public:
  explicit SectionSet(int size) {
    std::size_t words = static_cast<std::size_t>(size > 0 ? size : 1);
    do {
      words = (words + 63) / 64;
      levels_.emplace_back(words, 0);
    } while (words > 1);
  }

  bool contains(int section) const { return (levels_[0][word(section)] >> bit(section) & 1) != 0; }

  void insert(int section) {
    std::int64_t at = section;
    for (std::vector<std::uint64_t>& level : levels_) {
      std::uint64_t& w = level[word(at)];
      const bool was_empty = w == 0;
      w |= std::uint64_t{1} << bit(at);
      if (!was_empty) return;
      at = word(at);
    }
  }

  void erase(int section) {
    std::int64_t at = section;
    for (std::vector<std::uint64_t>& level : levels_) {
      std::uint64_t& w = level[word(at)];
      w &= ~(std::uint64_t{1} << bit(at));
      if (w != 0) return;
      at = word(at);
    }
  }

  // The largest member at most `section`; -1 if there is none.
  int last_at_or_before(int section) const {
    std::size_t level = 0;
    std::int64_t at = section;
    // Up until a word holds a member at or before `at` (at each level above, strictly before the
    // word below).
    while (true) {
      if (at < 0) return -1;
      const std::uint64_t up_to = levels_[level][word(at)] & (~std::uint64_t{0} >> (63 - bit(at)));
      if (up_to != 0) {
        at = (at & ~std::int64_t{63}) | highest(up_to);
        break;
      }
      if (level + 1 == levels_.size()) return -1;
      at = static_cast<std::int64_t>(word(at)) - 1;
      ++level;
    }
    // Down through the last member of each word.
    for (const std::vector<std::uint64_t>& below :
         std::span(levels_).first(level) | std::views::reverse) {
      at = at * 64 + highest(below[static_cast<std::size_t>(at)]);
    }
    return static_cast<int>(at);
  }

 private:
  static std::size_t word(std::int64_t at) { return static_cast<std::size_t>(at >> 6); }
  static int bit(std::int64_t at) { return static_cast<int>(at & 63); }
  static int highest(std::uint64_t w) { return 63 - std::countl_zero(w); }

  std::vector<std::vector<std::uint64_t>> levels_;  // levels_[0]: a bit per section
};

}  // namespace tidepool::packing
