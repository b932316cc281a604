// One model as the catalog (or a config.json) describes it: the architecture the estimator uses,
// plus what is known about where the numbers came from and how sure they are.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "estimator/model_arch.h"

namespace gpulint {

struct ModelEntry {
  std::string hf_id;                         ///< "Qwen/Qwen3-8B"
  /// Other exact ids of the same checkpoint (a repository renamed on the Hub, an upload that
  /// carries the same weights): they resolve to this entry as its own id does.
  std::vector<std::string> aliases;
  est::ModelArch arch;
  std::string confidence = "high";           ///< high | medium | low (reference catalog)
  std::vector<std::string> uncertain_fields; ///< values not read from the model's config.json
  /// Whether the config named its torch_dtype; if not, arch.dtype is only what weights are
  /// priced at (two bytes either way), and no rule judges the checkpoint's dtype.
  bool dtype_recorded = false;
  std::optional<double> params_total;        ///< official figure from the model card
  std::optional<double> params_active;
  bool params_active_counts_embedding = true;  ///< how the card's active figure is defined
  std::string source;                        ///< where the values were read
  std::string origin;                        ///< "catalog", "config.json: PATH", "gpulint.toml: PATH"
};

}  // namespace gpulint
