// Odd but well-formed traces (random_trace.h) never crash the report, the plans or the dump's
// text: each step either succeeds or fails with one line, as bad input does (std::runtime_error,
// its TraceError and PlanError, or std::invalid_argument), never with an internal error
// (std::logic_error, std::out_of_range, std::bad_alloc, ...). Under ASan and UBSan (CI) this is
// also a check of memory safety. The same generator, run over a few hundred seeds through the
// tidepool binary built with ASan (session 49), crashed nothing; the errors it gave, read one by
// one, showed a zero-byte allocation making every swap plan fail (swap/from_trace_test.cpp).
#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analyzer/plan/trace_plan.h"
#include "analyzer/report/analyze.h"
#include "analyzer/report/iteration_plans.h"
#include "analyzer/report/json_report.h"
#include "analyzer/report/text_report.h"
#include "analyzer/trace/in_order.h"
#include "analyzer/trace/save.h"
#include "analyzer/trace/text.h"
#include "random_trace.h"
#include "tests/support/files.h"

namespace tidepool::report {
namespace {

constexpr int kSeeds = 30;

void expect_one_line(const std::string& what, const std::exception& error) {
  const std::string message = error.what();
  EXPECT_FALSE(message.empty()) << what;
  EXPECT_EQ(message.find('\n'), std::string::npos) << what << ": " << message;
}

// Runs `step`; fails the test unless it succeeds or throws bad input's kind of error, in one line.
// Returns whether it succeeded.
bool succeeds_or_fails_cleanly(const std::string& what, const std::function<void()>& step) {
  try {
    step();
    return true;
  } catch (const std::runtime_error& e) {  // TraceError, PlanError, "no repeating iteration"...
    expect_one_line(what, e);
  } catch (const std::invalid_argument& e) {
    expect_one_line(what, e);
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": an internal error escaped: " << e.what();
  }
  return false;
}

plan::PlanRequest request(bool pool, bool swap, const std::string& kernel = "") {
  plan::PlanRequest r;
  if (!kernel.empty()) r.iteration = {plan::BoundaryKind::kernel, kernel};
  if (pool) r.pool = plan::PoolRequest{"best", 0.01};
  if (swap) r.swap = plan::SwapRequest{};
  return r;
}

TEST(RandomTraces, ReportPlansAndTextSucceedOrFailCleanly) {
  test_support::TempDir dir("tidepool-random-traces");
  int reported = 0;
  int planned = 0;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const trace::Trace trace = testing::random_trace(seed);
    for (const trace::Event& event : trace.events) (void)trace::to_text(trace, event);
    const std::filesystem::path path = dir.path() / ("random-" + std::to_string(seed) + ".tpt");
    trace::save_trace(trace, path);
    const trace::InOrderReader reader(path);
    for (const trace::EventSource source :
         {trace::EventSource(trace), trace::EventSource(reader)}) {
      reported += succeeds_or_fails_cleanly("report", [&] {
        std::vector<ProcessReport> processes{analyze(source, path.string())};
        processes.back().plans = analyze_plans(source, {.solver_seconds = 0.01});
        (void)text_report(processes);
        (void)json_report(processes);
      });
      succeeds_or_fails_cleanly("report by kernel", [&] {
        (void)analyze_plans(source, {.solver_seconds = 0.01, .iteration_kernel = "k1"});
      });
      for (const plan::PlanRequest& r : {request(true, false), request(false, true),
                                         request(true, true), request(true, true, "k2")}) {
        planned += succeeds_or_fails_cleanly(
            "plan", [&] { (void)plan::plan_from_trace(source, path.string(), r); });
      }
    }
  }
  // The traces are odd, not hopeless: every one is reported, and many are planned.
  EXPECT_EQ(reported, 2 * kSeeds);
  EXPECT_GT(planned, kSeeds);
}

}  // namespace
}  // namespace tidepool::report
