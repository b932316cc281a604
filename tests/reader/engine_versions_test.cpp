// Which engine release a workload runs: directive, the script's pin, the project's pins, the
// framework's requirement, in that order.
#include "lint/reader/engine_versions.h"

#include <catch2/catch.hpp>

#include "tests/support/reader_helpers.h"

using namespace gpulint;
using gpulint::testing::ReadText;

namespace {

// The engine_version setting of the first workload, with its origin letter (Dump's).
std::string VersionOf(const std::string& text, const ReadOptions& options = {}) {
  SourceMap sources;
  ReadResult read = ReadText(text, &sources, options);
  REQUIRE(read.ok);
  REQUIRE_FALSE(read.config.workloads.empty());
  const Setting* s = read.config.workloads[0].Find("engine_version");
  if (!s) return "?";
  return s->value.ToString() + " (" + OriginName(s->origin) + ")";
}

}  // namespace

TEST_CASE("a vLLM server's release comes from the first source that pins it",
          "[reader][version]") {
  const std::string serve = "vllm serve Qwen/Qwen3-8B --max-model-len 8192\n";
  ReadOptions pinned;
  pinned.pinned_versions["vllm"] = {">=0.8.5,<=0.12.0", "requirements.txt:3"};

  CHECK(VersionOf(serve) == "?");  // nothing pins it: the analysis assumes the newest
  CHECK(VersionOf(serve, pinned) == ">=0.8.5,<=0.12.0 (config-file)");
  CHECK(VersionOf("pip install vllm==0.6.3\n" + serve, pinned) == "0.6.3 (literal)");
  CHECK(VersionOf("# gpulint: vllm=0.7.2\npip install vllm==0.6.3\n" + serve, pinned) ==
        "0.7.2 (directive)");
  // Two pins in one script: either may run, so both ends are kept.
  CHECK(VersionOf("pip install vllm==0.6.3 || pip install vllm==0.8.5\n" + serve) ==
        ">=0.6.3,<=0.8.5 (literal)");
  // Another engine's pin says nothing about vLLM.
  CHECK(VersionOf("pip install sglang==0.4.6\n" + serve) == "?");
}

TEST_CASE("an engine release the directive states but gpulint cannot read is said, not used",
          "[reader][version]") {
  const std::string serve = "vllm serve Qwen/Qwen3-8B --max-model-len 8192\n";
  // The script's own pin applies instead of the unreadable directive.
  CHECK(VersionOf("# gpulint: vllm=latest\npip install vllm==0.6.3\n" + serve) ==
        "0.6.3 (literal)");
  CHECK(VersionOf("# gpulint: vllm=latest\n" + serve) == "?");
  SourceMap sources;
  ReadResult read = ReadText("# gpulint: vllm=latest\n" + serve, &sources);
  REQUIRE(read.config.unresolved.size() == 1);
  CHECK(read.config.unresolved[0].name == "vllm release");
  CHECK(read.config.unresolved[0].reason.find("'# gpulint: vllm=latest'") != std::string::npos);
}

TEST_CASE("a framework's own requirement yields to the project's pin", "[reader][version]") {
  // verl requires vllm>=0.8.5,<=0.12.0 (its map's default for the rollout engine).
  const std::string verl =
      "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-3B-Instruct "
      "actor_rollout_ref.rollout.name=vllm trainer.n_gpus_per_node=8\n";
  SourceMap sources;
  ReadResult read = ReadText(verl, &sources);
  REQUIRE(read.ok);
  const Workload* rollout = nullptr;
  for (const Workload& w : read.config.workloads)
    if (w.role == "rollout") rollout = &w;
  REQUIRE(rollout);
  REQUIRE(rollout->Find("engine_version"));
  CHECK(rollout->Find("engine_version")->value.ToString() == ">=0.8.5,<=0.12.0");
  CHECK(rollout->Find("engine_version")->origin == Origin::kFrameworkDefault);

  ReadOptions pinned;
  pinned.pinned_versions["vllm"] = {"0.8.4", "requirements.txt:20"};
  SourceMap sources2;
  read = ReadText(verl, &sources2, pinned);
  for (const Workload& w : read.config.workloads)
    if (w.role == "rollout") CHECK(w.Find("engine_version")->value.ToString() == "0.8.4");
}

TEST_CASE("pins join into the range they admit together", "[reader][version]") {
  std::string joined;
  CHECK(JoinPins({"0.6.3"}, &joined));
  CHECK(joined == "0.6.3");
  CHECK(JoinPins({"==0.8.5", ">=0.9,<0.10"}, &joined));
  CHECK(joined == ">=0.8.5,<=0.9.9999");
  CHECK(JoinPins({"latest", ">=0.10"}, &joined));  // what cannot be read is left out
  CHECK(joined == ">=0.10.0");
  CHECK_FALSE(JoinPins({"latest"}, &joined));
}
