// Every output format against golden files for fixtures/report/ (each line checked by hand
// when the file was written), and escaping of awkward text in every format.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "tests/support/process.h"

using namespace gpulint::testing;

namespace {

std::string Lint(const std::string& format) {
  auto result = RunGpulint({"lint", "--isolated", "--exit-zero", "--format", format,
                            "fixtures/report/clean.sh", "fixtures/report/serve.sh",
                            "fixtures/report/train.sh"},
                           "", SourcePath(""));
  REQUIRE(result.exit_code == 0);
  return result.out;
}

}  // namespace

TEST_CASE("reporters match their golden files", "[report]") {
  for (const char* format :
       {"github", "rdjson", "rdjsonl", "gitlab", "checkstyle", "junit", "markdown"}) {
    INFO(format);
    CHECK(Lint(format) == ReadWholeFile(SourcePath(std::string("tests/report/golden/lint.") + format)));
  }
}

TEST_CASE("every format lists reporters in lint --help and rejects unknown ones", "[report]") {
  auto help = RunGpulint({"lint", "--help"});
  for (const char* format : {"text", "concise", "json", "jsonl", "sarif", "github", "rdjson",
                             "rdjsonl", "gitlab", "markdown", "checkstyle", "junit"})
    CHECK(help.out.find(format) != std::string::npos);
}

TEST_CASE("awkward text is escaped in every format", "[report]") {
  TempDir dir;
  // A team rule whose message has everything that breaks formats: % : , newline < & " ' and
  // non-ASCII; the script's name has a space and non-ASCII too.
  dir.Write("gpulint.toml", "gpu = \"H100-80GB\"\nrules = [\"team.toml\"]\nselect = [\"ACME\"]\n");
  dir.Write("team.toml",
            "id = \"ACME001\"\nname = \"awkward\"\ncategory = \"team\"\nseverity = \"warning\"\n"
            "when = \"written(max_model_len)\"\n"
            "message = \"50% of 1,024: a\\nb <x> & \\\"q\\\" 'r' ünï\"\nat = [\"max_model_len\"]\n"
            "[doc]\nwhat = \"w\"\nwhy = \"y\"\nexample = \"e\"\ninstead = \"i\"\nfix = \"f\"\n");
  dir.Write("jobs/sérve it.sh", "vllm serve Qwen/Qwen3-8B --max-model-len 8192\n");
  auto run = [&](const char* format) {
    auto r = RunGpulint({"lint", "--exit-zero", "--format", format, "jobs/sérve it.sh"}, "",
                        dir.path());
    REQUIRE(r.exit_code == 0);
    return r.out;
  };
  std::string github = run("github");
  CHECK(github.find("file=jobs/sérve it.sh,") != std::string::npos);
  CHECK(github.find("::50%25 of 1,024: a%0Ab <x> & \"q\" 'r' ünï\n") != std::string::npos);
  CHECK(github.find("title=ACME001 awkward::") != std::string::npos);

  for (const char* xml : {"checkstyle", "junit"}) {
    std::string out = run(xml);
    CHECK(out.find("50% of 1,024: a&#10;b &lt;x&gt; &amp; &quot;q&quot; &apos;r&apos; ünï") !=
          std::string::npos);
    CHECK(out.find("<x>") == std::string::npos);
  }
  for (const char* json : {"json", "rdjson", "gitlab", "sarif"}) {
    auto parsed = nlohmann::json::parse(run(json));  // valid JSON whatever the text
    CHECK(parsed.dump().find("50% of 1,024: a\\nb <x> & \\\"q\\\" 'r' ünï") != std::string::npos);
  }
  auto sarif = nlohmann::json::parse(run("sarif"));
  auto& location = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
  CHECK(location["artifactLocation"]["uri"] == "jobs/s%C3%A9rve%20it.sh");
  std::string markdown = run("markdown");
  CHECK(markdown.find("a b &lt;x> & \"q\" 'r' ünï") != std::string::npos);  // one line, no tag
  std::string rdjsonl = run("rdjsonl");
  CHECK(std::count(rdjsonl.begin(), rdjsonl.end(), '\n') == 1);
}

