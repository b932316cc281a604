// rules/frameworks/ms-swift*.toml: `swift sft` as ms-swift 4.6 runs it (3602360a): its own
// defaults over the HF Trainer's, the GPUs its launcher uses (NPROC_PER_NODE, or one process
// spread over every visible GPU), its DeepSpeed presets, and its quantization flags.
#include <catch2/catch.hpp>

#include "lint/analysis/workload_estimate.h"
#include "tests/support/analysis_helpers.h"
#include "tests/support/lint_helpers.h"
#include "tests/support/process.h"
#include "tests/support/reader_helpers.h"

using namespace gpulint;
using gpulint::testing::AnalyzeText;
using gpulint::testing::Dump;
using gpulint::testing::ReadText;
using gpulint::testing::Role;

namespace {

// examples/train/lora_sft.sh at 3602360a, trimmed to the flags that matter.
const char* kLora =
    "swift sft \\\n"
    "    --model Qwen/Qwen2.5-7B-Instruct \\\n"
    "    --tuner_type lora \\\n"
    "    --torch_dtype bfloat16 \\\n"
    "    --per_device_train_batch_size 1 \\\n"
    "    --target_modules all-linear \\\n"
    "    --max_length 2048";

const Workload& Train(const std::string& text, SourceMap* sources, ReadResult* read) {
  *read = ReadText(text + "\n", sources);
  const Workload* train = Role(read->config, "train");
  REQUIRE(train);
  return *train;
}

// The train workload's estimate of a script on an A100-80GB.
WorkloadEstimate TrainOnA100(const std::string& script) {
  auto analyzed = AnalyzeText("# gpulint: gpu=A100-80GB\n" + script + "\n");
  return analyzed->analysis
      .estimates[gpulint::testing::WorkloadWithRole(analyzed->analysis, "train")];
}
constexpr double kA100Bytes = 80.0 * (1ull << 30);

}  // namespace

TEST_CASE("swift sft: ms-swift's own defaults, and the dtype the model loads in",
          "[frameworks]") {
  SourceMap sources;
  ReadResult read;
  const Workload& train = Train(std::string("CUDA_VISIBLE_DEVICES=0 \\\n") + kLora, &sources, &read);
  CHECK(train.framework == "ms-swift");
  CHECK(train.gpus == 1);
  CHECK(Dump(train, {"finetuning_type", "model_dtype", "lora_targets", "max_seq_len"}) ==
        "finetuning_type=lora@4:18(l) model_dtype=bfloat16@5:19(l) "
        "lora_targets=all-linear@7:22(l) max_seq_len=2048@8:18(l)");
  // Gradient checkpointing on and rank 8 (trainers/arguments.py:134, tuner_args.py:133).
  CHECK(Dump(train, {"grad_ckpt", "lora_rank", "lora_dropout", "dtype"}) ==
        "grad_ckpt=true(d) lora_rank=8(d) lora_dropout=0.05(d) dtype=amp-bf16(d)");
  // Unset, the dtype is the checkpoint's own; the tuner is LoRA.
  ReadResult bare;
  const Workload& plain = Train("swift sft --model Qwen/Qwen2.5-7B-Instruct", &sources, &bare);
  CHECK(Dump(plain, {"finetuning_type", "model_dtype"}) ==
        "finetuning_type=lora(d) model_dtype=checkpoint(d)");
}

TEST_CASE("swift sft: NPROC_PER_NODE processes, else one process over every visible GPU",
          "[frameworks]") {
  SourceMap sources;
  ReadResult read;
  const Workload& ddp =
      Train(std::string("CUDA_VISIBLE_DEVICES=0,1 NPROC_PER_NODE=2 ") + kLora, &sources, &read);
  CHECK(ddp.gpus == 2);
  CHECK_FALSE(ddp.Find("device_map"));
  ReadResult two;
  const Workload& two_nodes =
      Train(std::string("NNODES=2 NPROC_PER_NODE=4 ") + kLora, &sources, &two);
  CHECK(two_nodes.gpus == 8);

  // No NPROC_PER_NODE: device_map spreads the model over both GPUs, which is not priced as
  // two replicas (a 72B LoRA over 2 x 80 GB would read as 144 GB per GPU).
  auto split = AnalyzeText(std::string("# gpulint: gpu=A100-80GB\nCUDA_VISIBLE_DEVICES=0,1 \\\n") +
                           kLora + "\n");
  const FileAnalysis& analysis = split->analysis;
  const size_t index = gpulint::testing::WorkloadWithRole(analysis, "train");
  CHECK(analysis.read.config.workloads[index].gpus == 2);
  CHECK(Dump(analysis.read.config.workloads[index], {"device_map"}) == "device_map=auto(d)");
  CHECK_FALSE(analysis.estimates[index].breakdown);
  CHECK(analysis.estimates[index].skipped.find("device_map") != std::string::npos);
}

