// Per-thread objects that the hooks reuse from call to call (an event being filled in, a list of
// the buffers a copy touches, a cache), made safe for calls from exit handlers.
//
// A C++ `thread_local` with a destructor is destroyed when its thread ends, and the main thread's
// are destroyed before the process's exit handlers run; but a program's exit handlers and static
// destructors may still call the driver (a framework's teardown frees, copies, even launches),
// and a hook that then used a destroyed vector would corrupt the heap. ThreadScratch keeps the
// object behind a trivially destructible pointer, freed by a guard when the thread ends; once the
// guard has run, each use gets a fresh object of its own (the Lease owns it), so that late calls
// work as before, only without the reuse.
//
//   struct Found {};
//   const auto found = ThreadScratch<std::vector<Access>, Found>::get();
//   found->clear();
//
// Each Tag names one object per thread; it defaults to T, for a type that only one place uses.
// Objects are value-initialized; get() throws std::bad_alloc when memory is exhausted, as
// constructing a `thread_local` would.
#pragma once

#include <memory>
#include <utility>

namespace tidepool::runtime {

template <class T, class Tag = T>
class ThreadScratch {
 public:
  // The calling thread's object, or, once its thread-locals are destroyed, one of its own.
  class Lease {
   public:
    T& operator*() const { return *object_; }
    T* operator->() const { return object_; }

   private:
    friend class ThreadScratch;
    explicit Lease(T* shared) : object_(shared) {}
    explicit Lease(std::unique_ptr<T> own) : object_(own.get()), own_(std::move(own)) {}
    T* object_;
    std::unique_ptr<T> own_;
  };

  static Lease get() {
    if (slot_.object != nullptr) return Lease(slot_.object);
    if (slot_.gone) return Lease(std::make_unique<T>());
    (void)&guard_;  // constructs the guard that frees the object when the thread ends
    slot_.object = new T();
    return Lease(slot_.object);
  }

 private:
  struct Slot {  // trivially destructible: still readable after the thread's destructors ran
    T* object = nullptr;
    bool gone = false;
  };
  struct Guard {
    ~Guard() {
      slot_.gone = true;
      delete std::exchange(slot_.object, nullptr);
    }
  };
  static inline thread_local Slot slot_;
  static inline thread_local Guard guard_;
};

}  // namespace tidepool::runtime
