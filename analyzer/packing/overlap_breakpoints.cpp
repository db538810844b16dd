// Sorted breakpoints of the search over overlaps, kept and patched (see overlap_breakpoints.h).
#include "analyzer/packing/overlap_breakpoints.h"

#include <algorithm>
#include <numeric>

namespace tidepool::packing {
namespace {

// Breakpoints are sorted by radix from this many, and kept from this many: fewer are sorted again
// in about the time it takes to keep and patch them.
constexpr std::size_t kRadixSortFrom = 256;

bool before(const Breakpoint& a, const Breakpoint& b) {
  return a.at != b.at ? a.at < b.at : a.neighbour < b.neighbour;
}

}  // namespace

// From kRadixSortFrom breakpoints, a byte at a time from the least significant, skipping the bytes
// they all share (stable: listed by neighbour, they stay so among equal offsets): std::sort of the
// thousand or so breakpoints of an item of c-2000-2 (2^20 grains high) took half of the search's
// time (4 times as many moves tried in 6 s without). On a few dozen, the passes over 256 buckets
// cost more than std::sort.
void sort_breakpoints(std::vector<Breakpoint>& breakpoints, std::int64_t top,
                      std::vector<Breakpoint>& scratch) {
  if (breakpoints.size() < kRadixSortFrom) {
    std::ranges::sort(breakpoints, before);
    return;
  }
  scratch.resize(breakpoints.size());
  for (int shift = 0; (top >> shift) != 0; shift += 8) {
    std::array<std::size_t, 257> next{};
    for (const Breakpoint& at : breakpoints)
      ++next[static_cast<std::size_t>((at.at >> shift) & 0xff) + 1];
    if (std::ranges::find(next, breakpoints.size()) != next.end()) continue;  // all in one bucket
    std::partial_sum(next.begin(), next.end(), next.begin());
    for (const Breakpoint& at : breakpoints)
      scratch[next[static_cast<std::size_t>((at.at >> shift) & 0xff)]++] = at;
    breakpoints.swap(scratch);
  }
}

KeptBreakpoints::KeptBreakpoints(std::size_t items, std::size_t max_kept)
    : lists_(items), state_(items), moved_(items), max_kept_(max_kept) {}

void KeptBreakpoints::forget_all() {
  for (State& state : state_) state = {};
}

void KeptBreakpoints::neighbour_moved(std::size_t i, std::uint32_t neighbour) {
  State& state = state_[i];
  if (!state.kept) return;
  if (state.moved_count == kMaxMovedNeighbours) {
    state.kept = false;
    return;
  }
  moved_[i][state.moved_count++] = neighbour;
}

std::span<const std::uint32_t> KeptBreakpoints::moved(std::size_t i) {
  State& state = state_[i];
  const auto moved = std::span(moved_[i]).first(state.moved_count);
  std::ranges::sort(moved);
  const auto repeated = std::ranges::unique(moved);
  state.moved_count = static_cast<std::uint8_t>(repeated.begin() - moved.begin());
  return moved.first(state.moved_count);
}

std::span<const Breakpoint> KeptBreakpoints::patch(std::size_t i,
                                                   std::span<const Breakpoint> fresh) {
  State& state = state_[i];
  std::vector<Breakpoint>& list = lists_[i];
  if (state.moved_count == 0) return list;
  const std::span<const std::uint32_t> moved_neighbours = moved(i);
  for (const std::uint32_t neighbour : moved_neighbours) {
    if (neighbour >= moved_mark_.size()) moved_mark_.resize(neighbour + 1);
    moved_mark_[neighbour] = true;
  }
  merged_.clear();
  auto next = fresh.begin();
  for (const Breakpoint& at : list) {
    if (at.neighbour < moved_mark_.size() && moved_mark_[at.neighbour]) continue;
    for (; next != fresh.end() && before(*next, at); ++next) merged_.push_back(*next);
    merged_.push_back(at);
  }
  merged_.insert(merged_.end(), next, fresh.end());
  for (const std::uint32_t neighbour : moved_neighbours) moved_mark_[neighbour] = false;
  total_kept_ = total_kept_ - list.size() + merged_.size();
  list.swap(merged_);
  state.moved_count = 0;
  return list;
}

std::span<const Breakpoint> KeptBreakpoints::keep(std::size_t i,
                                                  std::span<const Breakpoint> sorted) {
  std::vector<Breakpoint>& list = lists_[i];
  total_kept_ -= list.size();
  if (sorted.size() < kRadixSortFrom || total_kept_ + sorted.size() > max_kept_) {
    std::vector<Breakpoint>().swap(list);
    state_[i] = {};
    return sorted;
  }
  list.assign(sorted.begin(), sorted.end());
  total_kept_ += sorted.size();
  state_[i] = {.kept = true};
  return list;
}

}  // namespace tidepool::packing
