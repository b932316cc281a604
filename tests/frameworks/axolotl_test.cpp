// rules/frameworks/axolotl.toml: an axolotl YAML read as axolotl runs it (schemas at 067b021c):
// its keys, its defaults, the 16-bit dtype it loads the model in, its fused losses, and a GPU
// count that only the launch decides.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/analysis/workload_estimate.h"
#include "lint/reader/script_reader.h"
#include "tests/support/analysis_helpers.h"
#include "tests/support/reader_helpers.h"

using namespace gpulint;
using gpulint::testing::AnalyzeText;
using gpulint::testing::Dump;
using gpulint::testing::WorkloadWithRole;

namespace {

// The shape of examples/llama-3/qlora-1b.yml with the switches the map reads.
const char* kQlora =
    "base_model: NousResearch/Llama-3.2-1B\n"
    "load_in_4bit: true\n"
    "adapter: qlora\n"
    "sequence_len: 2048\n"
    "sample_packing: true\n"
    "lora_r: 16\n"
    "lora_target_linear: true\n"
    "micro_batch_size: 2\n"
    "gradient_accumulation_steps: 4\n"
    "bf16: auto\n"
    "gradient_checkpointing: offload\n"
    "plugins:\n"
    "  - axolotl.integrations.liger.LigerPlugin\n"
    "  - axolotl.integrations.cut_cross_entropy.CutCrossEntropyPlugin\n";

const Workload& Train(const gpulint::testing::Analyzed& analyzed) {
  return analyzed.analysis.read.config.workloads[WorkloadWithRole(analyzed.analysis, "train")];
}

}  // namespace

TEST_CASE("an axolotl YAML is axolotl's: QLoRA, packing, 16-bit weights and a fused loss",
          "[frameworks]") {
  auto analyzed = AnalyzeText(kQlora, "qlora.yml");
  const Workload& train = Train(*analyzed);
  CHECK(train.framework == "axolotl");
  CHECK(Dump(train, {"model", "quant", "finetuning_type", "lora_rank", "lora_targets"}) ==
        "model=NousResearch/Llama-3.2-1B@1:13(c) quant=nf4-dq@2:15(c) "
        "finetuning_type=lora@3:10(c) lora_rank=16@6:9(c) lora_targets=all-linear@7:21(c)");
  CHECK(Dump(train, {"max_seq_len", "packing", "micro_batch", "grad_accum"}) ==
        "max_seq_len=2048@4:15(c) packing=true@5:17(c) micro_batch=2@8:19(c) "
        "grad_accum=4@9:30(c)");
  // bf16: auto loads the model in bf16; "offload" still checkpoints; the CCE plugin, listed
  // second, still fuses the loss.
  CHECK(Dump(train, {"dtype", "model_dtype", "grad_ckpt", "fused_ce"}) ==
        "dtype=amp-bf16@10:7(c) model_dtype=bfloat16(d) grad_ckpt=true@11:25(c) "
        "fused_ce=true@13:3(c)");  // the list's span starts at its first member
}

TEST_CASE("axolotl's defaults where the YAML is silent", "[frameworks]") {
  auto analyzed = AnalyzeText("base_model: Qwen/Qwen2.5-0.5B\nmicro_batch_size: 1\n", "cfg.yaml");
  const Workload& train = Train(*analyzed);
  CHECK(Dump(train, {"max_seq_len", "finetuning_type", "grad_ckpt", "optimizer", "dtype"}) ==
        "max_seq_len=512(d) finetuning_type=full(d) grad_ckpt=false(d) "
        "optimizer=adamw_torch_fused(d) dtype=amp-bf16(d)");
  CHECK_FALSE(train.Find("fused_ce"));  // no plugin, no fused loss
  // bf16 false without fp16 loads fp32 weights: no 16-bit model.
  auto fp32 = AnalyzeText(
      "base_model: Qwen/Qwen2.5-0.5B\nsequence_len: 1024\nbf16: false\n", "fp32.yaml");
  CHECK(Dump(Train(*fp32), {"dtype", "model_dtype"}) == "dtype=fp32@3:7(c) model_dtype=?");
}

