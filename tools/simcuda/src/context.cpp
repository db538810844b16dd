// Context objects, the registry of live contexts, and each thread's stack of current contexts.
#include "tools/simcuda/src/context.h"

#include <algorithm>
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

thread_local std::vector<Context*> current_stack;

}  // namespace

Context::Context(unsigned f, bool p) : flags(f), primary(p), id(next_context_id++) {
  legacy = std::make_unique<Stream>(*this, StreamKind::legacy, 0, 0);
}

CUresult require_init() { return initialized() ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED; }

Context* current_context() { return current_stack.empty() ? nullptr : current_stack.back(); }

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

void push_current(Context* context) { current_stack.push_back(context); }

void pop_current() {
  if (!current_stack.empty()) current_stack.pop_back();
}

void forget_current(Context* context) { std::erase(current_stack, context); }

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
