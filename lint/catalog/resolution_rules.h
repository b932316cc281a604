// The name-matching rules of catalog/resolution.toml, parsed once.
#pragma once

#include <string>
#include <vector>

namespace gpulint {

struct QuantSuffix {
  std::vector<std::string> words;  ///< lower case, e.g. {"gptq", "int4"}
  std::string format;              ///< a ParseWeightFormat name, or "unsupported"
  std::string reason;              ///< why an unsupported format is not modeled
  bool anywhere = false;           ///< (unsupported formats) the words may stand anywhere
};

struct ResolutionRules {
  std::vector<QuantSuffix> quant_suffixes;  ///< longest first
};

const ResolutionRules& GetResolutionRules();

}  // namespace gpulint
