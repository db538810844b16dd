// Odd but well-formed traces from a seed (see random_trace.h).
#include "random_trace.h"

#include <array>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "analyzer/trace/fields.h"

namespace tidepool::report::testing {
namespace {

constexpr uint64_t kBase = 0x7f0000000000;  // where the body's allocations are placed

// Fills any record's fields by name, recursively (ranges, accesses, lists).
class RandomFields {
 public:
  explicit RandomFields(std::mt19937_64& random) : random_(random) {}

  template <class T>
  void fill(std::string_view name, T& value) {
    if constexpr (std::is_same_v<T, bool>) {
      value = (random_() & 1) != 0;
    } else if constexpr (std::is_enum_v<T>) {
      value = static_cast<T>(random_() % 6);
    } else if constexpr (std::is_integral_v<T>) {
      value = static_cast<T>(number(name));
    } else if constexpr (std::is_same_v<T, std::string>) {
      value = std::string(random_() % 6, static_cast<char>('a' + random_() % 3));
    } else if constexpr (trace::IsVector<T>::value) {
      value.resize(random_() % 4);
      for (auto& element : value) fill(name, element);
    } else if constexpr (std::is_same_v<T, std::array<uint32_t, 3>>) {
      for (uint32_t& v : value) v = static_cast<uint32_t>(random_() % 4);
    } else {
      trace::for_each_field(value, [this](const char* field, auto& v) { fill(field, v); });
    }
  }

 private:
  uint64_t pick(std::initializer_list<uint64_t> values) {
    return *(values.begin() + random_() % values.size());
  }

  uint64_t number(std::string_view name) {
    const uint64_t roll = random_() % 100;
    if (roll < 3) return ~uint64_t{0} - random_() % 3;
    if (roll < 6) return random_();
    if (name.find("alloc_id") != std::string_view::npos) return roll < 10 ? 0 : random_() % 40;
    if (name == "address" || name == "offset" || name == "base") {
      return pick({0, kBase, kBase + 256, kBase + (1 << 20), 256, 4096}) +
             (roll < 20 ? random_() % 512 : 0);
    }
    if (name == "size" || name == "bytes" || name == "shared_bytes") {
      return pick({0, 1, 255, 256, 4096, 65536, 1 << 20, uint64_t{1} << 34});
    }
    if (name.find("stream") != std::string_view::npos || name == "event" || name == "pool" ||
        name == "context" || name == "graph" || name == "handle") {
      return pick({0, 1, 2, 0xabc, 0xdef});
    }
    if (name.find("_id") != std::string_view::npos || name == "id") return random_() % 8;
    return random_() % 5;
  }

  std::mt19937_64& random_;
};

// A record of the variant's alternative `which`, its fields random.
template <std::size_t I = 0>
trace::Record random_record(std::size_t which, RandomFields& fields) {
  if constexpr (I < std::variant_size_v<trace::Record>) {
    if (which != I) return random_record<I + 1>(which, fields);
    std::variant_alternative_t<I, trace::Record> record{};
    fields.fill("", record);
    return record;
  } else {
    return trace::Record{};
  }
}

// The body an iteration repeats: allocations, frees and operations whose ids are given out as the
// body is repeated (0 until then), between records of any type.
std::vector<trace::Record> random_body(std::mt19937_64& random, RandomFields& fields) {
  const bool all_random = random() % 8 == 0;
  const std::size_t length = 5 + random() % 80;
  std::vector<trace::Record> body;
  for (std::size_t k = 0; k < length; ++k) {
    const uint64_t roll = random() % 10;
    if (all_random || roll == 9) {
      body.push_back(random_record(random() % std::variant_size_v<trace::Record>, fields));
    } else if (roll < 3) {
      constexpr std::array kinds = {trace::AllocKind::device, trace::AllocKind::device,
                                    trace::AllocKind::stream_ordered, trace::AllocKind::pool};
      const std::array<uint64_t, 4> sizes = {256, 4096, 1 << 20, 3 << 20};
      body.push_back(trace::Alloc{.kind = kinds[random() % kinds.size()],
                                  .size = sizes[random() % sizes.size()]});
    } else if (roll < 5) {
      body.push_back(trace::Free{});
    } else if (roll < 7) {
      trace::Launch launch{.kernel_name_id = static_cast<uint32_t>(random() % 8),
                           .params_decoded = true};
      launch.accesses.push_back({});
      body.push_back(launch);
    } else if (roll == 7) {  // copies and sets, some of them of 0 bytes (valid, and done)
      body.push_back(trace::Copy{.kind = static_cast<trace::CopyKind>(random() % 3),
                                 .bytes = 256 * (random() % 2)});
    } else {
      body.push_back(trace::Set{.element_bytes = static_cast<uint8_t>(1u << (random() % 3)),
                                .bytes = 4096 * (random() % 2)});
    }
  }
  return body;
}

}  // namespace

trace::Trace random_trace(std::uint64_t seed) {
  std::mt19937_64 random(seed);
  RandomFields fields(random);
  trace::Trace trace;
  trace.header.program = "random";
  trace.header.pid = 1;
  constexpr std::array<const char*, 3> kernels = {"k0", "k1", "k2"};  // so that names repeat
  for (uint32_t id = 0; id < 8; ++id) trace.strings[id] = kernels[id % kernels.size()];
  for (uint32_t id = 0; id < 3; ++id) trace.stacks[id] = {0x400000 + id};
  const std::vector<trace::Record> body = random_body(random, fields);
  const int repeats = 1 + static_cast<int>(random() % 60);
  uint64_t seq = 1;
  uint64_t time = 1000;
  uint64_t next_alloc_id = 1;
  std::vector<uint64_t> live;
  const auto any_live = [&] { return live.empty() ? 0 : live[random() % live.size()]; };
  for (int repeat = 0; repeat < repeats; ++repeat) {
    for (trace::Record record : body) {
      if (auto* a = std::get_if<trace::Alloc>(&record); a != nullptr && a->alloc_id == 0) {
        a->alloc_id = next_alloc_id++;
        a->address = kBase + a->alloc_id * (4 << 20);
        live.push_back(a->alloc_id);
      } else if (auto* f = std::get_if<trace::Free>(&record); f != nullptr && f->alloc_id == 0) {
        if (live.empty()) continue;
        const std::size_t k = random() % live.size();
        f->alloc_id = live[k];
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      } else if (auto* l = std::get_if<trace::Launch>(&record); l != nullptr && l->op_id == 0) {
        l->op_id = seq;
        for (trace::Access& access : l->accesses) access.alloc_id = any_live();
      } else if (auto* c = std::get_if<trace::Copy>(&record); c != nullptr && c->op_id == 0) {
        c->op_id = seq;
        c->src = {any_live(), 0, 256};
      }
      // Now and then a sequence number repeats, or an event comes from a second thread.
      const uint64_t event_seq = random() % 200 == 0 ? seq - 1 : seq;
      ++seq;
      time += random() % 1000;
      trace.events.push_back({event_seq, time, random() % 8 == 0 ? 1u : 0u, std::move(record)});
    }
  }
  return trace;
}

}  // namespace tidepool::report::testing
