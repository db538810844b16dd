// Two and more passes over a trace file (see in_order.h): the first notes each event's tag by its
// sequence number, each later one decodes the wanted events and hands them over in sequence order.
#include "analyzer/trace/in_order.h"

#include <algorithm>
#include <bit>
#include <unordered_map>
#include <utility>
#include <variant>

#include "analyzer/trace/reader.h"

namespace tidepool::trace {
namespace {

template <size_t I = 0>
constexpr bool event_tags_fit_a_byte() {
  if constexpr (I == std::variant_size_v<Record>) {
    return true;
  } else {
    return static_cast<uint32_t>(std::variant_alternative_t<I, Record>::tag) < 0xff &&
           event_tags_fit_a_byte<I + 1>();
  }
}
static_assert(event_tags_fit_a_byte(), "InOrderReader keeps an event's tag in a byte");

constexpr uint64_t kPageSeqs = 256;

}  // namespace

WantedTags::WantedTags(const std::function<bool(RecordTag tag)>& wanted) {
  for (size_t t = 0; t < wants_.size(); ++t) wants_[t] = wanted(static_cast<RecordTag>(t));
}

InOrderReader::InOrderReader(std::filesystem::path path) : path_(std::move(path)) {
  std::unordered_map<uint64_t, size_t> page_of;  // page number -> index in pages_
  trace_ = read_trace(path_, {}, [&](RecordTag tag, uint64_t seq) {
    const auto [it, added] = page_of.try_emplace(seq / kPageSeqs, pages_.size());
    if (added) {
      pages_.emplace_back();
      pages_.back().number = seq / kPageSeqs;
    }
    Page& page = pages_[it->second];
    const size_t slot = seq % kPageSeqs;
    if (page.tags[slot] == Page::kAbsent)
      ++events_;  // a number is one event (read_trace would keep both)
    page.tags[slot] = static_cast<uint8_t>(tag);
    page.present[slot / 64] |= uint64_t{1} << (slot % 64);
    return true;
  });
  std::sort(pages_.begin(), pages_.end(),
            [](const Page& a, const Page& b) { return a.number < b.number; });
  uint64_t below = 0;
  for (Page& page : pages_) {
    page.below = below;
    below += page.events_below(kPageSeqs);
  }
}

uint64_t InOrderReader::Page::events_below(size_t slot) const {
  uint64_t n = 0;
  for (size_t word = 0; word < present.size() && word * 64 < slot; ++word) {
    const size_t bits = std::min<size_t>(64, slot - word * 64);
    n += static_cast<uint64_t>(
        std::popcount(bits == 64 ? present[word] : present[word] & ((uint64_t{1} << bits) - 1)));
  }
  return n;
}

uint64_t InOrderReader::index_of(uint64_t seq, size_t& hint) const {
  const uint64_t number = seq / kPageSeqs;
  if (hint >= pages_.size() || pages_[hint].number > number) hint = 0;
  // Events mostly come in order: walk on from the hint a few pages, then search.
  for (int step = 0; step < 4 && hint + 1 < pages_.size() && pages_[hint + 1].number <= number;
       ++step)
    ++hint;
  if (hint + 1 < pages_.size() && pages_[hint + 1].number <= number) {
    hint = static_cast<size_t>(
               std::upper_bound(pages_.begin() + static_cast<std::ptrdiff_t>(hint), pages_.end(),
                                number, [](uint64_t n, const Page& p) { return n < p.number; }) -
               pages_.begin()) -
           1;
  }
  if (pages_.empty() || pages_[hint].number > number) return 0;
  const Page& page = pages_[hint];
  return page.below + page.events_below(page.number < number ? kPageSeqs : seq % kPageSeqs);
}

bool InOrderReader::any(const Wanted& wanted) const {
  const WantedTags wants(wanted);
  for (const Page& page : pages_)
    for (const uint8_t tag : page.tags)
      if (tag != Page::kAbsent && wants(static_cast<RecordTag>(tag))) return true;
  return false;
}

void InOrderReader::read(const Wanted& wanted, const Visit& visit, uint64_t end) const {
  const WantedTags wants(wanted);

  // (page, slot) walks the first pass's events to the next wanted one below `end`: everything
  // numbered up to it that has arrived can go. `next_seq` is its number, UINT64_MAX past the last.
  size_t page = 0, slot = 0;
  uint64_t next_seq = UINT64_MAX;
  auto find_wanted = [&] {
    for (; page < pages_.size(); ++page, slot = 0) {
      for (; slot < kPageSeqs; ++slot) {
        const uint8_t tag = pages_[page].tags[slot];
        if (tag != Page::kAbsent && wants(static_cast<RecordTag>(tag))) {
          if (pages_[page].below + pages_[page].events_below(slot) >= end) break;
          next_seq = pages_[page].number * kPageSeqs + slot;
          return;
        }
      }
      if (slot < kPageSeqs) break;  // the next wanted one is at or past `end`
    }
    next_seq = UINT64_MAX;
  };
  find_wanted();

  // A min-heap by sequence number of the events that arrived ahead of their turn.
  std::vector<Event> waiting;
  auto later_first = [](const Event& a, const Event& b) { return a.seq > b.seq; };
  size_t hint = 0;
  auto hand_over_first = [&] {
    std::pop_heap(waiting.begin(), waiting.end(), later_first);
    Event event = std::move(waiting.back());
    waiting.pop_back();
    if (event.seq == next_seq) {
      ++slot;
      find_wanted();
    }
    const uint64_t index = index_of(event.seq, hint);
    visit(std::move(event), index);
  };
  size_t arrival_hint = 0;
  read_trace(
      path_,
      [&](Event& e) {
        // Past the end it is never handed over: dropped here, not held, so that the read can stop.
        if (end != UINT64_MAX && index_of(e.seq, arrival_hint) >= end) return false;
        waiting.push_back(std::move(e));
        std::push_heap(waiting.begin(), waiting.end(), later_first);
        while (!waiting.empty() && next_seq != UINT64_MAX && waiting.front().seq <= next_seq)
          hand_over_first();
        return false;
      },
      [&](RecordTag tag, uint64_t) { return !wants(tag); },
      [&] { return end != UINT64_MAX && next_seq == UINT64_MAX && waiting.empty(); });
  while (!waiting.empty()) hand_over_first();
}

}  // namespace tidepool::trace
