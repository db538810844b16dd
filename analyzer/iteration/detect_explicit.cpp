// Iterations from explicit boundaries: each push of an NVTX range, or each launch of a kernel,
// with the name the user gave.
#include <algorithm>
#include <map>
#include <stdexcept>

#include "analyzer/iteration/detection.h"
#include "analyzer/iteration/symbols.h"
#include "analyzer/iteration/window_hash.h"

namespace tidepool::iteration {
namespace {

std::optional<std::uint32_t> find_name(const EventStream& stream, std::string_view name) {
  for (std::size_t i = 0; i < stream.names.size(); ++i)
    if (stream.names[i] == name) return static_cast<std::uint32_t>(i);
  return std::nullopt;
}

// Consecutive boundaries delimit iterations; after the last boundary, an iteration counts only
// when the events that follow it begin with a copy of the most common iteration (the rest is a
// tail: whatever the program does after its last step).
Detection from_boundaries(const EventStream& stream, std::vector<std::size_t> boundaries, BoundaryKind kind,
                          std::string_view name, const char* what) {
  std::sort(boundaries.begin(), boundaries.end());
  boundaries.erase(std::unique(boundaries.begin(), boundaries.end()), boundaries.end());
  if (boundaries.size() < 2)
    throw std::runtime_error(std::string(what) + " '" + std::string(name) + "' starts " +
                             (boundaries.empty() ? "no" : "only one") +
                             " iteration in the trace; at least two are needed");
  const std::vector<std::uint64_t> s = symbols(stream);
  const WindowHasher hash(s);
  std::vector<Range> ranges;
  for (std::size_t i = 0; i + 1 < boundaries.size(); ++i) ranges.push_back({boundaries[i], boundaries[i + 1]});

  std::map<std::uint64_t, std::size_t> counts;
  for (const Range& r : ranges) ++counts[hash(r)];
  const std::uint64_t reference =
      std::max_element(counts.begin(), counts.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
  const std::size_t length = std::find_if(ranges.begin(), ranges.end(), [&](const Range& r) {
                               return hash(r) == reference;
                             })->size();
  const Range last{boundaries.back(), boundaries.back() + length};
  if (last.end <= s.size() && hash(last) == reference) ranges.push_back(last);

  Detection d;
  d.kind = kind;
  d.boundary_name = std::string(name);
  d.iterations = std::move(ranges);
  for (std::size_t i = 0; i < d.iterations.size(); ++i) {
    if (hash(d.iterations[i]) != reference) continue;
    ++d.exact;
    d.reference = i;
  }
  d.period = d.iterations[d.reference].size();
  return d;
}

}  // namespace

Detection detect_by_nvtx_range(const EventStream& stream, std::string_view name) {
  const auto id = find_name(stream, name);
  std::vector<std::size_t> boundaries;
  for (const Mark& m : stream.marks)
    if (id && m.name == *id) boundaries.push_back(m.position);
  return from_boundaries(stream, std::move(boundaries), BoundaryKind::nvtx_range, name, "the NVTX range");
}

Detection detect_by_kernel(const EventStream& stream, std::string_view name) {
  const auto id = find_name(stream, name);
  std::vector<std::size_t> boundaries;
  for (std::size_t i = 0; i < stream.events.size(); ++i) {
    const Event& e = stream.events[i];
    if (id && e.kind == EventKind::launch && e.name == *id) boundaries.push_back(i);
  }
  return from_boundaries(stream, std::move(boundaries), BoundaryKind::kernel, name, "the kernel");
}

}  // namespace tidepool::iteration
