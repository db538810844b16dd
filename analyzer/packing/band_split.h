// The split that tiling by bands begins with (bands.h): a problem with no slack cut in time where
// nothing is live across a time, and split into bands (the connected parts of its items, linked
// hole by hole at each time inside a block: holes.h), block by block, top-down, until blocks are
// single items or split no further. Internal to the packing library.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"

namespace tidepool::packing {

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

// Where sizes do not tell the holes at a time for certain, a split guesses them (holes.h: the
// groups found first). Which guesses it makes:
enum class Guessing {
  // At every time as it comes, as soon as its parts are few enough to look at (the first split's;
  // with a seed, the parts are shuffled first).
  as_found,
  // Only the holes that sizes tell for certain, at every time, again and again as parts join;
  // then one guess, at the time with the fewest parts, and the certain holes it makes known, and
  // so on. Fewer guesses are made (a join often makes another time's holes certain), and they are
  // made where they are likeliest right. Neither way is better everywhere: on the tuning sets of
  // cut instances each split more of some instances apart (session 16).
  surest_first,
};

// The split of `problem` (items of one interval each). With a seed other than 0, the parts at a
// time are shuffled before their holes are guessed (either way), for other guesses than the first
// split's. At the deadline, the blocks not split yet are left as they are (a cut tree as deep as
// the instance is large, one item peeled off at each level, costs O(items^2)).
Split split_top_down(const Problem& problem, Guessing guessing, std::uint64_t seed,
                     Deadline deadline);

}  // namespace tidepool::packing
