// The Python reader on inputs the fuzzer found (tests/fuzz/regressions/python/, .../edits/).
#include "lint/reader/python_reader.h"

#include <catch2/catch.hpp>

using gpulint::PyModule;
using gpulint::ReadPython;

namespace {

// The string value of keyword `key` of the first call, or "<none>".
std::string Keyword(const PyModule& module, const std::string& key) {
  if (module.calls.empty()) return "<none>";
  for (const auto& entry : module.calls[0].keywords)
    if (entry.key == key) return entry.value.text;
  return "<none>";
}

}  // namespace

TEST_CASE("string escapes read as Python reads them", "[reader][python]") {
  struct Row {
    const char* source;
    const char* value;
  };
  const Row rows[] = {
      {R"(LLM(model="a\nb"))", "a\nb"},
      {R"(LLM(model="a\rb"))", "a\rb"},  // was "arb"
      {R"(LLM(model="\u00e9\x41\101"))",
       "\xc3\xa9"
       "AA"},
      {R"(LLM(model='it\'s'))", "it's"},
      {R"(LLM(model="C:\data"))", "C:\\data"},  // an unknown escape keeps its backslash
      {R"(LLM(model="\U0001F600"))", "\xf0\x9f\x98\x80"},
      {R"(LLM(model="bad \xZZ"))", "bad \\xZZ"},
      {R"(LLM(model=r"a\nb"))", "a\\nb"},
  };
  for (const Row& row : rows) {
    INFO(row.source);
    CHECK(Keyword(ReadPython(row.source, {"LLM"}), "model") == row.value);
  }
}

TEST_CASE("a call with a stray closing bracket ends (found by the fuzzer)", "[reader][python]") {
  // tests/fuzz/regressions/python/call-with-closing-brace.py: `k(}` read values without end.
  PyModule module = ReadPython("k(}\nLLM(tensor_parallel_size=2, ])\n", {"k", "LLM"});
  CHECK(module.calls.size() <= 2);
}
