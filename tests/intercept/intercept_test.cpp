// libtidepool.so end to end on simcuda: allocations caught through linked symbols, dlsym and
// cuGetProcAddress (with and without the per-thread flag), launch parameters attributed to
// allocations (interior pointers, struct members, the `extra` buffer), a SIGKILLed program's
// trace, a trace written before an exec, the order of chained interposers, and the settings.
#include <cuda.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "analyzer/trace/format.h"
#include "traced_run.h"

namespace tidepool::testing {
namespace {

using trace::Access;

const trace::Alloc* alloc_of_size(const std::vector<trace::Alloc>& allocs, uint64_t size) {
  auto it = std::find_if(allocs.begin(), allocs.end(), [&](const trace::Alloc& a) { return a.size == size; });
  return it == allocs.end() ? nullptr : &*it;
}

class ReachedEveryWay : public ::testing::TestWithParam<std::string> {};

TEST_P(ReachedEveryWay, RecordsTheSameAllocationsFreesAndCopies) {
  const TracedRun run = run_traced({{TIDEPOOL_PROBE, GetParam()}});
  ASSERT_EQ(run.exit_status, 0);
  const trace::Trace t = only_trace(run);
  const auto allocs = records_of<trace::Alloc>(t);
  ASSERT_EQ(allocs.size(), 2u);
  const trace::Alloc* first = alloc_of_size(allocs, 1 << 20);
  const trace::Alloc* second = alloc_of_size(allocs, 2 << 20);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(first->kind, trace::AllocKind::device);
  EXPECT_NE(first->context, 0u);

  const auto frees = records_of<trace::Free>(t);
  ASSERT_EQ(frees.size(), 1u);
  EXPECT_EQ(frees[0].alloc_id, first->alloc_id);

  const auto copies = records_of<trace::Copy>(t);
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0].kind, trace::CopyKind::host_to_device);
  EXPECT_EQ(copies[0].dst, (trace::Range{second->alloc_id, 0, 64}));
  EXPECT_TRUE(copies[0].async);
  // Stream 0 of the per-thread variant is the per-thread default stream.
  const uint64_t expected_stream = GetParam() == "procaddress-ptds" ? 2 : 0;
  EXPECT_EQ(copies[0].stream, expected_stream);
}

INSTANTIATE_TEST_SUITE_P(Intercept, ReachedEveryWay,
                         ::testing::Values("linked", "dlsym", "procaddress", "procaddress-ptds"));

TEST(Intercept, LaunchParametersAreAttributedToAllocations) {
  const TracedRun run = run_traced({{TIDEPOOL_PROBE, "launch"}});
  ASSERT_EQ(run.exit_status, 0);
  const trace::Trace t = only_trace(run);
  const auto allocs = records_of<trace::Alloc>(t);
  const trace::Alloc* a = alloc_of_size(allocs, 4096);
  const trace::Alloc* b = alloc_of_size(allocs, 8192);
  const trace::Alloc* c = alloc_of_size(allocs, 12288);
  ASSERT_TRUE(a && b && c);
  const auto launches = records_of<trace::Launch>(t);
  ASSERT_EQ(launches.size(), 3u);

  EXPECT_EQ(t.string(launches[0].kernel_name_id), "simcuda_test_axpy");
  EXPECT_TRUE(launches[0].params_decoded);
  EXPECT_EQ(launches[0].accesses,
            (std::vector<Access>{{a->alloc_id, 256, true}, {b->alloc_id, 0, false}}));

  EXPECT_EQ(t.string(launches[1].kernel_name_id), "simcuda_test_pair");
  EXPECT_EQ(launches[1].accesses,
            (std::vector<Access>{{a->alloc_id, 0, false}, {c->alloc_id, 16, true}}));

  EXPECT_EQ(t.string(launches[2].kernel_name_id), "simcuda_test_fill");
  EXPECT_TRUE(launches[2].params_decoded);
  EXPECT_EQ(launches[2].accesses, (std::vector<Access>{{c->alloc_id, 4096, true}}));
  EXPECT_EQ(launches[2].block, (std::array<uint32_t, 3>{64, 1, 1}));

  // Each launch is timed with our events on simcuda's clock (3 us per launch at least).
  const auto timings = records_of<trace::DeviceTiming>(t);
  ASSERT_EQ(timings.size(), 3u);
  for (const auto& timing : timings) EXPECT_GE(timing.end_ns - timing.start_ns, 3000u);
}

