#include "lint/catalog/resolution_rules.h"

#include <algorithm>
#include <toml++/toml.h>

#include "lint/data/embedded_data.h"
#include "lint/util/toml_strings.h"

namespace gpulint {
namespace {

ResolutionRules Load() {
  ResolutionRules rules;
  for (const EmbeddedFile& file : EmbeddedFiles()) {
    if (file.path != "catalog/resolution.toml") continue;
    // The embedded file is checked by the test suite; a parse error here is a build defect.
    const toml::table table = toml::parse(file.content, std::string_view("catalog/resolution.toml"));
    if (const toml::array* suffixes = table["quant_suffix"].as_array()) {
      for (const toml::node& node : *suffixes) {
        const toml::table& suffix = *node.as_table();
        rules.quant_suffixes.push_back({TomlStrings(suffix["words"].node()),
                                        suffix["format"].value_or(std::string()),
                                        suffix["reason"].value_or(std::string()),
                                        suffix["anywhere"].value_or(false)});
      }
    }
  }
  std::stable_sort(rules.quant_suffixes.begin(), rules.quant_suffixes.end(),
                   [](const QuantSuffix& a, const QuantSuffix& b) {
                     return a.words.size() > b.words.size();
                   });
  return rules;
}

}  // namespace

const ResolutionRules& GetResolutionRules() {
  static const ResolutionRules rules = Load();
  return rules;
}

}  // namespace gpulint
