// The synthetic trace: labelled synthetic, one NVTX range per iteration, persistent tensors
// allocated once, every other tensor allocated before its first use and freed right after its
// last one, and a device timing for every operation.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <unordered_map>
#include <unordered_set>
#include <variant>

#include "analyzer/synth/networks.h"
#include "analyzer/synth/trace_output.h"
#include "analyzer/trace/reader.h"

namespace tidepool::synth {
namespace {

trace::Trace written(const Program& program, int iterations) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("tidepool-synth-test-" + std::to_string(::getpid()) + ".tpt");
  write_trace(program, iterations, "synth test", path);
  trace::Trace t = trace::read_trace(path);
  std::filesystem::remove(path);
  return t;
}

TEST(SynthTrace, IsLabelledAndHasOneRangePerIteration) {
  const Program p = build_network({"resnet50", 2, 0, {parse_gpu("h200")}});
  const trace::Trace t = written(p, 3);
  EXPECT_TRUE(t.header.synthetic);
  EXPECT_EQ(t.header.source, "synth test");
  int pushes = 0, launches = 0, timings = 0;
  for (const trace::Event& e : t.events) {
    if (const auto* r = std::get_if<trace::RangePush>(&e.record)) pushes += t.string(r->name_id) == kIterationRange;
    launches += std::holds_alternative<trace::Launch>(e.record) || std::holds_alternative<trace::Copy>(e.record);
    timings += std::holds_alternative<trace::DeviceTiming>(e.record);
  }
  EXPECT_EQ(pushes, 3);
  EXPECT_EQ(launches, 3 * static_cast<int>(p.steps.size()));
  EXPECT_EQ(timings, launches);
}

TEST(SynthTrace, TensorsAreFreedRightAfterTheirLastUse) {
  const Program p = build_network({"gpt2-xl", 1, 32, {parse_gpu("h200")}});
  const trace::Trace t = written(p, 2);
  std::unordered_map<std::uint64_t, std::size_t> last_use;  // alloc id -> event index
  std::unordered_set<std::uint64_t> live, persistent;
  bool inside = false;
  std::size_t frees = 0;
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    const trace::Record& r = t.events[i].record;
    inside = inside || std::holds_alternative<trace::RangePush>(r);
    if (const auto* a = std::get_if<trace::Alloc>(&r)) {
      live.insert(a->alloc_id);
      if (!inside) persistent.insert(a->alloc_id);  // weights and optimizer state: freed at exit
    }
    if (const auto* l = std::get_if<trace::Launch>(&r))
      for (const auto& access : l->accesses) {
        ASSERT_TRUE(live.contains(access.alloc_id)) << "use of a freed or unknown tensor";
        last_use[access.alloc_id] = i;
      }
    if (const auto* c = std::get_if<trace::Copy>(&r))
      for (std::uint64_t id : {c->src.alloc_id, c->dst.alloc_id})
        if (id) last_use[id] = i;
    if (const auto* f = std::get_if<trace::Free>(&r)) {
      ASSERT_TRUE(live.erase(f->alloc_id));
      if (persistent.contains(f->alloc_id)) continue;
      // Only other frees and timings between the last use and the free.
      for (std::size_t j = last_use[f->alloc_id] + 1; j < i; ++j)
        ASSERT_TRUE(std::holds_alternative<trace::Free>(t.events[j].record) ||
                    std::holds_alternative<trace::DeviceTiming>(t.events[j].record))
            << "event " << j << " between the last use (" << last_use[f->alloc_id] << ") and the free (" << i << ")";
      ++frees;
    }
  }
  EXPECT_TRUE(live.empty());
  std::size_t transient = 0;
  for (const Tensor& tensor : p.tensors) transient += !is_persistent(tensor.role);
  EXPECT_EQ(frees, 2 * transient);  // every one of them, in each of the two iterations
}

TEST(SynthTrace, AnUnwritablePathIsAClearError) {
  const Program p = build_network({"resnet50", 1, 0, {parse_gpu("h200")}});
  EXPECT_THROW(write_trace(p, 1, "", "/nonexistent-dir/x.tpt"), std::runtime_error);
  EXPECT_THROW(write_trace(p, 0, "", "/tmp/x.tpt"), std::invalid_argument);
}

}  // namespace
}  // namespace tidepool::synth
