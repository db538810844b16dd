// multistream's pipeline: iteration i's input is uploaded on a loader stream, then passes through
// `stages` stages, stage t launched by host thread t on its own non-blocking stream after
// cuStreamWaitEvent on the event that stage t-1 recorded for iteration i; the loader stream waits
// on the last stage's event and copies the result back. Device work is ordered by events only, so
// the result is right only if they hold. Iterations overlap: stage t may run iteration i+1 while
// stage t+1 runs iteration i. All allocations and frees are made by the main thread, in a fixed
// order.
#pragma once

#include <cuda.h>

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

#include "tools/examples/common/checksum.h"
#include "tools/examples/common/session.h"

namespace multistream {

struct Config {
  int stages;
  int iterations;
  long long elements;
  uint64_t seed;
};

class Pipeline {
 public:
  Pipeline(examples::Session& session, const Config& config);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  // Runs every iteration; adds each iteration's result to the checksum, in iteration order.
  void run(examples::Checksum& checksum);

 private:
  struct Iteration {
    std::vector<CUdeviceptr> buffers;  // [0] the input, [t + 1] stage t's output
    std::vector<CUevent> done;         // [0] input uploaded, [t + 1] stage t finished
  };

  void submit(int iteration);
  void finish(int iteration, examples::Checksum& checksum);
  void run_stage(int stage);
  // Blocks until `step` (0: the upload, t + 1: stage t) has been issued for `iteration`.
  void wait_issued(int step, int iteration);
  void mark_issued(int step);

  examples::Session& session_;
  Config config_;
  CUfunction stage_kernel_ = nullptr;
  CUstream loader_ = nullptr;
  std::vector<CUstream> streams_;
  std::vector<Iteration> iterations_;
  std::vector<float> uploads_[2];  // host sources of the uploads, used alternately

  std::mutex mutex_;
  std::condition_variable issued_changed_;
  std::vector<int> issued_;  // per step: how many iterations it has issued
};

}  // namespace multistream
