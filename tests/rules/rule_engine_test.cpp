// The rule engine around the rules: which rules run (select/ignore), and how inline
// suppressions cover a line, the command below them, or the whole file.
#include "lint/rules/rule_engine.h"

#include <catch2/catch.hpp>

#include "tests/support/lint_helpers.h"
#include "tests/support/process.h"

using namespace gpulint;
using namespace gpulint::testing;

namespace {

// A vLLM server whose context is longer than Qwen3-8B's 40960 positions (GL302), on a GPU.
const char* kTooLong = "vllm serve Qwen/Qwen3-8B --max-model-len 65536";

std::vector<std::string> Rules(const LintOutcome& outcome) {
  std::vector<std::string> ids;
  for (const Finding& f : outcome.findings) ids.push_back(f.rule + "@" + std::to_string(f.span.line));
  return ids;
}

LintOutcome LintText(const std::string& text, const LintChoices& choices = {}) {
  TempDir dir;
  LintOutcome outcome = LintPath(dir.Write("run.sh", text), choices);
  REQUIRE(outcome.ok);
  return outcome;
}

}  // namespace

TEST_CASE("a trailing disable covers its own line", "[rules][suppress]") {
  std::string head = "# gpulint: gpu=H100-80GB\n";
  CHECK(Rules(LintText(head + kTooLong + "\n")) == std::vector<std::string>{"GL302@2"});
  CHECK(Rules(LintText(head + kTooLong + "  # gpulint: disable=GL302 -- YaRN is on\n")).empty());
  // A rule's name works as well as its id; a typo of either is reported.
  CHECK(Rules(LintText(head + kTooLong + "  # gpulint: disable=context-above-model-positions\n"))
            .empty());
  CHECK(Rules(LintText(head + kTooLong + "  # gpulint: disable=context-above-model-position\n")) ==
        std::vector<std::string>{"GL302@2", "GL001@2"});
}

TEST_CASE("an own-line disable covers the command that starts below it", "[rules][suppress]") {
  // The finding is on the command's third line; the comment above the command covers it.
  std::string text =
      "# gpulint: gpu=H100-80GB\n"
      "# gpulint: disable=GL302 -- rope scaling configured in the model folder\n"
      "vllm serve Qwen/Qwen3-8B \\\n"
      "  --port 8000 \\\n"
      "  --max-model-len 65536\n";
  CHECK(Rules(LintText(text)).empty());
  // It covers only the next command, not a later one.
  std::string later = text + "vllm serve Qwen/Qwen3-8B --port 8001 --max-model-len 65536 &\n";
  CHECK(Rules(LintText(later)) == std::vector<std::string>{"GL302@6"});
}

TEST_CASE("disable-file covers the whole file, a list disables several", "[rules][suppress]") {
  std::string text = std::string("# gpulint: gpu=H100-80GB\n# gpulint: disable-file=GL302\n") +
                     kTooLong + "\n" + kTooLong + " --port 8001\n";
  CHECK(Rules(LintText(text)).empty());
  std::string both = std::string("# gpulint: gpu=H100-80GB\n") + kTooLong +
                     " --max-num-seqs 4096  # gpulint: disable=GL302,GL401\n";
  CHECK(Rules(LintText(both)).empty());
}

TEST_CASE("unknown and unused suppressions are findings of their own", "[rules][suppress]") {
  std::string text = std::string("# gpulint: gpu=H100-80GB\n") +
                     "vllm serve Qwen/Qwen3-8B --max-model-len 32768  # gpulint: disable=GL101\n" +
                     "vllm serve Qwen/Qwen3-8B --port 1 --max-model-len 32768  "
                     "# gpulint: disable=GL9999\n";
  CHECK(Rules(LintText(text)) == std::vector<std::string>{"GL002@2", "GL001@3"});
  // A suppression of a rule that is not selected is not "unused".
  LintChoices choices;
  choices.ignore = {"GL101"};
  CHECK(Rules(LintText(text, choices)) == std::vector<std::string>{"GL001@3"});
}

TEST_CASE("no-inline-suppress reports suppressed findings", "[rules][suppress]") {
  LintChoices choices;
  choices.no_inline_suppress = true;
  std::string text = std::string("# gpulint: gpu=H100-80GB\n") + kTooLong +
                     "  # gpulint: disable=GL302\n";
  CHECK(Rules(LintText(text, choices)) == std::vector<std::string>{"GL302@2"});
}

TEST_CASE("select and ignore take ids, id prefixes and names", "[rules][select]") {
  std::string text = std::string("# gpulint: gpu=H100-80GB\n") +
                     "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 8 --max-model-len 65536\n";
  CHECK(Rules(LintText(text)) == std::vector<std::string>{"GL201@2", "GL302@2"});
  LintChoices only_parallelism;
  only_parallelism.select = {"GL2"};
  CHECK(Rules(LintText(text, only_parallelism)) == std::vector<std::string>{"GL201@2"});
  LintChoices ignore_by_name;
  ignore_by_name.ignore = {"tp-does-not-divide-heads"};
  CHECK(Rules(LintText(text, ignore_by_name)) == std::vector<std::string>{"GL302@2"});
}

TEST_CASE("findings come sorted by line and column", "[rules]") {
  std::string text = std::string("# gpulint: gpu=H100-80GB\n") +
                     "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 8 --max-model-len 65536\n" +
                     "vllm serve Qwen/Qwen3-8B --port 1 --max-model-len 65536 &\n";
  auto findings = LintText(text).findings;
  REQUIRE(findings.size() >= 3);
  for (size_t i = 1; i < findings.size(); ++i) CHECK_FALSE(FindingLess(findings[i], findings[i - 1]));
}

TEST_CASE("GPUs with the same overload are one finding, naming only the workloads live at the "
          "peak", "[rules]") {
  // A finished TP-8 job, then two engines started together on all 8 GPUs.
  std::string text =
      "# gpulint: gpu=H100-80GB\n"
      "vllm serve Qwen/Qwen3-0.6B --tensor-parallel-size 8 --max-model-len 8192 --port 1\n"
      "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 8 --max-model-len 8192 --port 2 &\n"
      "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 8 --max-model-len 8192 --port 3 &\n"
      "wait\n";
  auto findings = LintText(text).findings;
  std::vector<std::string> messages;
  for (const Finding& f : findings)
    if (f.rule == "GL104") messages.push_back(f.message);
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].find("serve (line 3) + serve (line 4) run at the same time on GPUs 0-7:") ==
        0);
}