TEST_CASE("swift/cli/sft.py under a launcher: the launcher's processes, one GPU each",
          "[frameworks]") {
  SourceMap sources;
  ReadResult read;
  const Workload& train = Train(
      "accelerate launch --num_processes 8 swift/cli/sft.py --model Qwen/Qwen2.5-7B-Instruct "
      "--tuner_type lora",
      &sources, &read);
  CHECK(train.framework == "ms-swift-script");
  CHECK(train.gpus == 8);
  CHECK_FALSE(train.Find("device_map"));
  CHECK(Dump(train, {"grad_ckpt", "lora_rank"}) == "grad_ckpt=true(d) lora_rank=8(d)");
}

TEST_CASE("swift sft: DeepSpeed presets by name, and quant_bits alone quantizes nothing",
          "[frameworks]") {
  SourceMap sources;
  ReadResult read;
  const Workload& zero3 =
      Train(std::string(kLora) + " --deepspeed zero3_offload", &sources, &read);
  CHECK(Dump(zero3, {"zero_stage"}).rfind("zero_stage=3@", 0) == 0);
  const Setting* offload = zero3.Find("offload");
  REQUIRE(offload);
  CHECK(offload->value.ToString().find("optimizer") != std::string::npos);
  CHECK(offload->value.ToString().find("params") != std::string::npos);

  ReadResult bits_only;
  CHECK_FALSE(Train(std::string(kLora) + " --quant_bits 4", &sources, &bits_only).Find("quant"));
  ReadResult bnb;
  CHECK(Dump(Train(std::string(kLora) + " --quant_method bnb --quant_bits 4", &sources, &bnb),
             {"quant"})
            .rfind("quant=nf4-dq@", 0) == 0);
  ReadResult adalora;
  const Workload& other = Train(
      "swift sft --model Qwen/Qwen2.5-7B-Instruct --tuner_type adalora", &sources, &adalora);
  REQUIRE(other.String("unmodelled"));
  CHECK(other.String("unmodelled")->find("AdaLoRA") != std::string::npos);
}

TEST_CASE("GL207 accepts ms-swift's processes spread over several GPUs each, when they divide",
          "[frameworks][rules]") {
  gpulint::testing::TempDir dir;
  auto lint = [&dir](const std::string& name, const std::string& prefix) {
    std::string path = dir.Write(name, "# gpulint: gpu=A100-80GB\n" + prefix + kLora + "\n");
    return gpulint::testing::RunGpulint({"lint", "--isolated", "--select", "GL207", path});
  };
  // 4 visible GPUs, 2 processes: 2 GPUs each (swift/utils/env.py:70-72).
  auto spread = lint("spread.sh", "CUDA_VISIBLE_DEVICES=0,1,2,3 NPROC_PER_NODE=2 ");
  CHECK(spread.exit_code == 0);
  // 3 processes cannot share 4 GPUs evenly: ms-swift asserts, and GL207 says so.
  auto uneven = lint("uneven.sh", "CUDA_VISIBLE_DEVICES=0,1,2,3 NPROC_PER_NODE=3 ");
  CHECK(uneven.exit_code == 1);
  CHECK(uneven.out.find("GL207") != std::string::npos);
}

