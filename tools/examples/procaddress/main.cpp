// procaddress: obtains every driver entry point it uses through cuGetProcAddress_v2, as the CUDA
// runtime does (asking for this toolkit's CUDA version; by default with the per-thread default
// stream flag, so stream handle 0 is the calling thread's own stream), and links nothing else of
// the driver. Runs the table-driven workload (see table_driven/workload.h).
#include <string>

#include "tools/examples/common/check.h"
#include "tools/examples/common/flags.h"
#include "tools/examples/table_driven/workload.h"

int main(int argc, char** argv) {
  constexpr char kProgram[] = "procaddress";
  const examples::Flags flags(kProgram,
                              {{"iterations", 12, 1, 100000, "iterations"},
                               {"elements", 1 << 18, 1, 1 << 28, "floats per vector"},
                               {"seed", 1, 0, int64_t{1} << 40, "seed of the data"},
                               {"per-thread", 1, 0, 1,
                                "look entry points up for the per-thread default stream (1) or the "
                                "legacy one (0)"}},
                              argc, argv);
  const cuuint64_t lookup_flags = flags["per-thread"] != 0
                                      ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
                                      : CU_GET_PROC_ADDRESS_LEGACY_STREAM;
  table_driven::DriverTable driver;
  CUresult failure = CUDA_SUCCESS;
  const char* missing = table_driven::fill_table(driver, [&](const char* name, const char*) {
    void* entry = nullptr;
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
    failure = cuGetProcAddress(name, &entry, CUDA_VERSION, lookup_flags, &status);
    return failure == CUDA_SUCCESS && status == CU_GET_PROC_ADDRESS_SUCCESS ? entry : nullptr;
  });
  if (missing != nullptr) {
    examples::fail(kProgram, std::string("cuGetProcAddress_v2 found no ") + missing +
                                 " (CUresult " + std::to_string(static_cast<int>(failure)) + ")");
  }
  table_driven::run_workload(kProgram, driver,
                             {static_cast<int>(flags["iterations"]), flags["elements"],
                              static_cast<uint64_t>(flags["seed"]), /*own_stream=*/false});
  return 0;
}
