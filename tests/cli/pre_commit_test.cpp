// The pre-commit hooks of .pre-commit-hooks.yaml, run by the real pre-commit (`try-repo`) on a
// temporary git repository. gpulint is not on PATH: pre-commit installs it into the hook's own
// environment (language: python) from the repository's pyproject.toml, which pulls the gpulint
// wheel. Offline, pip takes the wheel built here around the binary under test (scripts/build-wheel)
// and setuptools from Debian's /usr/share/python-wheels, and no index.
#include <catch2/catch.hpp>

#include <filesystem>

#include "tests/support/process.h"

using namespace gpulint::testing;

namespace {

// Runs `pre-commit try-repo HOOKS hook --files FILE` in `repo`, with only the system's PATH.
ProcessResult TryRepo(const TempDir& hooks, const TempDir& repo, const std::string& hook,
                      const std::string& file) {
  return RunProcess("env",
                    {"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + hooks.path(),
                     "PRE_COMMIT_HOME=" + hooks.path() + "/.cache", "NO_COLOR=1",
                     "PIP_NO_INDEX=1", "PIP_DISABLE_PIP_VERSION_CHECK=1",
                     "PIP_FIND_LINKS=" + hooks.path() + "/wheels /usr/share/python-wheels",
                     "/usr/bin/pre-commit", "try-repo", hooks.path(), hook, "--files", file},
                    "", repo.path());
}

void Git(const TempDir& dir, std::vector<std::string> args) {
  std::vector<std::string> full = {"-c", "user.name=gpulint tests", "-c",
                                   "user.email=tests@gpulint.invalid"};
  full.insert(full.end(), args.begin(), args.end());
  auto result = RunProcess("git", full, "", dir.path());
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
}

// The repository as pre-commit clones it: the hooks, the pyproject.toml they install, and the
// gpulint wheel where pip finds it (hooks/wheels, outside the commit).
void MakeHookRepository(const TempDir& hooks) {
  hooks.Write(".pre-commit-hooks.yaml", ReadWholeFile(SourcePath(".pre-commit-hooks.yaml")));
  hooks.Write("pyproject.toml", ReadWholeFile(SourcePath("pyproject.toml")));
  hooks.Write(".gitignore", "/wheels/\n/.cache/\n");
  auto wheel =
      RunProcess(SourcePath("scripts/build-wheel"), {GPULINT_BINARY, hooks.path() + "/wheels"});
  INFO(wheel.out << wheel.err);
  REQUIRE(wheel.exit_code == 0);
  Git(hooks, {"init", "-q", "."});
}

}  // namespace

TEST_CASE("pre-commit runs the gpulint hook: an error fails it, a clean script passes",
          "[cli][pre-commit]") {
  TempDir hooks, repo;
  MakeHookRepository(hooks);
  Git(hooks, {"add", "."});
  Git(hooks, {"commit", "-q", "-m", "hooks"});
  Git(repo, {"init", "-q", "."});
  repo.Write("serve.sh", ReadWholeFile(SourcePath("fixtures/report/serve.sh")));
  repo.Write("clean.sh", ReadWholeFile(SourcePath("fixtures/report/clean.sh")));
  Git(repo, {"add", "."});

  auto failing = TryRepo(hooks, repo, "gpulint", "serve.sh");
  INFO(failing.out << failing.err);
  CHECK(failing.exit_code == 1);
  CHECK(failing.out.find("serve.sh:3:60: error[GL201 tp-does-not-divide-heads]") !=
        std::string::npos);
  auto passing = TryRepo(hooks, repo, "gpulint", "clean.sh");
  INFO(passing.out << passing.err);
  CHECK(passing.exit_code == 0);
  CHECK(passing.out.find("Passed") != std::string::npos);
}

TEST_CASE("pre-commit's gpulint-fix hook rewrites the file and fails once, then passes",
          "[cli][pre-commit]") {
  TempDir hooks, repo;
  MakeHookRepository(hooks);
  Git(hooks, {"add", "."});
  Git(hooks, {"commit", "-q", "-m", "hooks"});
  Git(repo, {"init", "-q", "."});
  repo.Write("sft.sh", ReadWholeFile(SourcePath("fixtures/rules/GL107/bad.sh")));
  Git(repo, {"add", "."});
  auto first = TryRepo(hooks, repo, "gpulint-fix", "sft.sh");
  INFO(first.out << first.err);
  CHECK(first.exit_code == 1);
  CHECK(first.out.find("files were modified by this hook") != std::string::npos);
  CHECK(ReadWholeFile(repo.path() + "/sft.sh") ==
        ReadWholeFile(SourcePath("fixtures/rules/GL107/bad.fixed.sh")));
  auto second = TryRepo(hooks, repo, "gpulint-fix", "sft.sh");
  INFO(second.out << second.err);
  CHECK(second.exit_code == 0);
}
