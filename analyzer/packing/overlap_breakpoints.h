// The breakpoints of an item's weighted overlap in the search over overlaps (overlap_search.cpp),
// sorted, and kept from one look at the item to the next.
//
// An item's weighted overlap with the items live at the same time is a sum of trapezoids in its
// offset, one per time-sharing neighbour, each with four breakpoints where the slope changes. The
// search sweeps them in order of offset, and on instances many grains high the sort was most of
// the search's time: on the 2,621-item block of perfect:1000000:1:300000 (2.3 G grains high), half
// of its samples. But the breakpoints move only when a neighbour does, and the search looks at
// about ten items per move (after a local minimum, every item of an overlapping pair, whose
// weights alone changed). So each item's sorted breakpoints are kept: as they are when no
// neighbour moved since, patched when a few did (their old breakpoints dropped, their new ones
// merged in), and sorted again from scratch otherwise or once the height changes. The sweep reads
// a breakpoint's change of slope from its neighbour's weight then. From that block's packing at
// 1.1573 times its bound, the search came down to 1.0983 in 2.22-2.32 s before and in 1.41-1.43 s
// with the lists kept, by the same steps (session 56).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace tidepool::packing {

// Where the slope of an item's weighted overlap changes by its neighbour's weight x common time:
// up, or down where it `falls` (in order, a neighbour's four breakpoints: up, down, down, up).
struct Breakpoint {
  std::int64_t at;
  std::uint32_t neighbour;  // in the item's list of neighbours
  std::uint32_t falls;      // 0 or 1
  bool operator==(const Breakpoint&) const = default;
};

// Sorts by offset, then by neighbour (both ways below give that order, so a patched list is the
// one a sort from scratch gives). `top`: an offset higher than all. `scratch` is the radix sort's.
void sort_breakpoints(std::vector<Breakpoint>& breakpoints, std::int64_t top,
                      std::vector<Breakpoint>& scratch);

// Each item's sorted breakpoints, where it has at least 256 (fewer are sorted again in about the
// time it takes to keep and patch them), up to `max_kept` in all.
class KeptBreakpoints {
 public:
  // A list with more neighbours moved than this is sorted again from scratch.
  static constexpr std::size_t kMaxMovedNeighbours = 16;

  KeptBreakpoints(std::size_t items, std::size_t max_kept);

  // The height changed: no list is kept.
  void forget_all();
  // Item i's neighbour (its index in i's list) moved.
  void neighbour_moved(std::size_t i, std::uint32_t neighbour);

  // Whether item i's list is kept (up to date but for the neighbours `moved(i)`).
  bool kept(std::size_t i) const { return state_[i].kept; }
  // The neighbours of item i that moved since its list was, ascending, each once.
  std::span<const std::uint32_t> moved(std::size_t i);

  // Item i's kept list with the moved neighbours' breakpoints replaced by `fresh` (theirs now,
  // sorted): up to date again.
  std::span<const Breakpoint> patch(std::size_t i, std::span<const Breakpoint> fresh);
  // Keeps `sorted` as item i's list where there is room for it; the list kept, or else `sorted`.
  std::span<const Breakpoint> keep(std::size_t i, std::span<const Breakpoint> sorted);

 private:
  // Apart from the moved neighbours (read only where a list is kept): every neighbour of an item
  // that moves is looked up here.
  struct State {
    bool kept = false;
    std::uint8_t moved_count = 0;
  };
  std::vector<std::vector<Breakpoint>> lists_;
  std::vector<State> state_;
  std::vector<std::array<std::uint32_t, kMaxMovedNeighbours>> moved_;
  std::vector<Breakpoint> merged_;  // patch's scratch
  std::vector<bool> moved_mark_;    // patch's: by neighbour, whether it moved
  std::size_t total_kept_ = 0;      // breakpoints in lists_
  std::size_t max_kept_;
};

}  // namespace tidepool::packing
