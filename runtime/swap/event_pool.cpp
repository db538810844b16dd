// Driver events reused rather than created and destroyed for every transfer or fence.
#include "runtime/swap/event_pool.h"

namespace tidepool::runtime {

EventPool::~EventPool() {
  for (CUevent event : free_) api_.event_destroy(event);
}

CUevent EventPool::take() {
  if (!free_.empty()) {
    CUevent event = free_.back();
    free_.pop_back();
    return event;
  }
  CUevent event = nullptr;
  return api_.event_create(&event, CU_EVENT_DEFAULT) == CUDA_SUCCESS ? event : nullptr;
}

void EventPool::give(CUevent event) {
  if (event != nullptr) free_.push_back(event);
}

}  // namespace tidepool::runtime
