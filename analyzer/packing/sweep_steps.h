// The pieces the two hole sweeps share (hole_sweep.h, whole_step_sweep.h): the steps of an
// instance with no slack, the replacements made in the PQ-tree, and the offsets that follow from
// them. Internal to the packing library.
#pragma once

#include <optional>
#include <vector>

#include "analyzer/packing/hole_guesses.h"
#include "analyzer/packing/pq_tree.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

// A hole's ending items as the tree ordered them, the leaves beside them, and what took their
// place.
struct Replaced {
  Time time = 0;
  PQTree::Run run;
  Items starting;
};

// The items live from the first time, then the steps: each later time where items start, with
// the items that end there.
struct Steps {
  Items live_first;
  std::vector<Step> steps;
};

// The steps of a problem with one interval per item (not empty); none where an item ends before
// another starts (the instance has slack).
std::optional<Steps> steps_of(const Problem& problem);

// The offsets from the tree at the end and the replacements: the items live to the end in one
// order from 0; then each replaced run where its starting items lie, the way round that keeps it
// beside a neighbour placed before it (the runs turned round in place). None unless valid at the
// lower bound.
std::optional<std::vector<Bytes>> offsets_of(const Problem& problem, const Timeline& timeline,
                                             const PQTree& tree, std::vector<Replaced>& replaced);

}  // namespace tidepool::packing