// rules/frameworks/ms-swift-2.toml: the 2.x command line (v2.6.1), told apart from 4.x by the
// flags 3.0 renamed. The command of ms-swift issue #3422 (8 x V100, CUDA out of memory).
TEST_CASE("swift sft with 2.x flags is ms-swift 2.x: --sft_type, --batch_size, its presets",
          "[frameworks]") {
  const std::string issue_3422 =
      "NPROC_PER_NODE=8 swift sft \\\n"
      "  --model_id_or_path Qwen/Qwen2.5-7B --sft_type lora --lora_rank 16 \\\n"
      "  --deepspeed default-zero2 --use_flash_attn false \\\n"
      "  --max_length 10000 --gradient_accumulation_steps 16";
  SourceMap sources;
  ReadResult read;
  const Workload& train = Train(issue_3422, &sources, &read);
  CHECK(train.framework == "ms-swift-2");
  CHECK(train.gpus == 8);
  CHECK(Dump(train, {"model", "finetuning_type", "lora_rank", "attn_impl", "max_seq_len"}) ==
        "model=Qwen/Qwen2.5-7B@2:22(l) finetuning_type=lora@2:49(l) lora_rank=16@2:66(l) "
        "attn_impl=eager@3:46(l) max_seq_len=10000@4:16(l)");
  // 2.x's preset names (argument.py:963-972), and its defaults: batch 1, checkpointing on,
  // 16-bit autocast that is fp16 on a GPU without bf16 (so no bf16 warning on a V100).
  CHECK(Dump(train, {"zero_stage"}).rfind("zero_stage=2@", 0) == 0);
  CHECK(Dump(train, {"micro_batch", "grad_ckpt", "dtype"}) ==
        "micro_batch=1(d) grad_ckpt=true(d) dtype=amp-16(d)");

  // The same words with 4.x flags stay ms-swift 4.x.
  ReadResult modern;
  CHECK(Train(kLora, &sources, &modern).framework == "ms-swift");
  // --batch_size alone marks 2.x too; --model_type alone does not (3.x and 4.x have it).
  ReadResult batch;
  CHECK(Train("swift sft --model_type qwen2_5-7b --batch_size 2", &sources, &batch).framework ==
        "ms-swift-2");
  ReadResult model_type;
  CHECK(Train("swift sft --model_type qwen2_5 --model Qwen/Qwen2.5-7B", &sources, &model_type)
            .framework == "ms-swift");
}

TEST_CASE("ms-swift issue #3422: 10,000 tokens of eager attention on a V100 do not fit",
          "[frameworks][rules]") {
  gpulint::testing::TempDir dir;
  std::string path = dir.Write(
      "issue_3422.sh",
      "# gpulint: gpu=V100-32GB\n"
      "NPROC_PER_NODE=8 swift sft --model_id_or_path Qwen/Qwen2.5-7B --sft_type lora "
      "--deepspeed default-zero2 --use_flash_attn false --max_length 10000\n");
  auto lint = gpulint::testing::RunGpulint({"lint", "--isolated", path});
  CHECK(lint.exit_code == 1);
  CHECK(lint.out.find("GL101") != std::string::npos);
  // fp16 on a V100, as 2.x's dtype AUTO picks: no bf16 warning.
  CHECK(lint.out.find("GL112") == std::string::npos);
}

TEST_CASE("ms-swift 2.x's --max_length -1 sets no limit: the data's length, not a bad value",
          "[frameworks]") {
  // swift/llm/utils/argument.py:661 at v2.6.1: `max_length: int = 2048  # -1: no limit`.
  gpulint::testing::TempDir dir;
  const std::string head =
      "# gpulint: gpu=A100-80GB\nCUDA_VISIBLE_DEVICES=0 swift sft --model_id_or_path "
      "Qwen/Qwen2.5-7B --sft_type lora --batch_size 32 --max_length ";
  auto unlimited = gpulint::testing::RunGpulint(
      {"estimate", "--isolated", dir.Write("a.sh", head + "-1\n")});
  CHECK(unlimited.out.find("max_seq_len without a limit ('-1' sets no limit)") !=
        std::string::npos);
  auto lint = gpulint::testing::RunGpulint({"lint", "--isolated", dir.Write("a.sh", head + "-1\n")});
  CHECK(lint.out.find("GL006") == std::string::npos);
  // LoRA on 32 sequences: out of memory at 2048 tokens, but with no limit the data's length
  // decides (GL008 says up to which length it fits), so no error is claimed.
  CHECK(lint.out.find("GL101") == std::string::npos);
  CHECK(lint.out.find("GL008") != std::string::npos);
  CHECK(lint.out.find("the sequence length has no limit, so the data decides") !=
        std::string::npos);
  auto capped =
      gpulint::testing::RunGpulint({"lint", "--isolated", dir.Write("b.sh", head + "2048\n")});
  CHECK(capped.out.find("GL101") != std::string::npos);
  // Another negative length is still a bad value.
  auto bad = gpulint::testing::RunGpulint({"lint", "--isolated", dir.Write("c.sh", head + "-2\n")});
  CHECK(bad.out.find("GL006") != std::string::npos);
}

