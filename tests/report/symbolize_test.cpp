// Out-of-process symbolization: ELF symbol tables of this very test binary, demangling, and the
// fallbacks (module+offset, raw address).
#include <gtest/gtest.h>
#include <link.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "analyzer/symbolize/elf_symbols.h"
#include "analyzer/symbolize/symbolizer.h"

extern "C" [[gnu::noinline, gnu::used]] int tidepool_symbolize_test_marker(int x) {
  asm volatile("" ::: "memory");
  return x * 3 + 1;
}

namespace tidepool_test_ns {
[[gnu::noinline, gnu::used]] int marker(int x) {
  asm volatile("" ::: "memory");
  return x * 5 + 2;
}
}  // namespace tidepool_test_ns

namespace tidepool::symbolize {
namespace {

// The main program as the interceptor records it: load bias and extent.
trace::Module main_program() {
  trace::Module m;
  m.path = "/proc/self/exe";
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* module = static_cast<trace::Module*>(data);
        module->base = info->dlpi_addr;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type == PT_LOAD) module->size = std::max<uint64_t>(module->size, ph.p_vaddr + ph.p_memsz);
        }
        return 1;  // the first entry is the main program
      },
      &m);
  return m;
}

uint64_t address_of(int (*f)(int)) { return reinterpret_cast<uint64_t>(f); }

TEST(ElfSymbols, ReadsThisBinary) {
  const auto symbols = read_elf_symbols("/proc/self/exe");
  ASSERT_TRUE(symbols.has_value());
  EXPECT_FALSE(symbols->symbols.empty());
  EXPECT_TRUE(std::is_sorted(symbols->symbols.begin(), symbols->symbols.end(),
                             [](const ElfSymbol& a, const ElfSymbol& b) { return a.address < b.address; }));
  const uint64_t elf_address = address_of(&tidepool_symbolize_test_marker) - main_program().base;
  const ElfSymbol* s = symbols->find(elf_address);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name, "tidepool_symbolize_test_marker");
}

TEST(ElfSymbols, NotElf) {
  EXPECT_FALSE(read_elf_symbols("/nonexistent/file").has_value());
  EXPECT_FALSE(read_elf_symbols("/proc/self/cmdline").has_value());
}

TEST(ElfSymbols, Demangle) {
  EXPECT_EQ(demangle("_ZN16tidepool_test_ns6markerEi"), "tidepool_test_ns::marker(int)");
  EXPECT_EQ(demangle("main"), "main");
}

TEST(Symbolizer, NamesFunctionsInModules) {
  trace::Module m = main_program();
  m.build_id = read_elf_symbols("/proc/self/exe")->build_id;
  const trace::Module other{.path = "/nonexistent/libother.so", .base = 0x7f0000000000,
                            .size = 0x10000};
  const std::vector<trace::Module> modules = {other, m};
  Symbolizer symbolizer(modules);
  EXPECT_EQ(symbolizer.describe(address_of(&tidepool_symbolize_test_marker) + 4),
            "tidepool_symbolize_test_marker+0x4 (exe)");
  EXPECT_EQ(symbolizer.describe(address_of(&tidepool_test_ns::marker) + 2),
            "tidepool_test_ns::marker(int)+0x2 (exe)");
  EXPECT_EQ(symbolizer.describe(0x7f0000000123), "libother.so+0x123");
  EXPECT_EQ(symbolizer.describe(0x7f0000010000), "0x7f0000010000");
}

TEST(Symbolizer, ABuildIdMismatchGivesOffsetsOnly) {
  trace::Module m = main_program();
  m.build_id = "feedface";
  const std::vector<trace::Module> modules = {m};
  Symbolizer symbolizer(modules);
  const uint64_t pc = address_of(&tidepool_symbolize_test_marker) + 4;
  char expected[64];
  std::snprintf(expected, sizeof expected, "exe+0x%llx",
                static_cast<unsigned long long>(pc - m.base));
  EXPECT_EQ(symbolizer.describe(pc), expected);
}

}  // namespace
}  // namespace tidepool::symbolize
