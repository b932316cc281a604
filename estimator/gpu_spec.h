// The estimator's view of a GPU: how much memory a process can see and what the chip supports.
#pragma once

#include <string>

namespace gpulint::est {

struct GpuSpec {
  std::string name;             ///< canonical name, e.g. "H100-80GB"
  double total_bytes = 0;       ///< device total as nvidia-smi reports it
  std::string arch;             ///< ampere, hopper, ada, ...
  std::string vendor = "nvidia";
  bool bf16_support = true;
  bool fp8_support = false;
  double mem_bandwidth_gbps = 0;
  double bf16_tflops = 0;
};

}  // namespace gpulint::est
