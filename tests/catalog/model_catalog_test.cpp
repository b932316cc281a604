// The built-in model catalog: every entry parses, and the parameter count computed from each
// architecture matches the reference's independent count and the model card's official figure.
#include "lint/catalog/model_catalog.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <toml++/toml.h>

#include "estimator/param_count.h"
#include "lint/data/embedded_data.h"

using gpulint::ModelCatalog;

namespace {

struct ReferenceCounts {
  std::string id;
  double computed_text = 0;    // the reference generator's own count (language model only)
  double computed_active = 0;
};

std::vector<ReferenceCounts> ReadReferenceCounts() {
  std::vector<ReferenceCounts> counts;
  for (const auto& file : gpulint::EmbeddedFilesUnder("catalog/models/")) {
    toml::table table = toml::parse(file.content, std::string_view(file.path));
    for (const toml::node& node : *table["model"].as_array()) {
      const toml::table& model = *node.as_table();
      counts.push_back({model["hf_id"].value_or(std::string()),
                        model["params_computed_text"].value_or(0.0),
                        model["params_computed_active_text"].value_or(0.0)});
    }
  }
  return counts;
}

}  // namespace

TEST_CASE("the catalog holds every reference model and each one parses", "[catalog]") {
  ModelCatalog catalog;
  auto ids = catalog.Ids();
  CHECK(ids.size() >= 79);  // 47 in models.toml + 32 in models-extra.toml
  for (const std::string& id : ids) {
    std::string error;
    INFO(id);
    auto entry = catalog.Find(id, &error);
    REQUIRE(entry);
    CHECK(error.empty());
    CHECK(entry->arch.hidden_size > 0);
    CHECK(entry->arch.num_layers > 0);
  }
}

TEST_CASE("computed parameter counts equal the reference's independent count", "[catalog]") {
  ModelCatalog catalog;
  for (const ReferenceCounts& reference : ReadReferenceCounts()) {
    INFO(reference.id);
    std::string error;
    auto entry = catalog.Find(reference.id, &error);
    REQUIRE(entry);
    auto params = gpulint::est::CountParams(entry->arch);
    REQUIRE(reference.computed_text > 0);
    CHECK(params.TextTotal() == Approx(reference.computed_text).epsilon(1e-6));
    if (reference.computed_active > 0)
      CHECK(params.TextActive(entry->arch) == Approx(reference.computed_active).epsilon(1e-6));
  }
}

TEST_CASE("computed totals are within 2% of every official model-card count", "[catalog]") {
  ModelCatalog catalog;
  int checked = 0;
  for (const std::string& id : catalog.Ids()) {
    std::string error;
    auto entry = catalog.Find(id, &error);
    REQUIRE(entry);
    auto params = gpulint::est::CountParams(entry->arch);
    INFO(id);
    if (entry->params_total) {
      // Cards that count the vision tower (Llama 4) are compared with the whole model, and a
      // safetensors count with the MTP layers it stores (Qwen3.5).
      double computed = params.CheckpointTotal();
      CHECK(std::abs(computed - *entry->params_total) / *entry->params_total < 0.02);
      ++checked;
    }
    if (entry->params_active) {
      double active = params.TextActive(entry->arch, entry->params_active_counts_embedding);
      CHECK(std::abs(active - *entry->params_active) / *entry->params_active < 0.02);
    }
  }
  CHECK(checked >= 11);
}

TEST_CASE("MoE weights count every expert: Qwen3-30B-A3B is ~30.5B stored, ~3.3B active",
          "[catalog]") {
  ModelCatalog catalog;
  std::string error;
  auto entry = catalog.Find("Qwen/Qwen3-30B-A3B", &error);
  REQUIRE(entry);
  auto params = gpulint::est::CountParams(entry->arch);
  CHECK(params.Total() == Approx(30.53e9).epsilon(0.001));
  CHECK(params.TextActive(entry->arch) == Approx(3.35e9).epsilon(0.001));
  // 48 layers x 128 experts x 3 x 2048 x 768 expert weights.
  CHECK(params.expert_linear == 48.0 * 128 * 3 * 2048 * 768);
}

TEST_CASE("lookups ignore case and miss cleanly", "[catalog]") {
  ModelCatalog catalog;
  std::string error;
  CHECK(catalog.Find("qwen/qwen3-8b", &error));
  CHECK_FALSE(catalog.Find("Qwen/Qwen9-1T", &error));
  CHECK(error.empty());
}
