#include "lint/report/safe_text.h"

#include <fmt/format.h>

namespace gpulint {
namespace {

// Length of the UTF-8 sequence at `text[i]`, 0 when it is not a valid one (overlong forms,
// surrogates and code points past U+10FFFF are invalid too).
size_t SequenceLength(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  size_t n = b0 >= 0xC2 && b0 <= 0xDF   ? 2
             : b0 >= 0xE0 && b0 <= 0xEF ? 3
             : b0 >= 0xF0 && b0 <= 0xF4 ? 4
                                        : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  unsigned char b1 = byte(i + 1);
  if (b0 == 0xE0 && b1 < 0xA0) return 0;  // overlong
  if (b0 == 0xED && b1 > 0x9F) return 0;  // surrogates
  if (b0 == 0xF0 && b1 < 0x90) return 0;  // overlong
  if (b0 == 0xF4 && b1 > 0x8F) return 0;  // past U+10FFFF
  return n;
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

}  // namespace

std::string ValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t n = SequenceLength(text, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string MarkdownInline(std::string_view text) {
  std::string out;
  for (char c : Printable(text)) {
    if (c == '\n' || c == '\r')
      out += ' ';
    else if (c == '<')
      out += "&lt;";
    else if (c == '|')
      out += "\\|";
    else
      out += c;
  }
  return out;
}

std::string Printable(std::string_view text) {
  std::string valid = ValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (size_t i = 0; i < valid.size(); ++i) {
    auto c = static_cast<unsigned char>(valid[i]);
    if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7F) {
      out += fmt::format("\\x{:02x}", c);
    } else if (c == 0xC2 && i + 1 < valid.size() &&
               static_cast<unsigned char>(valid[i + 1]) <= 0x9F) {
      // C1 controls (U+0080-U+009F), which some terminals take as escape sequences.
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(valid[i + 1]));
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace gpulint