TEST_CASE("an axolotl full fine-tune in bf16 keeps no fp32 master weights", "[frameworks]") {
  const std::string full =
      "# gpulint: gpu=H100-80GB\n"
      "base_model: Qwen/Qwen2.5-0.5B\nsequence_len: 1024\nmicro_batch_size: 1\n";
  auto analyzed = AnalyzeText(full, "full.yaml");
  const WorkloadEstimate& e = analyzed->analysis.estimates[0];
  REQUIRE(e.breakdown);
  // The model is loaded in bf16 (2 bytes a parameter), and AdamW keeps its two moments in the
  // parameters' dtype: 4 bytes a parameter, twice the weights. With fp32 master weights the
  // moments alone would be 8 bytes a parameter.
  CHECK(e.breakdown->optimizer == Approx(2 * e.breakdown->weights).epsilon(0.02));
  auto fp32 = AnalyzeText(full + "bf16: false\n", "fp32.yaml");
  REQUIRE(fp32->analysis.estimates[0].breakdown);
  CHECK(fp32->analysis.estimates[0].breakdown->weights ==
        Approx(2 * e.breakdown->weights).epsilon(0.02));
}

TEST_CASE("an axolotl config runs on every visible GPU: FSDP with no count is left open",
          "[frameworks]") {
  auto analyzed = AnalyzeText(
      "# gpulint: gpu=H100-80GB\n"
      "base_model: Qwen/Qwen2.5-7B\nsequence_len: 2048\nmicro_batch_size: 1\n"
      "fsdp_version: 2\nfsdp_config:\n  offload_params: false\n  reshard_after_forward: true\n",
      "fsdp.yaml");
  const Workload& train = Train(*analyzed);
  CHECK(train.gpus == 0);  // `axolotl train` runs accelerate over every visible GPU
  CHECK(Dump(train, {"fsdp"}) == "fsdp=full_shard@8:26(c)");
  const WorkloadEstimate& e = analyzed->analysis.estimates[0];
  CHECK(std::find(e.unknown_inputs.begin(), e.unknown_inputs.end(), "gpus") !=
        e.unknown_inputs.end());
}

TEST_CASE("axolotl's preference and RL trainers are named, not priced as SFT", "[frameworks]") {
  auto analyzed = AnalyzeText(
      "# gpulint: gpu=H100-80GB\n"
      "base_model: Qwen/Qwen2.5-0.5B\nsequence_len: 1024\nrl: dpo\nadapter: lora\nlora_r: 8\n",
      "dpo.yaml");
  const WorkloadEstimate& e = analyzed->analysis.estimates[0];
  CHECK_FALSE(e.breakdown);
  CHECK(e.skipped.find("preference and RL trainers") != std::string::npos);
}

// axolotl opens `deepspeed: deepspeed_configs/zero2.json` from the folder it runs in (the
// repository's root), however deep the YAML lies (examples/mistral/mixtral/mixtral.yml).
TEST_CASE("a config's DeepSpeed path is found from the folder gpulint runs in", "[frameworks]") {
  ReadOptions options;
  std::vector<std::string> asked;
  options.read_file = [&asked](const std::string& path, std::string* text) {
    asked.push_back(path);
    if (path != "deepspeed_configs/zero2.json") return false;
    *text = "{\"zero_optimization\": {\"stage\": 2}}";
    return true;
  };
  SourceMap sources;
  ReadResult read = ReadScript(
      "examples/mistral/mixtral/mixtral.yml",
      "base_model: Qwen/Qwen2.5-0.5B\nsequence_len: 1024\ndeepspeed: deepspeed_configs/zero2.json\n",
      gpulint::testing::TestMaps(), options, &sources);
  const Workload* train = gpulint::testing::Role(read.config, "train");
  REQUIRE(train);
  INFO("paths tried: " << fmt::format("{}", fmt::join(asked, ", ")));
  CHECK(Dump(*train, {"zero_stage"}) == "zero_stage=2@1:33(c)");
}

