// A training-like program drawn from a seed, for the optimizer's end-to-end tests: each step runs
// the same body of driver calls (allocations, synchronous and stream-ordered, of 0.5-3 MiB; fills,
// axpys, device-to-device copies and memsets among the live buffers; copies back to the host;
// frees), on a few persistent buffers and up to six temporaries, all drawn from the seed. With
// --stray-every K, every K-th step runs a second body instead (a phase the plan does not know).
// Flags: --seed S, --steps N, --sleep-us N (real time per step, so that background planning keeps
// up), --stray-every K, --threads N (the calls are made by N threads in turn, one at a time and in
// the same order: the same events, from several threads, reach the trace in their own chunks).
// A third of the copies are of 0 bytes. An allocation answered CUDA_ERROR_OUT_OF_MEMORY is made
// again (up to 1000 times), as a program that waits for memory would; the count goes to stderr.
// Prints "checksum: <16 hex digits>" over every copy back and the persistent buffers at the end.
#include <cuda.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>

#include "tests/optimize/test_program.h"

namespace {

using test_program::check;
using test_program::flag;

constexpr int kPersistent = 2;
constexpr int kTemporaries = 6;
constexpr int kSlots = kPersistent + kTemporaries;

enum class Kind { alloc, alloc_async, free, free_async, fill, axpy, copy, memset, read_back };

struct Op {
  Kind kind;
  int slot = 0;           // the buffer written (or allocated, freed, read back)
  int other = 0;          // the buffer read (axpy, copy)
  unsigned elements = 0;  // of an allocation
  float value = 0;        // fill value, axpy factor
  bool empty = false;     // a copy of 0 bytes (valid, and some programs make them)
};

// A body of operations over the slots: every temporary allocated in it is freed by its end, and
// each operation uses only live buffers.
std::vector<Op> draw_body(std::mt19937_64& random) {
  constexpr std::array<unsigned, 4> kElements = {1u << 17, 1u << 18, 1u << 19, 3u << 18};
  std::vector<Op> body;
  std::array<bool, kSlots> live{};
  std::array<bool, kSlots> async{};
  for (int s = 0; s < kPersistent; ++s) live[s] = true;
  const auto live_slot = [&] {
    for (;;) {
      const int s = static_cast<int>(random() % kSlots);
      if (live[s]) return s;
    }
  };
  const int length = 12 + static_cast<int>(random() % 30);
  for (int k = 0; k < length; ++k) {
    const uint64_t roll = random() % 12;
    if (roll < 3) {
      const int s = kPersistent + static_cast<int>(random() % kTemporaries);
      if (live[s]) continue;
      live[s] = true;
      async[s] = random() % 3 == 0;
      body.push_back({async[s] ? Kind::alloc_async : Kind::alloc, s, 0,
                      kElements[random() % kElements.size()]});
      body.push_back(
          {Kind::fill, s, 0, 0, static_cast<float>(random() % 9) * 0.5f});  // never read unwritten
    } else if (roll < 5) {
      const int s = kPersistent + static_cast<int>(random() % kTemporaries);
      if (!live[s]) continue;
      live[s] = false;
      body.push_back({async[s] ? Kind::free_async : Kind::free, s});
    } else if (roll < 7) {
      body.push_back(
          {Kind::axpy, live_slot(), live_slot(), 0, 0.25f * static_cast<float>(1 + random() % 4)});
    } else if (roll < 8) {
      body.push_back({Kind::fill, live_slot(), 0, 0, static_cast<float>(random() % 9)});
    } else if (roll < 9) {
      body.push_back({.kind = Kind::copy, .slot = live_slot(), .other = live_slot(), .empty = random() % 3 == 0});
    } else if (roll < 10) {
      body.push_back({Kind::memset, live_slot()});
    } else {
      body.push_back({Kind::read_back, live_slot()});
    }
  }
  for (int s = kPersistent; s < kSlots; ++s) {
    if (live[s]) body.push_back({async[s] ? Kind::free_async : Kind::free, s});
  }
  return body;
}

struct Program {
  test_program::TestKernels k;
  std::array<CUdeviceptr, kSlots> buffer{};
  std::array<unsigned, kSlots> elements{};
  std::vector<float> host;
  test_program::Checksum checksum;

