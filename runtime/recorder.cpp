// The recorder's machinery: per-thread encode buffers, the background writer thread, interned
// strings and stacks, start at first use, stop at exit, and fork safety.
#include "runtime/recorder.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyzer/trace/codec.h"
#include "analyzer/trace/writer.h"
#include "runtime/event_chunks.h"
#include "runtime/loaded_modules.h"
#include "runtime/monotonic_clock.h"
#include "runtime/settings.h"
#include "runtime/trace_file.h"

namespace tidepool::runtime {

namespace {

constexpr auto kFlushPeriod = std::chrono::milliseconds(200);
constexpr size_t kChunksReady = 4;  // event chunks kept ready for recording threads

uint32_t this_thread_id() {
  static thread_local const auto tid = static_cast<uint32_t>(syscall(SYS_gettid));
  return tid;
}

// A thread's recording state. Its thread-local destructors run before the process's atexit
// handlers and static destructors, which may still record (the optimizer's last decisions): so
// the state lives behind a trivially destructible pointer, freed by a guard that also marks the
// thread as exiting, and an exiting thread records through the recorder's shared late path.
struct ThreadState {
  std::shared_ptr<ThreadEvents> events;
  std::unordered_map<uint64_t, std::pair<std::vector<uint64_t>, uint32_t>> stacks;  // stack_id's cache
};
thread_local ThreadState* t_state = nullptr;
thread_local bool t_exiting = false;
struct ThreadStateOwner {
  ~ThreadStateOwner() {
    t_exiting = true;
    delete std::exchange(t_state, nullptr);
  }
};
thread_local ThreadStateOwner t_state_owner;

uint64_t hash_frames(std::span<const uint64_t> frames) {
  uint64_t h = 1469598103934665603ull;
  for (uint64_t f : frames) h = (h ^ f) * 1099511628211ull;
  return h;
}

}  // namespace

// Everything a started recorder owns.
class RecorderImpl {
 public:
  RecorderImpl(int fd, std::string path) : fd_(fd), path_(std::move(path)), writer_(fd) {}

  bool begin(const trace::Header& header) {
    start_ns_ = monotonic_ns();
    if (writer_.begin(header) != trace::WriteStatus::ok) {
      std::fprintf(stderr, "tidepool: cannot write %s: %s; not tracing this process\n",
                   path_.c_str(), std::strerror(errno));
      return false;
    }
    write_new_modules();
    written(writer_.flush());
    thread_ = std::thread([this] { run(); });
    return true;
  }

  uint64_t reserve_sequence() { return seq_.fetch_add(1, std::memory_order_relaxed); }

  void record(trace::Event& event) { record_at(reserve_sequence(), event); }

  void record_at(uint64_t sequence, trace::Event& event) {
    event.seq = sequence;
    event.time_ns = monotonic_ns() - start_ns_;
    event.thread = this_thread_id();
    append(event);
  }

  void record_together(trace::Event& first, trace::Event& second) {
    first.seq = seq_.fetch_add(2, std::memory_order_relaxed);
    second.seq = first.seq + 1;
    first.time_ns = second.time_ns = monotonic_ns() - start_ns_;
    first.thread = second.thread = this_thread_id();
    append(first, second);
  }

  // Encodes straight into the thread's chunk, which allocates nothing once warm. Records that find
  // no memory are dropped: the program's comes first.
  template <class... Records>
  void append(const Records&... records) {
    if (t_exiting) {
      append_late(records...);
      return;
    }
    if (ThreadState* state = this_thread_state()) append_to(*state->events, records...);
  }

  uint32_t intern(std::string_view text) {
    const std::lock_guard lock(strings_mutex_);
    auto [it, inserted] = strings_.try_emplace(std::string{text}, static_cast<uint32_t>(strings_.size() + 1));
    if (inserted) append(trace::String{it->second, it->first});
    return it->second;
  }

  uint32_t stack_id(std::span<const uint64_t> frames) {
    if (frames.empty()) return 0;
    const uint64_t hash = hash_frames(frames);
    ThreadState* state = t_exiting ? nullptr : this_thread_state();
    if (state != nullptr) {
      if (auto it = state->stacks.find(hash); it != state->stacks.end() && std::ranges::equal(it->second.first, frames))
        return it->second.second;
    }
    uint32_t id = 0;
    {
      const std::lock_guard lock(stacks_mutex_);
      auto& candidates = stacks_[hash];
      for (const auto& [known, known_id] : candidates) {
        if (std::ranges::equal(known, frames)) id = known_id;
      }
      if (id == 0) {
        id = ++stack_count_;
        candidates.emplace_back(std::vector<uint64_t>(frames.begin(), frames.end()), id);
        append(trace::Stack{id, std::vector<uint64_t>(frames.begin(), frames.end())});
      }
    }
    if (state != nullptr) state->stacks[hash] = {std::vector<uint64_t>(frames.begin(), frames.end()), id};
    return id;
  }

