// The text form of records (what `tidepool dump` prints).
#include <gtest/gtest.h>

#include "analyzer/trace/text.h"

namespace tidepool::trace {
namespace {

TEST(TraceText, AllocLine) {
  Trace trace;
  const Event e{.seq = 12, .time_ns = 1503, .thread = 77,
                .record = Alloc{.alloc_id = 3, .kind = AllocKind::device_pitched,
                                .address = 0x7f0000000000, .size = 4096, .device = 1,
                                .context = 0xabc, .stack_id = 2}};
  EXPECT_EQ(to_text(trace, e),
            "#12 t=1503ns tid=77 alloc alloc_id=3 kind=device_pitched address=0x7f0000000000 "
            "size=4096 stream=0x0 pool=0x0 handle=0x0 device=1 context=0xabc stack_id=2 captured=0");
}

TEST(TraceText, LaunchLineNamesTheKernel) {
  Trace trace;
  trace.strings[5] = "sgemm \"nt\"";
  Launch launch{.op_id = 9, .kernel_name_id = 5, .function = 0x10, .stream = 0x20,
                .grid = {4, 2, 1}, .block = {256, 1, 1}, .params_decoded = true};
  launch.accesses = {{.alloc_id = 3, .offset = 0}, {.alloc_id = 4, .offset = 64, .interior = true}};
  const Event e{.seq = 1, .time_ns = 2, .thread = 3, .record = launch};
  EXPECT_EQ(to_text(trace, e),
            "#1 t=2ns tid=3 launch op_id=9 kernel_name_id=5(\"sgemm \\\"nt\\\"\") function=0x10 "
            "stream=0x20 grid=4,2,1 block=256,1,1 shared_bytes=0 captured=0 params_decoded=1 "
            "accesses=[{alloc_id=3 offset=0 interior=0} {alloc_id=4 offset=64 interior=1}]");
}

TEST(TraceText, HostRangesShowTheirAddress) {
  Trace trace;
  const Event e{.seq = 1, .time_ns = 0, .thread = 0,
                .record = Copy{.op_id = 2, .kind = CopyKind::host_to_device,
                               .src = {.alloc_id = 0, .offset = 0x5000, .bytes = 8},
                               .dst = {.alloc_id = 1, .offset = 16, .bytes = 8}, .bytes = 8}};
  EXPECT_EQ(to_text(trace, e),
            "#1 t=0ns tid=0 copy op_id=2 kind=host_to_device dims=1 "
            "src={alloc_id=0 offset=0x5000 bytes=8} dst={alloc_id=1 offset=16 bytes=8} bytes=8 "
            "stream=0x0 async=0 captured=0");
}

}  // namespace
}  // namespace tidepool::trace
