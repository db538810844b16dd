// The registry of arrays and mipmapped arrays (see arrays.h).
#include "tools/simcuda/src/arrays.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "tools/simcuda/src/device_memory.h"
#include "tools/simcuda/src/scheduler.h"

namespace simcuda {
namespace {

struct ArrayObject {
  ArrayLayout layout;  // of level 0
  uint64_t bytes = 0;
  bool mipmapped = false;
};

struct Registry {
  std::mutex mutex;
  std::map<ArrayObject*, std::unique_ptr<ArrayObject>> objects;
  std::map<uint64_t, ArrayObject*> by_base;
};

Registry& registry() {
  static Registry& instance = *new Registry;
  return instance;
}

// Bytes of one element; 0 for a format simcuda does not lay out.
uint64_t format_bytes(CUarray_format format) {
  switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8: return 1;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF: return 2;
    case CU_AD_FORMAT_UNSIGNED_INT32:
    case CU_AD_FORMAT_SIGNED_INT32:
    case CU_AD_FORMAT_FLOAT: return 4;
    default: return 0;
  }
}

}  // namespace

CUresult create_array(const CUDA_ARRAY3D_DESCRIPTOR& desc, unsigned levels, void*& handle) {
  const uint64_t element = format_bytes(desc.Format);
  if (element == 0) return CUDA_ERROR_NOT_SUPPORTED;
  if (desc.Width == 0 || (desc.Height == 0 && desc.Depth != 0) || desc.Flags != 0) return CUDA_ERROR_INVALID_VALUE;
  if (desc.NumChannels != 1 && desc.NumChannels != 2 && desc.NumChannels != 4) return CUDA_ERROR_INVALID_VALUE;
  constexpr uint64_t kMaxExtent = 1 << 20;
  if (desc.Width > kMaxExtent || desc.Height > kMaxExtent || desc.Depth > kMaxExtent) return CUDA_ERROR_INVALID_VALUE;
  auto object = std::make_unique<ArrayObject>();
  object->mipmapped = levels > 0;
  object->layout = {0, desc.Width * element * desc.NumChannels, std::max<uint64_t>(desc.Height, 1),
                    std::max<uint64_t>(desc.Depth, 1)};
  uint64_t w = desc.Width, h = object->layout.height, d = object->layout.depth;
  for (unsigned level = 0; level < std::max(levels, 1u); ++level) {
    if (level > 0 && w == 1 && h == 1 && d == 1) return CUDA_ERROR_INVALID_VALUE;  // more levels than sizes
    object->bytes += w * element * desc.NumChannels * h * d;
    w = std::max<uint64_t>(w / 2, 1);
    h = desc.Height == 0 ? 1 : std::max<uint64_t>(h / 2, 1);
    d = desc.Depth == 0 ? 1 : std::max<uint64_t>(d / 2, 1);
  }
  const auto base = heap_allocate(object->bytes);
  if (!base) return CUDA_ERROR_OUT_OF_MEMORY;
  object->layout.base = *base;
  handle = object.get();
  const std::lock_guard lock(registry().mutex);
  registry().by_base.emplace(*base, object.get());
  registry().objects.emplace(object.get(), std::move(object));
  return CUDA_SUCCESS;
}

CUresult destroy_array(void* handle, bool mipmapped) {
  std::unique_ptr<ArrayObject> object;
  {
    const std::lock_guard lock(registry().mutex);
    const auto it = registry().objects.find(static_cast<ArrayObject*>(handle));
    if (it == registry().objects.end() || it->first->mipmapped != mipmapped) return CUDA_ERROR_INVALID_HANDLE;
    object = std::move(it->second);
    registry().objects.erase(it);
    registry().by_base.erase(object->layout.base);
  }
  wall_synchronize_device();  // nothing still queued may use the memory
  heap_release(object->layout.base, object->bytes);
  return CUDA_SUCCESS;
}

std::optional<ArrayLayout> find_array(CUarray handle) {
  const std::lock_guard lock(registry().mutex);
  const auto it = registry().objects.find(reinterpret_cast<ArrayObject*>(handle));
  if (it == registry().objects.end() || it->first->mipmapped) return std::nullopt;
  return it->first->layout;
}

bool in_array(uint64_t address, uint64_t bytes) {
  const std::lock_guard lock(registry().mutex);
  auto it = registry().by_base.upper_bound(address);
  if (it == registry().by_base.begin()) return false;
  --it;
  const uint64_t size = it->second->bytes;
  return address - it->first < size && bytes <= size - (address - it->first);
}

}  // namespace simcuda
