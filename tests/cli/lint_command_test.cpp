// `gpulint lint` end to end: exit codes, output formats, project configuration, baselines.
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sstream>

#include "tests/support/process.h"

using namespace gpulint::testing;

namespace {

// Two errors (GL201 on line 2, GL302 on line 3) and nothing else.
const char* kTwoErrors =
    "# gpulint: gpu=H100-80GB\n"
    "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 8 --max-model-len 16384\n"
    "vllm serve Qwen/Qwen3-8B --port 8001 --max-model-len 65536\n";

// One warning (GL110: fp16 on a bf16 model) and nothing else.
const char* kOneWarning =
    "# gpulint: gpu=H100-80GB\n"
    "accelerate launch --num_processes 8 train.py --model_name_or_path Qwen/Qwen3-0.6B \\\n"
    "  --per_device_train_batch_size 8 --max_seq_length 2048 --fp16\n";

const char* kClean = "# gpulint: gpu=H100-80GB\nvllm serve Qwen/Qwen3-8B --max-model-len 32768\n";

}  // namespace

TEST_CASE("lint exits 0 when clean, 1 on errors, 2 on bad input", "[cli][lint]") {
  TempDir dir;
  CHECK(RunGpulint({"lint", "--isolated", dir.Write("clean.sh", kClean)}).exit_code == 0);
  auto errors = RunGpulint({"lint", "--isolated", dir.Write("bad.sh", kTwoErrors)});
  CHECK(errors.exit_code == 1);
  CHECK(errors.out.find("Found 2 errors, 0 warnings and 0 infos in 1 file.") != std::string::npos);
  auto missing = RunGpulint({"lint", "--isolated", dir.path() + "/nope.sh"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("gpulint: error: no such file or folder") == 0);
  auto format = RunGpulint({"lint", "--isolated", "--format", "yaml", dir.path() + "/clean.sh"});
  CHECK(format.exit_code == 2);
  CHECK(format.err.find("unknown format 'yaml'") != std::string::npos);
}

TEST_CASE("fail-on and exit-zero set the exit-code threshold", "[cli][lint]") {
  TempDir dir;
  std::string warning = dir.Write("warn.sh", kOneWarning);
  CHECK(RunGpulint({"lint", "--isolated", warning}).exit_code == 0);  // warnings do not fail
  CHECK(RunGpulint({"lint", "--isolated", "--fail-on", "warning", warning}).exit_code == 1);
  std::string errors = dir.Write("bad.sh", kTwoErrors);
  CHECK(RunGpulint({"lint", "--isolated", "--exit-zero", errors}).exit_code == 0);
}

TEST_CASE("text output shows the line with a caret under the finding", "[cli][lint]") {
  TempDir dir;
  std::string path = dir.Write("bad.sh", kTwoErrors);
  auto result = RunGpulint({"lint", "--isolated", path});
  // GL201 points at the 8 of --tensor-parallel-size 8: column 60 of line 2.
  std::string expected_head = path + ":2:60: error[GL201 tp-does-not-divide-heads] ";
  CHECK(result.out.find(expected_head) == 0);
  std::string caret_line = std::string(2 + 59, ' ') + "^\n";
  CHECK(result.out.find("  vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 8") !=
        std::string::npos);
  CHECK(result.out.find(caret_line) != std::string::npos);
}

TEST_CASE("json and jsonl carry every finding with its place and rule link", "[cli][lint]") {
  TempDir dir;
  std::string path = dir.Write("bad.sh", kTwoErrors);
  auto json_run = RunGpulint({"lint", "--isolated", "--format", "json", path});
  auto json = nlohmann::json::parse(json_run.out);
  REQUIRE(json["files"].size() == 1);
  auto& findings = json["files"][0]["findings"];
  REQUIRE(findings.size() == 2);
  CHECK(findings[0]["rule"] == "GL201");
  CHECK(findings[0]["line"] == 2);
  CHECK(findings[0]["col"] == 60);
  CHECK(findings[0]["end_col"] == 61);
  CHECK(findings[1]["rule"] == "GL302");
  CHECK(findings[1]["line"] == 3);
  CHECK(findings[1]["url"] == "https://github.com/gpulint/gpulint/blob/main/docs/rules/GL302.md");
  CHECK(json["summary"]["error"] == 2);

  auto jsonl_run = RunGpulint({"lint", "--isolated", "--format", "jsonl", path});
  std::istringstream lines(jsonl_run.out);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    auto item = nlohmann::json::parse(line);
    CHECK(item.contains("rule"));
    ++count;
  }
  CHECK(count == 2);
}

