// Contexts: the primary context, created ones, and each thread's stack of current contexts.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/stream.h"

namespace simcuda {

struct Context {
  Context(unsigned flags, bool primary);
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  std::atomic<unsigned> flags;
  const bool primary;
  const unsigned long long id;
  // Guarded by the scheduler's mutex.
  std::unique_ptr<Stream> legacy;
  std::vector<Stream*> streams;  // created and per-thread streams (owned by the scheduler)
  std::map<std::thread::id, Stream*> per_thread;

  CUcontext handle() { return reinterpret_cast<CUcontext>(this); }
};

// CUDA_ERROR_NOT_INITIALIZED before cuInit.
CUresult require_init();
// The calling thread's current context, or CUDA_ERROR_INVALID_CONTEXT.
CUresult require_context(Context*& out);
Context* current_context();
// nullptr when the handle names no live context.
Context* find_context(CUcontext handle);
Context& primary_context();
// Every live context (the primary one first).
std::vector<Context*> all_contexts();

Context& create_context(unsigned flags);
void destroy_context(Context& context);  // after its work is done and its streams closed

// The calling thread's stack of current contexts.
// False when the thread's stack is full (64 deep).
bool push_current(Context* context);
void pop_current();
void forget_current(Context* context);  // removes it from this thread's stack

// Retains of the primary context.
void retain_primary();
bool release_primary();  // false when it was not retained
bool primary_active();

}  // namespace simcuda
