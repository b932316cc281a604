// Background work on reused threads: every task runs once, results come back, nesting works.
#include "lint/util/background.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <vector>

using gpulint::StartInBackground;

TEST_CASE("background work returns its result", "[util][background]") {
  auto answer = StartInBackground([] { return 6 * 7; });
  CHECK(answer.get() == 42);
}

TEST_CASE("every background task runs exactly once, on reused threads", "[util][background]") {
  std::atomic<int> runs{0};
  for (int round = 0; round < 3; ++round) {
    std::vector<std::future<int>> results;
    for (int i = 0; i < 40; ++i)
      results.push_back(StartInBackground([&runs, i] {
        ++runs;
        return i;
      }));
    int sum = 0;
    for (auto& result : results) sum += result.get();
    CHECK(sum == 40 * 39 / 2);
  }
  CHECK(runs == 120);
}

TEST_CASE("a background task may wait for background work of its own", "[util][background]") {
  // Every worker busy waiting: the inner task must still get a thread.
  std::vector<std::future<int>> outer;
  for (int i = 0; i < 4; ++i)
    outer.push_back(StartInBackground([i] { return StartInBackground([i] { return i; }).get(); }));
  int sum = 0;
  for (auto& result : outer) sum += result.get();
  CHECK(sum == 0 + 1 + 2 + 3);
}
