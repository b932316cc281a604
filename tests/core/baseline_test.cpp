// Baselines come from the repository: whatever the file holds, it is read or refused with why.
#include "lint/core/baseline.h"

#include <catch2/catch.hpp>

#include <string>
#include <utility>

using namespace gpulint;

TEST_CASE("a baseline's findings are read as path|fingerprint", "[core][baseline]") {
  std::set<std::string> keys;
  std::string error;
  REQUIRE(ParseBaseline(R"({"version": 1, "findings": [
      {"path": "run.sh", "rule": "GL101", "fingerprint": "00ff"},
      {"path": "b.sh", "fingerprint": "01", "note": "extra fields are ignored"}]})",
                        "b.json", &keys, &error));
  CHECK(keys == std::set<std::string>{"run.sh|00ff", "b.sh|01"});
  keys.clear();
  CHECK(ParseBaseline(R"({"findings": []})", "b.json", &keys, &error));
  CHECK(keys.empty());
}

TEST_CASE("anything else is refused with what and where, never thrown", "[core][baseline]") {
  // The last five threw nlohmann's type_error out of `lint --baseline` ("internal error").
  const std::pair<const char*, const char*> cases[] = {
      {"not json", "not a JSON object"},
      {"[1, 2]", "not a JSON object"},
      {R"({"version": 1})", "no \"findings\" list"},
      {R"({"findings": 5})", "no \"findings\" list"},
      {R"({"findings": {"path": "a", "fingerprint": "b"}})", "no \"findings\" list"},
      {R"({"findings": [1]})", "a finding is not an object"},
      {R"({"findings": [{"path": 3, "fingerprint": "x"}]})", "without a string"},
      {R"({"findings": [{"path": "a"}]})", "without a string"},
  };
  for (const auto& [text, why] : cases) {
    INFO(text);
    std::set<std::string> keys;
    std::string error;
    CHECK_FALSE(ParseBaseline(text, "b.json", &keys, &error));
    CHECK(error.find(why) != std::string::npos);
    CHECK(error.find(": b.json") != std::string::npos);
  }
  std::set<std::string> keys;
  std::string error;
  CHECK_FALSE(ParseBaseline(std::string(100000, '[') + std::string(100000, ']'), "b.json", &keys,
                            &error));
  CHECK(error.find("nested deeper than 64 levels") != std::string::npos);
}
