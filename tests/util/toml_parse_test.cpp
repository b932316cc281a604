// toml_parse: TOML from anyone is measured before toml++ recurses through its keys.
#include "lint/util/toml_parse.h"

#include <catch2/catch.hpp>

#include <string>

using gpulint::ParseToml;
using gpulint::TomlKeyParts;

TEST_CASE("a key's dotted parts are counted outside strings, comments and numbers",
          "[util][toml]") {
  CHECK(TomlKeyParts("") == 1);
  CHECK(TomlKeyParts("gpu = \"H100\"\n") == 1);
  CHECK(TomlKeyParts("[tool.gpulint]\nheadroom = 0.1\n") == 2);
  CHECK(TomlKeyParts("a.b.c = 1\nd.e = 2\n") == 3);  // counted per line
  CHECK(TomlKeyParts("[[tool.gpulint.model]]\n") == 3);
  // Dots inside strings, comments, numbers and times are no key's.
  CHECK(TomlKeyParts("v = \"0.4.6.1.2\"  # see a.b.c.d.e\n") == 1);
  CHECK(TomlKeyParts("v = '1.2.3.4'\nw = \"\"\"a.b\n.c.d\"\"\"\nx = '''e.f.g'''\n") == 1);
  CHECK(TomlKeyParts("xs = [1.5, 2.5, 3.5, 4.5]\nt = 07:32:00.999\n") == 1);
  CHECK(TomlKeyParts("s = \"a\\\".b.c\"\n") == 1);  // an escaped quote does not end the string
}

TEST_CASE("a key nested past any real file's depth is refused before toml++ recurses",
          "[util][toml]") {
  std::string key;
  for (int i = 0; i < 20000; ++i) key += "a.";
  toml::table table;
  std::string error;
  CHECK_FALSE(ParseToml(key + "a = 1\n", "deep.toml", &table, &error));
  CHECK(error == "a TOML key has more than 64 dotted parts: deep.toml");
  CHECK_FALSE(ParseToml("[" + key + "a]\n", "deep.toml", &table, &error));
  // Within the limit it parses, and toml++'s own errors keep their place.
  CHECK(ParseToml("[tool.gpulint]\nheadroom = 0.1\n", "ok.toml", &table, &error));
  CHECK(table["tool"]["gpulint"]["headroom"].value_or(0.0) == 0.1);
  CHECK_FALSE(ParseToml("a = \n", "bad.toml", &table, &error));
  CHECK(error.rfind("invalid TOML (", 0) == 0);
  CHECK(error.find("bad.toml:1:") != std::string::npos);
}

TEST_CASE("a table header without a key is an error, not an assumption toml++ relies on",
          "[util][toml]") {
  // '[' then anything but a key entered toml++'s parse_key() against its TOML_ASSERT_ASSUME: an
  // abort under the sanitizers (tests/fuzz/regressions/project_config/...), undefined behaviour
  // in the release build. The parser's own error is what comes back.
  for (const char* text : {"[=a]\nx = 1\n", "[.a]\n", "[#a]\n", "[[\x01" "a]]\n", "[\x7f]\n"}) {
    INFO(text);
    toml::table table;
    std::string error;
    CHECK_FALSE(ParseToml(text, "bad.toml", &table, &error));
    CHECK(error.rfind("invalid TOML (", 0) == 0);
  }
}
