// Guesses of the holes at one time of the hole sweep (hole_sweep.h): which of the items that end
// there share a hole with which of those that start. Sizes tell them: the smallest groups of up to
// three items a side whose sums match (distinct sizes tell them apart), then holes.h for what
// they leave; where other groups would have matched as well, the guess is contested, and other
// guesses come from the items in other orders. Internal to the packing library.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "analyzer/packing/problem.h"

namespace tidepool::packing {

using Items = std::vector<std::uint32_t>;

// The sum of the items' sizes.
Bytes size_of(const Problem& problem, const Items& items);

struct Hole {
  Items ending;
  Items starting;
};

// The items that end and start at one time.
struct Step {
  Time time = 0;
  Items ending;
  Items starting;
};

// Triples are matched up to this many items a side (about 40,000 groups at most).
inline constexpr std::size_t kMaxTripleSide = 64;

// The groups of up to three items of `side`: singles, then pairs, then triples; with `quads`,
// then groups of four.
std::vector<Items> small_groups(const Items& side, bool quads = false,
                                std::size_t max_triple_side = kMaxTripleSide);

// The holes of `rest`, appended to `holes`: holes.h's (a guess where it is ambiguous) for up to
// kMaxHoleSide items a side, else one hole.
void split_rest(const Problem& problem, Hole rest, bool& contested, std::vector<Hole>& holes);

// The holes at one time: small_holes' groups of up to three items a side, and what they leave
// split by holes.h if few enough (holes.h alone misses large holes of one or two items among
// small sizes: it matches sums in ascending order and stops at 4,096 matches); more items are one
// hole, or with `quads`, up to kMaxQuadSide a side, matched again with groups of four first.
// `contested`: whether other holes would have added up as well (set, never cleared), or a rest
// of that size was left as one hole.
std::vector<Hole> holes_at(const Problem& problem, const Items& ending, const Items& starting,
                           bool& contested, bool quads = false);

// A guess's holes as sorted item lists, to tell guesses apart.
using GuessKey = std::vector<std::pair<Items, Items>>;
GuessKey guess_key(const std::vector<Hole>& holes);

// Whether one of the `items` is in a hole of `guess` other than its hole in `before`.
bool regrouped(const GuessKey& guess, const GuessKey& before, const Items& items);

// A guess of a step's holes, and where it was contested, the means to guess others: a large rest
// split by groups of four, the items in other orders (other groups found first), up to
// kGuessTries guesses in all, each different guess once.
class Guesses {
 public:
  Guesses(const Problem& problem, const Step& step, std::uint64_t seed);

  bool contested() const { return !seen_.empty(); }
  std::vector<Hole>& first() { return first_; }

  // Another guess, if the orders left give one: first the large rest matched with groups of
  // four, then the items in other orders.
  std::optional<std::vector<Hole>> next();

 private:
  const Problem& problem_;
  const Step& step_;
  std::mt19937_64 random_;
  std::vector<Hole> first_;
  std::vector<GuessKey> seen_;
  int tries_ = 1;
};

}  // namespace tidepool::packing
