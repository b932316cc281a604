// The engine versions a repository's files pin, found from a linted file's folder upward.
#include "lint/workspace/repository_pins.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "tests/support/process.h"

using namespace gpulint;

TEST_CASE("pin files are the ones pip and docker read", "[workspace][version]") {
  for (const char* name : {"requirements.txt", "requirements-vllm.txt", "setup.py",
                           "pyproject.toml", "environment.yml", "Dockerfile", "Dockerfile.rocm",
                           "vllm.dockerfile"})
    CHECK(IsPinFileName(name));
  for (const char* name : {"run.sh", "README.md", "requirements.in", "config.yaml"})
    CHECK_FALSE(IsPinFileName(name));
}

TEST_CASE("the closest folder with pins wins, up to the repository's root",
          "[workspace][version]") {
  gpulint::testing::TempDir dir;
  dir.Write("repo/.git/HEAD", "ref: refs/heads/main\n");
  dir.Write("repo/setup.py", "VLLM = [\"vllm>=0.8.5,<=0.12.0\"]\n# vllm==0.6.3\n");
  dir.Write("repo/examples/run.sh", "vllm serve x\n");
  dir.Write("repo/sub/requirements.txt", "torch\nvllm==0.6.3\n");
  dir.Write("repo/sub/deep/run.sh", "vllm serve x\n");
  // Above the repository: never read.
  dir.Write("requirements.txt", "vllm==0.4.0\n");

  auto pins = FindRepositoryPins(dir.path() + "/repo/examples");
  REQUIRE(pins.size() == 1);  // the commented line pins nothing
  CHECK(pins[0].package == "vllm");
  CHECK(pins[0].spec == ">=0.8.5,<=0.12.0");
  CHECK(pins[0].file == dir.path() + "/repo/setup.py");
  CHECK(pins[0].line == 1);

  pins = FindRepositoryPins(dir.path() + "/repo/sub/deep");
  REQUIRE(pins.size() == 1);
  CHECK(pins[0].spec == "==0.6.3");
  CHECK(pins[0].line == 2);

  dir.Write("repo/setup.py", "install_requires = []\n");
  CHECK(FindRepositoryPins(dir.path() + "/repo/examples").empty());
}

TEST_CASE("a pin file that is not a regular file is skipped, not read", "[workspace][version]") {
  gpulint::testing::TempDir dir;
  dir.Write("repo/.git/HEAD", "x\n");
  dir.Write("repo/a/run.sh", "vllm serve x\n");
  std::string fifo = dir.path() + "/repo/a/requirements.txt";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(FindRepositoryPins(dir.path() + "/repo/a").empty());  // returns: no hang on the FIFO
}
