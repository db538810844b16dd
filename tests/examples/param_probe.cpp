// A helper the parameter-layout test runs on simcuda: loads a module image (any file; simcuda takes
// it as it is) and prints, for each kernel named on the command line, one line per parameter as
// cuFuncGetParamInfo reports it: "<kernel> <index> <offset> <size>".
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

void check(CUresult result, const char* what) {
  if (result == CUDA_SUCCESS) return;
  const char* name = "unknown";
  cuGetErrorName(result, &name);
  std::fprintf(stderr, "param_probe: %s: %s\n", what, name);
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: param_probe <module image> <kernel>...\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::ostringstream image;
  image << in.rdbuf();
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  check(cuInit(0), "cuInit");
  check(cuDeviceGet(&device, 0), "cuDeviceGet");
  check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
  check(cuModuleLoadData(&module, image.str().c_str()), "cuModuleLoadData");
  for (int a = 2; a < argc; ++a) {
    CUfunction function = nullptr;
    check(cuModuleGetFunction(&function, module, argv[a]), argv[a]);
    for (size_t index = 0;; ++index) {
      size_t offset = 0, size = 0;
      if (cuFuncGetParamInfo(function, index, &offset, &size) != CUDA_SUCCESS) break;
      std::printf("%s %zu %zu %zu\n", argv[a], index, offset, size);
    }
  }
  check(cuModuleUnload(module), "cuModuleUnload");
  check(cuDevicePrimaryCtxRelease(device), "cuDevicePrimaryCtxRelease");
  return 0;
}
