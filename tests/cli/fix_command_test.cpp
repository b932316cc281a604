// `gpulint fix` end to end: the diff applies and equals --write, a second run changes nothing,
// values it may not rewrite are named, exit codes.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/support/process.h"

using namespace gpulint::testing;

namespace {

// Micro-batch 1 with accumulation 16 of a 0.5B model on an H100: far below the memory.
const char* kSmallBatch =
    "#!/bin/bash\n"
    "# gpulint: gpu=H100-80GB\n"
    "torchrun --nproc_per_node 8 train.py --model_name_or_path Qwen/Qwen2.5-0.5B-Instruct --bf16 \\\n"
    "  --max_seq_length 768 --gradient_accumulation_steps 16 \\\n"
    "  --per_device_train_batch_size 1  # tuned by hand in 2024\n";

}  // namespace

TEST_CASE("fix --diff applies with git apply and matches fix --write", "[cli][fix]") {
  TempDir repo;
  repo.Write("jobs/train.sh", kSmallBatch);
  REQUIRE(RunProcess("git", {"init", "-q", "."}, "", repo.path()).exit_code == 0);
  auto diff = RunGpulint({"fix", "--isolated", "--maximize", "batch", "jobs/train.sh"}, "",
                         repo.path());
  CHECK(diff.exit_code == 1);  // there is something to change
  REQUIRE(diff.out.find("--- a/jobs/train.sh\n+++ b/jobs/train.sh\n") == 0);
  CHECK(diff.err.find("micro_batch 1 -> 16, grad_accum 16 -> 1 (global batch kept)") !=
        std::string::npos);
  repo.Write("fix.patch", diff.out);
  auto apply = RunProcess("git", {"apply", "fix.patch"}, "", repo.path());
  INFO(apply.err);
  REQUIRE(apply.exit_code == 0);
  std::string applied = ReadWholeFile(repo.path() + "/jobs/train.sh");

  TempDir other;
  std::string path = other.Write("jobs/train.sh", kSmallBatch);
  auto write = RunGpulint({"fix", "--isolated", "--maximize", "batch", "--write", path});
  CHECK(write.exit_code == 1);  // it changed a file
  CHECK(write.err.find("fixed " + path) != std::string::npos);
  CHECK(write.out.empty());
  CHECK(ReadWholeFile(path) == applied);
  // Only the two numbers changed; the comment and the continuation lines are kept.
  CHECK(applied.find("--gradient_accumulation_steps 1 \\\n  --per_device_train_batch_size 16  "
                     "# tuned by hand in 2024\n") != std::string::npos);

  auto again = RunGpulint({"fix", "--isolated", "--maximize", "batch", path});
  CHECK(again.exit_code == 0);
  CHECK(again.out.empty());
  CHECK(again.err.find("already the largest that fits") != std::string::npos);
}

TEST_CASE("a value given through the environment is not rewritten, and fix says why",
          "[cli][fix]") {
  TempDir dir;
  std::string path = dir.Write(
      "train.sh",
      "# gpulint: gpu=H100-80GB\n"
      "torchrun --nproc_per_node 8 train.py --model_name_or_path Qwen/Qwen2.5-0.5B-Instruct "
      "--bf16 --max_seq_length 1024 --per_device_train_batch_size $BATCH\n");
  auto result =
      RunGpulint({"fix", "--isolated", "--maximize", "batch", "--env", "BATCH=1", path});
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(result.err.find("not changed: micro_batch") != std::string::npos);
  CHECK(result.err.find("BATCH") != std::string::npos);
}

TEST_CASE("fix without an objective applies the safe fixes of findings", "[cli][fix]") {
  TempDir dir;
  std::string path =
      dir.Write("sft.sh", ReadWholeFile(SourcePath("fixtures/rules/GL107/bad.sh")));
  auto result = RunGpulint({"fix", "--isolated", "--write", path});
  CHECK(result.exit_code == 1);
  CHECK(ReadWholeFile(path) == ReadWholeFile(SourcePath("fixtures/rules/GL107/bad.fixed.sh")));
  // GL101's fix on the same file changes the batch: not safe, so not applied without --fit.
  CHECK(result.err.find("GL101") == std::string::npos);
}

