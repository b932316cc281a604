// Every spelling of tests/catalog/model_names.toml resolves to the entry it names, with the
// storage format its name implies, or is refused; none by prefix.
#include <catch2/catch.hpp>
#include <toml++/toml.h>

#include "lint/catalog/catalog.h"
#include "lint/catalog/model_resolver.h"
#include "tests/support/process.h"

TEST_CASE("real spellings of model names resolve exactly or are refused", "[catalog][resolve]") {
  toml::table table = toml::parse_file(gpulint::testing::SourcePath("tests/catalog/model_names.toml"));
  const toml::array* names = table["name"].as_array();
  REQUIRE(names);
  gpulint::Catalog catalog;
  gpulint::ResolveContext context;
  context.use_filesystem = false;
  size_t refused = 0;
  for (const toml::node& node : *names) {
    const toml::table& row = *node.as_table();
    std::string reference = row["reference"].value_or(std::string());
    std::string expected = row["resolves_to"].value_or(std::string());
    INFO(reference << " (" << row["seen_in"].value_or(std::string()) << ")");
    REQUIRE_FALSE(row["seen_in"].value_or(std::string()).empty());
    auto result = catalog.ResolveModel(reference, context);
    if (expected.empty()) {
      ++refused;
      CHECK(result.status != gpulint::ResolveStatus::kResolved);
      continue;
    }
    REQUIRE(result.status == gpulint::ResolveStatus::kResolved);
    CHECK(result.entry->hf_id == expected);
    CHECK(gpulint::WeightFormatName(result.quant_from_name.format) ==
          row["quant"].value_or(std::string("none")));
    CHECK(result.assumptions.empty() == row["exact"].value_or(false));
  }
  CHECK(names->size() >= 300);
  CHECK(refused > 0);
}
