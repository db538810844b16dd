// Power-of-two buckets of device allocation sizes.
#include "analyzer/report/size_histogram.h"

#include <array>
#include <bit>

namespace tidepool::report {

std::vector<SizeBucket> size_histogram(const trace::Trace& trace) {
  std::array<SizeBucket, 64> buckets{};
  for (const trace::Event& e : trace.events) {
    const auto* a = std::get_if<trace::Alloc>(&e.record);
    if (!a || a->captured || !trace::is_device_memory(a->kind)) continue;
    const int k = a->size < 2 ? 0 : std::bit_width(a->size) - 1;
    SizeBucket& b = buckets[k];
    b.min_bytes = k == 0 ? 0 : uint64_t{1} << k;
    ++b.allocations;
    b.bytes += a->size;
  }
  std::vector<SizeBucket> out;
  for (const SizeBucket& b : buckets) {
    if (b.allocations > 0) out.push_back(b);
  }
  return out;
}

}  // namespace tidepool::report