TEST_CASE("concise output is one line per finding", "[cli][lint]") {
  TempDir dir;
  std::string path = dir.Write("bad.sh", kTwoErrors);
  auto result = RunGpulint({"lint", "--isolated", "--format", "concise", path});
  CHECK(result.out.find(path + ":2:60: error[GL201 tp-does-not-divide-heads] tensor parallel "
                               "size 8 does not divide the 28 attention heads of "
                               "Qwen/Qwen2.5-7B-Instruct\n") == 0);
}

TEST_CASE("gpulint.toml sets the GPU, severities, ignores and adds rule packs", "[cli][lint]") {
  TempDir dir;
  dir.Write("gpulint.toml",
            "gpu = \"H100-80GB\"\n"
            "ignore = [\"GL302\"]\n"
            "rules = [\"team-rules.toml\"]\n"
            "[severity]\n"
            "GL201 = \"warning\"\n");
  dir.Write("team-rules.toml",
            "id = \"ACME001\"\nname = \"no-port-8001\"\ncategory = \"team\"\nseverity = \"info\"\n"
            "when = \"workload.role == 'serve' and written(max_model_len)\"\n"
            "message = \"serve with a context: {max_model_len}\"\nat = [\"max_model_len\"]\n"
            "[doc]\nwhat = \"w\"\nwhy = \"y\"\nexample = \"e\"\ninstead = \"i\"\nfix = \"f\"\n");
  dir.Write(".git/HEAD", "ref: refs/heads/main\n");  // the repository root: discovery stops here
  // No GPU directive: it comes from gpulint.toml.
  std::string text = kTwoErrors;
  text = text.substr(text.find('\n') + 1);
  std::string path = dir.Write("jobs/serve.sh", text);
  auto result = RunGpulint({"lint", "--format", "json", path});
  auto json = nlohmann::json::parse(result.out);
  std::vector<std::string> got;
  for (auto& f : json["files"][0]["findings"])
    got.push_back(f["rule"].get<std::string>() + ":" + f["severity"].get<std::string>());
  CHECK(got == std::vector<std::string>{"GL201:warning", "ACME001:info", "ACME001:info"});
  CHECK(result.exit_code == 0);  // GL201 is only a warning here
  // --isolated ignores the file: no GPU, so memory rules are skipped and GL302 is back.
  auto isolated = RunGpulint({"lint", "--isolated", "--format", "concise", path});
  CHECK(isolated.out.find("GL004") != std::string::npos);
  CHECK(isolated.out.find("GL302") != std::string::npos);
}

TEST_CASE("a broken rule pack or config is exit 2 with file and line", "[cli][lint]") {
  TempDir dir;
  dir.Write("gpulint.toml", "rules = [\"team-rules.toml\"]\n");
  dir.Write("team-rules.toml",
            "id = \"ACME001\"\nname = \"x\"\ncategory = \"c\"\n"
            "severity = \"info\"\nwhen = \"tp >\"\nmessage = \"m\"\n");
  std::string path = dir.Write("run.sh", kClean);
  auto result = RunGpulint({"lint", path});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("gpulint: error: 'when': ") == 0);
  CHECK(result.err.find("team-rules.toml:5:") != std::string::npos);
  CHECK(result.err.find("(rule ACME001)") != std::string::npos);

  TempDir other;
  other.Write("gpulint.toml", "headroom = \"lots\"\n");
  auto config = RunGpulint({"lint", other.Write("run.sh", kClean)});
  CHECK(config.exit_code == 2);
  CHECK(config.err.find("gpulint.toml:1:") != std::string::npos);
}

