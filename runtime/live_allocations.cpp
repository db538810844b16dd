// The sorted interval map of live allocations.
#include "runtime/live_allocations.h"

#include <algorithm>
#include <mutex>

namespace tidepool::runtime {
namespace {

// Each map counts its generations from a block of its own (2^40 changes each), so that they are
// unique across maps without an atomic read-modify-write at every change.
uint64_t first_generation() {
  static std::atomic<uint64_t> maps{1};
  return maps.fetch_add(1, std::memory_order_relaxed) << 40;
}

auto first_ending_after(std::vector<LiveRange>& ranges, uint64_t address) {
  return std::partition_point(ranges.begin(), ranges.end(),
                              [&](const LiveRange& r) { return r.base + r.size <= address; });
}

}  // namespace

LiveAllocations::LiveAllocations() : generation_(first_generation()) {}

void LiveAllocations::add(const LiveRange& range) {
  const std::unique_lock lock(mutex_);
  auto first = first_ending_after(ranges_, range.base);
  auto last = first;
  while (last != ranges_.end() && last->base < range.base + std::max<uint64_t>(range.size, 1)) ++last;
  first = ranges_.erase(first, last);
  ranges_.insert(first, range);
  changed();
}

std::optional<LiveRange> LiveAllocations::remove(uint64_t base) {
  const std::unique_lock lock(mutex_);
  auto it = std::partition_point(ranges_.begin(), ranges_.end(), [&](const LiveRange& r) { return r.base < base; });
  if (it == ranges_.end() || it->base != base) return std::nullopt;
  LiveRange removed = *it;
  ranges_.erase(it);
  changed();
  return removed;
}

size_t LiveAllocations::remove_context(uint64_t context) {
  const std::unique_lock lock(mutex_);
  const size_t removed = std::erase_if(ranges_, [&](const LiveRange& r) { return r.context == context; });
  changed();
  return removed;
}

void LiveAllocations::remove_within(uint64_t base, uint64_t size) {
  const std::unique_lock lock(mutex_);
  std::erase_if(ranges_, [&](const LiveRange& r) { return r.base >= base && r.base + r.size <= base + size; });
  changed();
}

void LiveAllocations::changed() {
  generation_.store(generation_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  low_.store(ranges_.empty() ? 0 : ranges_.front().base, std::memory_order_relaxed);
  high_.store(ranges_.empty() ? 0 : ranges_.back().base + std::max<uint64_t>(ranges_.back().size, 1),
              std::memory_order_relaxed);
}

std::optional<LiveRange> LiveAllocations::find_range(uint64_t address) const {
  const std::shared_lock lock(mutex_);
  const LiveRange* r = range_holding(address);
  return r != nullptr ? std::optional<LiveRange>(*r) : std::nullopt;
}

std::optional<Hit> LiveAllocations::find(uint64_t address) const {
  const std::shared_lock lock(mutex_);
  return find_locked(address);
}

std::optional<Hit> LiveAllocations::Reader::find_and_cache(live_allocations_detail::CachedAnswer& slot,
                                                            uint64_t address) {
  if (!lock_.owns_lock()) lock_.lock();
  slot = {&map_, generation_, address, map_.find_locked(address)};
  return slot.hit;
}

const LiveRange* LiveAllocations::range_holding(uint64_t address) const {
  // The first range starting above the address; the one before it may hold the address.
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                             [](uint64_t a, const LiveRange& r) { return a < r.base; });
  if (it == ranges_.begin()) return nullptr;
  --it;
  return address - it->base < std::max<uint64_t>(it->size, 1) ? &*it : nullptr;
}

std::optional<Hit> LiveAllocations::find_locked(uint64_t address) const {
  const LiveRange* r = range_holding(address);
  if (r == nullptr) return std::nullopt;
  return Hit{r->alloc_id, r->id_offset + (address - r->base)};
}

size_t LiveAllocations::size() const {
  const std::shared_lock lock(mutex_);
  return ranges_.size();
}

}  // namespace tidepool::runtime
