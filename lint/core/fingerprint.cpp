#include "lint/core/fingerprint.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdint>

namespace gpulint {

std::string Fingerprint(const std::string& rule, const std::string& line_text, int occurrence) {
  std::string normalized;
  bool space = false;
  for (char c : line_text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !normalized.empty();
      continue;
    }
    if (space) normalized += ' ';
    space = false;
    normalized += c;
  }
  std::string input = fmt::format("{}|{}|{}", rule, normalized, occurrence);
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : input) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return fmt::format("{:016x}", hash);
}

}  // namespace gpulint