TEST_CASE("a baseline hides known findings and shows new ones", "[cli][lint]") {
  TempDir dir;
  std::string path = dir.Write("run.sh", kTwoErrors);
  std::string baseline = dir.path() + "/baseline.json";
  auto write = RunGpulint({"lint", "--isolated", "--write-baseline", baseline, path});
  CHECK(write.exit_code == 1);  // writing a baseline still reports
  auto json = nlohmann::json::parse(ReadWholeFile(baseline));
  CHECK(json["findings"].size() == 2);
  CHECK(RunGpulint({"lint", "--isolated", "--baseline", baseline, path}).exit_code == 0);
  // Lines moved down by an added comment: the fingerprints do not use line numbers.
  dir.Write("run.sh", std::string("# serving jobs\n") + kTwoErrors +
                          "vllm serve Qwen/Qwen3-8B --port 8002 --max-model-len 50000\n");
  auto after =
      RunGpulint({"lint", "--isolated", "--format", "concise", "--baseline", baseline, path});
  CHECK(after.exit_code == 1);
  CHECK(after.out.find(path + ":5:") == 0);  // only the new line is reported
  CHECK(after.out.find(":3:") == std::string::npos);
  auto bad = RunGpulint({"lint", "--isolated", "--baseline", dir.Write("x.json", "[]"), path});
  CHECK(bad.exit_code == 2);
}

TEST_CASE("output-file gets the format and the terminal gets text", "[cli][lint]") {
  TempDir dir;
  std::string path = dir.Write("run.sh", kTwoErrors);
  std::string out = dir.path() + "/report.json";
  auto result = RunGpulint({"lint", "--isolated", "--format", "json", "--output-file", out, path});
  CHECK(result.exit_code == 1);
  CHECK(result.out.find("error[GL201") != std::string::npos);
  CHECK(nlohmann::json::parse(ReadWholeFile(out))["summary"]["error"] == 2);
}

TEST_CASE("statistics counts findings per rule on stderr", "[cli][lint]") {
  TempDir dir;
  std::string path = dir.Write("run.sh", kTwoErrors);
  auto result = RunGpulint({"lint", "--isolated", "--statistics", path});
  CHECK(result.err.find("    1  GL201 tp-does-not-divide-heads\n") != std::string::npos);
  CHECK(result.err.find("    1  GL302 context-above-model-positions\n") != std::string::npos);
}

TEST_CASE("stdin is linted under --stdin-filename, folders are walked", "[cli][lint]") {
  auto result = RunGpulint(
      {"lint", "--isolated", "--format", "concise", "--stdin-filename", "jobs/serve.sh", "-"},
      kTwoErrors);
  CHECK(result.exit_code == 1);
  CHECK(result.out.find("jobs/serve.sh:2:60: error[GL201") == 0);
  TempDir dir;
  dir.Write("a/one.sh", kTwoErrors);
  dir.Write("a/b/two.sh", kOneWarning);
  dir.Write("a/notes.txt", "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 8\n");
  auto walked = RunGpulint({"lint", "--isolated", "--format", "concise", dir.path() + "/a"});
  CHECK(walked.out.find("in 2 files.") != std::string::npos);
  CHECK(walked.out.find("notes.txt") == std::string::npos);
  CHECK(walked.out.find("two.sh:3:") != std::string::npos);
}

