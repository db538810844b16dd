// The one warning for a failed hook (see hook_failure.h).
#include "intercept/hook_failure.h"

#include <atomic>
#include <cstdio>
#include <exception>
#include <string>

namespace tidepool::intercept {

void report_failed_hook(std::string_view symbol) {
  static std::atomic<bool> said{false};
  if (said.exchange(true)) return;
  const char* why = "unknown error";
  try {
    throw;
  } catch (const std::exception& e) {
    why = e.what();
  } catch (...) {
  }
  std::fprintf(stderr,
               "tidepool: warning: %.*s: tidepool's hook failed (%s); the call went to the driver, "
               "and the trace may miss it\n",
               static_cast<int>(symbol.size()), symbol.data(), why);
}

}  // namespace tidepool::intercept
