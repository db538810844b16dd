// A Trace -> a trace file, through the Writer. Strings and stacks go in id order so that the same
// Trace always gives the same bytes.
#include "analyzer/trace/save.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "analyzer/trace/reader.h"
#include "analyzer/trace/writer.h"

namespace tidepool::trace {
namespace {

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

template <class Map>
std::vector<uint32_t> sorted_ids(const Map& map) {
  std::vector<uint32_t> ids;
  for (const auto& [id, value] : map) ids.push_back(id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace

void save_trace(const Trace& trace, const std::filesystem::path& path) {
  Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  auto fail = [&](const char* what) {
    throw TraceError(path.string() + ": " + what + ": " + std::strerror(errno));
  };
  if (fd.get() < 0) fail("cannot create");
  WriteStatus status = WriteStatus::ok;
  {
    Writer writer(fd.get());
    auto check = [&](WriteStatus s) {
      if (status == WriteStatus::ok) status = s;
    };
    check(writer.begin(trace.header));
    for (const Module& m : trace.modules) check(writer.append(m));
    for (uint32_t id : sorted_ids(trace.strings)) check(writer.append(String{id, trace.strings.at(id)}));
    for (uint32_t id : sorted_ids(trace.stacks)) check(writer.append(Stack{id, trace.stacks.at(id)}));
    for (const Event& e : trace.events) check(writer.append(e));
    check(writer.flush());
  }
  if (status == WriteStatus::out_of_memory) throw TraceError(path.string() + ": out of memory");
  if (status != WriteStatus::ok) fail("cannot write");
  if (::close(fd.release()) != 0) fail("cannot write");
}

}  // namespace tidepool::trace
