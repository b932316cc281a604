#include "lint/core/baseline.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "lint/util/nesting_depth.h"

namespace gpulint {

bool ParseBaseline(const std::string& text, const std::string& where,
                   std::set<std::string>* keys, std::string* error) {
  auto refuse = [&](const std::string& what) {
    *error = fmt::format("baseline is not a gpulint baseline ({}): {}", what, where);
    return false;
  };
  // Depth-limited like every JSON gpulint reads: a file nested 100,000 deep is no baseline.
  if (JsonNestingDepth(text) > kMaxJsonDepth)
    return refuse(fmt::format("nested deeper than {} levels", kMaxJsonDepth));
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) return refuse("not a JSON object");
  auto findings = json.find("findings");
  if (findings == json.end() || !findings->is_array())
    return refuse("no \"findings\" list");
  for (const nlohmann::json& entry : *findings) {
    if (!entry.is_object()) return refuse("a finding is not an object");
    auto path = entry.find("path");
    auto fingerprint = entry.find("fingerprint");
    if (path == entry.end() || !path->is_string() || fingerprint == entry.end() ||
        !fingerprint->is_string())
      return refuse("a finding without a string \"path\" and \"fingerprint\"");
    keys->insert(path->get<std::string>() + "|" + fingerprint->get<std::string>());
  }
  return true;
}

}  // namespace gpulint
