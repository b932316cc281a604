// Engine versions and pip-style pins, as a table of text -> range.
#include "estimator/engine_version.h"

#include <catch2/catch.hpp>

using namespace gpulint::est;

TEST_CASE("versions as scripts, tags and vLLM's own builds write them", "[estimator][version]") {
  struct Row {
    const char* text;
    const char* parsed;  // nullptr: refused
  };
  const Row rows[] = {
      {"0.6.3", "0.6.3"},
      {"v0.6.3", "0.6.3"},
      {"0.7.3.dev233+gad5a35c2", "0.7.3"},
      {"0.8.5.post1", "0.8.5"},
      {"v0.4.6-cu124", "0.4.6"},
      {"0.10", "0.10.0"},
      {"1", "1.0.0"},
      {" 0.9.2 ", "0.9.2"},
      {"latest", nullptr},
      {"", nullptr},
      {"v", nullptr},
      {"99999.1", nullptr},
  };
  for (const Row& row : rows) {
    INFO(row.text);
    EngineVersion v;
    bool ok = ParseEngineVersion(row.text, &v);
    REQUIRE(ok == (row.parsed != nullptr));
    if (ok) CHECK(v.ToString() == row.parsed);
  }
}

TEST_CASE("pins admit the releases pip would install", "[estimator][version]") {
  struct Row {
    const char* text;
    const char* range;  // nullptr: refused
  };
  const Row rows[] = {
      {"0.6.3", "0.6.3"},
      {"==0.6.3", "0.6.3"},
      {">=0.8.5,<=0.12.0", "0.8.5 to 0.12.0"},       // verl setup.py at b178a3cd
      {">=0.8.5, <=0.12.0", "0.8.5 to 0.12.0"},
      {"<=0.8.5", "0.8.5 or earlier"},
      {">=0.9", "0.9.0 or later"},
      {"<0.9", "0.8.9999 or earlier"},                // 0.8.x, every patch
      {"<0.9.2", "0.9.1 or earlier"},
      {">0.5.4", "0.5.5 or later"},
      {"~=0.6.3", "0.6.3 to 0.6.9999"},
      {"==0.8.*", "0.8.0 to 0.8.9999"},
      {"0.8", "0.8.0 to 0.8.9999"},
      {">=0.7,!=0.7.1,<0.8", "0.7.0 to 0.7.9999"},  // "!=" removes a release, not an era
      {"*", "any version"},
      {">=0.9,<0.8", nullptr},                        // empty
      {">=", nullptr},
      {"0.6.3,", nullptr},
      {"latest", nullptr},
  };
  for (const Row& row : rows) {
    INFO(row.text);
    VersionRange r;
    bool ok = ParseVersionRange(row.text, &r);
    REQUIRE(ok == (row.range != nullptr));
    if (ok) CHECK(r.ToString() == row.range);
  }
}

TEST_CASE("a range contains its ends", "[estimator][version]") {
  VersionRange r;
  REQUIRE(ParseVersionRange(">=0.8.5,<=0.12.0", &r));
  CHECK(r.Contains({0, 8, 5}));
  CHECK(r.Contains({0, 12, 0}));
  CHECK_FALSE(r.Contains({0, 8, 4}));
  CHECK_FALSE(r.Contains({0, 12, 1}));
}

TEST_CASE("a range's spec reads back as the same range", "[estimator][version]") {
  for (const char* text : {"0.6.3", ">=0.8.5,<=0.12.0", ">=0.9", "<0.9", "*", "~=0.6.3"}) {
    INFO(text);
    VersionRange r, back;
    REQUIRE(ParseVersionRange(text, &r));
    REQUIRE(ParseVersionRange(r.ToSpec(), &back));
    CHECK(back.ToString() == r.ToString());
  }
  VersionRange r;
  REQUIRE(ParseVersionRange(">=0.8.5,<=0.12.0", &r));
  CHECK(r.ToSpec() == ">=0.8.5,<=0.12.0");
}
