// libFuzzer target for model descriptions: the bytes are parsed as a config.json
// (ParseModelConfigJson) and as TOML [[model]] tables (ParseModelTables). Properties: no crash,
// hang or sanitizer report; a failure says why; and every model that parses has a parameter
// count (estimator/param_count.h) whose every group is finite and not negative, and active
// parameters no more than the total: whatever passes the catalog's checks reaches the
// estimator, which multiplies these counts into bytes. A config.json that parses also gets the
// [[model]] table `gpulint models add` would write (ModelTableFromConfigJson), which reads back
// or says why not. The bytes are also a safetensors header (AddSafetensorsHeader): what it
// counts is finite and not negative.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "estimator/param_count.h"
#include "lint/catalog/checkpoint_size.h"
#include "lint/catalog/model_config.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

void CheckCounts(const gpulint::ModelEntry& model) {
  const gpulint::est::ModelArch& arch = model.arch;
  gpulint::est::ParamBreakdown p = gpulint::est::CountParams(arch);
  const double groups[] = {p.embedding,
                           p.lm_head,
                           p.attention_linear,
                           p.attention_other,
                           p.dense_mlp_linear,
                           p.dense_mlp_bias,
                           p.expert_linear,
                           p.expert_bias,
                           p.shared_expert_linear,
                           p.router,
                           p.norms,
                           p.vision};
  for (double group : groups)
    FUZZ_CHECK(gpulint::fuzz::Sane(group), "model %s: a parameter group is %g", model.hf_id.c_str(),
               group);
  const double total = p.Total();
  FUZZ_CHECK(gpulint::fuzz::Sane(total) && total > 0, "model %s: %g parameters",
             model.hf_id.c_str(), total);
  for (bool embedding : {true, false}) {
    double active = p.TextActive(arch, embedding);
    FUZZ_CHECK(gpulint::fuzz::Sane(active) && active <= total * (1 + 1e-9),
               "model %s: %g active parameters of %g", model.hf_id.c_str(), active, total);
  }
  FUZZ_CHECK(gpulint::fuzz::Sane(p.QuantizableLinear(arch.checkpoint_quant.exclusions)),
             "model %s: quantizable weights not a count", model.hf_id.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  gpulint::ModelEntry entry;
  if (gpulint::ParseModelConfigJson(text, "/ckpt/config.json", &entry, &error)) {
    CheckCounts(entry);
    std::string table;
    error.clear();
    if (!gpulint::ModelTableFromConfigJson(text, "/ckpt/config.json", {{"hf_id", "fuzz/m"}},
                                           "model", &table, &error))
      FUZZ_CHECK(!error.empty(), "a table that cannot be written says nothing");
  } else
    FUZZ_CHECK(!error.empty(), "a config.json that fails says nothing");
  gpulint::CheckpointSize stored;
  std::string problem;
  if (gpulint::AddSafetensorsHeader(std::string(text), "/ckpt/model.safetensors", &stored, &problem))
    FUZZ_CHECK(gpulint::fuzz::Sane(stored.bytes) && gpulint::fuzz::Sane(stored.elements),
               "a header counts %g bytes, %g values", stored.bytes, stored.elements);
  else
    FUZZ_CHECK(!problem.empty(), "a header that fails says nothing");
  std::vector<gpulint::ModelEntry> entries;
  error.clear();
  if (!gpulint::ParseModelTables(text, "/project/models.toml", &entries, &error))
    FUZZ_CHECK(!error.empty(), "[[model]] tables that fail say nothing");
  for (const gpulint::ModelEntry& model : entries) CheckCounts(model);
  return 0;
}
