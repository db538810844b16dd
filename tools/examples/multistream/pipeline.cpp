// multistream's event-ordered pipeline (see pipeline.h).
#include "tools/examples/multistream/pipeline.h"

#include <thread>

#include "tools/examples/common/hash.h"

namespace multistream {

Pipeline::Pipeline(examples::Session& session, const Config& config)
    : session_(session),
      config_(config),
      iterations_(config.iterations),
      uploads_{std::vector<float>(config.elements), std::vector<float>(config.elements)},
      issued_(config.stages + 1, 0) {
  const examples::DriverCheck& check = session_.check();
  stage_kernel_ = session_.function("ms_stage");
  check(cuStreamCreate(&loader_, CU_STREAM_NON_BLOCKING));
  streams_.resize(config_.stages);
  for (CUstream& stream : streams_) check(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  for (Iteration& iteration : iterations_) {
    iteration.done.resize(config_.stages + 1);
    for (CUevent& event : iteration.done) check(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  }
}

Pipeline::~Pipeline() {
  const examples::DriverCheck& check = session_.check();
  for (Iteration& iteration : iterations_) {
    for (CUevent event : iteration.done) check(cuEventDestroy(event));
  }
  for (CUstream stream : streams_) check(cuStreamDestroy(stream));
  check(cuStreamDestroy(loader_));
}

void Pipeline::run(examples::Checksum& checksum) {
  std::vector<std::jthread> threads;
  for (int stage = 0; stage < config_.stages; ++stage) {
    threads.emplace_back([this, stage] { run_stage(stage); });
  }
  // Two iterations in flight: iteration i is submitted before iteration i-1 is collected.
  for (int i = 0; i < config_.iterations; ++i) {
    submit(i);
    if (i > 0) finish(i - 1, checksum);
  }
  finish(config_.iterations - 1, checksum);
}

void Pipeline::submit(int iteration) {
  Iteration& it = iterations_[iteration];
  const size_t bytes = static_cast<size_t>(config_.elements) * sizeof(float);
  for (int b = 0; b <= config_.stages; ++b) it.buffers.push_back(session_.alloc(bytes));
  // This buffer's previous upload (iteration - 2) is complete: finish(iteration - 2) synchronized
  // the loader stream after it.
  std::vector<float>& upload = uploads_[iteration % 2];
  for (long long e = 0; e < config_.elements; ++e) {
    upload[e] = examples::uniform_pm1(config_.seed, iteration, e);
  }
  session_.check()(cuMemcpyHtoDAsync(it.buffers[0], upload.data(), bytes, loader_));
  session_.check()(cuEventRecord(it.done[0], loader_));
  mark_issued(0);
}

void Pipeline::run_stage(int stage) {
  session_.check()(cuCtxSetCurrent(session_.context()));
  const CUstream stream = streams_[stage];
  for (int i = 0; i < config_.iterations; ++i) {
    wait_issued(stage, i);
    Iteration& it = iterations_[i];
    session_.check()(cuStreamWaitEvent(stream, it.done[stage], 0));
    session_.launch(stage_kernel_, examples::grid_for(config_.elements), stream, it.buffers[stage],
                    it.buffers[stage + 1], stage, config_.elements);
    session_.check()(cuEventRecord(it.done[stage + 1], stream));
    mark_issued(stage + 1);
  }
}

void Pipeline::finish(int iteration, examples::Checksum& checksum) {
  wait_issued(config_.stages, iteration);
  Iteration& it = iterations_[iteration];
  std::vector<float> result(config_.elements);
  session_.check()(cuStreamWaitEvent(loader_, it.done[config_.stages], 0));
  session_.check()(cuMemcpyDtoHAsync(result.data(), it.buffers[config_.stages],
                                     result.size() * sizeof(float), loader_));
  session_.check()(cuStreamSynchronize(loader_));
  checksum.add_values(std::span<const float>(result));
  for (CUdeviceptr buffer : it.buffers) session_.free(buffer);
  it.buffers.clear();
}

void Pipeline::wait_issued(int step, int iteration) {
  std::unique_lock lock(mutex_);
  issued_changed_.wait(lock, [&] { return issued_[step] > iteration; });
}

void Pipeline::mark_issued(int step) {
  {
    std::lock_guard lock(mutex_);
    ++issued_[step];
  }
  issued_changed_.notify_all();
}

}  // namespace multistream
