// The device address space, heap and capacity (see device_memory.h).
#include "tools/simcuda/src/device_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "tools/simcuda/src/block_allocator.h"
#include "tools/simcuda/src/injected_failures.h"
#include "tools/simcuda/src/settings.h"
#include "tools/simcuda/src/stats.h"

namespace simcuda {
namespace {

constexpr uint64_t kVmmSpan = 256ull << 30;

struct Space {
  uint64_t base = 0;
  uint64_t heap_span = 0;
  uint64_t total_span = 0;
};

// Written once, before any other thread can use simcuda, read lock-free by the fault handler.
Space space;

struct Memory {
  std::mutex mutex;
  uint64_t charged = 0;
  uint64_t resident_free = 0;  // about how many bytes of freed pages are still resident
  BlockAllocator heap;
  BlockAllocator vmm;
  Memory(uint64_t base, uint64_t heap_span)
      : heap(base, heap_span), vmm(base + heap_span, kVmmSpan) {}
};

uint64_t round_up(uint64_t value, uint64_t to) { return (value + to - 1) / to * to; }

Memory& memory() {
  static Memory& instance = [] () -> Memory& {
    const uint64_t heap_span = round_up(2 * settings().memory_bytes, kVmmGranularity);
    const uint64_t total = heap_span + kVmmSpan + kVmmGranularity;
    void* p = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      std::fprintf(stderr, "simcuda: cannot reserve %llu bytes of address space for the device\n",
                   static_cast<unsigned long long>(total));
      std::abort();
    }
    const uint64_t base = round_up(reinterpret_cast<uint64_t>(p), kVmmGranularity);
    space = {base, heap_span, heap_span + kVmmSpan};
    // Advice only: huge pages spare the twins TLB misses and make protecting big blocks cheap.
    madvise(reinterpret_cast<void*>(base), heap_span, MADV_HUGEPAGE);
    return *new Memory(base, heap_span);
  }();
  return instance;
}

uint64_t page_size() {
  static const uint64_t size = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

void reserve_address_space() { memory(); }

bool in_device_range(uint64_t address) {
  return space.base != 0 && address >= space.base && address - space.base < space.total_span;
}

bool charge(uint64_t bytes) {
  if (inject_out_of_memory()) return false;
  Memory& m = memory();
  {
    const std::lock_guard lock(m.mutex);
    if (bytes > settings().memory_bytes - m.charged) return false;
    m.charged += bytes;
  }
  stats_device_bytes(static_cast<int64_t>(bytes));
  return true;
}

void uncharge(uint64_t bytes) {
  Memory& m = memory();
  {
    const std::lock_guard lock(m.mutex);
    m.charged -= bytes;
  }
  stats_device_bytes(-static_cast<int64_t>(bytes));
}

uint64_t charged_bytes() {
  Memory& m = memory();
  const std::lock_guard lock(m.mutex);
  return m.charged;
}

uint64_t heap_block_size(uint64_t requested) { return round_up(requested, kHeapAlignment); }

std::optional<uint64_t> heap_allocate(uint64_t requested) {
  const uint64_t size = heap_block_size(requested);
  if (size == 0 || !charge(size)) return std::nullopt;
  Memory& m = memory();
  std::optional<uint64_t> address;
  {
    const std::lock_guard lock(m.mutex);
    address = m.heap.allocate(size, kHeapAlignment);
    if (address) {
      // An estimate: new blocks mostly reuse freed pages (best fit, lowest address first).
      m.resident_free -= std::min(m.resident_free, size);
      const uint64_t first_page = *address / page_size() * page_size();
      const uint64_t end_page = round_up(*address + size, page_size());
      mprotect(reinterpret_cast<void*>(first_page), end_page - first_page, PROT_READ | PROT_WRITE);
    }
  }
  if (!address) uncharge(size);
  return address;
}

// The whole pages inside a range.
Range inner_pages(const Range& r) {
  const uint64_t first = round_up(r.begin, page_size());
  const uint64_t end = (r.begin + r.size) / page_size() * page_size();
  return {first, end > first ? end - first : 0};
}

// Freed pages stay resident (a later allocation reuses them without page faults) until there
// are more of them than this; then every wholly free page goes back to the host.
uint64_t resident_free_limit() { return std::max<uint64_t>(settings().memory_bytes / 4, 64ull << 20); }

void heap_release(uint64_t address, uint64_t requested) {
  const uint64_t size = heap_block_size(requested);
  Memory& m = memory();
  {
    const std::lock_guard lock(m.mutex);
    // Pages wholly inside the free block hold no live allocation: touching them faults.
    const Range pages = inner_pages(m.heap.release(address, size));
    if (pages.size > 0) mprotect(reinterpret_cast<void*>(pages.begin), pages.size, PROT_NONE);
    m.resident_free += size;
    if (m.resident_free > resident_free_limit()) {
      m.heap.for_each_free([](const Range& block) {
        const Range free_pages = inner_pages(block);
        if (free_pages.size > 0) madvise(reinterpret_cast<void*>(free_pages.begin), free_pages.size, MADV_DONTNEED);
      });
      m.resident_free = 0;
    }
  }
  uncharge(size);
}

std::optional<uint64_t> vmm_reserve(uint64_t size, uint64_t alignment) {
  Memory& m = memory();
  const std::lock_guard lock(m.mutex);
  return m.vmm.allocate(size, alignment < kVmmGranularity ? kVmmGranularity : alignment);
}

void vmm_unreserve(uint64_t address, uint64_t size) {
  Memory& m = memory();
  const std::lock_guard lock(m.mutex);
  m.vmm.release(address, size);
}

}  // namespace simcuda
