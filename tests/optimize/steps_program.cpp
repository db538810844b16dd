// A small training-like program for the optimizer's end-to-end tests, on simcuda's test kernels:
// each step fills a persistent seed, allocates three temporaries, combines them with axpy into a
// persistent weight buffer and copies a result back; every step's events are the same, so the
// optimizer finds the iteration. Flags: --steps N, --elements N, --change-at STEP (from that step
// on, buffers have twice the elements: the program changes shape), --capture 1 (each step also
// captures a fill into a graph on a second stream and launches it), --sleep-us N (real time per
// step, so that background planning keeps up), --threads N (the steps' driver calls are made by N
// threads in turn, one call at a time and in the same order: the event stream stays the same, but
// buffers are allocated, used and freed by different threads), --host-churn 1 (one more thread
// allocates and frees pinned host memory all along, concurrently with the steps), --steps-at-exit N
// (the last N steps, the final copies and frees are made by an exit handler, after the main
// thread's thread-local objects are destroyed; one thread, no churn). Prints "checksum: <16 hex
// digits>" over the final weights and every step's result. A refused allocation is made again.
#include <cuda.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/optimize/test_program.h"

namespace {

using test_program::axpy;
using test_program::check;
using test_program::fill;
using test_program::flag;
using test_program::Relay;
using test_program::retrying;

// Allocates and frees pinned host memory until stopped.
class HostChurn {
 public:
  explicit HostChurn(CUcontext context)
      : thread_([this, context] {
          check(cuCtxSetCurrent(context), "cuCtxSetCurrent (churn thread)");
          for (size_t i = 0; !stopping_.load(std::memory_order_relaxed); ++i) {
            void* p = nullptr;
            check(cuMemAllocHost(&p, 4096 * (1 + i % 4)), "cuMemAllocHost");
            static_cast<unsigned char*>(p)[0] = static_cast<unsigned char>(i);
            check(cuMemFreeHost(p), "cuMemFreeHost");
          }
        }) {}
  ~HostChurn() {
    stopping_.store(true, std::memory_order_relaxed);
    thread_.join();
  }
  HostChurn(const HostChurn&) = delete;
  HostChurn& operator=(const HostChurn&) = delete;

 private:
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

// Everything the steps use, kept until the exit handler is done with it.
struct Program {
  long steps = 0;
  unsigned elements = 0;
  long change_at = 0;
  bool capture = false;
  long sleep_us = 0;
  unsigned most = 0;
  test_program::TestKernels k;
  CUstream side = nullptr;
  CUdeviceptr weights = 0, seed = 0, captured = 0;
  test_program::Checksum checksum;
  std::vector<float> host;