TEST_CASE("swift sft --use_liger_kernel: the HF Trainer's Liger with its defaults",
          "[frameworks]") {
  SourceMap sources;
  ReadResult read;
  const Workload& train =
      Train(std::string(kLora) + " \\\n    --use_liger_kernel true", &sources, &read);
  CHECK(Dump(train, {"liger", "fused_ce", "liger_rms_norm", "liger_glu"}) ==
        "liger=true@8:24(l) fused_ce=true(d) liger_rms_norm=true(d) liger_glu=true(d)");
  ReadResult off;
  const Workload& plain = Train(kLora, &sources, &off);
  CHECK_FALSE(plain.Find("fused_ce"));
  CHECK_FALSE(plain.Find("liger_glu"));
}

TEST_CASE("ms-swift's 512K QwQ-32B example (8 x 80 GiB measured) is no out-of-memory error",
          "[frameworks]") {
  // examples/train/sequence_parallel/sequence_parallel_512k.sh at 3602360a, trimmed: LoRA under
  // zero3_offload, so DeepSpeed holds the adapters in bf16, and Liger's kernels. Its header
  // says it ran on 8 A100s using the cards' 80 GiB; the estimate's range holds that.
  const WorkloadEstimate e = TrainOnA100(
      "NPROC_PER_NODE=8 CELOSS_PARALLEL_SIZE=2048 swift sft --model Qwen/QwQ-32B "
      "--tuner_type lora --torch_dtype bfloat16 --per_device_train_batch_size 1 --packing true "
      "--max_length 512000 --use_liger_kernel true --deepspeed zero3_offload "
      "--attn_impl flash_attn --sequence_parallel_size 8");
  REQUIRE(e.breakdown);
  CHECK(e.breakdown->total_low < kA100Bytes);
  CHECK(e.breakdown->total_high > kA100Bytes);
}

TEST_CASE("swift rlhf: DPO pairs each example, a reference beside a full fine-tune only",
          "[frameworks]") {
  // examples/train/rlhf/dpo/{lora,full}.sh at 3602360a, trimmed.
  const std::string dpo =
      "swift rlhf --rlhf_type dpo --model Qwen/Qwen2.5-7B-Instruct --max_length 2048";
  SourceMap sources;
  ReadResult lora_read;
  const Workload& lora = Train(dpo + " --tuner_type lora", &sources, &lora_read);
  CHECK(lora.framework == "ms-swift-rlhf");
  CHECK(Dump(lora, {"stage", "sequences_per_example", "loss_path", "finetuning_type"}) ==
        "stage=dpo@1:24(l) sequences_per_example=2(d) loss_path=scaled-gather(d) "
        "finetuning_type=lora@1:92(l)");
  CHECK_FALSE(Role(lora_read.config, "reference"));  // the adapters are switched off instead
  ReadResult full_read;
  Train(dpo + " --tuner_type full", &sources, &full_read);
  const Workload* reference = Role(full_read.config, "reference");
  REQUIRE(reference);
  CHECK(reference->shares_process_gpus);
  CHECK(Dump(*reference, {"model"}) == "model=Qwen/Qwen2.5-7B-Instruct@1:36(l)");
  // rlhf_type defaults to dpo (rlhf_args.py:232); SimPO, CPO and ORPO are paired without one.
  ReadResult bare;
  CHECK(Dump(Train("swift rlhf --model Qwen/Qwen2.5-7B-Instruct --tuner_type full", &sources,
                   &bare),
             {"stage"}) == "stage=dpo(d)");
  CHECK(Role(bare.config, "reference"));
  ReadResult simpo;
  const Workload& simpo_train = Train(
      "swift rlhf --rlhf_type simpo --model Qwen/Qwen2.5-3B-Instruct --tuner_type full", &sources,
      &simpo);
  CHECK(Dump(simpo_train, {"sequences_per_example"}) == "sequences_per_example=2(d)");
  CHECK(Dump(simpo_train, {"loss_path"}).find("scaled-gather") == std::string::npos);
  CHECK_FALSE(Role(simpo.config, "reference"));
  // The trainers that generate, score or distil are named, not priced.
  for (const char* type : {"grpo", "ppo", "gkd", "kto", "rm"}) {
    ReadResult other;
    INFO(type);
    const Workload& train = Train(std::string("swift rlhf --rlhf_type ") + type +
                                      " --model Qwen/Qwen2.5-7B-Instruct",
                                  &sources, &other);
    CHECK(train.Find("unmodelled"));
  }
}

