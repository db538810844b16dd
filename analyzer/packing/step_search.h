// The search of a step's holes with the tree, for the hole sweep (hole_sweep.h), where a guess
// (hole_guesses.h) was refused: an exact cover of the step's items by matching groups of up to
// three items a side, the item with the fewest groups left first (as Knuth's dancing links
// choose), groups smallest first, then the most alike in count of items a side; an item may also
// be left to the rest, the items that no group is left for, which holes.h splits (else they are
// one hole). Only groups of several ending items are tried in the tree as they are chosen (a
// single item's replacement never refuses nor changes what the others may do). A wrong choice
// shows late, so the search is by limited discrepancy (Harvey and Ginsberg): first the choices in
// order, then with one choice other than the first taken anywhere (near the top first), then
// two, and so on while the budget of replacements lasts. Internal to the packing library.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/hole_guesses.h"
#include "analyzer/packing/pq_tree.h"
#include "analyzer/packing/problem.h"

namespace tidepool::packing {

class StepSearch {
 public:
  StepSearch(const Problem& problem, const Step& step);

  // Holes that `tree` (as before the step) takes, the `skip`th such cover found (from 0), with
  // the items `first` chosen first; none when the search ends without, or when `budget`
  // replacements (less those it takes) or the deadline ran out first.
  std::optional<std::vector<Hole>> run(const PQTree& tree, const Items& first, int& budget,
                                       int skip, Deadline deadline);

 private:
  struct Group {
    Items ending;  // local numbers: ending items below ending_count_, then starting items
    Items items;   // the ending items, then the starting ones
  };

  std::uint32_t global(std::uint32_t i) const {
    return i < ending_count_ ? step_.ending[i] : step_.starting[i - ending_count_];
  }
  Hole hole_of(const Group& group) const;
  // A group out of the running (one of its items taken, or refused), counted once per cause; its
  // items' counts go down when it first goes out.
  void kill(std::uint32_t g);
  void revive(std::uint32_t g);
  void set_taken(std::uint32_t g, bool taken);
  // Kills the live groups of `pivot`; returns them, to revive.
  std::vector<std::uint32_t> kill_all(std::uint32_t pivot);
  // Whether the search must stop: out of replacements, or past the deadline.
  bool spent() const { return budget_ <= 0 || deadline_.passed(); }
  // Whether `tree` takes the ending items of `holes` that are several; the tree with them in
  // `out`.
  bool takes(const PQTree& tree, const std::vector<Hole>& holes, std::optional<PQTree>& out);
  bool search(const PQTree& tree, int discrepancies);
  // The items that no group is left for: split_rest's holes, else one hole.
  bool rest(const PQTree& tree);

  const Problem& problem_;
  const Step& step_;
  std::uint32_t ending_count_ = 0;
  std::vector<Group> groups_;
  std::vector<std::vector<std::uint32_t>> by_item_;  // per local item: the groups it is in
  std::vector<std::uint32_t> count_;                 // per local item: its groups in the running
  std::vector<std::uint32_t> dead_;                  // per group: the causes that keep it out
  std::vector<bool> taken_;
  std::vector<bool> first_;  // per local item: chosen for first (in a refused hole)
  std::vector<Hole> chosen_;
  int budget_ = 0;
  Deadline deadline_ = Deadline::never();
  int skip_ = 0;          // covers still to pass over
  bool limited_ = false;  // whether the round left choices out for want of discrepancies
};

}  // namespace tidepool::packing
