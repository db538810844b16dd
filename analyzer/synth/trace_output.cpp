// The synthetic program to trace records (see trace_output.h).
#include "analyzer/synth/trace_output.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "analyzer/trace/writer.h"

namespace tidepool::synth {
namespace {

class Emitter {
 public:
  Emitter(trace::Writer& writer, const std::filesystem::path& path) : writer_(writer), path_(path) {}

  std::uint32_t string_id(const std::string& text) {
    auto [it, added] = strings_.try_emplace(text, static_cast<std::uint32_t>(strings_.size() + 1));
    if (added) check(writer_.append(trace::String{it->second, text}));
    return it->second;
  }
  void event(trace::Record record) {
    check(writer_.append(trace::Event{++seq_, clock_ns_, 1, std::move(record)}));
  }
  std::uint64_t alloc(std::uint64_t bytes) {
    const std::uint64_t id = ++alloc_id_;
    event(trace::Alloc{.alloc_id = id, .kind = trace::AllocKind::device, .address = next_address_,
                       .size = bytes});
    next_address_ += (bytes + 511) / 512 * 512;
    return id;
  }
  void free(std::uint64_t id) { event(trace::Free{.alloc_id = id, .kind = trace::AllocKind::device}); }
  // Runs one operation for `seconds` on the device: the record, then its timing.
  void op(trace::Record record, double seconds) {
    event(std::move(record));
    const std::uint64_t start = clock_ns_;
    clock_ns_ += static_cast<std::uint64_t>(std::llround(seconds * 1e9));
    event(trace::DeviceTiming{op_id_, start, clock_ns_});
  }
  std::uint64_t next_op_id() { return ++op_id_; }
  void check(trace::WriteStatus status) const {
    if (status != trace::WriteStatus::ok)
      throw std::runtime_error(path_.string() + ": cannot write the trace: " + std::strerror(errno));
  }

 private:
  trace::Writer& writer_;
  const std::filesystem::path& path_;
  std::unordered_map<std::string, std::uint32_t> strings_;
  std::uint64_t seq_ = 0, clock_ns_ = 0, alloc_id_ = 0, op_id_ = 0;
  std::uint64_t next_address_ = 0x7f0000000000;
};

void emit_step(Emitter& out, const Program& program, const Step& step,
               const std::vector<std::uint64_t>& ids) {
  const std::uint64_t op_id = out.next_op_id();
  if (step.kind == StepKind::kernel) {
    trace::Launch launch{.op_id = op_id, .kernel_name_id = out.string_id(step.name),
                         .function = out.string_id(step.name), .params_decoded = true};
    for (TensorId t : step.tensors) launch.accesses.push_back({ids[t], 0, false});
    out.op(std::move(launch), step.seconds);
    return;
  }
  const TensorId t = step.tensors.front();
  const std::uint64_t bytes = program.tensors[t].bytes;
  const trace::Range device{ids[t], 0, bytes}, host{0, 0x10000000, bytes};
  const bool in = step.kind == StepKind::copy_to_device;
  out.op(trace::Copy{.op_id = op_id, .kind = in ? trace::CopyKind::host_to_device : trace::CopyKind::device_to_host,
                     .src = in ? host : device, .dst = in ? device : host, .bytes = bytes, .async = true},
         step.seconds);
}

void emit(Emitter& out, const Program& program, int iterations) {
  const std::size_t count = program.tensors.size();
  std::vector<long> first(count, -1), last(count, -1);
  for (std::size_t s = 0; s < program.steps.size(); ++s)
    for (TensorId t : program.steps[s].tensors) {
      if (first[t] < 0) first[t] = static_cast<long>(s);
      last[t] = static_cast<long>(s);
    }
  std::vector<std::vector<TensorId>> allocs(program.steps.size()), frees(program.steps.size());
  std::vector<std::uint64_t> ids(count, 0);
  for (TensorId t = 0; t < count; ++t) {
    if (is_persistent(program.tensors[t].role)) {
      ids[t] = out.alloc(program.tensors[t].bytes);
    } else if (first[t] >= 0) {
      allocs[first[t]].push_back(t);
      frees[last[t]].push_back(t);
    }
  }
  const std::uint32_t range = out.string_id(kIterationRange);
  for (int it = 0; it < iterations; ++it) {
    out.event(trace::RangePush{range});
    for (std::size_t s = 0; s < program.steps.size(); ++s) {
      for (TensorId t : allocs[s]) ids[t] = out.alloc(program.tensors[t].bytes);
      emit_step(out, program, program.steps[s], ids);
      for (TensorId t : frees[s]) out.free(ids[t]);
    }
    out.event(trace::RangePop{});
  }
  for (TensorId t = 0; t < count; ++t)
    if (is_persistent(program.tensors[t].role)) out.free(ids[t]);
}

}  // namespace

void write_trace(const Program& program, int iterations, const std::string& source,
                 const std::filesystem::path& path) {
  if (iterations < 1) throw std::invalid_argument("--iterations must be at least 1");
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(path.string() + ": " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  trace::Writer writer(fd);
  trace::Header header{.program = "synth", .command_line = {"tidepool", "synth", program.model},
                       .synthetic = true, .source = source};
  Emitter out(writer, path);
  out.check(writer.begin(header));
  emit(out, program, iterations);
  out.check(writer.flush());
}

}  // namespace tidepool::synth
