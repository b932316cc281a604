// FUZZ_CHECK for the libFuzzer targets (tests/fuzz/fuzz_*.cc): a property that fails prints
// what failed (a printf format and its arguments) and traps, so that libFuzzer saves the input
// as a crash and the run fails.
#pragma once

#include <cmath>
#include <cstdio>

// A trap rather than assert(): NDEBUG builds keep it, and libFuzzer reports it as a crash.
#define FUZZ_CHECK(condition, ...)                                                              \
  do {                                                                                          \
    if (!(condition)) {                                                                         \
      std::fprintf(stderr, "fuzz check failed at %s:%d: %s\n", __FILE__, __LINE__, #condition); \
      std::fprintf(stderr, __VA_ARGS__);                                                        \
      std::fprintf(stderr, "\n");                                                               \
      __builtin_trap();                                                                         \
    }                                                                                           \
  } while (0)

namespace gpulint::fuzz {

/// A byte count or parameter count that makes sense: a number, finite, not negative.
inline bool Sane(double value) {
  return std::isfinite(value) && value >= 0;
}

}  // namespace gpulint::fuzz
