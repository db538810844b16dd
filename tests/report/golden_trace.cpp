// A two-step training loop in miniature, with one allocation of most kinds, VMM, copies, sets,
// NVTX, device timings, captured work, a leak and call stacks in modules that no longer exist
// (so that frames print as module+offset on every machine).
#include "golden_trace.h"

#include "trace_builder.h"

namespace tidepool::report::testing {

using trace::AllocKind;

trace::Trace golden_trace() {
  TraceBuilder b(4242, 0);
  trace::Trace& t = b.trace();
  t.header.host = "golden-host";
  t.header.program = "train_tiny";
  t.header.command_line = {"./train_tiny", "--steps", "2"};
  t.header.source = "tidepool tests (golden trace)";
  t.modules = {{.path = "/nonexistent/train_tiny", .base = 0, .size = 0x600000,
                .build_id = "00112233"},
               {.path = "/nonexistent/libtorch_fake.so", .base = 0x7f1000000000, .size = 0x100000}};
  t.stacks[1] = {0x401234, 0x7f1000001000, 0x400800};  // weights
  t.stacks[2] = {0x401300, 0x400800};                   // activations
  t.stacks[3] = {0x7f1000002000, 0x401400};             // workspace

  constexpr uint64_t MiB = 1 << 20;
  b.add(trace::ContextCreate{.context = 1, .device = 0, .primary = true});
  b.add(trace::StreamCreate{.stream = 0x51, .flags = 1});
  b.add(trace::ModuleLoad{.module = 0x77, .name_id = b.string("<image>")});
  const uint64_t weights = b.alloc(AllocKind::device, 8 * MiB, 1, 1);
  const uint64_t grads = b.alloc(AllocKind::device_pitched, 4096 * 512, 1, 1);
  const uint64_t staging = b.alloc(AllocKind::host_pinned, 64 * 1024, 1, 1);
  b.add(trace::Copy{.op_id = 100, .kind = trace::CopyKind::host_to_device,
                    .src = {.alloc_id = staging, .offset = 0, .bytes = 65536},
                    .dst = {.alloc_id = weights, .offset = 0, .bytes = 65536}, .bytes = 65536,
                    .stream = 0x51, .async = true});
  b.add(trace::IndirectRef{.alloc_id = weights, .op_id = 100});
  for (int step = 0; step < 2; ++step) {
    b.add(trace::RangePush{.name_id = b.string("step")});
    const uint64_t act = b.alloc(AllocKind::stream_ordered, 6 * MiB, 1, 2, 0x51);
    b.launch("forward_gemm", {weights, act});
    b.add(trace::DeviceTiming{.op_id = 200, .start_ns = 5000, .end_ns = 9000});
    const uint64_t workspace = b.alloc(AllocKind::device, 3 * MiB + 17, 1, 3);
    b.add(trace::Set{.op_id = 300, .dst = {.alloc_id = workspace, .offset = 0, .bytes = 3 * MiB},
                     .bytes = 3 * MiB, .stream = 0x51, .async = true});
    b.launch("backward_gemm", {weights, act, workspace, grads});
    b.free(workspace);
    b.free(act, AllocKind::stream_ordered);
    b.add(trace::RangePop{});
  }
  // A VMM buffer, released while still mapped.
  const uint64_t physical = b.alloc(AllocKind::vmm_physical, 2 * MiB, 1, 3);
  const uint64_t reserve = b.alloc(AllocKind::vmm_reserve, 2 * MiB, 1, 3);
  b.add(trace::VmmMap{.address = 0x7e0000000000, .size = 2 * MiB, .handle = 0x5000 + physical,
                      .physical_alloc_id = physical});
  b.free(physical, AllocKind::vmm_physical);
  b.launch("optimizer_step", {weights, grads, physical});
  b.add(trace::VmmUnmap{.address = 0x7e0000000000, .size = 2 * MiB});
  b.free(reserve, AllocKind::vmm_reserve);
  b.alloc(AllocKind::managed, MiB, 1, 2);
  b.add(trace::CaptureBegin{.stream = 0x51, .mode = 0});
  trace::Launch captured{.op_id = 400, .kernel_name_id = b.string("forward_gemm"),
                         .stream = 0x51, .captured = true, .params_decoded = false};
  b.add(captured);
  b.add(trace::CaptureEnd{.stream = 0x51, .graph = 0x88});
  b.add(trace::GraphLaunch{.op_id = 401, .graph_exec = 0x89, .stream = 0x51});
  b.add(trace::StreamSynchronize{.stream = 0x51});
  b.free(staging, AllocKind::host_pinned);
  b.free(weights);
  // grads is never freed: a leak of 2 MiB.
  return t;
}

}  // namespace tidepool::report::testing
