// Iteration fingerprints.
#include "analyzer/plan/fingerprint.h"

#include <cstdio>

#include "analyzer/iteration/hash.h"

namespace tidepool::plan {

void Fingerprinter::add_alloc(std::uint64_t bytes) {
  hash_ = iteration::fnv1a_u64(bytes, iteration::fnv1a("A", hash_));
}

void Fingerprinter::add_kernel(std::string_view name) {
  hash_ = iteration::fnv1a(std::string_view("\0", 1), iteration::fnv1a(name, iteration::fnv1a("K", hash_)));
}

std::string Fingerprinter::text() const {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "fnv1a64:%016llx", static_cast<unsigned long long>(hash_));
  return buffer;
}

std::string fingerprint(const iteration::EventStream& stream, iteration::Range iteration) {
  Fingerprinter f;
  for (std::size_t i = iteration.begin; i < iteration.end; ++i) {
    const iteration::Event& e = stream.events[i];
    if (e.kind == iteration::EventKind::alloc) f.add_alloc(e.bytes);
    if (e.kind == iteration::EventKind::launch) f.add_kernel(stream.names[e.name]);
  }
  return f.text();
}

}  // namespace tidepool::plan