TEST_CASE("swift rlhf: the official DPO example that ran is left to its data, not refused",
          "[frameworks]") {
  // examples/train/rlhf/dpo/full.sh at 3602360a ('# with padding_free: 4 * 47GiB'): micro-batch 4
  // of pairs at max_length 8192 without padding. The cap alone would not fit; the data decides.
  const WorkloadEstimate e = TrainOnA100(
      "NPROC_PER_NODE=4 CUDA_VISIBLE_DEVICES=0,1,2,3 swift rlhf --rlhf_type dpo "
      "--model Qwen/Qwen2.5-7B-Instruct --tuner_type full --torch_dtype bfloat16 "
      "--per_device_train_batch_size 4 --max_length 8192 --deepspeed zero3 --attn_impl "
      "flash_attn --padding_free true");
  REQUIRE(e.breakdown);
  CHECK(e.breakdown->total_high > kA100Bytes);
  CHECK(e.undecided.find("sequences are not padded") != std::string::npos);
}

TEST_CASE("swift sft without --gradient_accumulation_steps accumulates toward 16, rounded up",
          "[frameworks]") {
  // swift/trainers/arguments.py:283-285 at 3602360a: max(1, ceil(16 / micro / world_size)).
  const std::string full =
      "swift sft --model Qwen/Qwen2.5-0.5B-Instruct --tuner_type full --max_length 2048";
  auto accumulation = [](const WorkloadEstimate& e) {
    for (const std::string& a : e.assumptions)
      if (a.rfind("grad_accum not set: ", 0) == 0) return a.substr(20, a.find(" assumed") - 20);
    return std::string("none");
  };
  const WorkloadEstimate one = TrainOnA100("CUDA_VISIBLE_DEVICES=0 " + full);
  CHECK(accumulation(one) == "16");
  // 16 / 3 / 2 = 2.67: ms-swift takes 3 steps where a product the framework asserts takes 2.
  const WorkloadEstimate six = TrainOnA100("NPROC_PER_NODE=2 CUDA_VISIBLE_DEVICES=0,1 " + full +
                                           " --per_device_train_batch_size 3");
  CHECK(accumulation(six) == "3");
  // A micro-batch of 16 is the whole batch: nothing to accumulate, nothing assumed.
  const WorkloadEstimate whole =
      TrainOnA100("CUDA_VISIBLE_DEVICES=0 " + full + " --per_device_train_batch_size 16");
  CHECK(accumulation(whole) == "none");
  // Accumulating keeps a whole model's gradients between micro-batches on the one GPU: the
  // default costs what --gradient_accumulation_steps 1 does not.
  const WorkloadEstimate written =
      TrainOnA100("CUDA_VISIBLE_DEVICES=0 " + full + " --gradient_accumulation_steps 1");
  REQUIRE(one.breakdown);
  REQUIRE(written.breakdown);
  CHECK(accumulation(written) == "none");
  CHECK(one.breakdown->total > written.breakdown->total);
}

