// The one simulated device: its identity and attributes (an H100-class part).
#include <cstring>
#include <map>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/context.h"
#include "tools/simcuda/src/settings.h"

using namespace simcuda;

namespace {

constexpr char kName[] = "simcuda simulated GPU";

CUresult check_device(CUdevice dev) {
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

const std::map<CUdevice_attribute, int>& attributes() {
  static const std::map<CUdevice_attribute, int> table = {
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 49152},
      {CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, 65536},
      {CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32},
      {CU_DEVICE_ATTRIBUTE_MAX_PITCH, 2147483647},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 65536},
      {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 1980000},
      {CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, 512},
      {CU_DEVICE_ATTRIBUTE_GPU_OVERLAP, 1},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 132},
      {CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 1},
      {CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, 1},
      {CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, 1},
      {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 2619000},
      {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 5120},
      {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 52428800},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 2048},
      {CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, 2},
      {CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0},
      {CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED, 1},
      {CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED, 1},
      {CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED, 1},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 233472},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, 65536},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED, 1},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 232448},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, 32},
      {CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 1},
      {CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 1},
      {CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1},
      {CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 1},
      {CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1, 1},
      {CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1, 1},
      {CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1, 1},
      {CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, 1},
      {CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR, 1},
      {CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, 32},
  };
  return table;
}

}  // namespace

SIMCUDA_API CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  if (device == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}

SIMCUDA_API CUresult cuDeviceGetCount(int* count) {
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  if (count == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *count = 1;
  return CUDA_SUCCESS;
}

SIMCUDA_API CUresult cuDeviceGetName(char* name, int len, CUdevice dev) {
  if (const CUresult r = check_device(dev); r != CUDA_SUCCESS) return r;
  if (name == nullptr || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  std::strncpy(name, kName, static_cast<size_t>(len) - 1);
  name[len - 1] = '\0';
  return CUDA_SUCCESS;
}

SIMCUDA_API CUresult cuDeviceGetUuid_v2(CUuuid* uuid, CUdevice dev) {
  if (const CUresult r = check_device(dev); r != CUDA_SUCCESS) return r;
  if (uuid == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(uuid->bytes, "simcuda-device-0", sizeof uuid->bytes);
  return CUDA_SUCCESS;
}

SIMCUDA_API CUresult cuDeviceGetUuid(CUuuid* uuid, CUdevice dev) { return cuDeviceGetUuid_v2(uuid, dev); }

SIMCUDA_API CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice dev) {
  if (const CUresult r = check_device(dev); r != CUDA_SUCCESS) return r;
  if (bytes == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *bytes = settings().memory_bytes;
  return CUDA_SUCCESS;
}

SIMCUDA_API CUresult cuDeviceGetAttribute(int* pi, CUdevice_attribute attrib, CUdevice dev) {
  if (const CUresult r = check_device(dev); r != CUDA_SUCCESS) return r;
  if (pi == nullptr || attrib <= 0 || attrib >= CU_DEVICE_ATTRIBUTE_MAX) return CUDA_ERROR_INVALID_VALUE;
  const auto it = attributes().find(attrib);
  *pi = it != attributes().end() ? it->second : 0;
  return CUDA_SUCCESS;
}

SIMCUDA_API CUresult cuDeviceComputeCapability(int* major, int* minor, CUdevice dev) {
  if (const CUresult r = check_device(dev); r != CUDA_SUCCESS) return r;
  if (major == nullptr || minor == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *major = 9;
  *minor = 0;
  return CUDA_SUCCESS;
}

SIMCUDA_API CUresult cuDeviceGetPCIBusId(char* pciBusId, int len, CUdevice dev) {
  if (const CUresult r = check_device(dev); r != CUDA_SUCCESS) return r;
  if (pciBusId == nullptr || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  std::strncpy(pciBusId, "0000:01:00.0", static_cast<size_t>(len) - 1);
  pciBusId[len - 1] = '\0';
  return CUDA_SUCCESS;
}
