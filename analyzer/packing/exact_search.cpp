// The exact search (see exact_search.h).
#include "analyzer/packing/exact_search.h"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>

#include "analyzer/packing/orders.h"

namespace tidepool::packing {
namespace {

// Interval events (time, 0 = end / 1 = start, item), ends first: intervals are half-open.
std::vector<std::tuple<Time, int, std::uint32_t>> interval_events(const Problem& problem) {
  std::vector<std::tuple<Time, int, std::uint32_t>> events;
  for (std::uint32_t i = 0; i < problem.items.size(); ++i) {
    for (const Interval& interval : problem.items[i].live) {
      events.emplace_back(interval.lower, 1, i);
      events.emplace_back(interval.upper, 0, i);
    }
  }
  std::ranges::sort(events);
  return events;
}

}  // namespace

std::int64_t ExactSearch::overlap_pairs(const Problem& problem) {
  std::int64_t pairs = 0;
  std::int64_t live = 0;
  for (const auto& [time, is_start, item] : interval_events(problem)) {
    if (is_start) pairs += live++;
    else --live;
  }
  return pairs;
}

ExactSearch::ExactSearch(const Problem& problem, const Timeline& timeline)
    : problem_(problem), timeline_(timeline) {
  const std::size_t n = problem.items.size();
  // Overlaps: when an interval starts, its item overlaps every item live then.
  std::vector<std::vector<std::uint32_t>> overlaps(n);
  std::vector<std::uint32_t> live;
  std::vector<std::size_t> live_position(n, 0);
  for (const auto& [time, is_start, item] : interval_events(problem)) {
    if (!is_start) {
      const std::size_t at = live_position[item];
      live[at] = live.back();
      live_position[live[at]] = at;
      live.pop_back();
      continue;
    }
    for (const std::uint32_t other : live) {
      overlaps[item].push_back(other);
      overlaps[other].push_back(item);
    }
    live_position[item] = live.size();
    live.push_back(item);
  }
  overlap_begin_.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    std::ranges::sort(overlaps[i]);
    const auto repeated = std::ranges::unique(overlaps[i]);  // items with several intervals
    overlaps[i].erase(repeated.begin(), repeated.end());
    overlap_begin_[i + 1] = overlap_begin_[i] + overlaps[i].size();
  }
  overlaps_.reserve(overlap_begin_.back());
  for (const auto& list : overlaps) overlaps_.insert(overlaps_.end(), list.begin(), list.end());
  // Section lists.
  const int sections = timeline.section_count();
  section_begin_.assign(sections + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (const SectionRange range : timeline.ranges(i)) {
      for (int s = range.begin; s < range.end; ++s) ++section_begin_[s + 1];
    }
  }
  for (int s = 0; s < sections; ++s) section_begin_[s + 1] += section_begin_[s];
  section_items_.resize(section_begin_.back());
  std::vector<std::size_t> fill(section_begin_.begin(), section_begin_.end() - 1);
  for (std::size_t i = 0; i < n; ++i) {
    for (const SectionRange range : timeline.ranges(i)) {
      for (int s = range.begin; s < range.end; ++s) section_items_[fill[s]++] = static_cast<std::uint32_t>(i);
    }
  }
  section_stamp_.assign(sections, 0);
  area_.resize(n);
  length_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    length_[i] = live_length(problem.items[i]);
    // Saturated: a valid problem's lengths and sizes fit in 64 bits, not always their products.
    const Bytes size = problem.items[i].size;
    area_[i] = length_[i] > std::numeric_limits<Bytes>::max() / size ? std::numeric_limits<Bytes>::max()
                                                                      : length_[i] * size;
  }
}

SearchStatus ExactSearch::run(std::string_view preorder, Bytes capacity, std::int64_t node_budget,
                              Deadline deadline, std::vector<Bytes>& offsets) {
  const std::size_t n = problem_.items.size();
  const int sections = timeline_.section_count();
  if (preorder.empty() || preorder.find_first_not_of("TAWZ") != std::string_view::npos) {
    throw std::invalid_argument("bad preorder '" + std::string(preorder) + "' (letters T, A, W, Z)");
  }
  preorder_ = preorder;
  capacity_ = capacity;
  nodes_left_ = node_budget;
  deadline_ = deadline;
  result_ = &offsets;
  offsets.assign(n, 0);
  min_offset_.assign(n, 0);
  floor_.assign(sections, 0);
  remaining_.assign(timeline_.section_totals().begin(), timeline_.section_totals().end());
  min_offset_log_.clear();
  floor_log_.clear();
  crossing_.assign(std::max(sections - 1, 0), 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (int border = timeline_.first_section(i); border + 1 < timeline_.last_section_end(i); ++border) {
      ++crossing_[border];
    }
  }
  if (candidates_.size() < n + 1) candidates_.resize(n + 1);
  Part all{{}, {0, sections}};
  all.items.resize(n);
  for (std::size_t i = 0; i < n; ++i) all.items[i] = static_cast<std::uint32_t>(i);
  std::vector<int> borders;
  for (int border = 0; border + 1 < sections; ++border) {
    if (crossing_[border] == 0) borders.push_back(border + 1);
  }
  switch (solve_pieces(all, borders, 0)) {
    case Step::found: return SearchStatus::found;
    case Step::not_found: return SearchStatus::infeasible;
    case Step::stop: break;
  }
  return SearchStatus::gave_up;
}

