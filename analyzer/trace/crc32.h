// CRC-32 (IEEE 802.3 polynomial, as zlib's crc32) of a chunk's payload.
#pragma once

#include <cstdint>
#include <span>

namespace tidepool::trace {

uint32_t crc32(std::span<const uint8_t> bytes) noexcept;

}  // namespace tidepool::trace
