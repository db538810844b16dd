// Sharing a large twin's or copy's work out over threads (see parallel_for in simcuda/kernel.h).
// Helpers are started for the call and joined before it returns: nothing outlives a launch, so
// there is no pool to shut down or to rebuild after a fork.
#include <algorithm>
#include <system_error>
#include <thread>
#include <vector>

#include "simcuda/kernel.h"
#include "tools/simcuda/src/fault_handler.h"
#include "tools/simcuda/src/settings.h"

namespace simcuda {

void parallel_for(int64_t count, int64_t grain, const std::function<void(int64_t, int64_t)>& body) {
  if (count <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  const int64_t grains = count / grain + (count % grain != 0);
  const int64_t parts = std::min<int64_t>(settings().threads, grains);
  // Part p covers [start(p), start(p + 1)): whole grains, shared out as evenly as they go.
  auto start = [&](int64_t part) { return std::min(count, grains * part / parts * grain); };
  const char* work = current_work();
  std::vector<std::jthread> helpers;
  for (int64_t part = 1; part < parts; ++part) {
    try {
      helpers.emplace_back([&body, &start, work, part] {
        set_current_work(work);
        body(start(part), start(part + 1));
      });
    } catch (const std::system_error&) {  // no thread to be had: the caller does that part too
      body(start(part), start(part + 1));
    }
  }
  body(0, start(1));
}  // the helpers join here

}  // namespace simcuda
