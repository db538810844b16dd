# Third-party dependencies: Debian packages and the CUDA toolkit, nothing downloaded.
find_package(CUDAToolkit QUIET)
if(NOT CUDAToolkit_FOUND)
  message(FATAL_ERROR
    "tidepool: the CUDA toolkit was not found. Install it in /usr/local/cuda "
    "(or pass -DCUDAToolkit_ROOT=/path/to/cuda): tidepool needs its headers, nvcc and CUPTI.")
endif()
find_program(TIDEPOOL_NVCC nvcc HINTS ${CUDAToolkit_BIN_DIR} REQUIRED)

find_package(Threads REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBUNWIND REQUIRED IMPORTED_TARGET libunwind)
find_package(Python3 REQUIRED COMPONENTS Interpreter)
if(TIDEPOOL_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()

# The CUDA headers alone, without linking any libcuda: tidepool's own code never links the driver.
add_library(tidepool_cuda_headers INTERFACE)
target_include_directories(tidepool_cuda_headers SYSTEM INTERFACE ${CUDAToolkit_INCLUDE_DIRS})
