#include "lint/util/word_wrap.h"

#include <catch2/catch.hpp>

#include <sstream>

using namespace gpulint;

namespace {

// The text back: every break was one space.
std::string Unwrap(const std::string& wrapped, const std::string& indent) {
  std::string out;
  for (size_t i = 0; i < wrapped.size(); ++i) {
    if (wrapped[i] == '\n' && wrapped.compare(i + 1, indent.size(), indent) == 0) {
      out += ' ';
      i += indent.size();
    } else {
      out += wrapped[i];
    }
  }
  return out;
}

}  // namespace

TEST_CASE("words wrap at spaces within the widths, and unwrap to the text", "[util]") {
  const std::string text =
      "the peak needs at least 93.4 GiB per GPU (live tensors, before the allocator's slack), "
      "more than the 80.0 GiB of A100-80GB";
  std::string wrapped = WordWrap(text, 30, 40, "    ");
  CHECK(wrapped ==
        "the peak needs at least 93.4\n"
        "    GiB per GPU (live tensors, before\n"
        "    the allocator's slack), more than\n"
        "    the 80.0 GiB of A100-80GB");
  CHECK(Unwrap(wrapped, "    ") == text);
  std::istringstream lines(wrapped);
  size_t first = 0;
  for (std::string line; std::getline(lines, line); first = 1) CHECK(line.size() <= (first ? 40 : 30));
}

TEST_CASE("wrapping leaves short text, long words and runs of spaces as they are", "[util]") {
  CHECK(WordWrap("fits", 10, 10, "  ") == "fits");
  CHECK(WordWrap("a b c", 0, 0, "  ") == "a b c");  // no width: no wrapping
  // A word longer than a line stands alone on its line.
  CHECK(WordWrap("see /a/very/long/path/to/a/config.json here", 10, 12, "  ") ==
        "see\n  /a/very/long/path/to/a/config.json\n  here");
  const std::string spaced = "two  spaces and   three between words";
  CHECK(Unwrap(WordWrap(spaced, 8, 10, " "), " ") == spaced);
}
