#include "lint/util/suggest.h"

#include <catch2/catch.hpp>

using gpulint::ClosestNames;
using gpulint::EditDistance;

TEST_CASE("EditDistance counts insertions, deletions and substitutions", "[util]") {
  CHECK(EditDistance("lint", "lint") == 0);
  CHECK(EditDistance("lnt", "lint") == 1);     // one insertion
  CHECK(EditDistance("lint", "lent") == 1);    // one substitution
  CHECK(EditDistance("kitten", "sitting") == 3);
  CHECK(EditDistance("H100", "h100") == 0);    // case-insensitive
  CHECK(EditDistance("", "abc") == 3);
}

TEST_CASE("ClosestNames ranks containment first and drops far names", "[util]") {
  std::vector<std::string> names = {"lint", "estimate", "fix", "parse"};
  CHECK(ClosestNames("lnt", names) == std::vector<std::string>{"lint"});
  CHECK(ClosestNames("estimat", names) == std::vector<std::string>{"estimate"});
  CHECK(ClosestNames("zzzzzz", names).empty());
}

TEST_CASE("DidYouMean lists the suggestions, or adds nothing", "[util]") {
  CHECK(gpulint::DidYouMean({}) == "");
  CHECK(gpulint::DidYouMean({"H100-80GB"}) == " (did you mean H100-80GB?)");
  CHECK(gpulint::DidYouMean({"a", "b"}) == " (did you mean a, b?)");
}
