// The rules of swap operations: the gaps they may use, their validation and the clean-copy rule.
#include "analyzer/swap/swap_op.h"

#include <algorithm>
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
    if (b.never_swapped || b.size < min_size) continue;
    for (long a = 0; a < static_cast<long>(b.accesses.size()); ++a) {
      const long next = next_access(b, a);
      if (next >= 0) gaps.push_back({i, b.accesses[a].op, b.accesses[next].op});
    }
  }
  return gaps;
}

void check_swap_ops(const Model& model, std::span<const SwapOp> ops) {
  const auto n = static_cast<std::uint32_t>(model.ops.size());
  std::vector<std::pair<std::pair<std::uint32_t, std::uint32_t>, std::size_t>> gaps;  // (buffer, out) -> swap
  gaps.reserve(ops.size());
  for (std::size_t s = 0; s < ops.size(); ++s) {
    const SwapOp& op = ops[s];
    if (op.buffer >= model.buffers.size()) fail(s, "unknown buffer " + std::to_string(op.buffer));
    const Buffer& b = model.buffers[op.buffer];
    if (b.never_swapped) fail(s, "buffer " + std::to_string(op.buffer) + " may never be swapped");
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
    gaps.push_back({{op.buffer, op.out_after}, s});
  }
  std::sort(gaps.begin(), gaps.end());
  for (std::size_t k = 1; k < gaps.size(); ++k)
    if (gaps[k].first == gaps[k - 1].first) fail(gaps[k].second, "two swaps of one gap");
}

void mark_clean_swap_outs(const Model& model, std::vector<SwapOp>& ops) {
  std::vector<std::size_t> order(ops.size());  // by buffer, then by swap-out
  for (std::size_t s = 0; s < ops.size(); ++s) order[s] = s;
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return std::pair(ops[x].buffer, ops[x].out_after) < std::pair(ops[y].buffer, ops[y].out_after);
  });
  for (std::size_t first = 0, last = 0; first < order.size(); first = last) {
    while (last < order.size() && ops[order[last]].buffer == ops[order[first]].buffer) ++last;
    const std::span<const std::size_t> list(order.data() + first, last - first);
    const Buffer& b = model.buffers[ops[order[first]].buffer];
    for (std::size_t q = 0; q < list.size(); ++q) {
      SwapOp& op = ops[list[q]];
      if (q == 0 && !b.persistent) {
        op.copy_out = true;
        continue;
      }
      const SwapOp& previous = ops[list[q == 0 ? list.size() - 1 : q - 1]];
      // Accesses from the previous swap-in's access up to this swap-out's, cyclically.
      long a = access_at(b, previous.needed_by);
      const long until = access_at(b, op.out_after);
      bool dirty = false;
      for (;;) {
        const Access& access = b.accesses[a];
        dirty = dirty || access.write || access.by_kernel;
        if (a == until) break;
        a = (a + 1) % static_cast<long>(b.accesses.size());
      }
      op.copy_out = dirty;
    }
  }
}

}  // namespace tidepool::swap