  // Stops the writer thread and writes what is left.
  void finish() {
    {
      const std::lock_guard lock(wake_mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    drain();
    close(fd_);
  }

  void flush_now() {
    const std::lock_guard lock(drain_mutex_);
    drain_locked();
  }

  // In a forked child: the writer thread does not exist there, and the locks may be held by
  // threads that do not exist either. Only the descriptor is released.
  void abandon_in_child() { close(fd_); }

 private:
  template <class... Records>
  void append_to(ThreadEvents& events, const Records&... records) {
    const ThreadEvents::Room room = events.reserve((trace::encoded_size_bound(records) + ...));
    if (room.bytes.empty()) return;
    size_t used = 0;
    ((used += trace::encode_into(room.bytes.subspan(used), records)), ...);
    events.commit(used);
    // A full chunk wakes the writer, which recycles it and readies the next ones.
    if (room.fresh_chunk) wake_.notify_one();
  }

  // The calling thread's state, made at its first record (nullptr when out of memory).
  ThreadState* this_thread_state() {
    if (t_state != nullptr) return t_state;
    (void)&t_state_owner;  // constructs the guard that frees the state at the thread's exit
    auto* state = new (std::nothrow) ThreadState;
    if (state == nullptr) return nullptr;
    try {
      state->events = std::make_shared<ThreadEvents>(pool_);
      const std::lock_guard lock(registry_mutex_);
      threads_.push_back(state->events);
    } catch (const std::bad_alloc&) {
      delete state;
      return nullptr;
    }
    t_state = state;
    return state;
  }

  // Records of threads whose thread-local state is gone (exit handlers), one at a time.
  template <class... Records>
  void append_late(const Records&... records) {
    const std::lock_guard lock(late_mutex_);
    if (!late_events_) {
      try {
        auto events = std::make_shared<ThreadEvents>(pool_);  // held here: never taken for a finished thread
        const std::lock_guard registry(registry_mutex_);
        threads_.push_back(events);
        late_events_ = std::move(events);
      } catch (const std::bad_alloc&) {
        return;
      }
    }
    append_to(*late_events_, records...);
  }

  void run() {
    std::unique_lock lock(wake_mutex_);
    while (!stopping_) {
      pool_.keep_ready(kChunksReady);
      wake_.wait_for(lock, kFlushPeriod);
      if (stopping_) break;
      lock.unlock();
      flush_now();
      lock.lock();
    }
  }

  void drain() {
    const std::lock_guard lock(drain_mutex_);
    drain_locked();
  }

  void drain_locked() {
    std::vector<std::shared_ptr<ThreadEvents>> threads;
    {
      const std::lock_guard lock(registry_mutex_);
      threads = threads_;
    }
    write_new_modules();
    std::vector<const ThreadEvents*> finished;
    for (const auto& thread : threads) {
      // After a failed write the chunks are still read, so that the threads' buffers are recycled.
      const bool all_read = thread->drain([this](std::span<const uint8_t> bytes) {
        if (!write_failed_) written(writer_.append_encoded(bytes));
      });
      // A thread that ended (only the registry and this list hold it) goes once read to the end.
      if (all_read && thread.use_count() == 2) finished.push_back(thread.get());
    }
    if (!write_failed_) written(writer_.flush());
    if (finished.empty()) return;
    threads.clear();
    const std::lock_guard lock(registry_mutex_);
    std::erase_if(threads_, [&](const auto& t) { return std::ranges::find(finished, t.get()) != finished.end(); });
  }

  void write_new_modules() {
    const uint64_t count = module_load_count();
    if (write_failed_ || (count == module_count_ && count != 0)) return;
    module_count_ = count;
    for (trace::Module& m : loaded_modules()) {
      if (seen_modules_.emplace(m.path, m.base).second) written(writer_.append(m));
    }
  }

  // The first failed write ends the trace where it is whole: one line says why, and nothing more
  // is written (after a chunk written in part, the reader could not reach what follows). The
  // program runs on.
  void written(trace::WriteStatus status) {
    if (status != trace::WriteStatus::io_error || write_failed_) return;
    const int error = errno;
    write_failed_ = true;
    std::fprintf(stderr,
                 "tidepool: cannot write %s: %s; the trace ends here, the program runs on\n",
                 path_.c_str(), std::strerror(error));
  }

  int fd_;
  std::string path_;
  bool write_failed_ = false;  // under drain_mutex_ (or before the writer thread starts)
  trace::Writer writer_;
  uint64_t start_ns_ = 0;
  std::atomic<uint64_t> seq_{1};
  std::thread thread_;
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::mutex drain_mutex_;  // one drain at a time (writer thread, flush, stop)
  ChunkPool pool_;
  std::mutex registry_mutex_;
  std::vector<std::shared_ptr<ThreadEvents>> threads_;
  std::mutex late_mutex_;  // guards the one below
  std::shared_ptr<ThreadEvents> late_events_;
  uint64_t module_count_ = 0;
  std::set<std::pair<std::string, uint64_t>> seen_modules_;
  std::mutex strings_mutex_;
  std::unordered_map<std::string, uint32_t> strings_;
  std::mutex stacks_mutex_;
  std::unordered_map<uint64_t, std::vector<std::pair<std::vector<uint64_t>, uint32_t>>> stacks_;
  uint32_t stack_count_ = 0;
};

namespace {

enum class Status { not_started, running, off };

struct Process {
  std::mutex mutex;
  Status status = Status::not_started;
  Recorder* recorder = nullptr;  // never freed: hooks may run during exit
  RecorderImpl* impl = nullptr;
};

Process& process() {
  static Process* const p = new Process;  // outlives every static destructor
  return *p;
}

std::atomic<Recorder*> g_active{nullptr};
std::atomic<RecorderImpl*> g_impl{nullptr};
// Set once the first start has been tried: from then on g_active is the answer (a recorder that is
// off stays off), so hooks in a process that records nothing take no lock per call.
std::atomic<bool> g_start_tried{false};

void after_fork_in_child() {
  Process& p = process();
  if (p.status == Status::running) {
    g_active.store(nullptr);
    g_impl.store(nullptr);
    p.impl->abandon_in_child();
    new (&p.mutex) std::mutex;  // another thread may have held it in the parent
    p.status = Status::off;
  }
}

// Stops the recorder when the library is unloaded or the process exits.
struct StopAtExit {
  ~StopAtExit() { Recorder::stop(); }
} g_stop_at_exit;

}  // namespace

Recorder* Recorder::get(int (*driver_version)()) {
  if (Recorder* r = g_active.load(std::memory_order_acquire)) return r;
  if (g_start_tried.load(std::memory_order_acquire))
    return g_active.load(std::memory_order_acquire);
  Process& p = process();
  const std::lock_guard lock(p.mutex);
  if (p.status != Status::not_started) return g_active.load(std::memory_order_acquire);
  // Marked on the way out, under the lock: a thread that finds it set sees the started recorder.
  struct MarkTried {
    ~MarkTried() { g_start_tried.store(true, std::memory_order_release); }
  } mark_tried;
  p.status = Status::off;
  const Settings& s = settings();
  if (s.disabled) return nullptr;
  const trace::Header header = make_header(s, driver_version != nullptr ? driver_version() : 0);
  const std::string path = trace_file_path(s, header);
  const int fd = open_trace_file(path, s.overwrite);
  if (fd < 0) return nullptr;
  auto impl = std::make_unique<RecorderImpl>(fd, path);
  if (!impl->begin(header)) {
    impl.reset();  // its writer's last flush fails as the first did
    close(fd);
    unlink(path.c_str());
    return nullptr;
  }
  static std::once_flag atfork_once;
  std::call_once(atfork_once, [] { pthread_atfork(nullptr, nullptr, after_fork_in_child); });
  p.recorder = new Recorder;
  p.impl = impl.release();  // never freed: hooks may run during exit
  p.status = Status::running;
  g_impl.store(p.impl, std::memory_order_release);
  g_active.store(p.recorder, std::memory_order_release);
  return p.recorder;
}

void Recorder::record(trace::Event& event) {
  if (RecorderImpl* impl = g_impl.load(std::memory_order_acquire)) impl->record(event);
}

void Recorder::record(trace::Event& first, trace::Event& second) {
  if (RecorderImpl* impl = g_impl.load(std::memory_order_acquire)) impl->record_together(first, second);
}

uint64_t Recorder::reserve_sequence() {
  RecorderImpl* impl = g_impl.load(std::memory_order_acquire);
  return impl != nullptr ? impl->reserve_sequence() : 0;
}

void Recorder::record_at(uint64_t sequence, trace::Event& event) {
  RecorderImpl* impl = g_impl.load(std::memory_order_acquire);
  if (impl == nullptr) return;
  if (sequence == 0) impl->record(event);
  else impl->record_at(sequence, event);
}

uint32_t Recorder::intern(std::string_view text) {
  RecorderImpl* impl = g_impl.load(std::memory_order_acquire);
  return impl != nullptr ? impl->intern(text) : 0;
}

uint32_t Recorder::stack_id(std::span<const uint64_t> frames) {
  RecorderImpl* impl = g_impl.load(std::memory_order_acquire);
  return impl != nullptr ? impl->stack_id(frames) : 0;
}

void Recorder::flush() {
  if (RecorderImpl* impl = g_impl.load(std::memory_order_acquire)) impl->flush_now();
}

void Recorder::stop() {
  Process& p = process();
  const std::lock_guard lock(p.mutex);
  if (p.status != Status::running) {
    p.status = Status::off;
    g_start_tried.store(true, std::memory_order_release);
    return;
  }
  g_active.store(nullptr, std::memory_order_release);
  p.impl->finish();  // the impl stays allocated: a hook may still be using it
  g_impl.store(nullptr, std::memory_order_release);
  p.status = Status::off;
}

}  // namespace tidepool::runtime
