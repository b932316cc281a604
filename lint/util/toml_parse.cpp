#include "lint/util/toml_parse.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace gpulint {
namespace {

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

}  // namespace

size_t TomlKeyParts(std::string_view text) {
  size_t most = 1, parts = 1;
  // The string being read: none, "...", '...', """...""" or '''...'''.
  enum class In { kNothing, kBasic, kLiteral, kMultiBasic, kMultiLiteral } in = In::kNothing;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const std::string_view rest = text.substr(i);
    switch (in) {
      case In::kBasic:
        if (c == '\\') ++i;
        else if (c == '"' || c == '\n') in = In::kNothing;
        continue;
      case In::kLiteral:
        if (c == '\'' || c == '\n') in = In::kNothing;
        continue;
      case In::kMultiBasic:
        if (c == '\\') ++i;
        else if (rest.substr(0, 3) == "\"\"\"") in = In::kNothing, i += 2;
        continue;
      case In::kMultiLiteral:
        if (rest.substr(0, 3) == "'''") in = In::kNothing, i += 2;
        continue;
      case In::kNothing:
        break;
    }
    if (rest.substr(0, 3) == "\"\"\"") {
      in = In::kMultiBasic, i += 2;
    } else if (rest.substr(0, 3) == "'''") {
      in = In::kMultiLiteral, i += 2;
    } else if (c == '"') {
      in = In::kBasic;
    } else if (c == '\'') {
      in = In::kLiteral;
    } else if (c == '#') {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
    } else if (c == '\n') {
      parts = 1;
    } else if (c == '.' && !(i > 0 && IsDigit(text[i - 1]) && i + 1 < text.size() &&
                             IsDigit(text[i + 1]))) {
      most = std::max(most, ++parts);
    }
  }
  return most;
}

bool ParseToml(std::string_view text, std::string_view where, toml::table* table,
               std::string* error) {
  if (TomlKeyParts(text) > kMaxTomlKeyParts) {
    *error = fmt::format("a TOML key has more than {} dotted parts: {}", kMaxTomlKeyParts, where);
    return false;
  }
  try {
    *table = toml::parse(text, where);
  } catch (const toml::parse_error& e) {
    *error = fmt::format("invalid TOML ({}): {}:{}:{}", e.description(), where,
                         e.source().begin.line, e.source().begin.column);
    return false;
  }
  return true;
}

}  // namespace gpulint
