// The ELF objects loaded in this process (path, load bias, size, build id), so that return
// addresses recorded in stacks can be symbolized later, outside the program.
#pragma once

#include <cstdint>
#include <vector>

#include "analyzer/trace/format.h"

namespace tidepool::runtime {

// How many objects were ever loaded (dl_iterate_phdr's counter): changes when one is.
uint64_t module_load_count();

std::vector<trace::Module> loaded_modules();

}  // namespace tidepool::runtime
