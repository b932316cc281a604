#include "lint/util/toml_strings.h"

#include <catch2/catch.hpp>

using gpulint::TomlStrings;
using Strings = std::vector<std::string>;

TEST_CASE("TomlStrings reads one string or a list of strings", "[util][toml]") {
  const toml::table table = toml::parse(R"(
one = "a"
many = ["a", "b"]
mixed = ["a", 3, "c"]
number = 4
)");
  CHECK(TomlStrings(table.get("one")) == Strings{"a"});
  CHECK(TomlStrings(table.get("many")) == Strings{"a", "b"});
  CHECK(TomlStrings(table.get("mixed")) == Strings{"a", "c"});
  CHECK(TomlStrings(table.get("number")).empty());
  CHECK(TomlStrings(table.get("absent")).empty());
}
