// Faults inside simcuda's device ranges: one line naming the address and the kernel, then abort.
#pragma once

namespace simcuda {

void install_fault_handler();
// What the calling worker thread is running (a kernel's name, "memcpy", ...); nullptr outside work.
void set_current_work(const char* name);
const char* current_work();

}  // namespace simcuda
