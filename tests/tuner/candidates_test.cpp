// Candidate values and the binary search over them.
#include "tuner/candidates.h"

#include <catch2/catch.hpp>

using namespace gpulint;

TEST_CASE("divisors come in increasing order", "[tuner]") {
  CHECK(Divisors(1) == std::vector<long>{1});
  CHECK(Divisors(160) == std::vector<long>{1, 2, 4, 5, 8, 10, 16, 20, 32, 40, 80, 160});
  CHECK(Divisors(49) == std::vector<long>{1, 7, 49});
  CHECK(PowersOfTwo(Divisors(160)) == std::vector<long>{1, 2, 4, 8, 16, 32});
  CHECK(Multiples(1024, 4096) == std::vector<long>{1024, 2048, 3072, 4096});
  // Up to a limit, in at most that many steps however large the number.
  CHECK(Divisors(160, 16) == std::vector<long>{1, 2, 4, 5, 8, 10, 16});
  CHECK(Divisors(4000000000000000000L, 10) == std::vector<long>{1, 2, 4, 5, 8, 10});
  CHECK(Divisors(4611686018427387904L).back() == kLargestCandidate);  // 2^62
}

TEST_CASE("LargestFitting finds the boundary of a monotone predicate in log time",
          "[tuner]") {
  std::vector<long> values = Multiples(1, 1000);
  for (long boundary : {0L, 1L, 2L, 499L, 999L, 1000L}) {
    int asked = 0;
    long best = LargestFitting(values, [&](long v) {
      ++asked;
      return v <= boundary;
    });
    if (boundary == 0) {
      CHECK(best == -1);
    } else {
      CHECK(values[static_cast<size_t>(best)] == boundary);
    }
    CHECK(asked <= 11);  // ceil(log2(1000)) + 1
  }
}