ExactSearch::Step ExactSearch::solve_pieces(const Part& part, std::span<const int> borders, std::size_t depth) {
  int begin = part.sections.begin;
  for (std::size_t b = 0; b <= borders.size(); ++b) {
    const int end = b < borders.size() ? borders[b] : part.sections.end;
    Part piece{{}, {begin, end}};
    for (const std::uint32_t item : part.items) {
      if (min_offset_[item] != kPlaced && timeline_.first_section(item) < end && begin < timeline_.last_section_end(item)) {
        piece.items.push_back(item);
      }
    }
    begin = end;
    if (piece.items.empty()) continue;
    sort_by_preorder(piece.items);
    if (!fits(piece.sections, 0)) return Step::not_found;
    const Step step = search(piece, 0, 0, depth);
    if (step != Step::found) return step;
  }
  return Step::found;
}

void ExactSearch::sort_by_preorder(std::vector<std::uint32_t>& items) const {
  // The criteria, all descending; T is the largest total of unplaced sizes among the sections of
  // the item, as it is now.
  std::vector<std::pair<std::array<Bytes, 3>, std::uint32_t>> keyed;
  keyed.reserve(items.size());
  for (const std::uint32_t item : items) {
    std::array<Bytes, 3> key{};
    for (std::size_t c = 0; c < preorder_.size() && c < key.size(); ++c) {
      switch (preorder_[c]) {
        case 'T':
          for (const SectionRange range : timeline_.ranges(item)) {
            for (int s = range.begin; s < range.end; ++s) key[c] = std::max(key[c], remaining_[s]);
          }
          break;
        case 'A': key[c] = area_[item]; break;
        case 'W': key[c] = length_[item]; break;
        default: key[c] = problem_.items[item].size; break;
      }
      key[c] = -key[c];
    }
    keyed.emplace_back(key, item);
  }
  std::ranges::sort(keyed);
  for (std::size_t k = 0; k < items.size(); ++k) items[k] = keyed[k].second;
}

ExactSearch::Step ExactSearch::search(const Part& part, Bytes last_offset, int last_position, std::size_t depth) {
  if (--nodes_left_ < 0) return Step::stop;
  if (deadline_.passed()) {  // a node can cost milliseconds on long items: check each one
    nodes_left_ = -1;
    return Step::stop;
  }
  const auto& items = problem_.items;
  // The lowest top any unplaced item can reach: nothing may be placed at or above it.
  Bytes min_top = std::numeric_limits<Bytes>::max();
  bool done = true;
  for (const std::uint32_t item : part.items) {
    if (min_offset_[item] == kPlaced) continue;
    done = false;
    min_top = std::min(min_top, min_offset_[item] + items[item].size);
  }
  if (done) return Step::found;
  std::vector<Candidate>& candidates = candidates_[depth];
  candidates.clear();
  for (int position = 0; position < static_cast<int>(part.items.size()); ++position) {
    const std::size_t item = part.items[position];
    const Bytes offset = min_offset_[item];
    if (offset == kPlaced) continue;
    // Canonical order: offsets never decrease; equal offsets go in preorder.
    if (offset < last_offset || (offset == last_offset && position < last_position)) continue;
    if (offset >= min_top || offset + items[item].size > capacity_) continue;
    candidates.push_back({offset, position});
  }
  std::ranges::sort(candidates, [](const Candidate& a, const Candidate& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.position < b.position;
  });
  std::vector<int> borders;
  for (std::size_t c = 0; c < candidates_[depth].size(); ++c) {
    const auto [offset, position] = candidates_[depth][c];
    const std::size_t item = part.items[position];
    const std::size_t min_offset_mark = min_offset_log_.size();
    const std::size_t floor_mark = floor_log_.size();
    const bool hatless = place(item, offset);
    (*result_)[item] = offset;
    // Borders that no unplaced item spans any more split the rest into independent pieces.
    borders.clear();
    for (int border = timeline_.first_section(item); border + 1 < timeline_.last_section_end(item); ++border) {
      if (--crossing_[border] == 0 && part.sections.begin < border + 1 && border + 1 < part.sections.end) {
        borders.push_back(border + 1);
      }
    }
    Step step = Step::not_found;
    if (fits(part.sections, offset)) {
      step = borders.empty() ? search(part, offset, position, depth + 1) : solve_pieces(part, borders, depth + 1);
    }
    for (int border = timeline_.first_section(item); border + 1 < timeline_.last_section_end(item); ++border) {
      ++crossing_[border];
    }
    undo(item, offset, min_offset_mark, floor_mark);
    if (step != Step::not_found) return step;
    // Candidates that do not fit end here without a node: with thousands of them, each placed at
    // a cost of its overlaps, a loop ran 0.4 s past a 10 ms deadline (3,050 items, 2 M pairs).
    if (deadline_.passed_at(c + 1, 0, Deadline::kCostlyStride)) {
      nodes_left_ = -1;
      return Step::stop;
    }
    // Nothing unplaced shares time with the item, so it goes at this offset in any completion;
    // every later candidate is at least as high and would leave it nowhere to go.
    if (hatless) break;
  }
  return Step::not_found;
}

