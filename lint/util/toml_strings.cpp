#include "lint/util/toml_strings.h"

namespace gpulint {

std::vector<std::string> TomlStrings(const toml::node* node) {
  std::vector<std::string> out;
  if (!node) return out;
  if (auto single = node->value<std::string>()) {
    out.push_back(*single);
  } else if (const toml::array* array = node->as_array()) {
    for (const toml::node& element : *array)
      if (auto value = element.value<std::string>()) out.push_back(*value);
  }
  return out;
}

}  // namespace gpulint
