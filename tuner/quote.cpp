#include "tuner/quote.h"

#include <fmt/format.h>

namespace gpulint {
namespace {

// Letters, digits and punctuation that mean nothing to a shell, YAML or Python in a value.
bool IsPlain(std::string_view value) {
  if (value.empty()) return false;
  for (char c : value) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '/' || c == '+' || c == '@' || c == '-' || c == ',';
    if (!ok) return false;
  }
  return true;
}

// A plain word YAML reads back as that very string: not a lone '-' (a sequence entry), not one
// starting with '@' or ',' (indicators no plain scalar may start with) and not a null (found by
// tests/fuzz/fuzz_edits: `key: -` is a list holding null).
bool IsPlainYaml(std::string_view value) {
  if (!IsPlain(value)) return false;
  if (value == "-" || value[0] == '@' || value[0] == ',') return false;
  return value != "null" && value != "Null" && value != "NULL";
}

// Escapes for a double-quoted string of JSON, YAML or Python: backslash, the quote, controls.
std::string EscapeDoubleQuoted(std::string_view value, char quote) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == quote) {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out;
}

std::string ShellSingleQuoted(std::string_view value) {
  std::string out;
  for (char c : value) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out;
}

}  // namespace

TextKind KindOfFile(std::string_view path) {
  auto ends = [&](std::string_view suffix) {
    return path.size() >= suffix.size() && path.substr(path.size() - suffix.size()) == suffix;
  };
  if (ends(".yaml") || ends(".yml")) return TextKind::kYaml;
  if (ends(".json")) return TextKind::kJson;
  if (ends(".py")) return TextKind::kPython;
  return TextKind::kShell;
}

std::string QuoteValue(TextKind kind, std::string_view text, size_t offset, size_t length,
                       std::string_view value) {
  char quote = 0;
  if (offset > 0 && offset + length < text.size() && text[offset - 1] == text[offset + length] &&
      (text[offset - 1] == '"' || text[offset - 1] == '\''))
    quote = text[offset - 1];
  if (quote == 0 && (kind == TextKind::kYaml ? IsPlainYaml(value) : IsPlain(value)))
    return std::string(value);
  switch (kind) {
    case TextKind::kShell:
      if (quote == '\'') return ShellSingleQuoted(value);
      if (quote == '"') {
        std::string out;
        for (char c : value) {
          if (c == '\\' || c == '$' || c == '`' || c == '"') out += '\\';
          out += c;
        }
        return out;
      }
      return "'" + ShellSingleQuoted(value) + "'";
    case TextKind::kYaml:
      if (quote == '\'') {
        std::string out;
        for (char c : value) out += c == '\'' ? std::string("''") : std::string(1, c);
        return out;
      }
      if (quote == '"') return EscapeDoubleQuoted(value, '"');
      return "\"" + EscapeDoubleQuoted(value, '"') + "\"";
    case TextKind::kJson:
    case TextKind::kPython:
      if (quote != 0) return EscapeDoubleQuoted(value, quote);
      return "\"" + EscapeDoubleQuoted(value, '"') + "\"";
  }
  return std::string(value);
}

}  // namespace gpulint
