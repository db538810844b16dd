// Turns return addresses into text, out of process, from a trace's module list:
// "function+0x1c (libfoo.so)" when the module's file is readable (and its build id matches),
// "libfoo.so+0x1234" (offset = ELF address) when the symbol is unknown, "0x7f12..." when no
// module covers the address. Each module's file is read once, on first use.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analyzer/symbolize/elf_symbols.h"
#include "analyzer/trace/format.h"

namespace tidepool::symbolize {

class Symbolizer {
 public:
  explicit Symbolizer(std::span<const trace::Module> modules);

  std::string describe(uint64_t return_address);

 private:
  struct LoadedModule {
    trace::Module module;
    std::string short_name;                  // the file name without its directory
    bool loaded = false;
    std::optional<ElfSymbols> symbols;       // empty when unreadable or of another build
  };
  LoadedModule* module_of(uint64_t address);

  std::vector<LoadedModule> modules_;  // sorted by base
};

}  // namespace tidepool::symbolize
