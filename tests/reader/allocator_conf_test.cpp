// PyTorch's allocator options as scripts write them in PYTORCH_CUDA_ALLOC_CONF.
#include "lint/reader/allocator_conf.h"

#include <catch2/catch.hpp>

using namespace gpulint;

TEST_CASE("expandable_segments is read from an allocator config", "[reader][allocator]") {
  CHECK(ExpandableSegmentsOption("expandable_segments:True") == true);
  CHECK(ExpandableSegmentsOption("expandable_segments:False") == false);
  // Among other options, with the blanks PyTorch's lexer skips.
  CHECK(ExpandableSegmentsOption("max_split_size_mb:128, expandable_segments : True") == true);
  // The last occurrence wins.
  CHECK(ExpandableSegmentsOption("expandable_segments:True,expandable_segments:False") == false);
  // Absent: PyTorch's default, off. A config set without it is a config all the same: a
  // launcher that turns the segments on for an unset variable (axolotl) leaves it alone.
  CHECK(ExpandableSegmentsOption("max_split_size_mb:512") == false);
  CHECK(ExpandableSegmentsOption("") == false);
  // PyTorch refuses any spelling but True/False at start-up: not read as either.
  CHECK(!ExpandableSegmentsOption("expandable_segments:true"));
  CHECK(!ExpandableSegmentsOption("expandable_segments:1"));
  CHECK(!ExpandableSegmentsOption("expandable_segments"));
}
