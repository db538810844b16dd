// One engine of the simulated device (the compute engine, or a copy engine): it runs one thing at
// a time, and a piece of work starts at the earliest idle time, at or after it is ready, long
// enough to hold it, so work that becomes ready early is not held up behind work issued before it
// that is not ready yet (as simcuda's engines, which take ready work in the order it became ready).
#pragma once

#include <vector>

namespace tidepool::swap {

class EngineTimeline {
 public:
  // Books `seconds` of work ready at `ready`; returns when it starts.
  double place(double ready, double seconds) {
    if (busy_.empty() || ready > busy_.back().end) {  // the common case: after everything booked
      busy_.push_back({ready, ready + seconds});
      return ready;
    }
    if (ready == busy_.back().end) {
      busy_.back().end += seconds;
      return ready;
    }
    return place_in_gap(ready, seconds);
  }
  // The end of the last booked work (0 when none).
  double last_end() const { return busy_.empty() ? 0 : busy_.back().end; }

 private:
  double place_in_gap(double ready, double seconds);  // ready before the last booked end
  struct Busy {
    double start, end;
  };
  std::vector<Busy> busy_;  // disjoint, ascending; touching intervals are merged
};

}  // namespace tidepool::swap