TEST_CASE("fix --format json lists the changes with their places and estimates", "[cli][fix]") {
  TempDir dir;
  std::string path = dir.Write("train.sh", kSmallBatch);
  auto result =
      RunGpulint({"fix", "--isolated", "--maximize", "batch", "--format", "json", path});
  auto json = nlohmann::json::parse(result.out);
  auto& proposal = json["files"][0]["proposals"][0];
  CHECK(proposal["objective"] == "maximize-batch");
  CHECK(proposal["changes"][0]["setting"] == "micro_batch");
  CHECK(proposal["changes"][0]["before"] == "1");
  CHECK(proposal["changes"][0]["after"] == "16");
  CHECK(proposal["changes"][0]["line"] == 5);
  CHECK(proposal["peak_after_gib"].get<double>() <= proposal["limit_gib"].get<double>());
  CHECK(json["files"][0]["diff"].get<std::string>().find("@@ -1,5 +1,5 @@") != std::string::npos);
}

TEST_CASE("fix rejects contradictory options with exit 2", "[cli][fix]") {
  auto both = RunGpulint({"fix", "--fit", "--maximize", "batch", "x.sh"});
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("exclude each other") != std::string::npos);
  auto keep = RunGpulint({"fix", "--maximize", "batch", "--keep", "everything", "x.sh"});
  CHECK(keep.exit_code == 2);
}

TEST_CASE("fix --format markdown shows the change, the estimates and the diff", "[cli][fix]") {
  auto result = RunGpulint({"fix", "--isolated", "--fit", "--format", "markdown",
                            "fixtures/rules/GL107/bad.sh"},
                           "", SourcePath(""));
  CHECK(result.exit_code == 1);
  CHECK(result.out.find("| `fixtures/rules/GL107/bad.sh:5` | train (verl-sft) | `grad_ckpt` "
                        "false -> true | 180.4 -> 55.4 GiB | 79.6 GiB |") != std::string::npos);
  CHECK(result.out.find("```diff\n--- a/fixtures/rules/GL107/bad.sh\n") != std::string::npos);
}

TEST_CASE("fix --unsafe-fixes applies fixes that change how the job runs", "[cli][fix]") {
  TempDir dir;
  std::string path = dir.Write("train.sh", ReadWholeFile(SourcePath("fixtures/rules/GL102/bad.sh")));
  auto safe_only = RunGpulint({"fix", "--isolated", path});
  CHECK(safe_only.exit_code == 0);  // GL102's fix lowers the batch: not safe
  CHECK(safe_only.out.empty());
  // fix says, as lint does, that there is a fix it left out, and how to see it.
  CHECK(safe_only.err.find("1 finding has only unsafe fixes (they change how the job runs): "
                           "`gpulint fix --unsafe-fixes` shows them.") != std::string::npos);
  // -q: nothing on stderr (the diff, empty here, is all).
  auto quiet = RunGpulint({"fix", "--isolated", "-q", path});
  CHECK(quiet.exit_code == 0);
  CHECK(quiet.err.empty());
  auto unsafe = RunGpulint({"fix", "--isolated", "--unsafe-fixes", "--write", path});
  CHECK(unsafe.exit_code == 1);
  CHECK(ReadWholeFile(path) == ReadWholeFile(SourcePath("fixtures/rules/GL102/bad.fixed.sh")));
}

