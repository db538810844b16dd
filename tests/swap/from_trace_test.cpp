// Trace -> swap model: ops in issue order with streams and event dependencies, durations from
// device timings, buffers with lifetimes and exact copy directions, persistent and never-swapped
// buffers (indirect, queried, undecoded, accessed differently across iterations), engines and host
// waits, durations of untimed ops, and NVTX iteration windows; the same models from a file read in
// order.
#include "analyzer/swap/from_trace.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "analyzer/swap/model.h"
#include "analyzer/trace/save.h"
#include "tests/support/files.h"

namespace tidepool::swap {
namespace {

constexpr std::uint64_t kMiB = 1 << 20;

class TraceBuilder {
 public:
  TraceBuilder() { trace.strings = {{1, "iteration"}, {2, "gemm"}}; }
  template <class Record>
  void add(Record r) {
    trace.events.push_back({trace.events.size() + 1, 0, 1, trace::Record(std::move(r))});
  }
  void alloc(std::uint64_t id, std::uint64_t size) { add(trace::Alloc{.alloc_id = id, .size = size}); }
  void launch(std::uint64_t op, std::uint64_t stream, std::vector<std::uint64_t> ids, bool decoded = true) {
    trace::Launch l{.op_id = op, .kernel_name_id = 2, .stream = stream, .params_decoded = decoded};
    for (auto id : ids) l.accesses.push_back({id, 0, false});
    add(l);
  }
  void copy(std::uint64_t op, trace::CopyKind kind, std::uint64_t src, std::uint64_t dst) {
    add(trace::Copy{.op_id = op, .kind = kind, .src = {src, 0, kMiB}, .dst = {dst, 0, kMiB}, .bytes = kMiB});
  }
  void timing(std::uint64_t op, std::uint64_t ns) { add(trace::DeviceTiming{op, 1000, 1000 + ns}); }
  trace::Trace trace;
};

TraceBuilder one_iteration() {
  TraceBuilder t;
  t.alloc(1, 8 * kMiB);                              // weights: before the iteration, never freed
  t.alloc(3, 2 * kMiB);
  t.add(trace::IndirectRef{3, 0});                   // reached through a stored pointer
  t.add(trace::RangePush{1});                        // event 3
  t.alloc(2, 4 * kMiB);
  t.copy(1, trace::CopyKind::host_to_device, 0, 2);  // op 0
  t.launch(2, 7, {1, 2, 3});                         // op 1
  t.add(trace::EventRecord{.event = 9, .stream = 7});
  t.add(trace::StreamWaitEvent{.stream = 8, .event = 9});
  t.launch(3, 8, {2});                               // op 2, waits for op 1
  t.copy(4, trace::CopyKind::device_to_host, 2, 0);  // op 3
  t.add(trace::Free{.alloc_id = 2});
  t.add(trace::RangePop{});
  t.timing(1, 5000);
  t.timing(2, 1'000'000);
  t.timing(3, 2'000'000);
  return t;
}

TEST(ModelFromTrace, OpsStreamsDependenciesAndDurations) {
  const TraceBuilder t = one_iteration();
  const auto windows = nvtx_iterations(t.trace, "iteration");
  ASSERT_EQ(windows.size(), 1u);
  const Model m = model_from_trace(t.trace, windows[0]);
  ASSERT_EQ(m.ops.size(), 4u);
  EXPECT_EQ(m.ops[0].kind, OpKind::copy);
  EXPECT_EQ(m.ops[1].stream, 1u);
  EXPECT_EQ(m.ops[2].stream, 2u);
  EXPECT_EQ(m.ops[2].after, std::vector<std::uint32_t>{1});
  EXPECT_DOUBLE_EQ(m.ops[1].seconds, 1e-3);
  EXPECT_DOUBLE_EQ(m.ops[2].seconds, 2e-3);
  EXPECT_TRUE(m.durations_estimated);  // op 4 has no timing
}

TEST(ModelFromTrace, BuffersLifetimesAndAccesses) {
  const TraceBuilder t = one_iteration();
  const Model m = model_from_trace(t.trace, nvtx_iterations(t.trace, "iteration")[0]);
  ASSERT_EQ(m.buffers.size(), 3u);
  const Buffer& weights = m.buffers[0];
  EXPECT_TRUE(weights.persistent);
  EXPECT_FALSE(weights.never_swapped);
  ASSERT_EQ(weights.accesses.size(), 1u);
  EXPECT_TRUE(weights.accesses[0].by_kernel);
  const Buffer& activation = m.buffers[1];
  EXPECT_EQ(activation.trace_alloc_id, 2u);
  EXPECT_FALSE(activation.persistent);
  EXPECT_EQ(activation.begin, 0u);
  EXPECT_EQ(activation.end, 4u);
  ASSERT_EQ(activation.accesses.size(), 4u);
  EXPECT_TRUE(activation.accesses[0].write);       // written by the host-to-device copy
  EXPECT_FALSE(activation.accesses[0].by_kernel);
  EXPECT_FALSE(activation.accesses[3].write);      // read by the device-to-host copy
  EXPECT_FALSE(activation.accesses[3].by_kernel);
  EXPECT_TRUE(m.buffers[2].never_swapped);
}

TEST(ModelFromTrace, ALaunchWithUndecodedParametersPinsEveryLiveBuffer) {
  TraceBuilder t;
  t.alloc(1, kMiB);
  t.add(trace::RangePush{1});
  t.alloc(2, kMiB);
  t.launch(1, 0, {2}, false);
  t.add(trace::Free{.alloc_id = 2});
  t.alloc(3, kMiB);
  t.launch(2, 0, {3});
  t.add(trace::RangePop{});
  const Model m = model_from_trace(t.trace, nvtx_iterations(t.trace, "iteration")[0]);
  ASSERT_EQ(m.buffers.size(), 3u);
  EXPECT_TRUE(m.buffers[0].never_swapped);
  EXPECT_TRUE(m.buffers[1].never_swapped);
  EXPECT_FALSE(m.buffers[2].never_swapped);  // allocated after that launch
}

TEST(ModelFromTrace, ABufferWhoseAddressWasQueriedOrExportedIsNeverSwapped) {
  TraceBuilder t;
  t.alloc(1, kMiB);
  t.alloc(2, kMiB);
  t.alloc(3, kMiB);
  t.add(trace::RangePush{1});
  t.launch(1, 0, {1, 2, 3});
  t.add(trace::RangePop{});
  t.add(trace::AddressQuery{1, trace::QueryKind::get_address_range});
  t.add(trace::AddressQuery{2, trace::QueryKind::ipc_handle});  // after the iteration: still "ever"
  const Model m = model_from_trace(t.trace, nvtx_iterations(t.trace, "iteration")[0]);
  ASSERT_EQ(m.buffers.size(), 3u);
  EXPECT_TRUE(m.buffers[0].never_swapped);
  EXPECT_TRUE(m.buffers[1].never_swapped);
  EXPECT_FALSE(m.buffers[2].never_swapped);
}

// A zero-byte allocation (a driver may return one for a zero-byte request) holds no memory: it is
// no buffer, where it made the model invalid ("buffer 1: size 0") and every swap plan fail.
TEST(ModelFromTrace, AZeroByteAllocationIsNoBuffer) {
  TraceBuilder t;
  t.alloc(1, kMiB);
  t.add(trace::RangePush{1});
  t.alloc(2, 0);
  t.alloc(3, kMiB);
  t.launch(1, 0, {1, 2, 3});
  t.add(trace::Free{.alloc_id = 2});
  t.add(trace::RangePop{});
  const Model m = model_from_trace(t.trace, nvtx_iterations(t.trace, "iteration")[0]);
  ASSERT_EQ(m.buffers.size(), 2u);
  EXPECT_EQ(m.buffers[0].trace_alloc_id, 1u);
  EXPECT_EQ(m.buffers[1].trace_alloc_id, 3u);
  EXPECT_NO_THROW(validate(m));
}

// The swap facts number operations by a kind hashed from their shape, where 0 meant "no
// operation": a 0-byte device-to-device copy hashed to 0, so the facts did not count it while the
// model's ops did, every later access was numbered one op early, and the model read past the end of
// the facts' durations (found under ASan by random traces, session 49).
TEST(ModelFromTrace, AZeroByteDeviceToDeviceCopyIsAnOperationToo) {
  TraceBuilder t;
  t.alloc(1, kMiB);
  t.alloc(2, kMiB);
  t.add(trace::RangePush{1});
  t.add(trace::Copy{
      .op_id = 1, .kind = trace::CopyKind::device_to_device, .src = {1, 0, 0}, .dst = {2, 0, 0}});
  t.launch(2, 0, {2});
  t.add(trace::RangePop{});
  const Model m = model_from_trace(t.trace, nvtx_iterations(t.trace, "iteration")[0]);
  ASSERT_EQ(m.ops.size(), 2u);
  EXPECT_EQ(m.ops[0].kind, OpKind::copy);
  ASSERT_EQ(m.buffers.size(), 2u);
  ASSERT_EQ(m.buffers[1].accesses.size(), 2u);
  EXPECT_EQ(m.buffers[1].accesses[0].op, 0u);  // written by the copy
  EXPECT_EQ(m.buffers[1].accesses[1].op, 1u);  // read by the launch
}

TEST(ModelFromTrace, AnUndecodedLaunchOutsideTheIterationPinsWhatWasLiveAtIt) {
  TraceBuilder t;
  t.alloc(1, kMiB);
  t.launch(1, 0, {1}, false);  // before the iteration
  t.alloc(2, kMiB);
  t.add(trace::RangePush{1});
  t.launch(2, 0, {1, 2});
  t.add(trace::RangePop{});
  const Model m = model_from_trace(t.trace, nvtx_iterations(t.trace, "iteration")[0]);
  ASSERT_EQ(m.buffers.size(), 2u);
  EXPECT_TRUE(m.buffers[0].never_swapped);
  EXPECT_FALSE(m.buffers[1].never_swapped);  // allocated after it
}

// Three iterations: persistent weights W, and per iteration an activation allocated and freed.
// In the second iteration W is used by one more launch than in the others, and the activation
// of the third is copied out instead of used by a kernel.
TraceBuilder three_iterations() {
  TraceBuilder t;
  t.alloc(1, kMiB);  // W
  t.alloc(2, kMiB);  // V: persistent, accessed alike every time
  std::uint64_t op = 1, id = 10;
  for (int i = 0; i < 3; ++i, ++id) {
    t.add(trace::RangePush{1});
    t.alloc(id, 4 * kMiB);
    t.launch(op++, 0, {1, 2, id});
    t.launch(op++, 0, i == 1 ? std::vector<std::uint64_t>{1} : std::vector<std::uint64_t>{});
    if (i == 2) t.copy(op++, trace::CopyKind::device_to_host, id, 0);
    else t.launch(op++, 0, {id});
    t.add(trace::Free{.alloc_id = id});
    t.add(trace::RangePop{});
  }
  return t;
}

TEST(ModelFromTrace, OnlyBuffersAccessedAlikeInEveryRecordedIterationMayBeSwapped) {
  const TraceBuilder t = three_iterations();
  const auto windows = nvtx_iterations(t.trace, "iteration");
  ASSERT_EQ(windows.size(), 3u);
  const Model alone = model_from_trace(t.trace, windows[0]);
  for (const Buffer& b : alone.buffers) EXPECT_FALSE(b.never_swapped);
  const Model m = model_from_trace(t.trace, windows[0], windows);
  ASSERT_EQ(m.buffers.size(), 3u);
  EXPECT_TRUE(m.buffers[0].never_swapped);   // W: one more access in the second iteration
  EXPECT_FALSE(m.buffers[1].never_swapped);  // V: the same accesses every time
  EXPECT_TRUE(m.buffers[2].never_swapped);   // the activation: a copy instead of a kernel in the third
  const Model first_two = model_from_trace(t.trace, windows[0], std::span(windows).first(1));
  EXPECT_FALSE(first_two.buffers[2].never_swapped);  // compared with itself only
}

TEST(ModelFromTrace, ABufferMadeInAnEarlierIterationAndFreedInThisOneIsNeverSwapped) {
  TraceBuilder t;
  t.add(trace::RangePush{1});
  t.alloc(1, kMiB);
  t.launch(1, 0, {1});
  t.add(trace::RangePop{});
  t.add(trace::RangePush{1});
  t.launch(2, 0, {1});
  t.add(trace::Free{.alloc_id = 1});
  t.launch(3, 0, {});
  t.add(trace::RangePop{});
  const Model m = model_from_trace(t.trace, nvtx_iterations(t.trace, "iteration")[1]);
  ASSERT_EQ(m.buffers.size(), 1u);
  EXPECT_FALSE(m.buffers[0].persistent);
  EXPECT_TRUE(m.buffers[0].never_swapped);
}

TEST(ModelFromTrace, EnginesAndHostWaits) {
  TraceBuilder t;
  t.alloc(1, kMiB);
  t.add(trace::RangePush{1});
  t.copy(1, trace::CopyKind::host_to_device, 0, 1);  // synchronous (async = false)
  t.launch(2, 0, {1});
  t.add(trace::Copy{.op_id = 3, .kind = trace::CopyKind::device_to_host, .src = {1, 0, kMiB}, .dst = {0, 0, kMiB},
                    .bytes = kMiB, .stream = 0, .async = true});
  t.add(trace::StreamSynchronize{.stream = 0});
  t.launch(4, 0, {1});
  t.add(trace::RangePop{});
  const Model m = model_from_trace(t.trace, nvtx_iterations(t.trace, "iteration")[0]);
  ASSERT_EQ(m.ops.size(), 4u);
  EXPECT_EQ(m.ops[0].engine, Engine::host_to_device);
  EXPECT_EQ(m.ops[1].engine, Engine::compute);
  EXPECT_EQ(m.ops[2].engine, Engine::device_to_host);
  EXPECT_EQ(m.ops[1].host_waits, std::vector<std::uint32_t>{0});  // after the synchronous upload
  EXPECT_TRUE(m.ops[2].host_waits.empty());
  EXPECT_EQ(m.ops[3].host_waits, std::vector<std::uint32_t>{2});  // after the stream's synchronization
}

// A unified copy's direction comes from which side is device memory, also for allocations freed
// (or made) before or after the window: the facts know every device allocation the trace made.
TEST(ModelFromTrace, UnifiedCopiesTakeTheirDirectionFromDeviceAllocations) {
  TraceBuilder t;
  t.alloc(1, kMiB);  // freed after the window
  t.add(trace::Alloc{.alloc_id = 5, .kind = trace::AllocKind::host_pinned, .size = kMiB});
  t.add(trace::RangePush{1});
  t.copy(1, trace::CopyKind::unified, 1, 5);
  t.copy(2, trace::CopyKind::unified, 5, 1);
  t.copy(3, trace::CopyKind::unified, 1, 1);
  t.add(trace::RangePop{});
  t.add(trace::Free{.alloc_id = 1});
  t.alloc(6, kMiB);  // made after it
  const Model m = model_from_trace(t.trace, nvtx_iterations(t.trace, "iteration")[0]);
  ASSERT_EQ(m.ops.size(), 3u);
  EXPECT_EQ(m.ops[0].engine, Engine::device_to_host);
  EXPECT_EQ(m.ops[1].engine, Engine::host_to_device);
  EXPECT_EQ(m.ops[2].engine, Engine::compute);
}

TEST(ModelFromTrace, AnUntimedOpTakesTheTimeOfItsKind) {
  TraceBuilder t;
  t.alloc(1, kMiB);
  t.add(trace::RangePush{1});
  t.launch(1, 0, {1});
  t.launch(2, 0, {1});  // the same kernel, grid and block: untimed
  t.add(trace::RangePop{});
  t.timing(1, 3000);
  const Model m = model_from_trace(t.trace, nvtx_iterations(t.trace, "iteration")[0]);
  EXPECT_FALSE(m.durations_estimated);
  EXPECT_DOUBLE_EQ(m.ops[1].seconds, 3e-6);
}

TEST(ModelFromTrace, IterationWindowsFollowTheNamedRange) {
  TraceBuilder t;
  for (int i = 0; i < 3; ++i) {
    t.add(trace::RangePush{1});
    t.add(trace::RangePush{2});  // nested, another name
    t.add(trace::RangePop{});
    t.launch(i + 1, 0, {});
    t.add(trace::RangePop{});
  }
  const auto windows = nvtx_iterations(t.trace, "iteration");
  ASSERT_EQ(windows.size(), 3u);
  EXPECT_EQ(windows[0].begin, 0u);
  EXPECT_EQ(windows[0].end, 5u);
  EXPECT_EQ(windows[2].end, 15u);
  EXPECT_TRUE(nvtx_iterations(t.trace, "step").empty());
}

TEST(ModelFromTrace, BadWindowsAreRejected) {
  const TraceBuilder t = one_iteration();
  EXPECT_THROW(model_from_trace(t.trace, {5, 5}), std::invalid_argument);
  EXPECT_THROW(model_from_trace(t.trace, {0, 1000}), std::invalid_argument);
  EXPECT_THROW(model_from_trace(t.trace, {0, 3}), std::invalid_argument);  // no operation in it
}

// A file read in order gives the models the trace in memory gives, every iteration against the
// others, though the file holds the events in reverse.
TEST(ModelFromTrace, AFileReadInOrderGivesTheSameModels) {
  TraceBuilder t = three_iterations();
  t.add(trace::AddressQuery{.alloc_id = 1});
  const auto windows = nvtx_iterations(t.trace, "iteration");
  ASSERT_EQ(windows.size(), 3u);
  trace::Trace reversed = t.trace;
  std::reverse(reversed.events.begin(), reversed.events.end());
  test_support::TempDir dir("tidepool-swap-model-file");
  trace::save_trace(reversed, dir.path() / "t.tpt");
  const trace::InOrderReader reader(dir.path() / "t.tpt");
  for (const TraceWindow& w : windows) {
    EXPECT_EQ(model_from_trace(reader, w, windows), model_from_trace(t.trace, w, windows));
    EXPECT_EQ(model_from_trace(reader, w), model_from_trace(t.trace, w));
  }
  EXPECT_THROW(model_from_trace(reader, {5, 5}), std::invalid_argument);
  EXPECT_THROW(model_from_trace(reader, {0, t.trace.events.size() + 1}), std::invalid_argument);
}

}  // namespace
}  // namespace tidepool::swap
