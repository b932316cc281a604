// FileCache: each path reaches the disk once per run, found or not, from any thread.
#include "lint/workspace/file_cache.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

using gpulint::FileCache;

TEST_CASE("a referenced file is read once, and a missing one is looked for once", "[workspace]") {
  std::atomic<int> calls{0};
  FileCache cache([&calls](const std::string& path, std::string* text) {
    ++calls;
    if (path != "train.py") return false;
    *text = "import torch\n";
    return true;
  });
  std::string text;
  CHECK(cache.Read("train.py", &text));
  CHECK(text == "import torch\n");
  text.clear();
  CHECK(cache.Read("train.py", &text));
  CHECK(text == "import torch\n");
  CHECK_FALSE(cache.Read("missing.py", &text));
  CHECK_FALSE(cache.Read("missing.py", &text));
  CHECK(text == "import torch\n");  // a failed read leaves the output alone
  CHECK(calls == 2);
}

TEST_CASE("the lint threads share one cache", "[workspace]") {
  std::atomic<int> calls{0};
  FileCache cache([&calls](const std::string& path, std::string* text) {
    ++calls;
    *text = path + " text";
    return true;
  });
  std::vector<std::thread> threads;
  std::atomic<int> right{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        std::string name = "f" + std::to_string(i % 20), text;
        if (cache.Read(name, &text) && text == name + " text") ++right;
      }
    });
  for (std::thread& thread : threads) thread.join();
  CHECK(right == 800);
  CHECK(calls >= 20);   // two threads may both read a file the first time
  CHECK(calls <= 80);
}