// deepspeed_configs/zero2.json writes "auto" for its batch keys: the trainer fills them in
// (transformers integrations/deepspeed.py:120-122), so the YAML's own values stand.
TEST_CASE("a DeepSpeed config's \"auto\" batch keys leave the YAML's values", "[frameworks]") {
  ReadOptions options;
  options.read_file = [](const std::string& path, std::string* text) {
    if (path != "deepspeed_configs/zero2.json") return false;
    *text = "{\"zero_optimization\": {\"stage\": 2}, \"train_micro_batch_size_per_gpu\": "
            "\"auto\", \"gradient_accumulation_steps\": \"auto\", \"train_batch_size\": "
            "\"auto\"}";
    return true;
  };
  SourceMap sources;
  ReadResult read = ReadScript("examples/mistral/mixtral/mixtral.yml",
                               "base_model: Qwen/Qwen2.5-0.5B\nsequence_len: 1024\n"
                               "micro_batch_size: 1\ngradient_accumulation_steps: 2\n"
                               "deepspeed: deepspeed_configs/zero2.json\n",
                               gpulint::testing::TestMaps(), options, &sources);
  const Workload* train = gpulint::testing::Role(read.config, "train");
  REQUIRE(train);
  CHECK(train->Number("micro_batch") == 1);
  CHECK(train->Number("grad_accum") == 2);
  CHECK_FALSE(train->Find("global_batch"));
  CHECK(train->Number("zero_stage") == 2);
}

TEST_CASE("the axolotl command turns expandable segments on unless the script names a config",
          "[frameworks][allocator]") {
  struct Row {
    std::string script;
    std::string expected;
  };
  const Row rows[] = {
      // src/axolotl/cli/main.py:48 sets PYTORCH_ALLOC_CONF before any subcommand runs.
      {"axolotl train cfg.yml\n", "expandable_segments=true(d)"},
      // The module, as older scripts launch it, does not pass through that group.
      {"accelerate launch -m axolotl.cli.train cfg.yml\n", "expandable_segments=false(d)"},
      // A config the script sets is left alone, and without the option it is PyTorch's off.
      {"PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128 axolotl train cfg.yml\n",
       "expandable_segments=false@1:25(l)"},
      {"PYTORCH_ALLOC_CONF=expandable_segments:False axolotl train cfg.yml\n",
       "expandable_segments=false@1:20(l)"},
  };
  for (const Row& row : rows) {
    INFO(row.script);
    SourceMap sources;
    ReadResult read = gpulint::testing::ReadText(row.script, &sources);
    const Workload* train = gpulint::testing::Role(read.config, "train");
    REQUIRE(train);
    CHECK(train->framework == "axolotl");
    CHECK(Dump(*train, {"expandable_segments"}) == row.expected);
  }
  // A YAML linted on its own is read as `axolotl train FILE`.
  auto analyzed = AnalyzeText(kQlora, "qlora.yml");
  CHECK(Dump(Train(*analyzed), {"expandable_segments"}) == "expandable_segments=true(d)");
}

TEST_CASE("axolotl's LoRA kernels: on for LoRA unless the config chooses, 8-bit LoRA or FSDP",
          "[frameworks]") {
  // config.py:1901-1995 check_auto_enable_lora_kernels at 067b021c.
  auto qlora = AnalyzeText(kQlora, "qlora.yml");
  CHECK(Dump(Train(*qlora), {"lora_fused_qkv", "lora_fused_o", "lora_fused_mlp"}) ==
        "lora_fused_qkv=true(d) lora_fused_o=true(d) lora_fused_mlp=true(d)");
  // Naming one kernel keeps the config's own choice: the others stay off.
  auto mlp_only = AnalyzeText(std::string(kQlora) + "lora_mlp_kernel: true\n", "mlp.yml");
  CHECK(Dump(Train(*mlp_only), {"lora_fused_qkv", "lora_fused_o", "lora_fused_mlp"}) ==
        "lora_fused_qkv=? lora_fused_o=? lora_fused_mlp=true@15:18(c)");
  // 8-bit LoRA, remote code and FSDP keep PEFT's path.
  for (const char* extra : {"load_in_8bit: true\nload_in_4bit: false\nadapter: lora\n",
                            "trust_remote_code: true\n", "fsdp_version: 2\n"}) {
    std::string text = std::string(kQlora);
    if (std::string(extra).find("adapter") != std::string::npos) {
      text.replace(text.find("load_in_4bit: true\n"), 19, "");
      text.replace(text.find("adapter: qlora\n"), 15, "");
    }
    auto analyzed = AnalyzeText(text + extra, "other.yml");
    INFO(extra);
    CHECK(Dump(Train(*analyzed), {"lora_fused_mlp"}) == "lora_fused_mlp=false(d)");
  }
  // A full fine-tune has no adapters to fuse.
  auto full = AnalyzeText("base_model: NousResearch/Llama-3.2-1B\nsequence_len: 2048\n", "f.yml");
  CHECK(Dump(Train(*full), {"lora_fused_mlp"}) == "lora_fused_mlp=?");
}

