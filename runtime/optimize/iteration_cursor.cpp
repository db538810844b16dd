// The iteration cursor's bookkeeping.
#include "runtime/optimize/iteration_cursor.h"

#include <utility>

namespace tidepool::runtime::optimize {

IterationCursor::IterationCursor(plan::IterationDescription iteration, uint64_t fingerprint,
                                 uint64_t lead_events)
    : plan_(std::move(iteration)), fingerprint_(fingerprint), lead_events_(lead_events) {}

void IterationCursor::start_after(uint64_t events) {
  mode_ = Mode::waiting;
  countdown_ = events;
  begin_next_ = false;
}

void IterationCursor::delay_start(uint64_t events) {
  if (mode_ == Mode::waiting) countdown_ += events;
}

IterationCursor::Step IterationCursor::on_alloc(uint64_t bytes) {
  return feed(Kind::alloc, bytes, {});
}
IterationCursor::Step IterationCursor::on_free() {
  return feed(Kind::free, 0, {});
}
IterationCursor::Step IterationCursor::on_launch(std::string_view kernel) {
  return feed(Kind::launch, 0, kernel);
}
IterationCursor::Step IterationCursor::on_transfer() {
  return feed(Kind::transfer, 0, {});
}

IterationCursor::Step IterationCursor::on_range_push(std::string_view name) {
  Step step;
  if (plan_.boundary != plan::BoundaryKind::nvtx_range || name != plan_.name) return step;
  if (mode_ == Mode::inside) step.finished = finish();
  begin_next_ = true;
  next_trusted_ = true;
  return step;
}

void IterationCursor::begin(bool trusted) {
  mode_ = Mode::inside;
  trusted_ = trusted;
  broken_ = false;
  events_ = allocations_ = operations_ = 0;
  anchor_next_ = 0;
  compared_ = 0;
  if (!comparing()) {
    fingerprinter_ = plan::Fingerprinter{};
    noting_.clear();
  }
}

bool IterationCursor::finish() {
  const bool fingerprinted = !comparing();
  const bool same_events = fingerprinted ? fingerprinter_.value() == fingerprint_ : compared_ == matched_.events.size();
  const bool matched = !broken_ && events_ == plan_.events && anchor_next_ == plan_.anchor.size() && same_events;
  if (matched && fingerprinted) std::swap(matched_, noting_);
  mode_ = Mode::outside;
  return matched;
}

void IterationCursor::note(Kind kind, uint64_t bytes, std::string_view kernel) {
  if (comparing()) {
    const bool same = compared_ < matched_.events.size() && [&] {
      const Noted& expected = matched_.events[compared_];
      return expected.kind == kind && expected.bytes == bytes &&
             std::string_view(matched_.names).substr(expected.name_begin, expected.name_size) == kernel;
    }();
    if (!same) broken_ = true;
    ++compared_;
    return;
  }
  if (kind == Kind::alloc) fingerprinter_.add_alloc(bytes);
  else fingerprinter_.add_kernel(kernel);
  noting_.events.push_back({kind, bytes, static_cast<uint32_t>(noting_.names.size()), static_cast<uint32_t>(kernel.size())});
  noting_.names.append(kernel);
}

bool IterationCursor::matches_anchor_start(Kind kind, uint64_t bytes,
                                           std::string_view kernel) const {
  if (plan_.anchor.empty()) return false;
  const plan::AnchorEvent& first = plan_.anchor.front();
  if (kind == Kind::alloc)
    return first.kind == plan::AnchorEvent::Kind::alloc && first.bytes == bytes;
  if (kind == Kind::launch)
    return first.kind == plan::AnchorEvent::Kind::kernel && first.kernel == kernel;
  return false;
}

// Checks an allocation or launch against the anchor; the iteration becomes trusted once the
// whole anchor has matched.
bool IterationCursor::check_anchor(Kind kind, uint64_t bytes, std::string_view kernel) {
  if (anchor_next_ >= plan_.anchor.size()) return true;
  const plan::AnchorEvent& expected = plan_.anchor[anchor_next_];
  const bool match =
      kind == Kind::alloc
          ? expected.kind == plan::AnchorEvent::Kind::alloc && expected.bytes == bytes
          : expected.kind == plan::AnchorEvent::Kind::kernel && expected.kernel == kernel;
  if (!match) return false;
  if (++anchor_next_ == plan_.anchor.size()) trusted_ = true;
  return true;
}

IterationCursor::Step IterationCursor::feed(Kind kind, uint64_t bytes, std::string_view kernel) {
  Step step;
  const bool period = plan_.boundary == plan::BoundaryKind::period;
  // Boundaries before this event.
  if (mode_ == Mode::waiting) {
    if (countdown_ > 0) {
      --countdown_;
      return step;
    }
    begin(true);
    step.started = true;
  } else if (begin_next_) {
    begin_next_ = false;
    begin(next_trusted_);
    step.started = true;
  } else if (plan_.boundary == plan::BoundaryKind::kernel && kind == Kind::launch &&
             kernel == plan_.name) {
    if (mode_ == Mode::inside) step.finished = finish();
    begin(true);
    step.started = true;
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (mode_ == Mode::outside && period && !step.started &&
        matches_anchor_start(kind, bytes, kernel)) {
      begin(false);
      events_ = lead_events_;
      step.started = true;
    }
    if (mode_ != Mode::inside) return step;
    if ((kind == Kind::alloc || kind == Kind::launch) && !check_anchor(kind, bytes, kernel))
      broken_ = true;
    if (broken_ && period) {
      // Lost: this event may still be the start of the iteration the cursor looks for.
      const bool was_started_here = step.started;
      step.finished = finish();
      step.started = false;
      if (was_started_here) return step;
      continue;
    }
    break;
  }
  switch (kind) {
    case Kind::alloc:
      note(kind, bytes, {});
      step.ordinal = allocations_++;
      break;
    case Kind::launch:
      note(kind, 0, kernel);
      step.ordinal = operations_++;
      break;
    case Kind::transfer:
      step.ordinal = operations_++;
      break;
    case Kind::free:
      break;
  }
  ++events_;
  if (events_ > plan_.events) broken_ = true;
  step.trusted = trusted_ && !broken_;
  if (period && events_ == plan_.events) {
    const bool matched = finish();
    step.finished = matched;
    if (matched) {
      begin_next_ = true;
      next_trusted_ = true;
    }
  }
  return step;
}

}  // namespace tidepool::runtime::optimize
