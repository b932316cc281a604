// `gpulint estimate` end to end: the JSON contract of architecture.md and the script-less mode.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/support/process.h"

using gpulint::testing::RunGpulint;
using gpulint::testing::RunProcess;
using gpulint::testing::SourcePath;

TEST_CASE("estimate --format json follows the contract", "[cli][estimate]") {
  auto result = RunGpulint({"estimate", SourcePath("fixtures/scripts/frameworks/slime_opd.sh"),
                            "--gpu", "H100-80GB", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  auto json = nlohmann::json::parse(result.out);
  REQUIRE(json["files"].size() == 1);
  auto& workloads = json["files"][0]["workloads"];
  REQUIRE(workloads.size() == 3);
  for (auto& w : workloads) {
    for (const char* key : {"role", "framework", "model", "gpu", "gpus", "per_gpu", "usable",
                            "fits", "kv_cache_tokens", "max_concurrency", "assumptions"})
      CHECK(w.contains(key));
  }
  // /root/Qwen3-32B resolves by name; the teacher serves it on one H100.
  CHECK(workloads[0]["model"] == "Qwen/Qwen3-32B");
  for (const char* term : {"weights", "gradients", "optimizer", "activations", "logits",
                           "kv_cache", "overhead", "torch_allocated", "torch_reserved", "total"})
    CHECK(workloads[1]["per_gpu"].contains(term));
  CHECK(workloads[1]["usable"].get<double>() == Approx(79.646).epsilon(0.001));  // 81559 MiB
}

TEST_CASE("estimate without a script: --role --model --gpu --set", "[cli][estimate]") {
  auto result = RunGpulint({"estimate", "--role", "serve", "--model", "meta-llama/Llama-3.1-8B",
                            "--gpu", "H100-80GB", "--set", "gpu_memory_utilization=0.9",
                            "--set", "max_model_len=16000", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  auto w = nlohmann::json::parse(result.out)["files"][0]["workloads"][0];
  // 8.03e9 bf16 parameters = 14.96 GiB; vLLM's KV pool is what 0.9 x 79.65 GiB leaves.
  CHECK(w["per_gpu"]["weights"].get<double>() == Approx(14.96).epsilon(0.002));
  CHECK(w["kv_cache_tokens"].get<double>() > 300000);
  CHECK(w["fits"] == true);
}

TEST_CASE("estimate --set engine picks the serving map whose engine it is", "[cli][estimate]") {
  auto framework_of = [](const std::string& engine) {
    auto result = RunGpulint({"estimate", "--role", "serve", "--model", "Qwen/Qwen3-8B", "--gpu",
                              "H100-80GB", "--set", "engine=" + engine, "--format", "json"});
    REQUIRE(result.exit_code == 0);
    return nlohmann::json::parse(result.out)["files"][0]["workloads"][0];
  };
  CHECK(framework_of("sglang")["framework"] == "sglang");
  CHECK(framework_of("hf")["framework"] == "transformers");
  CHECK(framework_of("vllm")["framework"] == "vllm");
  // An engine gpulint has no model of is priced as vLLM, and says so.
  auto unknown = framework_of("lmdeploy");
  bool said = false;
  for (const auto& a : unknown["assumptions"])
    said = said || a.get<std::string>().find("'lmdeploy' is not modelled") != std::string::npos;
  CHECK(said);
}

TEST_CASE("set overrides a script's setting for a what-if", "[cli][estimate]") {
  auto base = RunGpulint({"estimate", SourcePath("fixtures/scripts/frameworks/verl_sft.sh"),
                          "--gpu", "H100-80GB", "--format", "json"});
  auto bigger = RunGpulint({"estimate", SourcePath("fixtures/scripts/frameworks/verl_sft.sh"),
                            "--gpu", "H100-80GB", "--set", "micro_batch=16", "--format", "json"});
  REQUIRE(base.exit_code == 0);
  REQUIRE(bigger.exit_code == 0);
  double a = nlohmann::json::parse(base.out)["files"][0]["workloads"][0]["per_gpu"]["total"];
  double b = nlohmann::json::parse(bigger.out)["files"][0]["workloads"][0]["per_gpu"]["total"];
  CHECK(b > a);
}

TEST_CASE("estimate's text shows a stacked bar and the verdict", "[cli][estimate]") {
  auto result = RunGpulint({"estimate", SourcePath("fixtures/scripts/syntax/env_prefix_and_cvd.sh"),
                            "--gpu", "A100-80GB"});
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find("[WW") != std::string::npos);
  CHECK(result.out.find("fits: margin") != std::string::npos);
  CHECK(result.out.find("KV cache:") != std::string::npos);
}

TEST_CASE("script-less estimate needs --role, --model and --gpu", "[cli][estimate]") {
  auto result = RunGpulint({"estimate", "--role", "train", "--model", "Qwen/Qwen3-8B"});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("give --role, --model and --gpu") != std::string::npos);
}

TEST_CASE("a mistyped --model, --gpu or --set is a usage error, with what was meant",
          "[cli][estimate]") {
  auto model = RunGpulint({"estimate", "--role", "train", "--model", "Qwen/Qwen3-8X", "--gpu",
                           "H100-80GB"});
  CHECK(model.exit_code == 2);
  CHECK(model.err.find("gpulint: error: --model Qwen/Qwen3-8X: unknown model 'Qwen/Qwen3-8X' "
                       "(did you mean Qwen/Qwen3-8B") == 0);
  auto gpu = RunGpulint({"estimate", "--role", "train", "--model", "Qwen/Qwen3-8B", "--gpu",
                         "H100-80B"});
  CHECK(gpu.exit_code == 2);
  CHECK(gpu.err.find("gpulint: error: --gpu H100-80B: unknown GPU 'H100-80B' (did you mean "
                     "H100-80GB") == 0);
  auto set = RunGpulint({"estimate", "--role", "train", "--model", "Qwen/Qwen3-8B", "--gpu",
                         "H100-80GB", "--set", "micro_batch=abc"});
  CHECK(set.exit_code == 2);
  CHECK(set.err.find("gpulint: error: --set micro_batch=abc: not a number") == 0);
  auto script = RunGpulint({"estimate", SourcePath("fixtures/rules/GL103/bad.sh"), "--isolated",
                            "--gpu", "NoSuchGPU"});
  CHECK(script.exit_code == 2);
  CHECK(script.err.find("gpulint: error: --gpu NoSuchGPU: unknown GPU") == 0);
}

TEST_CASE("a script-less estimate takes the defaults of the framework --framework names",
          "[cli][estimate]") {
  const std::vector<std::string> lora_on_two_gpus = {"estimate",
                                                     "--role",
                                                     "train",
                                                     "--model",
                                                     "meta-llama/Llama-2-7b-hf",
                                                     "--gpu",
                                                     "A100-40GB",
                                                     "--set",
                                                     "dtype=bf16",
                                                     "--set",
                                                     "lora_rank=8",
                                                     "--set",
                                                     "fsdp=full_shard",
                                                     "--set",
                                                     "gpus_per_node=2",
                                                     "--set",
                                                     "grad_accum=64",
                                                     "--set",
                                                     "max_seq_len=1304",
                                                     "--format",
                                                     "json"};
  auto plain = RunGpulint(lora_on_two_gpus);
  std::vector<std::string> litgpt = lora_on_two_gpus;
  litgpt.insert(litgpt.end(), {"--framework", "litgpt"});
  auto lit = RunGpulint(litgpt);
  REQUIRE(plain.exit_code == 0);
  REQUIRE(lit.exit_code == 0);
  auto gradients = [](const std::string& out) {
    return nlohmann::json::parse(out)["files"][0]["workloads"][0]["per_gpu"]["gradients"]
        .get<double>();
  };
  // LitGPT wraps LoRA inside each block's FSDP unit and accumulates in no_sync: every block
  // weight gets a whole bf16 gradient: (6.738e9 - 2 x 131.07e6 embedding and head) x 2 bytes
  // = 12.95e9 bytes = 12.06 GiB, beside the adapters' 4.2M fp32 gradients (0.016 GiB).
  CHECK(gradients(lit.out) == Approx(12.06 + 0.016).epsilon(0.005));
  CHECK(gradients(plain.out) < 0.05);  // the adapters' alone

  auto unknown = RunGpulint({"estimate", "--role", "train", "--model", "Qwen/Qwen3-8B", "--gpu",
                             "H100-80GB", "--framework", "litgtp"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("gpulint: error: --framework litgtp: no such framework map (did you "
                         "mean litgpt") == 0);
  auto launcher = RunGpulint({"estimate", "--role", "train", "--model", "Qwen/Qwen3-8B", "--gpu",
                              "H100-80GB", "--framework", "torchrun"});
  CHECK(launcher.exit_code == 2);
  CHECK(launcher.err.find("gpulint: error: --framework torchrun: a launcher, not a framework") ==
        0);
  auto with_script = RunGpulint({"estimate", SourcePath("fixtures/scripts/frameworks/verl_sft.sh"),
                                 "--gpu", "H100-80GB", "--framework", "litgpt"});
  CHECK(with_script.exit_code == 2);
  CHECK(with_script.err.find("--framework describes a workload without a script") !=
        std::string::npos);
}

TEST_CASE("a workload described on the command line is reported without a line number",
          "[cli][estimate]") {
  for (const char* format : {"text", "markdown"}) {
    INFO(format);
    auto result = RunGpulint({"estimate", "--role", "serve", "--model", "Qwen/Qwen3-8B", "--gpu",
                              "H100-80GB", "--format", format});
    REQUIRE(result.exit_code == 0);
    const bool named = result.out.find("serve (vllm)") != std::string::npos;
    CHECK(named);
    CHECK(result.out.find("line 0") == std::string::npos);
    CHECK(result.out.find("<command line>:0") == std::string::npos);
  }
}

TEST_CASE("the vLLM a repository pins decides the accounting, and gpulint.toml beats it",
          "[cli][estimate][version]") {
  gpulint::testing::TempDir dir;
  dir.Write(".git/HEAD", "ref: refs/heads/main\n");
  dir.Write("requirements.txt", "torch\nvllm==0.6.3\n");
  dir.Write("serve/run.sh", "vllm serve Qwen/Qwen3-8B --max-model-len 8192\n");
  auto assumptions = [&](const gpulint::testing::ProcessResult& result) {
    REQUIRE(result.exit_code == 0);
    auto json = nlohmann::json::parse(result.out);
    std::string all;
    for (auto& a : json["files"][0]["workloads"][0]["assumptions"])
      all += a.get<std::string>() + "\n";
    return all;
  };
  auto result = RunGpulint({"estimate", "serve/run.sh", "--gpu", "H100-80GB", "--format", "json"},
                           "", dir.path());
  std::string said = assumptions(result);
  CHECK(said.find("vllm 0.6.3 (requirements.txt:2): V0") != std::string::npos);
  auto json = nlohmann::json::parse(result.out);
  // V0's sampler: 256 sequences x 151936 x 12 bytes, not V1's 1024 x 36.
  CHECK(json["files"][0]["workloads"][0]["per_gpu"]["logits"].get<double>() ==
        Approx(256.0 * 151936 * 12 / (1 << 30)).epsilon(0.01));

  dir.Write("gpulint.toml", "[versions]\nvllm = \"0.11.0\"\n");
  said = assumptions(RunGpulint(
      {"estimate", "serve/run.sh", "--gpu", "H100-80GB", "--format", "json"}, "", dir.path()));
  CHECK(said.find("vllm 0.11.0 (") != std::string::npos);
  CHECK(said.find("[versions])") != std::string::npos);
}

TEST_CASE("estimate colours its bars by lint's rule: FORCE_COLOR, unless NO_COLOR", "[cli]") {
  auto run = [](std::vector<std::string> env) {
    std::vector<std::string> args = {"-u", "NO_COLOR", "-u", "FORCE_COLOR"};
    args.insert(args.end(), env.begin(), env.end());
    for (const char* a : {GPULINT_BINARY, "estimate", "--isolated", "fixtures/report/serve.sh"})
      args.push_back(a);
    auto result = RunProcess("/usr/bin/env", args, "", SourcePath(""));
    REQUIRE(result.exit_code == 0);
    return result.out.find("\x1b[") != std::string::npos;
  };
  CHECK_FALSE(run({}));  // not a terminal
  CHECK(run({"FORCE_COLOR=1"}));
  CHECK_FALSE(run({"FORCE_COLOR=1", "NO_COLOR=1"}));
}
