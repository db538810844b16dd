// The process-wide state, created on first use and never destroyed.
#include "runtime/process_state.h"

namespace tidepool::runtime {

ProcessState& process_state() {
  static ProcessState* const state = new ProcessState;
  return *state;
}

}  // namespace tidepool::runtime