TEST_CASE("axolotl's quantize_moe_experts prices 3D experts in the base's 4-bit format",
          "[frameworks]") {
  // The shape of examples/glm45/glm-45-air-qlora.yaml: GLM-4.5-Air's experts, quantized on load
  // (README: '# QLoRA (1x80GB @ ~63.4GiB/GPU)'; bench/corpus scores the file itself).
  const std::string qlora =
      "# gpulint: gpu=A100-80GB\nbase_model: zai-org/GLM-4.5-Air\nload_in_4bit: true\n"
      "adapter: qlora\nsequence_len: 2048\nmicro_batch_size: 1\ngradient_checkpointing: true\n"
      "lora_target_modules: [q_proj, k_proj, v_proj, o_proj]\n";
  auto patched = AnalyzeText(qlora + "quantize_moe_experts: true\n", "qlora.yml");
  const Workload& train = Train(*patched);
  CHECK(Dump(train, {"experts_quantized"}) == "experts_quantized=true@9:23(c)");
  auto plain = AnalyzeText(qlora, "qlora.yml");
  const WorkloadEstimate& e =
      patched->analysis.estimates[WorkloadWithRole(patched->analysis, "train")];
  const WorkloadEstimate& p = plain->analysis.estimates[WorkloadWithRole(plain->analysis, "train")];
  REQUIRE(e.breakdown);
  REQUIRE(p.breakdown);
  // GLM-4.5-Air's experts are nn.Linear modules to gpulint's catalog (glm4_moe is not
  // fused_experts), so bitsandbytes already stores them in 4 bits; the patch adds one layer's
  // 128 experts dequantized to 16 bits while it runs: 2 x 128 x 3 x 1408 x 4096 bytes, at most.
  CHECK(e.breakdown->weights == Approx(p.breakdown->weights));
  const double dequantized_layer = 2.0 * 128 * 3 * 1408 * 4096;
  CHECK(e.breakdown->torch_allocated > p.breakdown->torch_allocated);
  CHECK(e.breakdown->torch_allocated <= p.breakdown->torch_allocated + dequantized_layer);
}

TEST_CASE("LoRA targets named gate/up/down miss experts whose modules are w1/w2/w3",
          "[frameworks]") {
  // examples/kimi-linear/kimi-48b-lora.yaml's targets: Kimi Linear's routed experts are
  // KimiBlockSparseMLP's w1, w2, w3 (axolotl-ai-cloud/axolotl@067b021c
  // src/axolotl/model_support/kimi_linear/modeling_kimi.py 237-239), so PEFT adapts the dense
  // and shared MLPs only; all-linear, or a target naming w1, reaches the 256 experts too.
  const std::string base =
      "# gpulint: gpu=H200-141GB\nbase_model: moonshotai/Kimi-Linear-48B-A3B-Instruct\n"
      "load_in_8bit: true\nadapter: lora\nlora_r: 16\nsequence_len: 2048\nmicro_batch_size: 2\n"
      "gradient_checkpointing: true\n";
  auto optimizer = [&](const std::string& targets) {
    auto analyzed = AnalyzeText(base + targets, "kimi.yml");
    const WorkloadEstimate& e =
        analyzed->analysis.estimates[WorkloadWithRole(analyzed->analysis, "train")];
    REQUIRE(e.breakdown);
    return e.breakdown->optimizer;
  };
  const double named = optimizer(
      "lora_target_modules: [gate_proj, down_proj, up_proj, q_proj, v_proj, k_proj, o_proj]\n");
  const double all = optimizer("lora_target_linear: true\n");
  const double experts = optimizer("lora_target_modules: [w1, w2, w3]\n");
  // Rank 16 on 26 MoE layers' 256 experts (3 x 16 x (2304 + 1024) each) is 1.06B adapter
  // parameters, with AdamW's two fp32 moments 8 bytes each: far above the named list's.
  const double expert_adapters = 26.0 * 256 * 3 * 16 * (2304 + 1024);
  CHECK(all - named > 8 * expert_adapters * 0.99);
  CHECK(experts - named > 8 * expert_adapters * 0.99);
}
