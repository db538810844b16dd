// The optimizer's calls from the hooks: the controller, found once, and what each kind of work
// tells it.
#include "intercept/optimize_hooks.h"

#include <cudaTypedefs.h>

#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "intercept/real_driver.h"
#include "runtime/thread_scratch.h"

namespace tidepool::intercept {
namespace {

bool stream_capturing(CUstream stream) {
  return capture_state().capturing(handle_u64(stream));
}

// The kernel's name as the fingerprint counts it (cuFuncGetName, or cuKernelGetName for a
// CUkernel handle), asked of the driver once per function.
std::string_view kernel_name(CUfunction function) {
  struct Names {};
  const auto lease = runtime::ThreadScratch<std::unordered_map<CUfunction, const std::string*>, Names>::get();
  auto& cache = *lease;
  if (const auto it = cache.find(function); it != cache.end()) return *it->second;
  static const auto func_name =
      reinterpret_cast<PFN_cuFuncGetName_v12030>(real_driver_symbol("cuFuncGetName"));
  static const auto kernel_name =
      reinterpret_cast<PFN_cuKernelGetName_v12030>(real_driver_symbol("cuKernelGetName"));
  static std::mutex mutex;
  static auto* const names = new std::unordered_map<CUfunction, std::string>;  // never destroyed
  const char* name = nullptr;
  if (func_name == nullptr || func_name(&name, function) != CUDA_SUCCESS || name == nullptr) {
    if (kernel_name == nullptr ||
        kernel_name(&name, reinterpret_cast<CUkernel>(function)) != CUDA_SUCCESS)
      name = nullptr;
  }
  const std::lock_guard lock(mutex);
  // The first answer stays: other threads may be reading it.
  const std::string& kept =
      names->try_emplace(function, name != nullptr ? name : "<unknown kernel>").first->second;
  cache[function] = &kept;
  return kept;
}

// The ids a launch or copy touches: the thread's list, emptied.
struct Touched {};
runtime::ThreadScratch<std::vector<uint64_t>, Touched>::Lease touched_buffer() {
  auto ids = runtime::ThreadScratch<std::vector<uint64_t>, Touched>::get();
  ids->clear();
  return ids;
}

CUresult before_transfer(runtime::optimize::Controller& c, std::initializer_list<uint64_t> ids,
                         uint64_t only_read, bool captured, CUstream stream) {
  const auto lease = touched_buffer();
  std::vector<uint64_t>& touched = *lease;
  for (uint64_t id : ids) {
    if (id != 0) touched.push_back(id);
  }
  runtime::optimize::Work work;
  work.stream = stream;
  work.captured = captured;
  work.touched = touched;
  work.only_read = only_read;
  return c.before_work(work);
}

}  // namespace

runtime::optimize::Controller* optimizer() {
  if (recorder() == nullptr) return nullptr;
  return runtime::optimize::Controller::get(&real_driver_symbol, &stream_capturing);
}

CUresult optimize_before_launch(const trace::Launch& launch, CUfunction function, CUstream stream) {
  auto* c = optimizer();
  if (c == nullptr) return CUDA_SUCCESS;
  const auto lease = touched_buffer();
  std::vector<uint64_t>& touched = *lease;
  for (const trace::Access& a : launch.accesses) touched.push_back(a.alloc_id);
  runtime::optimize::Work work;
  work.launch = true;
  work.kernel = kernel_name(function);
  work.stream = stream;
  work.captured = launch.captured;
  work.decoded = launch.params_decoded;
  work.touched = touched;
  return c->before_work(work);
}

CUresult optimize_before_transfer(const trace::Copy& copy, CUstream stream) {
  auto* c = optimizer();
  return c == nullptr
             ? CUDA_SUCCESS
             : before_transfer(*c, {copy.src.alloc_id, copy.dst.alloc_id},
                               copy.src.alloc_id != copy.dst.alloc_id ? copy.src.alloc_id : 0,
                               copy.captured, stream);
}

CUresult optimize_before_transfer(const trace::Set& set, CUstream stream) {
  auto* c = optimizer();
  return c == nullptr ? CUDA_SUCCESS
                      : before_transfer(*c, {set.dst.alloc_id}, 0, set.captured, stream);
}

CUresult optimize_before_graph_launch(CUstream stream) {
  auto* c = optimizer();
  if (c == nullptr) return CUDA_SUCCESS;
  runtime::optimize::Work work;
  work.launch = true;
  work.kernel = "<graph>";
  work.stream = stream;
  work.captured =
      stream_capturing(stream);  // a graph launched into a capture: nothing of ours goes there
  work.decoded = false;
  return c->before_work(work);
}

void optimize_after_work(bool issued) {
  if (auto* c = optimizer()) c->after_work(issued);
}

void optimize_allocated_pitched(uint64_t alloc_id, CUdeviceptr address, uint64_t bytes) {
  if (auto* c = optimizer()) c->allocated_pitched(alloc_id, address, bytes);
}

void optimize_keep_resident(uint64_t alloc_id) {
  if (auto* c = optimizer()) c->keep_resident(alloc_id);
}

void optimize_range_push(std::string_view name) {
  if (auto* c = optimizer()) c->range_push(name);
}

void optimize_stream_destroyed(CUstream stream) {
  if (auto* c = optimizer()) c->stream_destroyed(stream);
}

}  // namespace tidepool::intercept