// 2D and 3D copies record the exact byte ranges they span: from the first byte copied to the last,
// pitches and layer heights included.
TEST(Intercept, StridedCopiesRecordTheRangesTheySpan) {
  const TracedRun run = run_traced({{TIDEPOOL_PROBE, "strided"}});
  ASSERT_EQ(run.exit_status, 0);
  const trace::Trace t = only_trace(run);
  const auto allocs = records_of<trace::Alloc>(t);
  ASSERT_EQ(allocs.size(), 2u);
  const uint64_t d = allocs[0].alloc_id, e = allocs[1].alloc_id;
  const auto copies = records_of<trace::Copy>(t);
  ASSERT_EQ(copies.size(), 2u);

  EXPECT_EQ(copies[0].kind, trace::CopyKind::host_to_device);
  EXPECT_EQ(copies[0].dims, 2);
  EXPECT_EQ(copies[0].bytes, 500u);
  EXPECT_EQ(copies[0].src.alloc_id, 0u);  // pageable host memory: not an allocation
  EXPECT_EQ(copies[0].dst, (trace::Range{d, 2 * 1024 + 16, 4 * 1024 + 100}));

  EXPECT_EQ(copies[1].kind, trace::CopyKind::device_to_device);
  EXPECT_EQ(copies[1].dims, 3);
  EXPECT_EQ(copies[1].bytes, 64u * 3 * 2);
  EXPECT_EQ(copies[1].src, (trace::Range{d, (1 * 4 + 1) * 512 + 8, (1 * 4 + 2) * 512 + 64}));
  EXPECT_EQ(copies[1].dst, (trace::Range{e, 0, (1 * 3 + 2) * 256 + 64}));
}

// Under --optimize=pool, a buffer served from the arena is asked for its range: tidepool answers
// the buffer's own base and size (the driver would answer the arena's), and refuses to export it.
TEST(Intercept, QueriesOfServedBuffersAnswerTheirOwnRange) {
  const std::string scratch = ::testing::TempDir() + "tidepool-served-query-" + std::to_string(getpid());
  std::filesystem::create_directories(scratch);
  RunSpec spec{{TIDEPOOL_PROBE, "served-query"}};
  spec.env = {{"TIDEPOOL_OPTIMIZE", "pool"}, {"TIDEPOOL_PLAN_CACHE", scratch + "/plans"}, {"TIDEPOOL_STACKS", "0"}};
  spec.stderr_path = scratch + "/stderr";
  const TracedRun run = run_traced(spec);
  std::ifstream err_file(spec.stderr_path);
  const std::string err{std::istreambuf_iterator<char>(err_file), std::istreambuf_iterator<char>()};
  std::filesystem::remove_all(scratch);
  ASSERT_EQ(run.exit_status, 0) << err;
  const trace::Trace t = only_trace(run);
  const auto queries = records_of<trace::AddressQuery>(t);
  ASSERT_EQ(queries.size(), 5u);  // four range questions and the export
  const uint64_t queried = queries[0].alloc_id;
  const auto hits = records_of<trace::PoolHit>(t);
  ASSERT_TRUE(std::ranges::any_of(hits, [&](const trace::PoolHit& h) { return h.alloc_id == queried; }))
      << "the queried buffer was not served from the plan; the plan came too late";
  EXPECT_NE(err.find("export: " + std::to_string(CUDA_ERROR_NOT_SUPPORTED)), std::string::npos) << err;
  EXPECT_NE(err.find("tidepool: cuIpcGetMemHandle on a buffer that --optimize placed"), std::string::npos) << err;
}

TEST(Intercept, SigkilledProgramLeavesAReadableTrace) {
  RunSpec spec{{TIDEPOOL_PROBE, "hang"}};
  spec.kill_after_line = "ready";
  spec.kill_after_ms = 1000;  // the writer flushes at least every 200 ms
  const TracedRun run = run_traced(spec);
  EXPECT_EQ(run.exit_status, 128 + 9);
  const trace::Trace t = only_trace(run);
  const auto allocs = records_of<trace::Alloc>(t);
  ASSERT_EQ(allocs.size(), 1u);
  EXPECT_EQ(allocs[0].size, 1u << 20);
}

