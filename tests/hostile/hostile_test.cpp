// The hostile-input suite: every case of tests/hostile/cases.toml runs the real gpulint binary
// on input that once crashed it, blew up its memory, hung it, lost an edit or answered wrongly.
// Each run is bounded as CI bounds a stranger's pull request: 10 s of wall time and 1 GiB of
// memory (RLIMIT_AS; under ASan, whose shadow memory needs terabytes of address space, ASan's
// own RSS and allocation limits). A case passes when the exit code and the output are the ones
// it names; a sanitizer report ends the process with a code no case expects.
#include <sys/stat.h>
#include <unistd.h>

#include <toml++/toml.h>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/process.h"

namespace {

using gpulint::testing::GpulintBinary;
using gpulint::testing::GpulintIsSanitized;
using gpulint::testing::ProcessLimits;
using gpulint::testing::RunProcessLimited;
using gpulint::testing::SourcePath;
using gpulint::testing::TempDir;

constexpr size_t kMemoryLimitBytes = size_t{1} << 30;
constexpr double kTimeoutS = 10;

std::vector<std::string> Strings(const toml::node* node) {
  std::vector<std::string> out;
  if (const toml::array* array = node ? node->as_array() : nullptr)
    for (const toml::node& item : *array)
      if (auto text = item.value<std::string>()) out.push_back(*text);
  return out;
}

// TOML holds only UTF-8: with `latin1 = true` a generated file's name and text take each
// character U+0080-U+00FF as the one byte of that value, so a case can pose invalid UTF-8.
std::string Latin1Bytes(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if ((c == 0xC2 || c == 0xC3) && i + 1 < text.size()) {
      out += static_cast<char>(((c & 0x03) << 6) | (static_cast<unsigned char>(text[++i]) & 0x3F));
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// `[[case.generate]]`: prefix + repeat x count + middle + close x count + suffix, so that a
// case can pose a 150,000-deep document or 5 MB of newlines without committing it.
std::string Generate(const toml::table& g) {
  auto count = static_cast<size_t>(g["count"].value_or(int64_t{0}));
  std::string repeat = g["repeat"].value_or(std::string());
  std::string close = g["close"].value_or(std::string());
  std::string text = g["prefix"].value_or(std::string());
  text.reserve(text.size() + count * (repeat.size() + close.size()) + 64);
  for (size_t i = 0; i < count; ++i) text += repeat;
  text += g["middle"].value_or(std::string());
  for (size_t i = 0; i < count; ++i) text += close;
  text += g["suffix"].value_or(std::string());
  return text;
}

// Places the case's inputs in `dir`: committed files (tests/hostile/inputs/<name>/), inline
// files, generated files, FIFOs and symbolic links.
void Prepare(const toml::table& c, const std::string& name, const TempDir& dir) {
  std::filesystem::path committed = SourcePath("tests/hostile/inputs/" + name);
  if (std::filesystem::is_directory(committed))
    std::filesystem::copy(committed, dir.path(), std::filesystem::copy_options::recursive);
  if (const toml::table* files = c["files"].as_table())
    for (const auto& [file, text] : *files)
      dir.Write(std::string(file.str()), text.value_or(std::string()));
  if (const toml::array* generated = c["generate"].as_array())
    for (const toml::node& node : *generated)
      if (const toml::table* g = node.as_table()) {
        std::string file = (*g)["file"].value_or(std::string("generated"));
        std::string text = Generate(*g);
        if ((*g)["latin1"].value_or(false)) {
          file = Latin1Bytes(file);
          text = Latin1Bytes(text);
        }
        dir.Write(file, text);
      }
  for (const std::string& fifo : Strings(c.get("fifos")))
    REQUIRE(mkfifo((dir.path() + "/" + fifo).c_str(), 0600) == 0);
  if (const toml::table* links = c["symlinks"].as_table())
    for (const auto& [link, target] : *links) {
      std::filesystem::path path = std::filesystem::path(dir.path()) / std::string(link.str());
      std::filesystem::create_directories(path.parent_path());
      std::filesystem::create_symlink(target.value_or(std::string()), path);
    }
  if (const toml::table* links = c["hardlinks"].as_table())
    for (const auto& [link, existing] : *links)
      REQUIRE(::link((dir.path() + "/" + existing.value_or(std::string())).c_str(),
                     (dir.path() + "/" + std::string(link.str())).c_str()) == 0);
  if (const toml::table* modes = c["modes"].as_table())
    for (const auto& [file, mode] : *modes)
      REQUIRE(chmod((dir.path() + "/" + std::string(file.str())).c_str(),
                    static_cast<mode_t>(mode.value_or(int64_t{0644}))) == 0);
}

// "{dir}" in an argument is the case's folder.
std::string Substitute(std::string text, const std::string& dir) {
  for (size_t at = text.find("{dir}"); at != std::string::npos; at = text.find("{dir}", at))
    text.replace(at, 5, dir), at += dir.size();
  return text;
}

}  // namespace

TEST_CASE("hostile input: every case of tests/hostile/cases.toml", "[hostile]") {
  toml::table cases = toml::parse_file(SourcePath("tests/hostile/cases.toml"));
  const toml::array* list = cases["case"].as_array();
  REQUIRE(list);
  REQUIRE(list->size() >= 40);
  ProcessLimits limits;
  limits.timeout_s = kTimeoutS;
  limits.memory_bytes = kMemoryLimitBytes;
  limits.sanitized = GpulintIsSanitized();
  // ASan cannot run under an address-space limit (its shadow reserves terabytes): die instead
  // when one allocation asks for more than 1 GiB, or the process holds more than 1.5 GiB, which
  // is 1 GiB of the program's own memory with ASan's shadow (an eighth) and its 256 MiB
  // quarantine of freed blocks on top.
  if (limits.sanitized)
    limits.env.push_back(
        "ASAN_OPTIONS=hard_rss_limit_mb=1536:malloc_limit_mb=1024:"
        "allocator_may_return_null=0:detect_leaks=0");
  limits.env.push_back("NO_COLOR=1");
  for (const toml::node& node : *list) {
    const toml::table& c = *node.as_table();
    const std::string name = c["name"].value_or(std::string());
    INFO("case " << name << ": " << c["why"].value_or(std::string()));
    TempDir dir;
    Prepare(c, name, dir);
    std::vector<std::string> args;
    for (const std::string& arg : Strings(c.get("args")))
      args.push_back(Substitute(arg, dir.path()));
    ProcessLimits run_limits = limits;
    run_limits.stdin_path = Substitute(c["stdin"].value_or(std::string()), dir.path());
    std::string cwd = dir.path() + "/" + c["cwd"].value_or(std::string());
    auto result = RunProcessLimited(GpulintBinary(), args, run_limits, cwd);
    INFO("stdout: " << result.out.substr(0, 2000));
    INFO("stderr: " << result.err.substr(0, 2000));
    CHECK_FALSE(result.timed_out);
    CHECK(result.exit_code == c["exit"].value_or(int64_t{-1}));
    for (const std::string& want : Strings(c.get("stdout")))
      CHECK_THAT(result.out, Catch::Contains(want));
    for (const std::string& want : Strings(c.get("stderr")))
      CHECK_THAT(result.err, Catch::Contains(want));
    if (auto most = c["max_stdout_bytes"].value<int64_t>())
      CHECK(result.out.size() <= static_cast<size_t>(*most));
    for (const std::string& unwanted : Strings(c.get("not_stdout")))
      CHECK_THAT(result.out, !Catch::Contains(unwanted));
    // The output of a JSON format must parse, whatever bytes the input held.
    if (c["stdout_json"].value_or(false)) {
      bool parsed = !nlohmann::json::parse(result.out, nullptr, false).is_discarded();
      if (!parsed) {  // jsonl / rdjsonl: one document per line
        parsed = true;
        std::istringstream lines(result.out);
        for (std::string line; std::getline(lines, line);)
          parsed = parsed && !nlohmann::json::parse(line, nullptr, false).is_discarded();
      }
      CHECK(parsed);
    }
    // A file the case names must hold exactly this afterwards (a refused --write left it alone).
    if (const toml::table* after = c["after"].as_table())
      for (const auto& [file, text] : *after)
        CHECK(gpulint::testing::ReadWholeFile(dir.path() + "/" + std::string(file.str())) ==
              text.value_or(std::string()));
  }
}
