// The undoable skyline of the tiling search (see tiling_skyline.h).
#include "analyzer/packing/tiling_skyline.h"

namespace tidepool::packing {

TilingSkyline::TilingSkyline(int sections)
    : sections_(sections),
      starts_run_(sections + 1, 0),
      end_(sections + 1, 0),
      floor_(sections + 1, 0),
      begin_of_run_ending_(sections + 1, 0) {
  if (sections == 0) return;
  starts_run_[0] = 1;
  end_[0] = sections;
  begin_of_run_ending_[sections] = 0;
  requeue(0);
}

bool TilingSkyline::is_current(Bytes floor, int begin, int end) const {
  return starts_run_[begin] != 0 && end_[begin] == end && floor_[begin] == floor && floor != kClosed;
}

std::optional<TilingSkyline::Run> TilingSkyline::take_lowest() {
  while (!queue_.empty()) {
    const auto [floor, begin, end] = queue_.top();
    queue_.pop();
    if (is_current(floor, begin, end)) return Run{begin, end, floor};
  }
  return std::nullopt;
}

void TilingSkyline::requeue(int begin) {
  if (begin < sections_ && starts_run_[begin] != 0 && floor_[begin] != kClosed) {
    queue_.emplace(floor_[begin], begin, static_cast<int>(end_[begin]));
  }
}

void TilingSkyline::write(std::vector<Bytes>& array, std::size_t index, Bytes value) {
  trail_.push_back({&array[index], array[index], static_cast<int>(index)});
  array[index] = value;
}

int TilingSkyline::set_prefix(int begin, int to, Bytes floor) {
  const int end = static_cast<int>(end_[begin]);
  if (to < end) {  // the rest of the run keeps its floor
    write(starts_run_, to, 1);
    write(end_, to, end);
    write(floor_, to, floor_[begin]);
    write(begin_of_run_ending_, end, to);
  }
  write(end_, begin, to);
  write(floor_, begin, floor);
  write(begin_of_run_ending_, to, begin);
  int run = begin;
  if (begin > 0 && floor_[begin_of_run_ending_[begin]] == floor) {
    run = static_cast<int>(begin_of_run_ending_[begin]);
    write(end_, run, to);
    write(begin_of_run_ending_, to, run);
    write(starts_run_, begin, 0);
  }
  if (to == end && to < sections_ && floor_[to] == floor) {
    const int right_end = static_cast<int>(end_[to]);
    write(end_, run, right_end);
    write(begin_of_run_ending_, right_end, run);
    write(starts_run_, to, 0);
  }
  requeue(run);
  if (to < end) requeue(to);
  return run;
}

void TilingSkyline::undo(std::size_t mark) {
  restored_.clear();
  while (trail_.size() > mark) {
    const Change change = trail_.back();
    trail_.pop_back();
    *change.where = change.old;
    restored_.push_back(change.border);
  }
  // Every run the undo brings back had a write at its begin.
  for (const int border : restored_) requeue(border);
}

}  // namespace tidepool::packing
