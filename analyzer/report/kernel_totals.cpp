// Bytes touched per kernel: the requested sizes of the distinct allocations each launch reaches.
#include "analyzer/report/kernel_totals.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

namespace tidepool::report {
namespace {

std::string kernel_name(const trace::Trace& trace, const trace::Launch& launch) {
  std::string_view name = trace.string(launch.kernel_name_id);
  if (!name.empty()) return std::string(name);
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "<function 0x%llx>",
                static_cast<unsigned long long>(launch.function));
  return buffer;
}

}  // namespace

std::vector<KernelTotals> kernel_totals(const trace::Trace& trace) {
  std::unordered_map<uint64_t, uint64_t> sizes;  // every allocation ever made, by id
  std::unordered_map<std::string, KernelTotals> kernels;
  std::unordered_set<uint64_t> seen;
  for (const trace::Event& e : trace.events) {
    if (const auto* a = std::get_if<trace::Alloc>(&e.record)) {
      sizes.emplace(a->alloc_id, a->size);
      continue;
    }
    const auto* launch = std::get_if<trace::Launch>(&e.record);
    if (!launch || launch->captured) continue;
    std::string name = kernel_name(trace, *launch);
    KernelTotals& k = kernels[name];
    k.name = std::move(name);
    ++k.launches;
    if (!launch->params_decoded) ++k.undecoded_launches;
    seen.clear();
    uint64_t bytes = 0;
    for (const trace::Access& access : launch->accesses) {
      if (!seen.insert(access.alloc_id).second) continue;
      const auto size = sizes.find(access.alloc_id);
      if (size != sizes.end()) bytes += size->second;
    }
    k.bytes_touched += bytes;
    k.max_bytes_per_launch = std::max(k.max_bytes_per_launch, bytes);
  }
  std::vector<KernelTotals> out;
  out.reserve(kernels.size());
  for (auto& [name, k] : kernels) out.push_back(std::move(k));
  std::sort(out.begin(), out.end(), [](const KernelTotals& a, const KernelTotals& b) {
    return a.bytes_touched != b.bytes_touched ? a.bytes_touched > b.bytes_touched
                                              : a.name < b.name;
  });
  return out;
}

}  // namespace tidepool::report
