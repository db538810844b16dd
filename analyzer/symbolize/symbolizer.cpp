// Module lookup by address, lazy loading of ELF symbols, and the text of a frame.
#include "analyzer/symbolize/symbolizer.h"

#include <algorithm>
#include <cstdio>

namespace tidepool::symbolize {
namespace {

std::string hex(uint64_t v) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(v));
  return buffer;
}

}  // namespace

Symbolizer::Symbolizer(std::span<const trace::Module> modules) {
  for (const trace::Module& m : modules) {
    const size_t slash = m.path.find_last_of('/');
    modules_.push_back({m, slash == std::string::npos ? m.path : m.path.substr(slash + 1)});
  }
  std::stable_sort(modules_.begin(), modules_.end(), [](const auto& a, const auto& b) {
    return a.module.base < b.module.base;
  });
}

Symbolizer::LoadedModule* Symbolizer::module_of(uint64_t address) {
  // The module with the highest base at or below the address that still covers it (a non-PIE
  // executable has base 0 and covers the low addresses only).
  auto it = std::upper_bound(modules_.begin(), modules_.end(), address,
                             [](uint64_t a, const LoadedModule& m) { return a < m.module.base; });
  while (it != modules_.begin()) {
    --it;
    if (address - it->module.base < it->module.size) return &*it;
  }
  return nullptr;
}

std::string Symbolizer::describe(uint64_t return_address) {
  LoadedModule* m = module_of(return_address);
  if (!m) return hex(return_address);
  if (!m->loaded) {
    m->loaded = true;
    m->symbols = read_elf_symbols(m->module.path);
    // A file rebuilt since the trace was taken would give wrong names: better none.
    if (m->symbols && !m->module.build_id.empty() && m->symbols->build_id != m->module.build_id) {
      m->symbols.reset();
    }
  }
  const uint64_t elf_address = return_address - m->module.base;
  // A return address points after its call: look up the byte before it.
  const ElfSymbol* symbol = m->symbols && elf_address > 0 ? m->symbols->find(elf_address - 1)
                                                          : nullptr;
  if (!symbol) return m->short_name + "+" + hex(elf_address);
  return demangle(symbol->name) + "+" + hex(elf_address - symbol->address) + " (" +
         m->short_name + ")";
}

}  // namespace tidepool::symbolize
