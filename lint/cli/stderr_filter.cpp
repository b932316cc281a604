#include "lint/cli/stderr_filter.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace gpulint {
namespace {

bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

ssize_t WriteFiltered(void* /*cookie*/, const char* data, size_t size) {
  std::string out;
  out.reserve(size);
  for (size_t i = 0; i < size; ++i) {
    const auto c = static_cast<unsigned char>(data[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
      out += fmt::format("\\x{:02x}", c);
    } else if (c == 0xC2 && i + 1 < size && static_cast<unsigned char>(data[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(data[i + 1]) <= 0x9F) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(data[++i]));
    } else {
      out += static_cast<char>(c);
    }
  }
  // All of it, or an error: stdio takes a short count as a failed write.
  return WriteAll(STDERR_FILENO, out.data(), out.size()) ? static_cast<ssize_t>(size) : -1;
}

}  // namespace

void FilterStderrControlBytes() {
  cookie_io_functions_t functions{};
  functions.write = WriteFiltered;
  if (FILE* filtered = fopencookie(nullptr, "w", functions)) {
    setvbuf(filtered, nullptr, _IONBF, 0);  // as stderr: each message when it is printed
    stderr = filtered;
  }
}

}  // namespace gpulint
