// Versions of engines and frameworks that text pins: `pip install vllm==0.6.3` in a script,
// `vllm>=0.8.5,<=0.12.0` in requirements.txt, setup.py or pyproject.toml, an image such as
// `vllm/vllm-openai:v0.6.3`, `lmsysorg/sglang:v0.4.6.post1-cu124` or verl's
// `verlai/verl:app-verl0.5-vllm0.9.1-mcore0.12`. The estimate of an engine holds for the versions
// its pins admit (estimator/engine_era.h); a framework's pin picks its flag map.
#pragma once

#include <string>
#include <vector>

namespace gpulint {

struct VersionPin {
  std::string package;  ///< "vllm", "sglang" or a framework's package ("trl")
  std::string spec;    ///< as written: "==0.6.3", ">=0.8.5,<=0.12.0", "v0.6.3"
  size_t offset = 0;   ///< of `spec` in the text
};

/// Every pin of vLLM, SGLang or one of `packages` (the frameworks' pip names, which have no
/// image tags) in `text`, engines first. A package name without a version (`pip install vllm`)
/// pins nothing; "vllm-ascend", "sglang-router" and the like are other packages. Pure: reads
/// no file.
std::vector<VersionPin> FindVersionPins(const std::string& text,
                                        const std::vector<std::string>& packages = {});

/// The engines gpulint has version-dependent accounting for.
bool IsVersionedEngine(const std::string& engine);

}  // namespace gpulint
