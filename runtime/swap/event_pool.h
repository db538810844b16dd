// Driver events reused rather than created and destroyed for every transfer or fence.
#pragma once

#include <cuda.h>

#include <vector>

#include "runtime/driver_api.h"

namespace tidepool::runtime {

class EventPool {
 public:
  explicit EventPool(const DriverApi& api) : api_(api) {}
  ~EventPool();
  EventPool(const EventPool&) = delete;
  EventPool& operator=(const EventPool&) = delete;

  // A timing-capable event (a pooled one, else a new one); nullptr when the driver cannot make one.
  CUevent take();
  // Gives an event back for reuse (its last record need not have completed).
  void give(CUevent event);

 private:
  const DriverApi& api_;
  std::vector<CUevent> free_;
};

}  // namespace tidepool::runtime
