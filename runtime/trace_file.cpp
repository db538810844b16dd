// Names, creates and heads this process's trace file.
#include "runtime/trace_file.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>

namespace tidepool::runtime {
namespace {

std::vector<std::string> command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string all{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<std::string> args;
  for (size_t start = 0; start < all.size();) {
    const size_t end = all.find('\0', start);
    args.push_back(all.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return args;
}

std::string base_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// File names must not carry separators or dots of their own beyond ours.
std::string sanitized(std::string text) {
  for (char& c : text) {
    if (c == '/' || c == '\0' || c == ' ') c = '_';
  }
  return text.empty() ? std::string{"unknown"} : text;
}

int32_t parse_rank(const std::string& text) {
  int32_t rank = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), rank);
  return error == std::errc{} && end == text.data() + text.size() && rank >= 0 ? rank : -1;
}

}  // namespace

trace::Header make_header(const Settings& settings, int driver_version) {
  trace::Header h;
  h.pid = static_cast<uint32_t>(getpid());
  h.parent_pid = static_cast<uint32_t>(getppid());
  h.rank = parse_rank(settings.rank);
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof host - 1) == 0) h.host = host;
  h.command_line = command_line();
  h.program = h.command_line.empty() ? std::string{"unknown"} : base_name(h.command_line.front());
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  h.start_time_unix_ns = static_cast<uint64_t>(now.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(now.tv_nsec);
  h.driver_version = driver_version;
  h.source = "tidepool run 0.1.0";
  return h;
}

std::string trace_file_name(const trace::Header& header) {
  std::string name = sanitized(header.program);
  for (const std::string& part : {sanitized(header.host), std::to_string(header.pid)}) name.append(".").append(part);
  if (header.rank >= 0) name.append(".").append(std::to_string(header.rank));
  return name.append(".tpt");
}

std::string trace_file_path(const Settings& settings, const trace::Header& header) {
  return settings.output_dir + "/" + trace_file_name(header);
}

int open_trace_file(const std::string& path, bool overwrite) {
  const int mode = O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL);
  const int fd = open(path.c_str(), mode, 0644);
  if (fd < 0) {
    if (errno == EEXIST) {
      std::fprintf(stderr, "tidepool: %s exists (use -f to overwrite); not tracing this process\n", path.c_str());
    } else {
      std::fprintf(stderr, "tidepool: cannot create %s: %s; not tracing this process\n", path.c_str(), std::strerror(errno));
    }
  }
  return fd;
}

}  // namespace tidepool::runtime
