// The function symbols and build id of an ELF file, read from its .symtab and .dynsym, for
// symbolizing call stacks out of process. Reads only headers and symbol tables (pread), so that
// large libraries are cheap; any malformed or unreadable file gives an empty result, never a crash.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tidepool::symbolize {

struct ElfSymbol {
  uint64_t address = 0;  // ELF virtual address (st_value)
  uint64_t size = 0;
  std::string name;      // as in the file (mangled)
};

struct ElfSymbols {
  std::vector<ElfSymbol> symbols;  // functions, sorted by address, duplicates removed
  std::string build_id;            // hex of NT_GNU_BUILD_ID, empty when none

  // The symbol containing address (or, for symbols of size 0, the nearest one below it).
  const ElfSymbol* find(uint64_t address) const;
};

// Nothing when the file cannot be opened or is not a 64-bit little-endian ELF file.
std::optional<ElfSymbols> read_elf_symbols(const std::string& path);

// abi::__cxa_demangle, or the name unchanged when it is not a mangled C++ name.
std::string demangle(std::string_view name);

}  // namespace tidepool::symbolize