// The chained interposer adds 256 bytes to each request: what tidepool records tells which ran first.
TEST(Intercept, ChainedInterposersRunInPreloadOrder) {
  RunSpec before{{TIDEPOOL_PROBE, "chain"}};
  before.preload = std::string(TIDEPOOL_CHAIN_INTERPOSER) + " " + TIDEPOOL_PRELOAD;
  const TracedRun run_before = run_traced(before);
  ASSERT_EQ(run_before.exit_status, 0);
  const auto allocs_before = records_of<trace::Alloc>(only_trace(run_before));
  ASSERT_EQ(allocs_before.size(), 1u);
  EXPECT_EQ(allocs_before[0].size, 1256u);

  RunSpec after{{TIDEPOOL_PROBE, "chain"}};
  after.preload = std::string(TIDEPOOL_PRELOAD) + " " + TIDEPOOL_CHAIN_INTERPOSER;
  const TracedRun run_after = run_traced(after);
  ASSERT_EQ(run_after.exit_status, 0);
  const trace::Trace t = only_trace(run_after);
  const auto allocs_after = records_of<trace::Alloc>(t);
  ASSERT_EQ(allocs_after.size(), 1u);
  EXPECT_EQ(allocs_after[0].size, 1000u);
  EXPECT_EQ(records_of<trace::Free>(t).size(), 1u);
}

TEST(Intercept, StacksAreRecordedUnlessTurnedOff) {
  const trace::Trace with = only_trace(run_traced({{TIDEPOOL_PROBE, "chain"}}));
  const auto allocs = records_of<trace::Alloc>(with);
  ASSERT_EQ(allocs.size(), 1u);
  ASSERT_NE(allocs[0].stack_id, 0u);
  EXPECT_FALSE(with.stack(allocs[0].stack_id).empty());

  RunSpec spec{{TIDEPOOL_PROBE, "chain"}};
  spec.env = {{"TIDEPOOL_STACKS", "0"}};
  const auto without = records_of<trace::Alloc>(only_trace(run_traced(spec)));
  ASSERT_EQ(without.size(), 1u);
  EXPECT_EQ(without[0].stack_id, 0u);
}

TEST(Intercept, TraceNameAndHeaderCarryProgramPidAndRank) {
  RunSpec spec{{TIDEPOOL_PROBE, "chain"}};
  spec.env = {{"RANK", "3"}};
  const TracedRun run = run_traced(spec);
  ASSERT_EQ(run.traces.size(), 1u);
  const std::string name = std::filesystem::path(run.traces[0]).filename().string();
  const trace::Trace t = only_trace(run);
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  EXPECT_EQ(name, "tidepool_intercept_probe." + std::string(host) + "." + std::to_string(t.header.pid) + ".3.tpt");
  EXPECT_EQ(t.header.rank, 3);
  EXPECT_EQ(t.header.program, "tidepool_intercept_probe");
  EXPECT_EQ(t.header.driver_version, 13000);
  EXPECT_FALSE(t.truncated);
}

// Events recorded just before an exec are written before the process image goes.
TEST(Intercept, ExecLosesNothing) {
  const TracedRun run = run_traced({{TIDEPOOL_PROBE, "exec"}});
  ASSERT_EQ(run.exit_status, 0);
  const auto allocs = records_of<trace::Alloc>(only_trace(run));
  ASSERT_EQ(allocs.size(), 1u);
  EXPECT_EQ(allocs[0].size, 1u << 20);
}

// A child forked by a recording process records nothing, and neither process breaks.
TEST(Intercept, ForkedChildOfARecordingProcessStaysQuiet) {
  const TracedRun run = run_traced({{TIDEPOOL_PROBE, "fork"}});
  ASSERT_EQ(run.exit_status, 0);
  const auto allocs = records_of<trace::Alloc>(only_trace(run));
  ASSERT_EQ(allocs.size(), 2u);
  EXPECT_EQ(allocs[0].size, 1u << 20);
  EXPECT_EQ(allocs[1].size, 2u << 20);
}

TEST(Intercept, DisabledLeavesNoTrace) {
  RunSpec spec{{TIDEPOOL_PROBE, "linked"}};
  spec.env = {{"TIDEPOOL_DISABLE", "1"}};
  const TracedRun run = run_traced(spec);
  EXPECT_EQ(run.exit_status, 0);
  EXPECT_TRUE(run.traces.empty());
  std::filesystem::remove_all(run.output_dir);
}

}  // namespace
}  // namespace tidepool::testing
