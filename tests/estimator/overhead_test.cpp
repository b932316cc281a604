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

TEST_CASE("the cache grows with varying shapes and recomputation, not with expandable segments",
          "[estimator][overhead]") {
  const double fixed = CachedSlackFraction({false, false, false});
  const double fixed_recompute = CachedSlackFraction({false, true, false});
  const double varying = CachedSlackFraction({true, false, false});
  const double varying_recompute = CachedSlackFraction({true, true, false});
  CHECK(fixed < varying);
  CHECK(fixed < fixed_recompute);
  CHECK(fixed_recompute < varying_recompute);
  CHECK(varying < varying_recompute);
  for (bool varying_shapes : {false, true})
    for (bool recompute : {false, true})
      CHECK(CachedSlackFraction({varying_shapes, recompute, true}) <= fixed);
  // At or above the largest fraction each group of bench/gpu/results showed (overhead.h's
  // table): a bound on what was measured, not a median.
  CHECK(fixed >= 0.37);
  CHECK(fixed_recompute >= 0.97);
  CHECK(varying >= 0.47);
  CHECK(varying_recompute >= 2.07);
  CHECK(CachedSlackFraction({true, true, true}) >= 0.36);
  // Only the working set carries it.
  CHECK(WithSlack(10.0, 9.0, 0.5) == Approx(10.5));
  CHECK(WithSlack(10.0, 12.0, 0.5) == 10.0);
}
