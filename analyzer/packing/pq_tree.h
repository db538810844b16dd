// A PQ-tree (Booth and Lueker, 1976) over the items live at one time of a packing swept in time:
// its frontiers are the orders of the items in address that the holes so far allow. A P-node's
// children may stand in any order, a Q-node's in the order given or its reverse. Where a hole is
// refilled (holes.h), the items that end there must lie next to each other (the tree is reduced
// so that every frontier has them consecutive) and the items that start there take their place,
// in any order among themselves (a P-node where the run was), as the vertex-addition step of
// planarity testing does. Internal to the packing library (hole_sweep.h); the templates are
// applied to the pertinent subtree only, with no attempt at Booth and Lueker's linear time (a
// Q-node's children are a vector).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

namespace tidepool::packing {

class PQTree {
 public:
  using Leaf = std::uint32_t;  // the caller's numbering, below `leaf_count`
  static constexpr Leaf kNone = UINT32_MAX;

  // One P-node over `leaves` (a single leaf when there is one; empty when there are none).
  PQTree(std::size_t leaf_count, std::span<const Leaf> leaves);

  // What a replacement removed: the run of leaves in a frontier of the tree just before, and up
  // to 16 leaves of the subtrees next to it on either side where the tree fixes them (the
  // siblings before and after the run in a Q-node; none where the run is a whole subtree, which
  // may be mirrored, or ends its Q-node, which may be turned round in its parent).
  struct Run {
    std::vector<Leaf> order;
    std::vector<Leaf> before;  // the leaves of the subtree before the run
    std::vector<Leaf> after;
  };

  // Makes `leaves` (distinct, all in the tree) consecutive in every frontier and puts
  // `replacement` (new leaves) in their place; none when no frontier has them consecutive (the
  // tree is then left unusable).
  std::optional<Run> replace(std::span<const Leaf> leaves, std::span<const Leaf> replacement);

  // One frontier.
  std::vector<Leaf> frontier() const;

  // A copy with only the nodes in use (replacements leave the old ones behind).
  PQTree compacted() const;

 private:
  enum class Kind : std::uint8_t { leaf, p, q };
  enum class Label : std::uint8_t { empty, full, partial };
  struct Node {
    Kind kind = Kind::leaf;
    Label label = Label::empty;
    std::int32_t parent = -1;
    Leaf leaf = kNone;
    std::uint32_t stamp = 0;      // the reduction that counted `pertinent`
    std::uint32_t pertinent = 0;  // leaves of the reduction below
    std::vector<std::int32_t> children;
  };
  // Where the full leaves lie after a reduction: children [first, last] of `node`, or the whole
  // node when `whole`.
  struct Full {
    std::int32_t node = -1;
    std::size_t first = 0;
    std::size_t last = 0;
    bool whole = false;
  };

  std::int32_t make(Kind kind, std::vector<std::int32_t> children);
  std::int32_t group(std::vector<std::int32_t> nodes, Label label);
  void put_in_place_of(std::int32_t old_node, std::int32_t new_node);
  void remove_from_parent(std::int32_t node);
  // A node's children by label.
  struct Labelled {
    std::vector<std::int32_t> empty;
    std::vector<std::int32_t> full;
    std::vector<std::int32_t> partial;
  };

  Label label_of(std::int32_t node) const;
  std::optional<Labelled> reduce_children(std::int32_t node);
  bool reduce_below(std::int32_t node);
  std::optional<Full> reduce_root(std::int32_t root);
  void collect(std::int32_t node, std::vector<Leaf>& out,
               std::size_t most = std::numeric_limits<std::size_t>::max()) const;

  std::vector<Node> nodes_;
  std::vector<std::int32_t> leaf_node_;
  std::int32_t root_ = -1;
  std::uint32_t stamp_ = 0;
};

}  // namespace tidepool::packing
