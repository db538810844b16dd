// The registry of kernel twins, filled by static registrars (see include/simcuda/kernel.h).
#include <cstdio>
#include <map>
#include <mutex>
#include <string>

#include "simcuda/kernel.h"

namespace simcuda {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, KernelInfo, std::less<>> twins;
};

Registry& registry() {
  static Registry& instance = *new Registry;  // used by static initializers: constructed on first use
  return instance;
}

}  // namespace

void register_kernel(const KernelInfo& info) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  if (!r.twins.emplace(std::string(info.name), info).second)
    std::fprintf(stderr, "simcuda: two kernel twins are named %.*s; the first one wins\n",
                 static_cast<int>(info.name.size()), info.name.data());
}

const KernelInfo* find_kernel(std::string_view name) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  const auto it = r.twins.find(name);
  return it != r.twins.end() ? &it->second : nullptr;
}

}  // namespace simcuda