TEST_CASE("SARIF columns count code points, reviewdog columns count bytes", "[report]") {
  TempDir dir;
  // "é" is two bytes, one code point.
  dir.Write("café.sh", "# gpulint: gpu=H100-80GB\nX=é; vllm serve Qwen/Qwen3-8B --max-model-len 65536\n");
  auto sarif = nlohmann::json::parse(
      RunGpulint({"lint", "--isolated", "--format", "sarif", "café.sh"}, "", dir.path()).out);
  auto& region = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
  // Line 2: "X=é; vllm serve Qwen/Qwen3-8B --max-model-len 65536": 65536 starts after 46
  // characters (47 bytes): code point column 47, byte column 48.
  CHECK(region["startColumn"] == 47);
  CHECK(region["endColumn"] == 52);
  auto rd = nlohmann::json::parse(
      RunGpulint({"lint", "--isolated", "--format", "rdjsonl", "café.sh"}, "", dir.path()).out);
  CHECK(rd["location"]["range"]["start"]["column"] == 48);
  CHECK(rd["location"]["range"]["end"]["column"] == 53);
}

TEST_CASE("text output quotes each finding's line from the file it points into", "[report]") {
  TempDir dir;
  dir.Write("gpulint.toml", "gpu = \"H100-80GB\"\nselect = [\"GL302\"]\n");
  dir.Write("a.sh", "#!/bin/bash\nvllm serve Qwen/Qwen3-8B --max-model-len 999999\n");
  dir.Write("b.sh", "#!/bin/bash\n# two\nvllm serve Qwen/Qwen3-8B   --max-model-len 888888\n");
  // The value of c.sh comes from the file it sources: the finding quotes that file's line 1.
  dir.Write("env.sh", "LEN=777777\n");
  dir.Write("c.sh", "#!/bin/bash\nsource ./env.sh\nvllm serve Qwen/Qwen3-8B --max-model-len $LEN\n");
  auto r = RunGpulint({"lint", "--exit-zero", "a.sh", "b.sh", "c.sh"}, "", dir.path());
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("a.sh:2:42: error[GL302") != std::string::npos);
  CHECK(r.out.find("\n  vllm serve Qwen/Qwen3-8B --max-model-len 999999\n"
                   "                                           ^^^^^^\n") != std::string::npos);
  CHECK(r.out.find("b.sh:3:44: error[GL302") != std::string::npos);
  CHECK(r.out.find("\n  vllm serve Qwen/Qwen3-8B   --max-model-len 888888\n"
                   "                                             ^^^^^^\n") != std::string::npos);
  CHECK(r.out.find("env.sh:1:5: error[GL302") != std::string::npos);
  CHECK(r.out.find("\n  LEN=777777\n      ^^^^^^\n") != std::string::npos);
}

TEST_CASE("text's summary says how many workloads were not judged, and why", "[report]") {
  TempDir dir;
  std::string known = dir.Write(
      "known.sh", "# gpulint: gpu=H100-80GB\nvllm serve Qwen/Qwen3-8B --max-model-len 8192\n");
  std::string unknown = dir.Write(
      "unknown.sh", "# gpulint: gpu=H100-80GB\nvllm serve acme/secret-13b --max-model-len 8192\n"
                    "vllm serve acme/other-7b --port 8001 --max-model-len 8192\n");
  auto result = RunGpulint({"lint", "--isolated", "--exit-zero", known, unknown});
  REQUIRE(result.exit_code == 0);
  // Two unknown models are one cause; the known one was judged.
  CHECK(result.out.find("\n2 of 3 workloads not judged: 2 unknown model.\n") != std::string::npos);
  auto clean = RunGpulint({"lint", "--isolated", known});
  CHECK(clean.out.find("not judged") == std::string::npos);
}
