// Event → symbol hashing.
#include "analyzer/iteration/symbols.h"

#include "analyzer/iteration/hash.h"

namespace tidepool::iteration {

std::vector<std::uint64_t> symbols(const EventStream& stream) {
  std::vector<std::uint64_t> name_hashes;
  name_hashes.reserve(stream.names.size());
  for (const auto& name : stream.names) name_hashes.push_back(fnv1a(name));

  std::vector<std::uint64_t> out;
  out.reserve(stream.events.size());
  for (const Event& e : stream.events) {
    std::uint64_t h = fnv1a_u64(static_cast<std::uint64_t>(e.kind), fnv_offset);
    switch (e.kind) {
      case EventKind::alloc:
      case EventKind::free:
        h = fnv1a_u64(e.bytes, h);
        break;
      case EventKind::launch:
        h = fnv1a_u64(name_hashes.at(e.name), h);
        break;
      case EventKind::transfer:
        h = fnv1a_u64(e.bytes, fnv1a_u64(name_hashes.at(e.name), h));
        break;
    }
    out.push_back(mix64(h));
  }
  return out;
}

}  // namespace tidepool::iteration