bool ExactSearch::place(std::size_t item, Bytes offset) {
  const auto& items = problem_.items;
  const Bytes top = offset + items[item].size;
  min_offset_[item] = kPlaced;  // it was `offset` (candidates go at their lowest): undo() puts it back
  if (++stamp_ == 0) {
    std::ranges::fill(section_stamp_, 0);
    stamp_ = 1;
  }
  for (const SectionRange range : timeline_.ranges(item)) {
    for (int s = range.begin; s < range.end; ++s) {
      floor_log_.emplace_back(s, floor_[s]);
      floor_[s] = top;
      remaining_[s] -= items[item].size;
    }
  }
  // Sections whose floor may rise: those where an item's lowest offset rose above the floor. In
  // the item's own sections the floor is now `top`, so an item raised to exactly `top` cannot
  // raise it there: with one interval, only the sections outside it are looked at.
  touched_sections_.clear();
  std::int64_t steps = static_cast<std::int64_t>(overlap_begin_[item + 1] - overlap_begin_[item]);
  const auto touch = [&](int begin, int end, Bytes raised) {
    steps += std::max(end - begin, 0);
    for (int s = begin; s < end; ++s) {
      if (section_stamp_[s] == stamp_ || raised <= floor_[s]) continue;
      section_stamp_[s] = stamp_;
      touched_sections_.push_back(s);
    }
  };
  const std::span<const SectionRange> own = timeline_.ranges(item);
  bool hatless = true;
  for (std::size_t k = overlap_begin_[item]; k < overlap_begin_[item + 1]; ++k) {
    const std::uint32_t other = overlaps_[k];
    const Bytes lowest = min_offset_[other];
    if (lowest == kPlaced) continue;
    hatless = false;
    if (lowest >= top) continue;
    min_offset_log_.emplace_back(other, lowest);
    const Bytes raised = align_up(top, items[other].alignment);
    min_offset_[other] = raised;
    for (const SectionRange range : timeline_.ranges(other)) {
      if (own.size() == 1 && raised == top) {
        touch(range.begin, std::min(range.end, own.front().begin), raised);
        touch(std::max(range.begin, own.front().end), range.end, raised);
      } else {
        touch(range.begin, range.end, raised);
      }
    }
  }
  // A section's floor is at least the lowest offset any of its unplaced items can take. The scan
  // stops at the first unplaced item that can go at or below the floor; it is the hottest loop of
  // the search, so its arrays and bound are read once, into locals.
  const Bytes* const min_offset = min_offset_.data();
  const std::uint32_t* const section_items = section_items_.data();
  for (const int s : touched_sections_) {
    const Bytes floor = floor_[s];
    Bytes lowest = kPlaced;  // kPlaced while no unplaced item was seen
    std::size_t k = section_begin_[s];
    for (const std::size_t end = section_begin_[s + 1]; k < end && lowest > floor; ++k) {
      lowest = std::min(lowest, min_offset[section_items[k]]);
    }
    steps += static_cast<std::int64_t>(k - section_begin_[s]);
    if (lowest != kPlaced && floor < lowest) {
      floor_log_.emplace_back(s, floor_[s]);
      floor_[s] = lowest;
    }
  }
  nodes_left_ -= steps / kStepsPerNode;
  return hatless;
}

void ExactSearch::undo(std::size_t item, Bytes offset, std::size_t min_offset_mark, std::size_t floor_mark) {
  while (floor_log_.size() > floor_mark) {
    floor_[floor_log_.back().first] = floor_log_.back().second;
    floor_log_.pop_back();
  }
  while (min_offset_log_.size() > min_offset_mark) {
    min_offset_[min_offset_log_.back().first] = min_offset_log_.back().second;
    min_offset_log_.pop_back();
  }
  for (const SectionRange range : timeline_.ranges(item)) {
    for (int s = range.begin; s < range.end; ++s) remaining_[s] += problem_.items[item].size;
  }
  min_offset_[item] = offset;
}

bool ExactSearch::fits(SectionRange sections, Bytes last_offset) const {
  for (int s = sections.begin; s < sections.end; ++s) {
    if (std::max(floor_[s], last_offset) + remaining_[s] > capacity_) return false;
  }
  return true;
}

}  // namespace tidepool::packing
