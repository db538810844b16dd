// JsonNode: checked access to plan fields.
#include "analyzer/plan/json_node.h"

#include "analyzer/plan/plan_io.h"

namespace tidepool::plan {

void JsonNode::fail(std::string_view what) const {
  throw PlanError(std::string(origin_) + ": " + (path_.empty() ? "" : path_ + ": ") + std::string(what));
}

const nlohmann::json& JsonNode::object() const {
  if (!value_->is_object()) fail("expected an object");
  return *value_;
}

JsonNode JsonNode::at(std::string_view key) const {
  auto found = find(key);
  if (!found) fail("missing field '" + std::string(key) + "'");
  return *found;
}

std::optional<JsonNode> JsonNode::find(std::string_view key) const {
  const auto& o = object();
  const auto it = o.find(key);
  if (it == o.end()) return std::nullopt;
  return JsonNode(*it, path_.empty() ? std::string(key) : path_ + "." + std::string(key), origin_);
}

std::vector<JsonNode> JsonNode::elements() const {
  if (!value_->is_array()) fail("expected an array");
  std::vector<JsonNode> out;
  for (std::size_t i = 0; i < value_->size(); ++i)
    out.emplace_back((*value_)[i], path_ + "[" + std::to_string(i) + "]", origin_);
  return out;
}

std::uint64_t JsonNode::u64() const {
  if (!value_->is_number_unsigned()) fail("expected a non-negative integer");
  return value_->get<std::uint64_t>();
}

double JsonNode::number() const {
  if (!value_->is_number()) fail("expected a number");
  return value_->get<double>();
}

bool JsonNode::boolean() const {
  if (!value_->is_boolean()) fail("expected true or false");
  return value_->get<bool>();
}

std::string JsonNode::text() const {
  if (!value_->is_string()) fail("expected a string");
  return value_->get<std::string>();
}

}  // namespace tidepool::plan
