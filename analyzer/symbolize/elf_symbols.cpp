// ELF64 symbol tables and build-id note, read with bounds checks on every offset.
#include "analyzer/symbolize/elf_symbols.h"

#include <cxxabi.h>
#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace tidepool::symbolize {
namespace {

constexpr uint64_t kMaxTableBytes = uint64_t{1} << 31;

class File {
 public:
  explicit File(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd_ >= 0) size_ = static_cast<uint64_t>(std::max<off_t>(::lseek(fd_, 0, SEEK_END), 0));
  }
  ~File() {
    if (fd_ >= 0) ::close(fd_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  bool ok() const { return fd_ >= 0; }
  // Reads exactly bytes at offset; false when the range is outside the file.
  bool read(uint64_t offset, void* out, uint64_t bytes) const {
    if (offset > size_ || bytes > size_ - offset) return false;
    auto* p = static_cast<char*>(out);
    while (bytes > 0) {
      const ssize_t n = ::pread(fd_, p, bytes, static_cast<off_t>(offset));
      if (n <= 0) return false;
      p += n;
      offset += static_cast<uint64_t>(n);
      bytes -= static_cast<uint64_t>(n);
    }
    return true;
  }
  bool read_bytes(uint64_t offset, uint64_t bytes, std::vector<char>& out) const {
    if (bytes > kMaxTableBytes) return false;
    out.resize(bytes);
    return read(offset, out.data(), bytes);
  }

 private:
  int fd_;
  uint64_t size_ = 0;
};

void add_symbols(const File& file, const std::vector<Elf64_Shdr>& sections, size_t index,
                 std::vector<ElfSymbol>& out) {
  const Elf64_Shdr& table = sections[index];
  if (table.sh_link >= sections.size() || table.sh_entsize != sizeof(Elf64_Sym)) return;
  const Elf64_Shdr& strings_section = sections[table.sh_link];
  std::vector<char> symbols;
  std::vector<char> strings;
  if (!file.read_bytes(table.sh_offset, table.sh_size, symbols) ||
      !file.read_bytes(strings_section.sh_offset, strings_section.sh_size, strings)) {
    return;
  }
  const size_t count = symbols.size() / sizeof(Elf64_Sym);
  for (size_t i = 0; i < count; ++i) {
    Elf64_Sym sym;
    std::memcpy(&sym, symbols.data() + i * sizeof(Elf64_Sym), sizeof sym);
    const unsigned type = ELF64_ST_TYPE(sym.st_info);
    if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
        sym.st_value == 0 || sym.st_name >= strings.size()) {
      continue;
    }
    const char* name = strings.data() + sym.st_name;
    const size_t length = strnlen(name, strings.size() - sym.st_name);
    if (length == 0) continue;
    out.push_back({sym.st_value, sym.st_size, std::string(name, length)});
  }
}

std::string build_id_of(const File& file, const Elf64_Shdr& note_section) {
  std::vector<char> notes;
  if (!file.read_bytes(note_section.sh_offset, note_section.sh_size, notes)) return {};
  size_t at = 0;
  auto align4 = [](uint64_t v) { return (v + 3) & ~uint64_t{3}; };
  while (at + sizeof(Elf64_Nhdr) <= notes.size()) {
    Elf64_Nhdr note;
    std::memcpy(&note, notes.data() + at, sizeof note);
    const uint64_t name_at = at + sizeof note;
    const uint64_t desc_at = name_at + align4(note.n_namesz);
    const uint64_t next = desc_at + align4(note.n_descsz);
    if (next > notes.size()) return {};
    if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
        std::memcmp(notes.data() + name_at, "GNU", 4) == 0) {
      static constexpr char kHex[] = "0123456789abcdef";
      std::string hex;
      for (uint64_t i = 0; i < note.n_descsz; ++i) {
        const auto byte = static_cast<unsigned char>(notes[desc_at + i]);
        hex += kHex[byte >> 4];
        hex += kHex[byte & 15];
      }
      return hex;
    }
    at = next;
  }
  return {};
}

}  // namespace

const ElfSymbol* ElfSymbols::find(uint64_t address) const {
  auto it = std::upper_bound(symbols.begin(), symbols.end(), address,
                             [](uint64_t a, const ElfSymbol& s) { return a < s.address; });
  if (it == symbols.begin()) return nullptr;
  --it;
  if (it->size != 0 && address >= it->address + it->size) return nullptr;
  return &*it;
}

std::optional<ElfSymbols> read_elf_symbols(const std::string& path) {
  const File file(path);
  if (!file.ok()) return std::nullopt;
  Elf64_Ehdr header;
  if (!file.read(0, &header, sizeof header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB ||
      header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shnum == 0) {
    return std::nullopt;
  }
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  if (!file.read(header.e_shoff, sections.data(), sections.size() * sizeof(Elf64_Shdr))) {
    return std::nullopt;
  }
  ElfSymbols result;
  for (size_t i = 0; i < sections.size(); ++i) {
    if (sections[i].sh_type == SHT_SYMTAB || sections[i].sh_type == SHT_DYNSYM) {
      add_symbols(file, sections, i, result.symbols);
    } else if (sections[i].sh_type == SHT_NOTE && result.build_id.empty()) {
      result.build_id = build_id_of(file, sections[i]);
    }
  }
  std::sort(result.symbols.begin(), result.symbols.end(),
            [](const ElfSymbol& a, const ElfSymbol& b) {
              return a.address != b.address ? a.address < b.address : a.size > b.size;
            });
  result.symbols.erase(std::unique(result.symbols.begin(), result.symbols.end(),
                                   [](const ElfSymbol& a, const ElfSymbol& b) {
                                     return a.address == b.address;
                                   }),
                       result.symbols.end());
  return result;
}

std::string demangle(std::string_view name) {
  const std::string mangled(name);
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> plain(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && plain ? std::string(plain.get()) : mangled;
}

}  // namespace tidepool::symbolize
