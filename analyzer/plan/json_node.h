// Typed, path-aware access to a parsed JSON document: every failure is a PlanError naming the
// document and the field, e.g. "plan.json: pool.slots[2].offset: expected a non-negative integer".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tidepool::plan {

class JsonNode {
 public:
  JsonNode(const nlohmann::json& value, std::string path, std::string_view origin)
      : value_(&value), path_(std::move(path)), origin_(origin) {}

  JsonNode at(std::string_view key) const;                  // a required member
  std::optional<JsonNode> find(std::string_view key) const;  // an optional member
  std::vector<JsonNode> elements() const;                    // the items of an array

  std::uint64_t u64() const;
  double number() const;
  bool boolean() const;
  std::string text() const;

  [[noreturn]] void fail(std::string_view what) const;

 private:
  const nlohmann::json& object() const;

  const nlohmann::json* value_;
  std::string path_;
  std::string_view origin_;
};

}  // namespace tidepool::plan
