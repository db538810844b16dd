// train_mlp: trains a multi-layer perceptron with Adam through the CUDA driver API, allocating
// every activation and gradient when produced and freeing it after its last use. Prints its final
// loss and a checksum of the trained parameters on stdout (both deterministic); the mean simulated
// or measured time of a step (cuEventElapsedTime) and its own allocation bookkeeping go to stderr.
#include <cstdio>

#include "tools/examples/common/checksum.h"
#include "tools/examples/common/flags.h"
#include "tools/examples/common/session.h"
#include "tools/examples/train_mlp/trainer.h"

namespace {

constexpr char kProgram[] = "train_mlp";
constexpr int64_t kMaxDim = 1 << 20;

}  // namespace

int main(int argc, char** argv) {
  const examples::Flags flags(
      kProgram,
      {{"batch", 8192, 1, kMaxDim, "rows per batch"},
       {"width", 2048, 1, 1 << 16, "features per layer (also the number of classes)"},
       {"depth", 8, 1, 1024, "fully connected layers"},
       {"steps", 50, 1, 1 << 20, "training steps"},
       {"seed", 1, 0, int64_t{1} << 40, "seed of the weights and the data"},
       {"compute-rows", 4, 0, kMaxDim,
        "rows of each batch the kernels compute (0: all); memory and declared work are the full "
        "batch's"},
       {"resize-step", 0, 0, 1 << 20, "from this step on, batches have --resize-batch rows (0: never)"},
       {"resize-batch", 0, 0, kMaxDim, "rows per batch from --resize-step on (0: --batch)"}},
      argc, argv);
  mlp::Config config{};
  config.batch = static_cast<int>(flags["batch"]);
  config.width = static_cast<int>(flags["width"]);
  config.depth = static_cast<int>(flags["depth"]);
  const int64_t compute_rows = flags["compute-rows"];
  // The rows the kernels compute for batches of `batch` rows.
  auto rows_computed = [compute_rows](int batch) {
    return static_cast<int>(compute_rows == 0 || compute_rows > batch ? batch : compute_rows);
  };
  config.compute_rows = rows_computed(config.batch);
  const int resize_step = static_cast<int>(flags["resize-step"]);
  const int resize_batch = flags["resize-batch"] == 0 ? config.batch : static_cast<int>(flags["resize-batch"]);
  config.seed = static_cast<uint64_t>(flags["seed"]);
  const int steps = static_cast<int>(flags["steps"]);

  examples::Session session(kProgram);
  float loss = 0.0f;
  float step_ms_total = 0.0f;
  examples::Checksum checksum;
  {
    mlp::Trainer trainer(session, config);
    CUevent start = nullptr, stop = nullptr;
    session.check()(cuEventCreate(&start, CU_EVENT_DEFAULT));
    session.check()(cuEventCreate(&stop, CU_EVENT_DEFAULT));
    for (int step = 1; step <= steps; ++step) {
      if (step == resize_step) trainer.resize_batch(resize_batch, rows_computed(resize_batch));
      session.check()(cuEventRecord(start, nullptr));
      loss = trainer.train_step(step);
      session.check()(cuEventRecord(stop, nullptr));
      session.check()(cuEventSynchronize(stop));
      float ms = 0.0f;
      session.check()(cuEventElapsedTime(&ms, start, stop));
      step_ms_total += ms;
    }
    session.check()(cuEventDestroy(start));
    session.check()(cuEventDestroy(stop));
    trainer.add_parameters(checksum);
  }
  std::printf("loss: %.6f\n", static_cast<double>(loss));
  checksum.print();
  std::fprintf(stderr, "step_time_ms: %.3f\n", static_cast<double>(step_ms_total / steps));
  session.books().print();
  return 0;
}