TEST_CASE("a folder walk skips what .gitignore files list, at their level and below",
          "[cli][lint]") {
  TempDir dir;
  dir.Write("repo/.gitignore", "# build output\nbuild/\n*.tmp.sh\n");
  dir.Write("repo/run.sh", kTwoErrors);
  dir.Write("repo/scratch.tmp.sh", kTwoErrors);  // *.tmp.sh at the root
  dir.Write("repo/build/gen.sh", kTwoErrors);    // build/ is a folder pattern
  // build/ names folders only: a script file called build stays (a shebang makes it a script).
  dir.Write("repo/jobs/build", std::string("#!/bin/bash\n") + kTwoErrors);
  dir.Write("repo/jobs/deep/x.tmp.sh", kTwoErrors);  // root patterns apply below
  dir.Write("repo/jobs/.gitignore", "local.sh\n");
  dir.Write("repo/jobs/local.sh", kTwoErrors);  // the nested file's own pattern
  dir.Write("repo/jobs/keep.sh", kTwoErrors);
  dir.Write("repo/other/local.sh", kTwoErrors);  // a sibling does not inherit it
  auto walked = RunGpulint({"lint", "--isolated", "--format", "concise", "repo"}, "", dir.path());
  CHECK(walked.out.find("repo/run.sh:") != std::string::npos);
  CHECK(walked.out.find("repo/jobs/keep.sh:") != std::string::npos);
  CHECK(walked.out.find("repo/other/local.sh:") != std::string::npos);
  CHECK(walked.out.find("tmp.sh") == std::string::npos);
  CHECK(walked.out.find("repo/jobs/build:") != std::string::npos);
  CHECK(walked.out.find("repo/build/") == std::string::npos);
  CHECK(walked.out.find("repo/jobs/local.sh") == std::string::npos);
  CHECK(walked.out.find("in 4 files.") != std::string::npos);
}

TEST_CASE("a folder walk lints links to scripts but does not follow links to folders",
          "[cli][lint]") {
  TempDir dir;
  dir.Write("real/run.sh", kTwoErrors);
  dir.Write("repo/own.sh", kTwoErrors);
  REQUIRE(symlink("../real/run.sh", (dir.path() + "/repo/linked.sh").c_str()) == 0);
  REQUIRE(symlink("../real", (dir.path() + "/repo/folder").c_str()) == 0);
  auto walked = RunGpulint({"lint", "--isolated", "--format", "concise", "repo"}, "", dir.path());
  CHECK(walked.out.find("repo/own.sh:") != std::string::npos);
  CHECK(walked.out.find("repo/linked.sh:") != std::string::npos);
  CHECK(walked.out.find("repo/folder/") == std::string::npos);
  CHECK(walked.out.find("in 2 files.") != std::string::npos);
}

TEST_CASE("a named file that cannot be read is an input error, after the others are listed",
          "[cli][lint]") {
  // Files are read on the lint threads, not while they are listed: the error must survive it.
  TempDir dir;
  dir.Write("jobs/ok.sh", kTwoErrors);
  REQUIRE(mkfifo((dir.path() + "/jobs/pipe.sh").c_str(), 0600) == 0);  // reading it would block
  auto result = RunGpulint({"lint", "--isolated", "jobs/ok.sh", "jobs/pipe.sh"}, "", dir.path());
  CHECK(result.exit_code == 2);
  CHECK(result.err == "gpulint: error: jobs/pipe.sh is not a regular file\n");
  CHECK(result.out.empty());
}

TEST_CASE("include in gpulint.toml adds Python launchers to a folder walk, exclude drops files",
          "[cli][lint]") {
  TempDir dir;
  dir.Write("jobs/serve.sh", kTwoErrors);
  dir.Write("jobs/old/serve.sh", kTwoErrors);
  dir.Write("jobs/load.py",
            "# gpulint: gpu=H100-80GB\n"
            "from transformers import AutoModelForCausalLM\n"
            "model = AutoModelForCausalLM.from_pretrained(\"Qwen/Qwen3-8B\", load_in_8bit=True)\n");
  auto plain = RunGpulint({"lint", "--format", "concise", dir.path() + "/jobs"});
  CHECK(plain.out.find("in 2 files.") != std::string::npos);
  dir.Write("gpulint.toml", "include = [\"*.py\"]\nexclude = [\"old/\"]\n");
  auto configured = RunGpulint({"lint", "--format", "concise", "jobs"}, "", dir.path());
  CHECK(configured.out.find("jobs/load.py:3:") != std::string::npos);  // GL501
  CHECK(configured.out.find("jobs/old/") == std::string::npos);
  CHECK(configured.out.find("in 2 files.") != std::string::npos);
}

