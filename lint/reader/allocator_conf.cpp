#include "lint/reader/allocator_conf.h"

namespace gpulint {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<bool> ExpandableSegmentsOption(std::string_view conf) {
  std::optional<bool> found;
  while (!conf.empty()) {
    const size_t comma = conf.find(',');
    std::string_view pair = conf.substr(0, comma);
    conf = comma == std::string_view::npos ? std::string_view() : conf.substr(comma + 1);
    const size_t colon = pair.find(':');
    if (colon == std::string_view::npos) continue;
    if (Trim(pair.substr(0, colon)) != "expandable_segments") continue;
    const std::string_view value = Trim(pair.substr(colon + 1));
    if (value == "True" || value == "False")
      found = value == "True";
    else
      found.reset();
  }
  return found;
}

}  // namespace gpulint
