// Whether cuInit has succeeded.
#pragma once

namespace simcuda {

bool initialized();

}  // namespace simcuda