TEST_CASE("a --headroom below 0 or from 0.9 up, NaN included, is a usage error", "[cli][lint]") {
  TempDir dir;
  std::string path = dir.Write("run.sh", kTwoErrors);
  for (const char* headroom : {"nan", "-0.1", "0.9", "0.95", "lots"}) {
    INFO(headroom);
    auto result = RunGpulint({"lint", "--isolated", "--headroom", headroom, path});
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("gpulint: error: --headroom") == 0);
  }
  CHECK(RunGpulint({"lint", "--isolated", "--headroom", "0.2", path}).exit_code == 1);
}

TEST_CASE("a script's headroom directive sets its margin, and the command line wins over it",
          "[cli][lint]") {
  // Llama-3.2-1B at micro-batch 2 x 4096 with checkpointing peaks at up to 35.6 GiB of 40.
  const std::string job =
      "accelerate launch --num_processes 1 train.py --model_name_or_path meta-llama/Llama-3.2-1B "
      "--bf16 --gradient_checkpointing --max_seq_length 4096 --per_device_train_batch_size 2\n";
  TempDir dir;
  std::string plain = dir.Write("plain.sh", "# gpulint: gpu=A100-40GB\n" + job);
  std::string kept = dir.Write("kept.sh", "# gpulint: gpu=A100-40GB headroom=0.2\n" + job);
  auto none = RunGpulint({"lint", "--isolated", plain});
  CHECK(none.exit_code == 0);  // no headroom by default: the high end fits
  auto directive = RunGpulint({"lint", "--isolated", kept});
  CHECK(directive.out.find("GL102") != std::string::npos);
  auto overridden = RunGpulint({"lint", "--isolated", "--headroom", "0.05", kept});
  CHECK(overridden.out.find("GL102") == std::string::npos);
  for (const char* bad : {"0.95", "lots", "-1"}) {
    INFO(bad);
    std::string path =
        dir.Write("bad.sh", fmt::format("# gpulint: gpu=A100-40GB headroom={}\n", bad) + job);
    auto result = RunGpulint({"lint", "--isolated", path});
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("gpulint: error: 'headroom' must be a number in [0, 0.9)") == 0);
  }
}

TEST_CASE("text made file by file on the lint threads is the text of the whole report",
          "[cli][lint]") {
  // --format text alone renders each file on its lint thread; with --output-file the whole
  // report is rendered at the end, for the file and again for the terminal.
  for (const char* format : {"text", "concise"}) {
    INFO(format);
    TempDir dir;
    std::string out = dir.path() + "/report.txt";
    std::vector<std::string> files = {"fixtures/rules/GL101/bad.sh", "fixtures/rules/GL107/bad.sh",
                                      "fixtures/seeds/004_dpo_lora_a100/train_all_sequential.sh",
                                      "fixtures/report"};
    std::vector<std::string> by_file = {"lint", "--isolated", "--format", format};
    by_file.insert(by_file.end(), files.begin(), files.end());
    std::vector<std::string> whole = by_file;
    whole.insert(whole.begin() + 4, {"--output-file", out});
    auto streamed = RunGpulint(by_file, "", SourcePath(""));
    auto rendered = RunGpulint(whole, "", SourcePath(""));
    CHECK(streamed.exit_code == rendered.exit_code);
    CHECK(streamed.out.find("error[GL101") != std::string::npos);
    CHECK(streamed.out.find("Found ") != std::string::npos);
    CHECK(streamed.out == ReadWholeFile(out));
    if (std::string(format) == "text") CHECK(streamed.out == rendered.out);
  }
}

