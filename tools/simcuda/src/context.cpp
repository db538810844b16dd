// Context objects, the registry of live contexts, and each thread's stack of current contexts.
#include "tools/simcuda/src/context.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>
#include <set>

#include "tools/simcuda/src/init.h"

namespace simcuda {
namespace {

std::atomic<unsigned long long> next_context_id{1};

struct Registry {
  std::mutex mutex;
  std::set<Context*> live;
  Context* primary = nullptr;
  unsigned primary_retains = 0;
};

Registry& registry() {
  static Registry& instance = *new Registry;
  return instance;
}

// The thread's stack of current contexts: trivially destructible, so that driver calls made from
// exit handlers (after the thread's thread-local objects are destroyed) still find their context,
// as with a real driver. Deeper pushes than this fail.
constexpr size_t kMaxCurrentDepth = 64;
thread_local std::array<Context*, kMaxCurrentDepth> current_stack;
thread_local size_t current_depth = 0;

}  // namespace

Context::Context(unsigned f, bool p) : flags(f), primary(p), id(next_context_id++) {
  legacy = std::make_unique<Stream>(*this, StreamKind::legacy, 0, 0);
}

CUresult require_init() { return initialized() ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED; }

Context* current_context() { return current_depth == 0 ? nullptr : current_stack[current_depth - 1]; }

CUresult require_context(Context*& out) {
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  out = current_context();
  return out != nullptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

Context* find_context(CUcontext handle) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  auto* ctx = reinterpret_cast<Context*>(handle);
  return r.live.contains(ctx) ? ctx : nullptr;
}

Context& primary_context() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  if (r.primary == nullptr) {
    r.primary = new Context(0, true);  // lives as long as the process
    r.live.insert(r.primary);
  }
  return *r.primary;
}

std::vector<Context*> all_contexts() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  std::vector<Context*> result(r.live.begin(), r.live.end());
  std::stable_partition(result.begin(), result.end(), [](Context* c) { return c->primary; });
  return result;
}

Context& create_context(unsigned flags) {
  auto* ctx = new Context(flags, false);
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.live.insert(ctx);
  return *ctx;
}

void destroy_context(Context& context) {
  {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    r.live.erase(&context);
  }
  delete &context;
}

bool push_current(Context* context) {
  if (current_depth == kMaxCurrentDepth) return false;
  current_stack[current_depth++] = context;
  return true;
}

void pop_current() {
  if (current_depth > 0) --current_depth;
}

void forget_current(Context* context) {
  const auto end = std::remove(current_stack.begin(), current_stack.begin() + static_cast<std::ptrdiff_t>(current_depth), context);
  current_depth = static_cast<size_t>(end - current_stack.begin());
}

void retain_primary() {
  primary_context();
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  ++r.primary_retains;
}

bool release_primary() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  if (r.primary_retains == 0) return false;
  --r.primary_retains;
  return true;
}

bool primary_active() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  return r.primary_retains > 0;
}

}  // namespace simcuda
