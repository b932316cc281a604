#include "lint/util/suggest.h"

#include <algorithm>
#include <cctype>

namespace gpulint {
namespace {

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

std::string LowerString(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = Lower(c);
  return out;
}

}  // namespace

int EditDistance(std::string_view a, std::string_view b) {
  // Two rows are enough; names are short.
  std::vector<int> previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      int substitution = previous[j - 1] + (Lower(a[i - 1]) == Lower(b[j - 1]) ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::vector<std::string> ClosestNames(std::string_view name,
                                      const std::vector<std::string>& candidates,
                                      size_t max_results) {
  std::string lowered = LowerString(name);
  std::vector<std::pair<int, std::string>> scored;
  for (const std::string& candidate : candidates) {
    std::string lowered_candidate = LowerString(candidate);
    int distance = EditDistance(lowered, lowered_candidate);
    int longer = static_cast<int>(std::max(name.size(), candidate.size()));
    int allowed = std::clamp(longer / 3, 1, 4);
    bool contains = !lowered.empty() && lowered.size() >= 3 &&
                    (lowered_candidate.find(lowered) != std::string::npos ||
                     lowered.find(lowered_candidate) != std::string::npos);
    if (distance <= allowed || contains) scored.emplace_back(contains ? 0 : distance, candidate);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> result;
  for (const auto& [score, candidate] : scored) {
    if (result.size() == max_results) break;
    if (std::find(result.begin(), result.end(), candidate) == result.end())
      result.push_back(candidate);
  }
  return result;
}

std::string DidYouMean(const std::vector<std::string>& suggestions) {
  if (suggestions.empty()) return "";
  std::string out = " (did you mean ";
  for (size_t i = 0; i < suggestions.size(); ++i) out += (i ? ", " : "") + suggestions[i];
  return out + "?)";
}

}  // namespace gpulint