TEST_CASE("every format names files without ./, relative to the working folder when under it",
          "[cli][lint]") {
  TempDir dir;
  dir.Write("jobs/serve.sh", kTwoErrors);
  // The same file as `.`, `./jobs`, `././jobs//serve.sh` and its absolute path name it.
  for (const char* format : {"text", "concise", "json", "jsonl", "github", "rdjson", "rdjsonl",
                             "gitlab", "markdown", "checkstyle", "junit"}) {
    for (const std::string& path :
         {std::string("."), std::string("./jobs"), std::string("././jobs//serve.sh"),
          dir.path() + "/jobs/serve.sh"}) {
      auto result = RunGpulint({"lint", "--isolated", "--format", format, path}, "", dir.path());
      INFO(format << " " << path << "\n" << result.out << result.err);
      CHECK(result.exit_code == 1);
      CHECK(result.out.find("jobs/serve.sh") != std::string::npos);
      CHECK(result.out.find("./jobs") == std::string::npos);
      CHECK(result.out.find(dir.path()) == std::string::npos);
    }
  }
}

TEST_CASE("lint with no path lints the working folder, -q prints the findings only",
          "[cli][lint]") {
  TempDir dir;
  dir.Write("serve.sh", kTwoErrors);
  auto all = RunGpulint({"lint", "--isolated", "--format", "concise"}, "", dir.path());
  INFO(all.out << all.err);
  CHECK(all.exit_code == 1);
  CHECK(all.out.find("serve.sh:2:") != std::string::npos);
  CHECK(all.out.find("Found 2 errors") != std::string::npos);
  auto quiet = RunGpulint({"lint", "--isolated", "-q", "--format", "concise"}, "", dir.path());
  CHECK(quiet.exit_code == 1);
  CHECK(quiet.out.find("serve.sh:2:") != std::string::npos);
  CHECK(quiet.out.find("Found") == std::string::npos);
  CHECK(std::count(quiet.out.begin(), quiet.out.end(), '\n') == 2);
}

TEST_CASE("the --color option, then NO_COLOR and FORCE_COLOR, decide the escapes", "[cli][lint]") {
  TempDir dir;
  dir.Write("serve.sh", kTwoErrors);
  auto run = [&](std::vector<std::string> env, std::vector<std::string> flags) {
    std::vector<std::string> args = {"-u", "NO_COLOR", "-u", "FORCE_COLOR"};
    args.insert(args.end(), env.begin(), env.end());
    args.push_back(GPULINT_BINARY);
    for (const char* a : {"lint", "--isolated", "--format", "concise"}) args.push_back(a);
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back("serve.sh");
    auto result = RunProcess("/usr/bin/env", args, "", dir.path());
    REQUIRE(result.exit_code == 1);
    return result.out.find("\x1b[") != std::string::npos;
  };
  CHECK_FALSE(run({}, {}));  // not a terminal
  CHECK(run({"FORCE_COLOR=1"}, {}));
  CHECK_FALSE(run({"FORCE_COLOR="}, {}));  // empty: unset
  CHECK_FALSE(run({"FORCE_COLOR=1", "NO_COLOR=1"}, {}));
  CHECK(run({"NO_COLOR=1"}, {"--color", "always"}));
  CHECK_FALSE(run({"FORCE_COLOR=1"}, {"--color", "never"}));
  auto bad = RunGpulint({"lint", "--color", "sometimes", "x.sh"}, "", dir.path());
  CHECK(bad.exit_code == 2);
}