TEST_CASE("a --workload naming a role no script has is a usage error", "[cli][fix]") {
  TempDir dir;
  std::string path = dir.Write("train.sh", kSmallBatch);
  auto result = RunGpulint({"fix", "--isolated", "--maximize", "batch", "--workload", "serv", path});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("gpulint: error: --workload serv: no workload has that role (roles here: "
                        "train)") != std::string::npos);
  CHECK(RunGpulint({"fix", "--isolated", "--maximize", "batch", "--workload", "train", path})
            .exit_code == 1);
}

// A config linted on its own has no command line: its proposals name the file, not "file:0".
TEST_CASE("fix on a YAML config edits its keys, names the file, and a second run is quiet",
          "[cli][fix]") {
  TempDir dir;
  std::string path = dir.Write("lora.yml",
                               "# gpulint: gpu=H100-80GB\n"
                               "base_model: Qwen/Qwen2.5-0.5B\n"
                               "sequence_len: 1024\n"
                               "adapter: lora\nlora_r: 8\n"
                               "gradient_accumulation_steps: 4\n"
                               "micro_batch_size: 1  # our choice\n");
  auto first = RunGpulint({"fix", "--isolated", "--maximize", "batch", "--write", path});
  CHECK(first.err.find(path + ": train (axolotl)") != std::string::npos);
  CHECK(first.err.find(path + ":0:") == std::string::npos);
  const std::string fixed = ReadWholeFile(path);
  CHECK(fixed.find("micro_batch_size: 4  # our choice\n") != std::string::npos);
  CHECK(fixed.find("gradient_accumulation_steps: 1\n") != std::string::npos);
  auto second = RunGpulint({"fix", "--isolated", "--maximize", "batch", path});
  CHECK(second.exit_code == 0);
  CHECK(second.out.empty());
}

TEST_CASE("fix --diff names a file the way patch applies it from where gpulint ran",
          "[cli][fix]") {
  TempDir root;
  root.Write("repo/jobs/train.sh", kSmallBatch);
  root.Write("outside.sh", kSmallBatch);
  const std::string repo = root.path() + "/repo";
  // An absolute path inside the working folder: a/ b/ and relative, as git apply wants it.
  auto inside = RunGpulint(
      {"fix", "--isolated", "--maximize", "batch", repo + "/jobs/./train.sh"}, "", repo);
  CHECK(inside.out.find("--- a/jobs/train.sh\n+++ b/jobs/train.sh\n") == 0);
  // Outside it: absolute, for patch -p0 (a/../outside.sh would name repo/outside.sh).
  auto outside =
      RunGpulint({"fix", "--isolated", "--maximize", "batch", "../outside.sh"}, "", repo);
  const std::string name = root.path() + "/outside.sh";
  CHECK(outside.out.find("--- " + name + "\n+++ " + name + "\n") == 0);
  root.Write("fix.patch", outside.out);
  auto patch = RunProcess("patch", {"-p0", "-i", root.path() + "/fix.patch"}, "", "/");
  INFO(patch.err);
  if (patch.exit_code != 127) {  // patch(1) is not on every machine
    CHECK(patch.exit_code == 0);
    CHECK(ReadWholeFile(name).find("--per_device_train_batch_size 16") != std::string::npos);
  }
}

TEST_CASE("fix says which keys of gpulint.toml have no effect, as lint does", "[cli][fix]") {
  TempDir dir;
  dir.Write("gpulint.toml", "gpu = \"H100-80GB\"\nheadroom_gib = 2\n");
  dir.Write("train.sh", kSmallBatch);
  auto fix = RunGpulint({"fix", "train.sh"}, "", dir.path());
  CHECK(fix.err.find("gpulint: warning: unknown key 'headroom_gib' has no effect") !=
        std::string::npos);
  auto lint = RunGpulint({"lint", "train.sh"}, "", dir.path());
  CHECK(lint.err.find("gpulint: warning: unknown key 'headroom_gib' has no effect") !=
        std::string::npos);
  CHECK(RunGpulint({"fix", "-q", "train.sh"}, "", dir.path()).err.empty());
}
