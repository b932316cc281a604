#include "lint/reader/python_escape.h"

namespace gpulint {
namespace {

void AppendUtf8(char32_t code, std::string* out) {
  if (code < 0x80) {
    *out += static_cast<char>(code);
  } else if (code < 0x800) {
    *out += static_cast<char>(0xC0 | (code >> 6));
    *out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    *out += static_cast<char>(0xE0 | (code >> 12));
    *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (code >> 18));
    *out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

size_t DecodePythonEscape(std::string_view src, size_t at, std::string* out) {
  if (at + 1 >= src.size()) {
    *out += '\\';
    return at + 1;
  }
  const char e = src[at + 1];
  switch (e) {
    case '\n':
      return at + 2;  // a line continuation inside the string
    case '\\':
    case '\'':
    case '"':
      *out += e;
      return at + 2;
    case 'a':
      *out += '\a';
      return at + 2;
    case 'b':
      *out += '\b';
      return at + 2;
    case 'f':
      *out += '\f';
      return at + 2;
    case 'n':
      *out += '\n';
      return at + 2;
    case 'r':
      *out += '\r';
      return at + 2;
    case 't':
      *out += '\t';
      return at + 2;
    case 'v':
      *out += '\v';
      return at + 2;
    default:
      break;
  }
  if (e >= '0' && e <= '7') {  // up to three octal digits
    char32_t code = 0;
    size_t end = at + 1;
    while (end < src.size() && end < at + 4 && src[end] >= '0' && src[end] <= '7')
      code = code * 8 + static_cast<char32_t>(src[end++] - '0');
    AppendUtf8(code, out);
    return end;
  }
  const size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
  if (digits > 0 && at + 2 + digits <= src.size()) {
    char32_t code = 0;
    bool ok = true;
    for (size_t k = 0; k < digits && ok; ++k) {
      int digit = HexDigit(src[at + 2 + k]);
      ok = digit >= 0;
      code = code * 16 + static_cast<char32_t>(digit);
    }
    // Python refuses a code point past U+10FFFF; a surrogate it keeps as one, UTF-8 cannot.
    if (ok && code <= 0x10FFFF && !(code >= 0xD800 && code <= 0xDFFF)) {
      AppendUtf8(code, out);
      return at + 2 + digits;
    }
  }
  // Python keeps an escape it does not know as written ("C:\data" holds the backslash); a
  // malformed \x or \u is a syntax error there, kept as written here.
  *out += '\\';
  *out += e;
  return at + 2;
}

}  // namespace gpulint
