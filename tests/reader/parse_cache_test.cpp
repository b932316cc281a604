// ParseCache: one parse per (path, text), shared between the scripts that run the same file.
#include "lint/reader/parse_cache.h"

#include <catch2/catch.hpp>

#include <thread>
#include <vector>

using namespace gpulint;

TEST_CASE("a script run by many others is parsed once", "[reader][parse-cache]") {
  ParseCache cache;
  auto first = cache.Parse("/repo/launch.sh", "python train.py --lr 1e-5\n");
  auto again = cache.Parse("/repo/launch.sh", "python train.py --lr 1e-5\n");
  REQUIRE(first);
  CHECK(first.get() == again.get());
  REQUIRE(first->root);
  CHECK(first->root->children.size() == 1);
}

TEST_CASE("a changed text or another path is parsed again", "[reader][parse-cache]") {
  ParseCache cache;
  auto before = cache.Parse("/repo/launch.sh", "echo one\n");
  auto changed = cache.Parse("/repo/launch.sh", "echo one\necho two\n");
  CHECK(before.get() != changed.get());
  CHECK(changed->root->children.size() == 2);
  // The earlier parse stays valid for whoever still holds it.
  CHECK(before->root->children.size() == 1);
  auto elsewhere = cache.Parse("/other/launch.sh", "echo one\necho two\n");
  CHECK(elsewhere.get() != changed.get());
}

TEST_CASE("threads share the cache", "[reader][parse-cache]") {
  ParseCache cache;
  std::vector<std::shared_ptr<const ParsedScript>> seen(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back([&, i] { seen[i] = cache.Parse("/repo/a.sh", "export A=1\nrun $A\n"); });
  for (std::thread& t : threads) t.join();
  for (const auto& parsed : seen) {
    REQUIRE(parsed);
    CHECK(parsed->root->children.size() == 2);
  }
  // Once the threads are done, every later caller gets the one kept parse.
  CHECK(cache.Parse("/repo/a.sh", "export A=1\nrun $A\n").get() ==
        cache.Parse("/repo/a.sh", "export A=1\nrun $A\n").get());
}

TEST_CASE("a Python file that several scripts run is read once", "[reader][parse-cache]") {
  ParseCache cache;
  const std::set<std::string> interesting = {"from_pretrained"};
  const std::string source = "M = 'Qwen/Qwen3-8B'\nmodel = AutoModel.from_pretrained(M)\n";
  auto first = cache.ReadPython("/repo/train.py", source, interesting);
  auto again = cache.ReadPython("/repo/train.py", source, interesting);
  REQUIRE(first);
  CHECK(first.get() == again.get());
  REQUIRE(first->calls.size() == 1);
  CHECK(first->calls[0].callee == "from_pretrained");
  auto changed = cache.ReadPython("/repo/train.py", source + "x = 1\n", interesting);
  CHECK(changed.get() != first.get());
  CHECK(cache.ReadPython("/other/train.py", source, interesting).get() != first.get());
}

TEST_CASE("a cache of many scripts starts again and still answers right", "[reader][parse-cache]") {
  ParseCache cache;
  for (int i = 0; i < 1500; ++i) {  // more than the cache keeps
    std::string text = "echo " + std::to_string(i) + "\n";
    auto parsed = cache.Parse("/repo/job" + std::to_string(i) + ".sh", text);
    REQUIRE(parsed);
    REQUIRE(parsed->root->children.size() == 1);
  }
  auto early = cache.Parse("/repo/job0.sh", "echo 0\necho again\n");
  CHECK(early->root->children.size() == 2);
}
