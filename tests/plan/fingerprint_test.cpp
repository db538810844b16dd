// Fingerprints follow their documented byte layout, and see allocations and kernels only.
#include "analyzer/plan/fingerprint.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace tidepool::plan {
namespace {

// FNV-1a written out from its definition, independent of the library's.
std::string reference_fnv1a(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char out[32];
  std::snprintf(out, sizeof out, "fnv1a64:%016llx", static_cast<unsigned long long>(h));
  return out;
}

TEST(Fingerprint, DocumentedLayout) {
  iteration::EventStream s;
  const auto gemm = s.intern("gemm");
  const auto h2d = s.intern("host_to_device");
  s.events = {{.kind = iteration::EventKind::alloc, .allocation = 1, .bytes = 0x0102},
              {.kind = iteration::EventKind::launch, .name = gemm},
              {.kind = iteration::EventKind::transfer, .name = h2d, .bytes = 64},
              {.kind = iteration::EventKind::free, .allocation = 1, .bytes = 0x0102}};
  std::string bytes = "A";
  bytes += std::string("\x02\x01\0\0\0\0\0\0", 8);
  bytes += "Kgemm";
  bytes += '\0';
  EXPECT_EQ(fingerprint(s, {0, 4}), reference_fnv1a(bytes));
  EXPECT_EQ(fingerprint(s, {0, 0}), reference_fnv1a(""));
  EXPECT_EQ(fingerprint(s, {0, 2}), fingerprint(s, {0, 4}));  // transfers and frees do not count

  Fingerprinter f;
  f.add_alloc(0x0102);
  f.add_kernel("gemm");
  EXPECT_EQ(f.text(), fingerprint(s, {0, 4}));
}

}  // namespace
}  // namespace tidepool::plan