TEST_CASE("swift rlhf --rlhf_type grpo: a colocated vLLM engine beside the trainer, priced",
          "[frameworks]") {
  // ms-swift issue #4594's shape: 8 x A100, vLLM colocated at its default 0.9
  // (swift/rlhf_trainers/args_mixin.py:37) beside a ZeRO-3 LoRA trainer: out of memory.
  const std::string grpo =
      "NPROC_PER_NODE=8 CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 swift rlhf --rlhf_type grpo "
      "--model Qwen/Qwen3-1.7B --tuner_type lora --torch_dtype bfloat16 --max_length 2048 "
      "--max_completion_length 1024 --per_device_train_batch_size 8 --num_generations 8 "
      "--deepspeed zero3";
  SourceMap sources;
  ReadResult read;
  const Workload& train = Train(grpo + " --use_vllm true --vllm_mode colocate", &sources, &read);
  CHECK(train.framework == "ms-swift-grpo");
  const Workload* rollout = Role(read.config, "rollout");
  REQUIRE(rollout);
  CHECK(Dump(*rollout, {"gpu_memory_utilization", "engine_sleeps", "colocate"}) ==
        "gpu_memory_utilization=0.9(d) engine_sleeps=false(d) colocate=true(d)");
  // --max_length caps the prompt; the completion comes on top of it.
  CHECK(Dump(train, {"max_prompt_len", "max_response_len", "n_samples"}) ==
        "max_prompt_len=2048@1:161(l) max_response_len=1024@1:190(l) n_samples=8@1:245(l)");
  // LoRA: no reference copy (the adapters are switched off instead).
  CHECK_FALSE(Role(read.config, "reference"));
  auto rules = [](const std::string& script) {
    return gpulint::testing::RulesOfScript("# gpulint: gpu=A100-80GB\n" + script);
  };
  using gpulint::testing::HasRule;
  const std::vector<std::string> colocated = rules(grpo + " --use_vllm true --vllm_mode colocate");
  CHECK(HasRule(colocated, "GL104"));
  // What the trainer alone would leave unused, or could hold without offload, is not its to
  // say when an engine shares its GPUs (GL103, GL108 are silent there).
  CHECK_FALSE(HasRule(colocated, "GL103"));
  // An engine asleep through the update leaves the trainer the GPU: there it is the trainer's.
  CHECK(HasRule(rules(grpo + " --use_vllm true --vllm_mode colocate --sleep_level 1"), "GL103"));
  CHECK_FALSE(HasRule(rules(grpo + "_offload --use_vllm true --vllm_mode colocate"), "GL108"));
  // The engine asleep through the update and the trainer's state off the GPU while it
  // generates (sleep_level, offload_model + offload_optimizer): the two take turns.
  CHECK_FALSE(HasRule(rules(grpo + " --use_vllm true --vllm_mode colocate --sleep_level 1 "
                                   "--offload_model true --offload_optimizer true"),
                      "GL104"));
  // In server mode the engine has GPUs of its own; without vLLM the policy generates itself,
  // which gpulint does not price.
  ReadResult server;
  Train(grpo + " --use_vllm true --vllm_mode server", &sources, &server);
  CHECK_FALSE(Role(server.config, "rollout"));
  ReadResult plain;
  CHECK(Train(grpo, &sources, &plain).Find("unmodelled"));
  ReadResult written_off;
  CHECK(Train(grpo + " --use_vllm false", &sources, &written_off).Find("unmodelled"));
  // --rlhf_type=grpo is the same command; DPO stays swift rlhf's own map.
  ReadResult equals;
  CHECK(Train("swift rlhf --rlhf_type=grpo --model Qwen/Qwen3-1.7B", &sources, &equals).framework ==
        "ms-swift-grpo");
  ReadResult dpo;
  CHECK(Train("swift rlhf --rlhf_type dpo --model Qwen/Qwen3-1.7B", &sources, &dpo).framework ==
        "ms-swift-rlhf");
  // A full fine-tune keeps a reference copy unless beta is 0 (rlhf_args.py:291-294).
  ReadResult full;
  Train(grpo + " --use_vllm true --vllm_mode colocate --tuner_type full", &sources, &full);
  CHECK(Role(full.config, "reference"));
  ReadResult no_kl;
  Train(grpo + " --use_vllm true --vllm_mode colocate --tuner_type full --beta 0", &sources,
        &no_kl);
  CHECK_FALSE(Role(no_kl.config, "reference"));
}

// ms-swift's own check (swift/rlhf_trainers/args_mixin.py:200-225): per-device batch x
// processes x steps_per_generation (the accumulation unless set), or generation_batch_size,
// must hold whole groups of num_generations.
TEST_CASE("swift rlhf --rlhf_type grpo: the generation batch holds whole groups", "[frameworks]") {
  const std::string grpo =
      "# gpulint: gpu=A100-80GB\n"
      "NPROC_PER_NODE=2 CUDA_VISIBLE_DEVICES=0,1 swift rlhf --rlhf_type grpo "
      "--model Qwen/Qwen3-1.7B --tuner_type lora --max_length 2048 --max_completion_length 1024 "
      "--num_generations 8";
  using gpulint::testing::HasRule;
  using gpulint::testing::RulesOfScript;
  // 1 x 2 x 1 = 2 completions: not a group of 8; four steps per generation make 8.
  CHECK(HasRule(
      RulesOfScript(grpo + " --per_device_train_batch_size 1 --gradient_accumulation_steps 1\n"),
      "GL310"));
  // Unwritten, ms-swift's accumulation aims at 16 sequences (ceil(16 / 1 / 2) = 8 steps), which
  // gpulint derives but does not hand the rule: no verdict rather than one on a guess.
  CHECK_FALSE(HasRule(RulesOfScript(grpo + " --per_device_train_batch_size 1\n"), "GL310"));
  CHECK_FALSE(HasRule(
      RulesOfScript(grpo + " --per_device_train_batch_size 1 --gradient_accumulation_steps 4\n"),
      "GL310"));
  CHECK_FALSE(HasRule(
      RulesOfScript(grpo + " --per_device_train_batch_size 1 --steps_per_generation 4\n"),
      "GL310"));
  CHECK(HasRule(
      RulesOfScript(grpo + " --per_device_train_batch_size 2 --generation_batch_size 12\n"),
      "GL310"));
}