TEST_CASE("lint --diff and lint --fix are fix --diff and fix --write", "[cli][lint]") {
  TempDir dir;
  dir.Write("sft.sh", ReadWholeFile(SourcePath("fixtures/rules/GL107/bad.sh")));
  auto diff = RunGpulint({"lint", "--isolated", "--diff", "./sft.sh"}, "", dir.path());
  INFO(diff.out << diff.err);
  CHECK(diff.exit_code == 1);
  CHECK(diff.out.find("--- a/sft.sh\n+++ b/sft.sh\n") != std::string::npos);
  CHECK(ReadWholeFile(dir.path() + "/sft.sh") ==
        ReadWholeFile(SourcePath("fixtures/rules/GL107/bad.sh")));
  auto fix = RunGpulint({"lint", "--isolated", "--fix", "sft.sh"}, "", dir.path());
  INFO(fix.out << fix.err);
  CHECK(ReadWholeFile(dir.path() + "/sft.sh") ==
        ReadWholeFile(SourcePath("fixtures/rules/GL107/bad.fixed.sh")));
}

TEST_CASE("lint --fix with an option only lint has names lint --fix, not fix", "[cli][lint]") {
  TempDir dir;
  dir.Write("sft.sh", ReadWholeFile(SourcePath("fixtures/rules/GL107/bad.sh")));
  auto stats = RunGpulint({"lint", "--isolated", "--fix", "--statistics", "sft.sh"}, "",
                          dir.path());
  CHECK(stats.exit_code == 2);
  CHECK(stats.err.find("--statistics") != std::string::npos);
  CHECK(stats.err.find("gpulint lint --fix\n") != std::string::npos);
  CHECK(stats.err.find("Run 'gpulint lint --fix --help'") != std::string::npos);
  // Nothing was written.
  CHECK(ReadWholeFile(dir.path() + "/sft.sh") ==
        ReadWholeFile(SourcePath("fixtures/rules/GL107/bad.sh")));
  auto piped = RunGpulint({"lint", "--isolated", "--fix", "-"}, "x\n", dir.path());
  CHECK(piped.exit_code == 2);
  CHECK(piped.err.find("lint --fix needs files, not stdin") != std::string::npos);
}

TEST_CASE("the summary counts fixable findings and points to unsafe fixes", "[cli][lint]") {
  auto safe = RunGpulint({"lint", "--isolated", "fixtures/rules/GL107/bad.sh"}, "", SourcePath(""));
  INFO(safe.out);
  CHECK(safe.out.find("1 fixable with `gpulint fix --write` (1 more with --unsafe-fixes).") !=
        std::string::npos);
  auto unsafe =
      RunGpulint({"lint", "--isolated", "fixtures/rules/GL101/bad.sh"}, "", SourcePath(""));
  INFO(unsafe.out);
  CHECK(unsafe.out.find("only unsafe fixes") != std::string::npos);
  CHECK(unsafe.out.find("gpulint fix --unsafe-fixes") != std::string::npos);
}

TEST_CASE("the Markdown report stays under GitHub's comment limit and says what it cut",
          "[cli][lint]") {
  TempDir dir;
  for (int i = 0; i < 400; ++i) dir.Write(fmt::format("jobs/serve_{:03}.sh", i), kTwoErrors);
  auto big = RunGpulint({"lint", "--isolated", "--format", "markdown", "jobs"}, "", dir.path());
  CHECK(big.exit_code == 1);
  CHECK(big.out.size() <= 65536);
  CHECK(big.out.size() > 60000);  // cut near the limit, not far below it
  CHECK(big.out.find("### gpulint: 800 errors") == 0);
  CHECK(big.out.find("_Not shown: ") != std::string::npos);
  CHECK(big.out.find("findings") != std::string::npos);
  // Whole findings only: every list item that starts also ends with its line.
  CHECK(big.out.find("jobs/serve_000.sh") != std::string::npos);
  auto small = RunGpulint({"lint", "--isolated", "--format", "markdown", "jobs/serve_000.sh"}, "",
                          dir.path());
  CHECK(small.out.find("Not shown") == std::string::npos);
}