  void run(const Op& op) {
    const unsigned n = std::min(elements[op.slot], elements[op.other]);
    switch (op.kind) {
      case Kind::alloc:
        elements[op.slot] = op.elements;
        check(test_program::retrying(
                  [&] { return cuMemAlloc(&buffer[op.slot], op.elements * sizeof(float)); }),
              "cuMemAlloc");
        break;
      case Kind::alloc_async:
        elements[op.slot] = op.elements;
        check(test_program::retrying([&] {
                return cuMemAllocAsync(&buffer[op.slot], op.elements * sizeof(float), nullptr);
              }),
              "cuMemAllocAsync");
        break;
      case Kind::free:
        check(cuMemFree(buffer[op.slot]), "cuMemFree");
        break;
      case Kind::free_async:
        check(cuMemFreeAsync(buffer[op.slot], nullptr), "cuMemFreeAsync");
        break;
      case Kind::fill:
        test_program::fill(k, nullptr, buffer[op.slot], op.value, elements[op.slot]);
        break;
      case Kind::axpy:
        test_program::axpy(k, op.value, buffer[op.other], buffer[op.slot], n);
        break;
      case Kind::copy:
        if (op.slot != op.other || op.empty)
          check(cuMemcpyDtoD(buffer[op.slot], buffer[op.other], op.empty ? 0 : n * sizeof(float)), "copy");
        break;
      case Kind::memset:
        check(cuMemsetD32(buffer[op.slot], 0x3f800000u, elements[op.slot] / 2),
              "memset");  // 1.0f, first half
        break;
      case Kind::read_back:
        check(cuMemcpyDtoH(host.data(), buffer[op.slot], elements[op.slot] * sizeof(float)),
              "copy back");
        checksum.add(host.data(), elements[op.slot] * sizeof(float));
        break;
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  test_program::program_name = "random_program";
  const long seed = flag(argc, argv, "--seed", 1);
  const long steps = flag(argc, argv, "--steps", 24);
  const long sleep_us = flag(argc, argv, "--sleep-us", 0);
  const long stray_every = flag(argc, argv, "--stray-every", 0);
  const long threads = flag(argc, argv, "--threads", 1);
  if (threads < 1) {
    std::fprintf(stderr, "random_program: --threads must be at least 1\n");
    return 2;
  }
  std::mt19937_64 random(static_cast<uint64_t>(seed));
  const std::vector<Op> body = draw_body(random);
  const std::vector<Op> stray = draw_body(random);

  Program p;
  p.k = test_program::open_test_kernels();
  p.host.resize(3u << 18);
  for (int s = 0; s < kPersistent; ++s) {
    p.elements[s] = 1u << 19;
    check(test_program::retrying(
              [&] { return cuMemAlloc(&p.buffer[s], p.elements[s] * sizeof(float)); }),
          "persistent");
    test_program::fill(p.k, nullptr, p.buffer[s], static_cast<float>(s + 1), p.elements[s]);
  }
  {
    test_program::Relay relay(threads, p.k.context);
    for (long step = 1; step <= steps; ++step) {
      const bool strays = stray_every > 0 && step % stray_every == 0;
      for (const Op& op : strays ? stray : body) relay.run([&] { p.run(op); });
      if (sleep_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
    }
  }
  for (int s = 0; s < kPersistent; ++s) {
    p.run({Kind::read_back, s});
    check(cuMemFree(p.buffer[s]), "free persistent");
  }
  p.checksum.print();
  if (test_program::out_of_memory_answers > 0)
    std::fprintf(stderr, "random_program: %d allocations answered out of memory, made again\n",
                 test_program::out_of_memory_answers);
  return 0;
}
