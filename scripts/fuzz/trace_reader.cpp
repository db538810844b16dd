// libFuzzer target: any bytes, read as a trace file in memory (parse_trace) and from a file in
// order (InOrderReader, every event and then a bounded read of allocations), either read or fail
// with TraceError. Built and run by scripts/fuzz/run.sh.
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "analyzer/trace/in_order.h"
#include "analyzer/trace/reader.h"

using tidepool::trace::Event;
using tidepool::trace::RecordTag;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    (void)tidepool::trace::parse_trace({data, size});
  } catch (const tidepool::trace::TraceError&) {
  }
  static const std::string path = "/tmp/tidepool-fuzz-trace." + std::to_string(getpid()) + ".tpt";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  try {
    const tidepool::trace::InOrderReader reader(path);
    reader.read([](RecordTag) { return true; }, [](Event&&, uint64_t) {});
    reader.read([](RecordTag tag) { return tag == RecordTag::alloc; }, [](Event&&, uint64_t) {}, 5);
  } catch (const tidepool::trace::TraceError&) {
  }
  return 0;
}
