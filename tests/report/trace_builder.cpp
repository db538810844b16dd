// The test trace builder.
#include "trace_builder.h"

#include <utility>

namespace tidepool::report::testing {

TraceBuilder::TraceBuilder(uint32_t pid, int32_t rank) {
  trace_.header.pid = pid;
  trace_.header.parent_pid = 1;
  trace_.header.rank = rank;
  trace_.header.host = "testhost";
  trace_.header.program = "testprog";
  trace_.header.command_line = {"./testprog", "--steps", "2"};
  trace_.header.start_time_unix_ns = 1700000000000000000ull;
  trace_.header.driver_version = 13000;
  trace_.header.source = "test";
}

uint64_t TraceBuilder::add(trace::Record record) {
  const uint64_t seq = trace_.events.size() + 1;
  trace_.events.push_back({seq, now_ns_, 7, std::move(record)});
  now_ns_ += 1000;
  return seq;
}

uint64_t TraceBuilder::alloc(trace::AllocKind kind, uint64_t size, uint64_t context,
                             uint32_t stack_id, uint64_t stream) {
  const uint64_t id = next_alloc_++;
  const bool has_address = kind != trace::AllocKind::vmm_physical && kind != trace::AllocKind::array;
  trace::Alloc a{.alloc_id = id, .kind = kind, .address = has_address ? next_address_ : 0,
                 .size = size, .stream = stream, .handle = has_address ? 0 : 0x5000 + id,
                 .context = context, .stack_id = stack_id};
  if (has_address) next_address_ += (size + 0xfffff) & ~uint64_t{0xfffff};
  add(a);
  return id;
}

void TraceBuilder::free(uint64_t alloc_id, trace::AllocKind kind) {
  add(trace::Free{.alloc_id = alloc_id, .kind = kind});
}

void TraceBuilder::launch(const std::string& name, const std::vector<uint64_t>& alloc_ids) {
  trace::Launch l{.op_id = next_op_++, .kernel_name_id = string(name), .function = 0xf00 + next_op_,
                  .stream = 0, .grid = {64, 1, 1}, .block = {256, 1, 1}, .params_decoded = true};
  for (uint64_t id : alloc_ids) l.accesses.push_back({.alloc_id = id, .offset = 0});
  add(std::move(l));
}

uint32_t TraceBuilder::string(const std::string& text) {
  for (const auto& [id, s] : trace_.strings) {
    if (s == text) return id;
  }
  const auto id = static_cast<uint32_t>(trace_.strings.size() + 1);
  trace_.strings[id] = text;
  return id;
}

}  // namespace tidepool::report::testing
