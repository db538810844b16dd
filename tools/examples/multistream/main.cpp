// multistream: several host threads launch the stages of a pipeline on several streams, ordered by
// events only (see pipeline.h). Prints a checksum of every iteration's result on stdout and its own
// allocation bookkeeping on stderr.
#include "tools/examples/common/checksum.h"
#include "tools/examples/common/flags.h"
#include "tools/examples/common/session.h"
#include "tools/examples/multistream/pipeline.h"

int main(int argc, char** argv) {
  constexpr char kProgram[] = "multistream";
  const examples::Flags flags(kProgram,
                              {{"stages", 4, 1, 64, "pipeline stages (host threads and streams)"},
                               {"iterations", 12, 1, 100000, "iterations"},
                               {"elements", 1 << 18, 1, 1 << 28, "floats per buffer"},
                               {"seed", 1, 0, int64_t{1} << 40, "seed of the input data"}},
                              argc, argv);
  const multistream::Config config{static_cast<int>(flags["stages"]),
                                   static_cast<int>(flags["iterations"]), flags["elements"],
                                   static_cast<uint64_t>(flags["seed"])};
  examples::Session session(kProgram);
  examples::Checksum checksum;
  {
    multistream::Pipeline pipeline(session, config);
    pipeline.run(checksum);
  }
  checksum.print();
  session.books().print();
  return 0;
}
