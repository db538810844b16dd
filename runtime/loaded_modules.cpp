// Lists loaded ELF objects with dl_iterate_phdr.
#include "runtime/loaded_modules.h"

#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

namespace tidepool::runtime {
namespace {

std::string hex(const uint8_t* bytes, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 15];
  }
  return out;
}

std::string build_id(const dl_phdr_info& info) {
  for (int i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info.dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const uint8_t*>(info.dlpi_addr + ph.p_vaddr);
    const uint8_t* end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(p);
      const uint8_t* name = p + sizeof(ElfW(Nhdr));
      const uint8_t* desc = name + ((note->n_namesz + 3) & ~3u);
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        return hex(desc, note->n_descsz);
      }
      p = desc + ((note->n_descsz + 3) & ~3u);
    }
  }
  return {};
}

std::string main_program_path() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<size_t>(n)) : std::string{};
}

}  // namespace

uint64_t module_load_count() {
  uint64_t adds = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t size, void* out) {
        if (size >= offsetof(dl_phdr_info, dlpi_adds) + sizeof(info->dlpi_adds)) {
          *static_cast<uint64_t*>(out) = info->dlpi_adds;
        }
        return 1;  // the counter is the same in every entry
      },
      &adds);
  return adds;
}

std::vector<trace::Module> loaded_modules() {
  std::vector<trace::Module> modules;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        auto& list = *static_cast<std::vector<trace::Module>*>(out);
        trace::Module m;
        m.path = info->dlpi_name != nullptr && info->dlpi_name[0] != '\0' ? info->dlpi_name : "";
        if (m.path.empty()) {
          if (!list.empty()) return 0;  // the vDSO and the like have no file
          m.path = main_program_path();
        }
        m.base = info->dlpi_addr;
        uint64_t high = 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type == PT_LOAD) high = std::max<uint64_t>(high, ph.p_vaddr + ph.p_memsz);
        }
        m.size = high;
        m.build_id = build_id(*info);
        list.push_back(std::move(m));
        return 0;
      },
      &modules);
  return modules;
}

}  // namespace tidepool::runtime
