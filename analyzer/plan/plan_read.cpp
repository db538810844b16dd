// JSON text → Plan, field by field, with one-line errors.
#include <fstream>
#include <sstream>

#include "analyzer/plan/consistency.h"
#include "analyzer/plan/json_node.h"
#include "analyzer/plan/names.h"
#include "analyzer/plan/plan_io.h"

namespace tidepool::plan {
namespace {

IterationDescription read_iteration(const JsonNode& j) {
  IterationDescription it;
  const JsonNode boundary = j.at("boundary");
  const auto kind = boundary_kind(boundary.text());
  if (!kind) boundary.fail("unknown boundary '" + boundary.text() + "' (period, nvtx_range or kernel)");
  it.boundary = *kind;
  it.name = j.at("name").text();
  it.events = j.at("events").u64();
  it.allocations = j.at("allocations").u64();
  it.operations = j.at("operations").u64();
  for (const JsonNode& a : j.at("anchor").elements()) {
    const auto alloc = a.find("alloc");
    const auto kernel = a.find("kernel");
    if (alloc.has_value() == kernel.has_value()) a.fail("expected exactly one of 'alloc' and 'kernel'");
    it.anchor.push_back(alloc ? AnchorEvent{AnchorEvent::Kind::alloc, alloc->u64(), {}}
                              : AnchorEvent{AnchorEvent::Kind::kernel, 0, kernel->text()});
  }
  it.iterations_seen = j.at("iterations_seen").u64();
  it.regularity = j.at("regularity").number();
  return it;
}

PoolSection read_pool(const JsonNode& j) {
  PoolSection pool;
  pool.solver = j.at("solver").text();
  pool.alignment = j.at("alignment").u64();
  pool.arena_bytes = j.at("arena_bytes").u64();
  pool.lower_bound_bytes = j.at("lower_bound_bytes").u64();
  pool.persistent_bytes = j.at("persistent_bytes").u64();
  for (const JsonNode& s : j.at("slots").elements()) {
    const std::vector<JsonNode> live = s.at("live").elements();
    if (live.size() != 2) s.at("live").fail("expected [begin, end]");
    pool.slots.push_back({s.at("ordinal").u64(), s.at("bytes").u64(), s.at("offset").u64(), live[0].u64(), live[1].u64()});
  }
  return pool;
}

SwapSection read_swap(const JsonNode& j) {
  SwapSection swap;
  swap.planner = j.at("planner").text();
  swap.link = j.at("link").text();
  swap.planned_peak_bytes = j.at("planned_peak_bytes").u64();
  swap.simulated_slowdown_pct = j.at("simulated_slowdown_pct").number();
  for (const JsonNode& o : j.at("operations").elements()) {
    SwapOperation op;
    const JsonNode buffer = o.at("buffer");
    const JsonNode scope = buffer.at("scope");
    const auto s = buffer_scope(scope.text());
    if (!s) scope.fail("unknown scope '" + scope.text() + "' (iteration or program)");
    op.buffer = {*s, buffer.at("ordinal").u64(), buffer.at("bytes").u64()};
    op.out_after_op = o.at("out_after_op").u64();
    op.in_at_op = o.at("in_at_op").u64();
    op.needed_by_op = o.at("needed_by_op").u64();
    op.copy_out = o.at("copy_out").boolean();
    if (const auto release = o.find("release_before_op")) op.release_before_op = release->u64();
    swap.operations.push_back(op);
  }
  return swap;
}

}  // namespace

Plan parse_plan(std::string_view text, std::string_view origin) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw PlanError(std::string(origin) + ": not a tidepool plan (invalid JSON at byte " + std::to_string(e.byte) + ")");
  } catch (const nlohmann::json::exception&) {  // out_of_range: a number beyond a double's range
    throw PlanError(std::string(origin) + ": not a tidepool plan (a number too large for JSON)");
  }
  const JsonNode root(doc, "", origin);
  if (!doc.is_object() || !doc.contains("format") || doc["format"] != kFormatName)
    throw PlanError(std::string(origin) + ": not a tidepool plan (no \"format\": \"" + std::string(kFormatName) + "\")");
  Plan plan;
  const std::uint64_t version = root.at("version").u64();
  if (version != kPlanFormatVersion)
    throw PlanError(std::string(origin) + ": unsupported plan version " + std::to_string(version) +
                    " (this tidepool reads version " + std::to_string(kPlanFormatVersion) + ")");
  plan.version = static_cast<std::uint32_t>(version);
  const JsonNode source = root.at("source");
  plan.source = {source.at("trace").text(), source.at("program").text(), source.at("synthetic").boolean()};
  plan.fingerprint = root.at("fingerprint").text();
  plan.iteration = read_iteration(root.at("iteration"));
  if (const auto pool = root.find("pool")) plan.pool = read_pool(*pool);
  if (const auto swap = root.find("swap")) plan.swap = read_swap(*swap);
  check_consistency(plan, origin);
  return plan;
}

Plan read_plan(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw PlanError(path.string() + ": cannot open the plan");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_plan(text.str(), path.string());
}

}  // namespace tidepool::plan
