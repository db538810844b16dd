// Validation of the swap model and the live-bytes profile over operations.
#include "analyzer/swap/model.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace tidepool::swap {
namespace {

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument(what); }

void validate_buffer(const Model& model, std::size_t index) {
  const Buffer& b = model.buffers[index];
  const std::string name = "buffer " + std::to_string(index);
  const auto n = static_cast<std::uint32_t>(model.ops.size());
  if (b.size == 0) fail(name + ": size 0");
  if (b.begin > b.end || b.end > n) fail(name + ": lifetime outside the iteration's operations");
  if (b.persistent && (b.begin != 0 || b.end != n))
    fail(name + ": a persistent buffer must live over the whole iteration");
  for (std::size_t a = 0; a < b.accesses.size(); ++a) {
    const std::uint32_t op = b.accesses[a].op;
    if (op < b.begin || op >= b.end) fail(name + ": access at op " + std::to_string(op) +
                                          " outside its lifetime");
    if (a > 0 && op <= b.accesses[a - 1].op)
      fail(name + ": accesses not in ascending op order");
  }
}

}  // namespace

void validate(const Model& model) {
  if (model.ops.empty()) fail("the iteration has no operations");
  for (std::size_t i = 0; i < model.ops.size(); ++i) {
    const Op& op = model.ops[i];
    if (!std::isfinite(op.seconds) || op.seconds < 0)
      fail("op " + std::to_string(i) + ": duration must be a finite number >= 0");
    if (op.stream >= model.ops.size())
      fail("op " + std::to_string(i) + ": stream index out of range (streams are numbered from 0)");
    for (std::uint32_t dep : op.after)
      if (dep >= i) fail("op " + std::to_string(i) + ": depends on a later op");
    for (std::uint32_t waited : op.host_waits)
      if (waited >= i) fail("op " + std::to_string(i) + ": the host waits for a later op");
  }
  Bytes total = 0;
  for (std::size_t b = 0; b < model.buffers.size(); ++b) {
    validate_buffer(model, b);
    const Bytes size = model.buffers[b].size;
    if (size > kMaxTotalBytes - total) {
      fail("buffer " + std::to_string(b) + ": the buffers' sizes up to this one add up to more than 2^61 bytes");
    }
    total += size;
  }
}

std::vector<Bytes> live_bytes_per_op(const Model& model) {
  std::vector<std::int64_t> delta(model.ops.size() + 1, 0);
  for (const Buffer& b : model.buffers) {
    delta[b.begin] += static_cast<std::int64_t>(b.size);
    delta[b.end] -= static_cast<std::int64_t>(b.size);
  }
  std::vector<Bytes> live(model.ops.size());
  std::int64_t level = 0;
  for (std::size_t i = 0; i < live.size(); ++i) {
    level += delta[i];
    live[i] = static_cast<Bytes>(level);
  }
  return live;
}

}  // namespace tidepool::swap
