// EventStream helpers.
#include "analyzer/iteration/event_stream.h"

#include <algorithm>

namespace tidepool::iteration {

std::uint32_t EventStream::intern(const std::string& name) {
  auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<std::uint32_t>(it - names.begin());
  names.push_back(name);
  return static_cast<std::uint32_t>(names.size() - 1);
}

}  // namespace tidepool::iteration
