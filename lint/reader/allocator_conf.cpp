#include "lint/reader/allocator_conf.h"

#include <string>

#include "lint/util/strings.h"

namespace gpulint {

std::optional<bool> ExpandableSegmentsOption(std::string_view conf) {
  std::optional<bool> found = false;  // PyTorch's default, where the option is left out
  for (const std::string& option : SplitAny(conf, ",")) {
    const std::string_view pair = option;
    const size_t colon = pair.find(':');
    if (Trim(pair.substr(0, colon)) != "expandable_segments") continue;
    const std::string_view value =
        colon == std::string_view::npos ? std::string_view() : Trim(pair.substr(colon + 1));
    if (value == "True" || value == "False")
      found = value == "True";
    else
      found.reset();
  }
  return found;
}

}  // namespace gpulint
