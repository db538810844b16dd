// Bytes touched per kernel: the requested sizes of the distinct allocations each launch reaches.
#include "analyzer/report/kernel_totals.h"

#include <algorithm>
#include <cstdio>

namespace tidepool::report {
namespace {

std::string kernel_name(const trace::Trace& tables, const trace::Launch& launch) {
  std::string_view name = tables.string(launch.kernel_name_id);
  if (!name.empty()) return std::string(name);
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "<function 0x%llx>",
                static_cast<unsigned long long>(launch.function));
  return buffer;
}

}  // namespace

void KernelCounter::add(const trace::Event& event) {
  if (const auto* a = std::get_if<trace::Alloc>(&event.record)) {
    sizes_.emplace(a->alloc_id, a->size);
    return;
  }
  const auto* launch = std::get_if<trace::Launch>(&event.record);
  if (!launch || launch->captured) return;
  std::string name = kernel_name(tables_, *launch);
  KernelTotals& k = kernels_[name];
  k.name = std::move(name);
  ++k.launches;
  if (!launch->params_decoded) ++k.undecoded_launches;
  seen_.clear();
  uint64_t bytes = 0;
  for (const trace::Access& access : launch->accesses) {
    if (!seen_.insert(access.alloc_id).second) continue;
    const auto size = sizes_.find(access.alloc_id);
    if (size != sizes_.end()) bytes += size->second;
  }
  k.bytes_touched += bytes;
  k.max_bytes_per_launch = std::max(k.max_bytes_per_launch, bytes);
}

std::vector<KernelTotals> KernelCounter::totals() const {
  std::vector<KernelTotals> out;
  out.reserve(kernels_.size());
  for (const auto& [name, k] : kernels_) out.push_back(k);
  std::sort(out.begin(), out.end(), [](const KernelTotals& a, const KernelTotals& b) {
    return a.bytes_touched != b.bytes_touched ? a.bytes_touched > b.bytes_touched
                                              : a.name < b.name;
  });
  return out;
}

}  // namespace tidepool::report
