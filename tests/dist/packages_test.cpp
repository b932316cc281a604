// The packages of `make dist`, built here around the binary under test (tests must not wait for
// a second, static build): the wheel installs into a fresh venv with pip and no index and runs;
// the .deb carries the binary, man page, completions and licence and runs from an unpacked root.
// `make dist` builds the same from the static binary.
#include <catch2/catch.hpp>

#include <filesystem>

#include "tests/support/process.h"

using namespace gpulint::testing;
namespace fs = std::filesystem;

TEST_CASE("the wheel installs with pip --no-index into a fresh venv and lints", "[dist]") {
  TempDir dir;
  auto build =
      RunProcess(SourcePath("scripts/build-wheel"), {GPULINT_BINARY, dir.path() + "/dist"});
  INFO(build.out << build.err);
  REQUIRE(build.exit_code == 0);
  const std::string wheel = dir.path() + "/dist/gpulint-0.1.0-py3-none-manylinux_2_17_x86_64.whl";
  REQUIRE(fs::exists(wheel));
  auto venv = RunProcess("/usr/bin/python3", {"-m", "venv", dir.path() + "/venv"});
  REQUIRE(venv.exit_code == 0);
  auto install = RunProcess(dir.path() + "/venv/bin/pip",
                            {"install", "--quiet", "--no-index", "--disable-pip-version-check",
                             wheel});
  INFO(install.out << install.err);
  REQUIRE(install.exit_code == 0);
  // On the PATH of the venv, executable, and the same program: the seeds' findings.
  auto lint = RunProcess(dir.path() + "/venv/bin/gpulint",
                         {"lint", "--format", "concise", "fixtures/seeds"}, "", SourcePath(""));
  INFO(lint.out << lint.err);
  CHECK(lint.exit_code == 1);
  CHECK(lint.out.find("error[GL101 out-of-memory]") != std::string::npos);
  auto version = RunProcess(dir.path() + "/venv/bin/gpulint", {"version"});
  CHECK(version.out.find("0.1.0") != std::string::npos);
  // The licence travels with it: pip reports it, and the file sits in the installed metadata.
  auto show = RunProcess(dir.path() + "/venv/bin/pip", {"show", "--disable-pip-version-check",
                                                         "--verbose", "gpulint"});
  CHECK(show.out.find("License: MIT License") != std::string::npos);
  CHECK(show.out.find("License :: OSI Approved :: MIT License") != std::string::npos);
}

TEST_CASE("the .deb holds the binary, man page and completions, and runs unpacked", "[dist]") {
  TempDir dir;
  const std::string build_dir = fs::path(GPULINT_BINARY).parent_path().string();
  auto pack = RunProcess("cpack", {"-G", "DEB", "--config", build_dir + "/CPackConfig.cmake",
                                   "-B", dir.path() + "/dist"});
  INFO(pack.out << pack.err);
  REQUIRE(pack.exit_code == 0);
  const std::string deb = dir.path() + "/dist/gpulint_0.1.0_amd64.deb";
  REQUIRE(fs::exists(deb));
  auto contents = RunProcess("dpkg-deb", {"--contents", deb});
  for (const char* path :
       {"./usr/bin/gpulint", "./usr/share/man/man1/gpulint.1.gz",
        "./usr/share/doc/gpulint/changelog.gz",
        "./usr/share/bash-completion/completions/gpulint",
        "./usr/share/zsh/site-functions/_gpulint",
        "./usr/share/fish/vendor_completions.d/gpulint.fish",
        "./usr/share/doc/gpulint/copyright"}) {
    INFO(path << "\n" << contents.out);
    CHECK(contents.out.find(std::string(path) + "\n") != std::string::npos);
  }
  auto info = RunProcess("dpkg-deb", {"--field", deb, "Package", "Architecture", "Version"});
  CHECK(info.out == "Package: gpulint\nArchitecture: amd64\nVersion: 0.1.0\n");
  auto unpack = RunProcess("dpkg-deb", {"-x", deb, dir.path() + "/root"});
  REQUIRE(unpack.exit_code == 0);
  // The copyright file is the repository's licence, as Debian policy asks of every package.
  CHECK(ReadWholeFile(dir.path() + "/root/usr/share/doc/gpulint/copyright") ==
        ReadWholeFile(SourcePath("LICENSE")));
  auto lint = RunProcess(dir.path() + "/root/usr/bin/gpulint",
                         {"lint", "--format", "concise", "fixtures/seeds"}, "", SourcePath(""));
  CHECK(lint.exit_code == 1);
  CHECK(lint.out.find("error[GL101 out-of-memory]") != std::string::npos);
  // The man page, compressed as Debian asks, is the repository's and renders (groff's own
  // check: no warnings), where groff is installed.
  auto page = RunProcess("gzip", {"-dc", dir.path() + "/root/usr/share/man/man1/gpulint.1.gz"});
  REQUIRE(page.exit_code == 0);
  CHECK(page.out == ReadWholeFile(SourcePath("docs/gpulint.1")));
  if (fs::exists("/usr/bin/groff")) {
    auto man = RunProcess("/usr/bin/groff", {"-man", "-Tutf8", "-ww", "-z"}, page.out);
    INFO(man.err);
    CHECK(man.exit_code == 0);
    CHECK(man.err.empty());
  }
  // Debian's own checker, where it is installed: no error (warnings are said, not failed on).
  if (fs::exists("/usr/bin/lintian")) {
    auto lintian = RunProcess("/usr/bin/lintian", {"--tag-display-limit", "0", deb});
    INFO(lintian.out << lintian.err);
    CHECK(lintian.out.find("E: ") == std::string::npos);
  }
}