  void step(Relay& relay, long step) {
    const unsigned n = change_at > 0 && step >= change_at ? 2 * elements : elements;
    const size_t bytes = n * sizeof(float);
    const float value = 1.0f + 0.25f * static_cast<float>(step % 7);
    relay.run([&] { fill(k, nullptr, seed, value, n); });
    CUdeviceptr x = 0, y = 0, t = 0;
    relay.run([&] { check(retrying([&] { return cuMemAlloc(&x, bytes); }), "x"); });
    relay.run([&] { check(retrying([&] { return cuMemAlloc(&y, bytes); }), "y"); });
    relay.run([&] { check(cuMemcpyDtoD(x, seed, bytes), "copy seed"); });
    relay.run([&] { check(cuMemsetD32(y, 0, n), "memset y"); });
    relay.run([&] { axpy(k, 2.0f, x, y, n); });  // y = 2 x
    relay.run([&] { check(retrying([&] { return cuMemAlloc(&t, bytes); }), "t"); });
    relay.run([&] { check(cuMemcpyDtoD(t, y, bytes), "copy y"); });
    relay.run([&] { check(cuMemFree(x), "free x"); });
    relay.run([&] { axpy(k, 0.5f, t, weights, n); });  // weights += y / 2
    relay.run([&] { check(cuMemFree(t), "free t"); });
    relay.run([&] { check(cuMemcpyDtoH(host.data(), y, bytes), "copy back"); });
    relay.run([&] { check(cuMemFree(y), "free y"); });
    checksum.add(host.data(), bytes);
    if (capture) {
      check(cuStreamBeginCapture(side, CU_STREAM_CAPTURE_MODE_GLOBAL), "begin capture");
      fill(k, side, captured, static_cast<float>(step), n);
      CUgraph graph = nullptr;
      check(cuStreamEndCapture(side, &graph), "end capture");
      CUgraphExec exec = nullptr;
      check(cuGraphInstantiate(&exec, graph, 0), "instantiate");
      check(cuGraphLaunch(exec, side), "graph launch");
      check(cuStreamSynchronize(side), "sync side");
      check(cuGraphExecDestroy(exec), "exec destroy");
      check(cuGraphDestroy(graph), "graph destroy");
    }
    if (sleep_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
  }

  void finish() {
    check(cuMemcpyDtoH(host.data(), weights, most * sizeof(float)), "copy weights");
    checksum.add(host.data(), most * sizeof(float));
    check(cuMemcpyDtoH(host.data(), captured, most * sizeof(float)), "copy captured");
    checksum.add(host.data(), most * sizeof(float));
    check(cuMemFree(weights), "free weights");
    check(cuMemFree(seed), "free seed");
    check(cuMemFree(captured), "free captured");
    check(cuStreamDestroy(side), "stream destroy");
    checksum.print();
  }
};

Program* g_program = nullptr;  // for the exit handler
long g_steps_at_exit = 0;

void finish_at_exit() {
  Relay relay(1, nullptr);
  for (long step = g_program->steps - g_steps_at_exit + 1; step <= g_program->steps; ++step) g_program->step(relay, step);
  g_program->finish();
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  test_program::program_name = "steps_program";
  static Program p;  // outlives main: the exit handler may still use it
  p.steps = flag(argc, argv, "--steps", 20);
  p.elements = static_cast<unsigned>(flag(argc, argv, "--elements", 1 << 20));
  p.change_at = flag(argc, argv, "--change-at", 0);
  p.capture = flag(argc, argv, "--capture", 0) != 0;
  p.sleep_us = flag(argc, argv, "--sleep-us", 0);
  const long threads = flag(argc, argv, "--threads", 1);
  const bool host_churn = flag(argc, argv, "--host-churn", 0) != 0;
  const long steps_at_exit = flag(argc, argv, "--steps-at-exit", 0);
  if (threads < 1) {
    std::fprintf(stderr, "steps_program: --threads must be at least 1\n");
    return 2;
  }
  if (steps_at_exit < 0 || steps_at_exit > p.steps || (steps_at_exit > 0 && (threads > 1 || host_churn))) {
    std::fprintf(stderr, "steps_program: --steps-at-exit must be within --steps, with one thread and no churn\n");
    return 2;
  }
  p.most = p.change_at > 0 ? 2 * p.elements : p.elements;

  p.k = test_program::open_test_kernels();
  const CUcontext context = p.k.context;
  check(cuStreamCreate(&p.side, CU_STREAM_NON_BLOCKING), "cuStreamCreate");

  check(retrying([&] { return cuMemAlloc(&p.weights, p.most * sizeof(float)); }), "weights");
  check(retrying([&] { return cuMemAlloc(&p.seed, p.most * sizeof(float)); }), "seed");
  check(retrying([&] { return cuMemAlloc(&p.captured, p.most * sizeof(float)); }), "captured");
  check(cuMemsetD32(p.weights, 0, p.most), "memset weights");
  check(cuMemsetD32(p.captured, 0, p.most), "memset captured");
  p.host.resize(p.most);

  {
    std::optional<HostChurn> churn;
    if (host_churn) churn.emplace(context);
    Relay relay(threads, context);
    for (long step = 1; step <= p.steps - steps_at_exit; ++step) p.step(relay, step);
  }
  if (steps_at_exit > 0) {
    g_program = &p;
    g_steps_at_exit = steps_at_exit;
    std::atexit(finish_at_exit);  // registered after tidepool's, so it runs before tidepool stops
    return 0;
  }
  p.finish();
  return 0;
}
