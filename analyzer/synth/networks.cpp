// Dispatch from a model name to its builder, with each model's default batch and sequence.
#include "analyzer/synth/networks.h"

#include <stdexcept>

namespace tidepool::synth {

const std::vector<std::string>& network_names() {
  static const std::vector<std::string> names = {"resnet50", "bert-large", "gpt2-xl", "vit-l"};
  return names;
}

Program build_network(const NetworkOptions& options) {
  NetworkOptions o = options;
  struct Default { const char* name; std::uint64_t batch, seq, max_seq, layers; Program (*build)(const NetworkOptions&); };
  static const Default defaults[] = {{"resnet50", 256, 0, 0, 0, resnet50},
                                     {"bert-large", 32, 512, 512, 24, bert_large},
                                     {"gpt2-xl", 8, 1024, 1024, 48, gpt2_xl},
                                     {"vit-l", 64, 0, 0, 24, vit_large}};
  for (const Default& d : defaults) {
    if (o.model != d.name) continue;
    if (o.batch == 0) o.batch = d.batch;
    if (d.max_seq == 0 && o.seq != 0)
      throw std::invalid_argument(o.model + " takes no --seq (its input is an image)");
    if (o.seq == 0) o.seq = d.seq;
    if (d.layers == 0 && o.layers != 0) throw std::invalid_argument(o.model + " has a fixed depth: no --layers");
    if (o.layers == 0) o.layers = d.layers;
    if (d.max_seq != 0 && o.seq > d.max_seq)
      throw std::invalid_argument(o.model + " has " + std::to_string(d.max_seq) +
                                  " positions: --seq must be at most that");
    return d.build(o);
  }
  throw std::invalid_argument("unknown model '" + o.model +
                              "': use resnet50, bert-large, gpt2-xl or vit-l");
}

}  // namespace tidepool::synth
