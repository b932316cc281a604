// The caching allocator's slack: what fragments is what comes and goes, not the weights.
#include <catch2/catch.hpp>

#include "estimator/overhead.h"

using namespace gpulint::est;

TEST_CASE("the weights carry no slack at the high end", "[estimator][overhead]") {
  // 10 GiB allocated, 9 of them weights: only the other 1 GiB fragments.
  CHECK(HighReserved(10.0, 9.0) == Approx(9.0 + 1.0 * (1 + kAllocatorSlackHighFraction)));
  // No weights (an activation-heavy step): the whole peak carries it.
  CHECK(HighReserved(10.0, 0.0) == Approx(10.0 * (1 + kAllocatorSlackHighFraction)));
  // Twice the frozen base, the same transients: the same slack.
  CHECK(HighReserved(20.0, 18.0) - 20.0 == Approx(HighReserved(10.0, 8.0) - 10.0));
}

TEST_CASE("a typical run never reserves more than a long one", "[estimator][overhead]") {
  // Transient-heavy: the typical slack of the whole peak, below the high end.
  CHECK(TypicalReserved(10.0, 1.0) == Approx(10.0 * (1 + kAllocatorSlackFraction)));
  CHECK(TypicalReserved(10.0, 1.0) < HighReserved(10.0, 1.0));
  // Weights are 95% of the peak: 7% of the whole would pass the high end, which bounds it.
  CHECK(TypicalReserved(10.0, 9.5) == Approx(HighReserved(10.0, 9.5)));
  CHECK(TypicalReserved(10.0, 9.5) < 10.0 * (1 + kAllocatorSlackFraction));
}

TEST_CASE("with expandable segments a long run reserves what a typical one does",
          "[estimator][overhead]") {
  CHECK(ExpandableReserved(10.0, 1.0) == Approx(TypicalReserved(10.0, 1.0)));
  CHECK(ExpandableReserved(10.0, 1.0) < HighReserved(10.0, 1.0));
  // Never above the high end of fixed segments.
  CHECK(ExpandableReserved(10.0, 9.5) == Approx(HighReserved(10.0, 9.5)));
}
