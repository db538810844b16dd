// Records from where a process ends: a thread that records and exits, then an exit handler of the
// main thread that records after the thread's own thread-local objects are gone (as the
// optimizer's last decisions are recorded at exit). Settings come from TIDEPOOL_* (the test's).
#include <cstdlib>
#include <string>
#include <thread>

#include "runtime/recorder.h"

namespace {

constexpr int kAtExit = 2000;  // enough to fill chunks and wake the writer thread

void mark(tidepool::runtime::Recorder& rec, const std::string& name) {
  rec.record(tidepool::trace::Mark{rec.intern(name)});
}

}  // namespace

int main() {
  tidepool::runtime::Recorder* rec = tidepool::runtime::Recorder::get();
  if (rec == nullptr) return 2;
  mark(*rec, "main");
  std::thread([rec] { mark(*rec, "thread"); }).join();
  // Registered after the recorder started, so it runs before the recorder stops.
  std::atexit([] {
    tidepool::runtime::Recorder* r = tidepool::runtime::Recorder::get();
    if (r == nullptr) std::_Exit(3);
    for (int i = 0; i < kAtExit; ++i) mark(*r, "at exit " + std::to_string(i % 7));
  });
  return 0;
}
