// libFuzzer target for gpulint.toml (ParseProjectConfig, then the [[gpu]]/[[gpu_type]] tables
// through GpuCatalog::AddFromToml as Catalog::AddUserEntries reads them): any bytes parse or
// fail with an error, without a crash, a hang or a sanitizer report; a failure says why, a
// headroom that loads is in [0, 0.9), and every [[model]] that loads has finite, non-negative
// parameter counts.
#include <cstddef>
#include <cstdint>
#include <string>

#include "estimator/param_count.h"
#include "lint/catalog/gpu_catalog.h"
#include "lint/config/project_config.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  // Both names: pyproject.toml reads only [tool.gpulint].
  for (const char* path : {"/project/gpulint.toml", "/project/pyproject.toml"}) {
    gpulint::ProjectConfig config;
    std::string error;
    if (!gpulint::ParseProjectConfig(text, path, &config, &error)) {
      FUZZ_CHECK(!error.empty(), "a failed parse says nothing");
      continue;
    }
    if (config.headroom)
      FUZZ_CHECK(*config.headroom >= 0 && *config.headroom < 0.9, "headroom %g", *config.headroom);
    for (const gpulint::ModelEntry& model : config.models) {
      gpulint::est::ParamBreakdown params = gpulint::est::CountParams(model.arch);
      FUZZ_CHECK(gpulint::fuzz::Sane(params.Total()), "model %s has %g parameters",
                 model.hf_id.c_str(), params.Total());
    }
    gpulint::GpuCatalog gpus;
    if (gpus.AddFromToml(config.text, config.path, &error)) {
      gpulint::GpuResolution resolved = gpus.Resolve(config.gpu.value_or("H100"), "");
      if (resolved.spec)
        FUZZ_CHECK(gpulint::fuzz::Sane(resolved.spec->total_bytes), "GPU %s has %g bytes",
                   resolved.spec->name.c_str(), resolved.spec->total_bytes);
    }
  }
  return 0;
}
