// The rules of swap operations: the gaps they may use, their validation and the clean-copy rule.
#include "analyzer/swap/swap_op.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

namespace tidepool::swap {
namespace {

[[noreturn]] void fail(std::size_t index, const std::string& what) {
  throw std::invalid_argument("swap " + std::to_string(index) + ": " + what);
}

// The index in b.accesses of the access at `op`, or -1.
long access_at(const Buffer& b, std::uint32_t op) {
  const auto it = std::lower_bound(b.accesses.begin(), b.accesses.end(), op,
                                   [](const Access& a, std::uint32_t o) { return a.op < o; });
  return it != b.accesses.end() && it->op == op ? it - b.accesses.begin() : -1;
}

// The access that follows access `index`: the next one, or for persistent buffers the first one
// of the next iteration; -1 when there is none.
long next_access(const Buffer& b, long index) {
  if (index + 1 < static_cast<long>(b.accesses.size())) return index + 1;
  return b.persistent ? 0 : -1;
}

}  // namespace

std::vector<Gap> swappable_gaps(const Model& model, Bytes min_size) {
  std::vector<Gap> gaps;
  for (std::uint32_t i = 0; i < model.buffers.size(); ++i) {
    const Buffer& b = model.buffers[i];
    if (b.indirect || b.size < min_size) continue;
    for (long a = 0; a < static_cast<long>(b.accesses.size()); ++a) {
      const long next = next_access(b, a);
      if (next >= 0) gaps.push_back({i, b.accesses[a].op, b.accesses[next].op});
    }
  }
  return gaps;
}

void check_swap_ops(const Model& model, std::span<const SwapOp> ops) {
  const auto n = static_cast<std::uint32_t>(model.ops.size());
  std::set<std::pair<std::uint32_t, std::uint32_t>> used;
  for (std::size_t s = 0; s < ops.size(); ++s) {
    const SwapOp& op = ops[s];
    if (op.buffer >= model.buffers.size()) fail(s, "unknown buffer " + std::to_string(op.buffer));
    const Buffer& b = model.buffers[op.buffer];
    if (b.indirect) fail(s, "buffer " + std::to_string(op.buffer) + " is referenced indirectly");
    const long out = access_at(b, op.out_after);
    if (out < 0) fail(s, "no access of the buffer at the swap-out op " + std::to_string(op.out_after));
    const long next = next_access(b, out);
    if (next < 0) fail(s, "swap-out after the buffer's last access");
    if (b.accesses[next].op != op.needed_by)
      fail(s, "needed_by " + std::to_string(op.needed_by) + " is not the next access (op " +
                  std::to_string(b.accesses[next].op) + ")");
    if (op.in_at >= n) fail(s, "swap-in op outside the iteration");
    const std::uint32_t gap = cyclic_steps(op.out_after, op.needed_by, n);
    const std::uint32_t in = cyclic_steps(op.out_after, op.in_at, n);
    if (in > gap) fail(s, "swap-in issued after the access it serves");
    if (!b.persistent && (op.in_at <= op.out_after || op.needed_by <= op.out_after))
      fail(s, "a non-persistent buffer cannot wrap around the iteration");
    if (op.release_before && (*op.release_before >= n ||
                              cyclic_steps(op.out_after, *op.release_before, n) > in))
      fail(s, "release point not between the swap-out and the swap-in");
    if (!used.insert({op.buffer, op.out_after}).second) fail(s, "two swaps of one gap");
  }
}

void mark_clean_swap_outs(const Model& model, std::vector<SwapOp>& ops) {
  std::map<std::uint32_t, std::vector<std::size_t>> by_buffer;
  for (std::size_t s = 0; s < ops.size(); ++s) by_buffer[ops[s].buffer].push_back(s);
  for (auto& [buffer, list] : by_buffer) {
    const Buffer& b = model.buffers[buffer];
    std::sort(list.begin(), list.end(),
              [&](std::size_t x, std::size_t y) { return ops[x].out_after < ops[y].out_after; });
    for (std::size_t q = 0; q < list.size(); ++q) {
      SwapOp& op = ops[list[q]];
      if (q == 0 && !b.persistent) {
        op.copy_out = true;
        continue;
      }
      const SwapOp& previous = ops[list[q == 0 ? list.size() - 1 : q - 1]];
      // Accesses from the previous swap-in's access up to this swap-out's, cyclically.
      long a = access_at(b, previous.needed_by);
      const long last = access_at(b, op.out_after);
      bool dirty = false;
      for (;;) {
        const Access& access = b.accesses[a];
        dirty = dirty || access.write || access.by_kernel;
        if (a == last) break;
        a = (a + 1) % static_cast<long>(b.accesses.size());
      }
      op.copy_out = dirty;
    }
  }
}

}  // namespace tidepool::swap
