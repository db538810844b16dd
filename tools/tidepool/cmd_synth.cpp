// `tidepool synth MODEL ... -o TRACE`: writes a synthetic trace (labelled so in its header) of
// training iterations of a standard network, built from its architecture with roofline durations.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>

#include "analyzer/synth/networks.h"
#include "analyzer/synth/trace_output.h"
#include "commands.h"
#include "errors.h"

namespace tidepool::cli {
namespace {

struct SynthOptions {
  std::string model;
  std::uint64_t batch = 0;
  std::uint64_t seq = 0;
  std::uint64_t layers = 0;
  std::string dtype = "bf16";
  std::string gpu = "h200";
  int iterations = 3;
  double matmul_efficiency = 0.5;
  double bandwidth_efficiency = 0.7;
  std::string output;
};

std::string describe(const SynthOptions& o, const synth::Program& program) {
  std::string text = "tidepool synth " + o.model;
  if (o.batch) text += " --batch " + std::to_string(o.batch);
  if (o.seq) text += " --seq " + std::to_string(o.seq);
  if (o.layers) text += " --layers " + std::to_string(o.layers);
  text += " --dtype " + o.dtype + " --gpu " + o.gpu;
  text += " (synthetic: " + std::to_string(program.parameters) + " parameters, roofline at " +
          std::to_string(o.matmul_efficiency) + " of matmul peak, " +
          std::to_string(o.bandwidth_efficiency) + " of bandwidth)";
  return text;
}

void synth_command(const SynthOptions& o) {
  if (o.output.empty()) throw UsageError("synth needs -o TRACE");
  if (o.iterations < 1) throw UsageError("--iterations must be at least 1");
  synth::NetworkOptions network;
  synth::Program program;
  try {
    network.model = o.model;
    network.batch = o.batch;
    network.seq = o.seq;
    network.layers = o.layers;
    network.roofline.gpu = synth::parse_gpu(o.gpu);
    network.roofline.dtype = synth::parse_dtype(o.dtype);
    network.roofline.matmul_efficiency = o.matmul_efficiency;
    network.roofline.bandwidth_efficiency = o.bandwidth_efficiency;
    network.roofline.validate();
    program = synth::build_network(network);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  synth::write_trace(program, o.iterations, describe(o, program), o.output);
  const double seconds = std::accumulate(program.steps.begin(), program.steps.end(), 0.0,
                                         [](double t, const synth::Step& s) { return t + s.seconds; });
  std::fprintf(stderr, "%s: synthetic %s, %llu parameters, %zu launches and copies per iteration, "
               "%.2f ms per iteration (roofline), %d iterations\n", o.output.c_str(), o.model.c_str(),
               static_cast<unsigned long long>(program.parameters), program.steps.size(), seconds * 1e3,
               o.iterations);
}

}  // namespace

void add_synth(CLI::App& app) {
  auto o = std::make_shared<SynthOptions>();
  CLI::App* cmd = app.add_subcommand("synth", "Write a synthetic trace of training a standard network (no GPU needed)");
  cmd->add_option("model", o->model, "resnet50, bert-large, gpt2-xl or vit-l")->required();
  cmd->add_option("--batch", o->batch, "Batch size (default: resnet50 256, bert-large 32, gpt2-xl 8, vit-l 64)");
  cmd->add_option("--seq", o->seq, "Sequence length for bert-large (default 512) and gpt2-xl (default 1024)");
  cmd->add_option("--layers", o->layers, "Transformer blocks (default: the model's 24 or 48)");
  cmd->add_option("--dtype", o->dtype, "bf16 (with fp32 master weights and Adam state) or fp32")->capture_default_str();
  cmd->add_option("--gpu", o->gpu, "h200, a100 or v100 (roofline peaks)")->capture_default_str();
  cmd->add_option("--iterations", o->iterations, "Training iterations to write")->capture_default_str();
  cmd->add_option("--matmul-efficiency", o->matmul_efficiency, "Fraction of the dense peak matrix work reaches")
      ->capture_default_str();
  cmd->add_option("--bandwidth-efficiency", o->bandwidth_efficiency, "Fraction of memory bandwidth other work reaches")
      ->capture_default_str();
  cmd->add_option("-o,--output", o->output, "The trace to write")->required();
  cmd->callback([o] { synth_command(*o); });
}

}  // namespace tidepool::cli
