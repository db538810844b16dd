// Power-of-two buckets of device allocation sizes.
#include "analyzer/report/size_histogram.h"

#include <bit>

namespace tidepool::report {

void SizeHistogram::add(const trace::Event& event) {
  const auto* a = std::get_if<trace::Alloc>(&event.record);
  if (!a || a->captured || !trace::is_device_memory(a->kind)) return;
  const int k = a->size < 2 ? 0 : std::bit_width(a->size) - 1;
  SizeBucket& b = buckets_[k];
  b.min_bytes = k == 0 ? 0 : uint64_t{1} << k;
  ++b.allocations;
  b.bytes += a->size;
}

std::vector<SizeBucket> SizeHistogram::buckets() const {
  std::vector<SizeBucket> out;
  for (const SizeBucket& b : buckets_) {
    if (b.allocations > 0) out.push_back(b);
  }
  return out;
}

}  // namespace tidepool::report
