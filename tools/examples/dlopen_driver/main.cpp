// dlopen_driver: loads the driver with dlopen("libcuda.so.1") and takes every entry point it uses
// from dlsym under its ABI symbol name (cuMemAlloc_v2, ...); it does not link the driver at all.
// Runs the table-driven workload (see table_driven/workload.h) on a stream of its own.
#include <dlfcn.h>

#include <string>

#include "tools/examples/common/check.h"
#include "tools/examples/common/flags.h"
#include "tools/examples/table_driven/workload.h"

int main(int argc, char** argv) {
  constexpr char kProgram[] = "dlopen_driver";
  const examples::Flags flags(kProgram,
                              {{"iterations", 12, 1, 100000, "iterations"},
                               {"elements", 1 << 18, 1, 1 << 28, "floats per vector"},
                               {"seed", 1, 0, int64_t{1} << 40, "seed of the data"}},
                              argc, argv);
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) examples::fail(kProgram, std::string("dlopen: ") + dlerror());
  table_driven::DriverTable driver;
  const char* missing = table_driven::fill_table(
      driver, [&](const char*, const char* symbol) { return dlsym(library, symbol); });
  if (missing != nullptr) examples::fail(kProgram, std::string("dlsym found no ") + missing);
  table_driven::run_workload(kProgram, driver,
                             {static_cast<int>(flags["iterations"]), flags["elements"],
                              static_cast<uint64_t>(flags["seed"]), /*own_stream=*/true});
  // The driver stays loaded: its exit-time work (e.g. simcuda's statistics) runs after main.
  return 0;
}
