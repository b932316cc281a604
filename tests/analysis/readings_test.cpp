// readings: a team's own trainer decides what --bf16 means; where that decides the verdict,
// gpulint prices both meanings and waits for the script to state one.
#include "lint/analysis/readings.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "tests/support/analysis_helpers.h"
#include "tests/support/lint_helpers.h"
#include "tests/support/process.h"

namespace {

using gpulint::testing::TempDir;

// Seed guide 002's job: full fine-tuning of a 7.62B model at batch 8 x 1024 tokens on one H200.
// Mixed precision over fp32 weights: 16 bytes a parameter (weights, gradients, two moments) =
// 113.5 GiB before activations: past the GPU. Weights loaded in bf16: 8 bytes a parameter
// (weights, gradients and moments in bf16) = 56.8 GiB, and the job fits.
std::string Script(const std::string& directive) {
  return "# gpulint: gpu=H200\n" + directive +
         "accelerate launch src/main.py --model Qwen/Qwen2.5-7B-Instruct --batch-size 8 \\\n"
         "  --max-seq-length 1024 --bf16\n";
}

std::set<std::string> RuleIds(const std::string& path) {
  gpulint::testing::LintOutcome outcome = gpulint::testing::LintPath(path);
  REQUIRE(outcome.ok);
  std::set<std::string> ids;
  for (const gpulint::Finding& f : outcome.findings) ids.insert(f.rule);
  return ids;
}

}  // namespace

TEST_CASE("a --bf16 whose meaning decides the verdict is a warning with both numbers",
          "[analysis][readings]") {
  TempDir dir;
  std::string path = dir.Write("train.sh", Script(""));
  CHECK(RuleIds(path) == std::set<std::string>{"GL009"});

  auto analyzed = gpulint::testing::AnalyzeText(Script(""), "train.sh");
  const gpulint::WorkloadEstimate& e =
      analyzed->analysis.estimates[gpulint::testing::WorkloadWithRole(analyzed->analysis, "train")];
  REQUIRE(e.breakdown);
  CHECK(e.breakdown->total_low > e.usable_bytes);  // as taken: does not fit
  CHECK(e.breakdown->weights == Approx(7.62e9 * 4).epsilon(0.01));
  CHECK(e.reading_decides.find("read as mixed precision over fp32 weights") != std::string::npos);
  CHECK(e.reading_decides.find("it does not fit") != std::string::npos);
  CHECK(e.reading_decides.find("it fits") != std::string::npos);
  CHECK(e.reading_decides.find("'# gpulint: dtype=bf16'") != std::string::npos);
  CHECK(std::find(e.unknown_inputs.begin(), e.unknown_inputs.end(), "dtype") !=
        e.unknown_inputs.end());
  bool listed = false;
  for (const std::string& a : e.assumptions)
    listed = listed || (a.rfind("--bf16 read as mixed precision over fp32 weights", 0) == 0 &&
                        a.find("; if it loads the model in bf16") != std::string::npos);
  CHECK(listed);
}

TEST_CASE("stating what --bf16 means makes the verdict exact", "[analysis][readings]") {
  TempDir dir;
  // Loaded in bf16: it fits, nothing to report.
  CHECK(RuleIds(dir.Write("bf16.sh", Script("# gpulint: dtype=bf16\n"))).empty());
  // Mixed precision over fp32 weights, and the AdamW src/main.py is then taken to build: out
  // of memory, as an error.
  const std::string amp = "# gpulint: dtype=amp-bf16 optimizer=adamw\n";
  CHECK(RuleIds(dir.Write("amp.sh", Script(amp))).count("GL101") == 1);
  CHECK(RuleIds(dir.Write("amp.sh", Script(amp))).count("GL009") == 0);
  // With the optimizer left to src/main.py, the error would rest on it: an 8-bit AdamW brings
  // the job within reach of the GPU.
  auto analyzed = gpulint::testing::AnalyzeText(Script("# gpulint: dtype=amp-bf16\n"), "a.sh");
  CHECK(analyzed->analysis.estimates[0].reading_setting == "optimizer");
}

TEST_CASE("a reading that does not change the verdict is listed, not warned about",
          "[analysis][readings]") {
  // 0.49B parameters at batch 1 x 512 tokens fit an H200 either way.
  const std::string script =
      "# gpulint: gpu=H200\naccelerate launch train.py --model Qwen/Qwen2.5-0.5B "
      "--batch-size 1 --max-seq-length 512 --bf16\n";
  TempDir dir;
  std::set<std::string> ids = RuleIds(dir.Write("train.sh", script));
  CHECK(ids.count("GL009") == 0);
  CHECK(ids.count("GL101") == 0);
  auto analyzed = gpulint::testing::AnalyzeText(script, "train.sh");
  const gpulint::WorkloadEstimate& e = analyzed->analysis.estimates[0];
  CHECK(e.reading_decides.empty());
  CHECK(e.unknown_inputs.empty());
  bool listed = false;
  for (const std::string& a : e.assumptions) listed = listed || a.rfind("--bf16 read as", 0) == 0;
  CHECK(listed);
}

namespace {

const gpulint::WorkloadEstimate& TrainEstimate(const gpulint::testing::Analyzed& analyzed) {
  return analyzed.analysis
      .estimates[gpulint::testing::WorkloadWithRole(analyzed.analysis, "train")];
}

// The range a finding quotes for an estimate, as readings.cpp writes it.
std::string RangeOf(const gpulint::WorkloadEstimate& e) {
  return fmt::format("{:.1f}-{:.1f} GiB", e.breakdown->total_low / (1024.0 * 1024 * 1024),
                     e.breakdown->total_high / (1024.0 * 1024 * 1024));
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// That `e`'s verdict was left to a reading, quoting its own range after `as_read`, the range
// of `other` (the job estimated under the other meaning) after `as_other`, and `directives`.
void CheckLeftToReading(const gpulint::WorkloadEstimate& e, const std::string& as_read,
                        const gpulint::WorkloadEstimate& other, const std::string& as_other,
                        const std::string& directives) {
  CHECK(Has(e.reading_decides, as_read + " (" + RangeOf(e)));
  CHECK(Has(e.reading_decides, as_other + " (" + RangeOf(other) + ")"));
  CHECK(Has(e.reading_decides, directives));
}

// A team's own trainer over 8 processes: Qwen2.5-1.5B, packed 2048-token blocks (--block_size:
// no reading), AdamW stated, checkpointing on. 16 sequences a GPU need the 16 x 2048 x 151,936
// logits (56 GiB of them): past an H100-80GB. 16 over 8 processes are 2 a GPU, and fit.
std::string BatchScript(const std::string& directive, const std::string& batch_flag) {
  return "# gpulint: gpu=H100-80GB\n" + directive +
         "accelerate launch --num_processes 8 train.py --model Qwen/Qwen2.5-1.5B " + batch_flag +
         " --block_size 2048 --optim adamw --gradient_checkpointing\n";
}

}  // namespace

TEST_CASE("a --batch-size that may be the step's whole batch is priced both ways",
          "[analysis][readings]") {
  TempDir dir;
  CHECK(RuleIds(dir.Write("train.sh", BatchScript("", "--batch-size 16"))) ==
        std::set<std::string>{"GL009"});
  auto analyzed = gpulint::testing::AnalyzeText(BatchScript("", "--batch-size 16"), "train.sh");
  const gpulint::WorkloadEstimate& e = TrainEstimate(*analyzed);
  REQUIRE(e.breakdown);
  CHECK(e.breakdown->total_low > e.usable_bytes);
  // The other reading is the same job at 16 / 8 = 2 sequences a GPU, spelled per device.
  auto per_gpu = gpulint::testing::AnalyzeText(BatchScript("", "--micro_batch_size 2"), "b.sh");
  const gpulint::WorkloadEstimate& two = TrainEstimate(*per_gpu);
  REQUIRE(two.breakdown);
  CHECK(two.breakdown->total_high <= two.usable_bytes);
  CheckLeftToReading(
      e, "what --batch-size means to this script: read as each GPU's micro batch it does not fit",
      two, "split over the data-parallel processes it fits",
      "'# gpulint: batch_scope=global', or '# gpulint: batch_scope=per_device' for the first");
  CHECK(e.reading_setting == "micro_batch");
  // A per-device spelling has no other meaning: no reading, and none listed.
  auto stated = gpulint::testing::AnalyzeText(BatchScript("", "--micro_batch_size 16"), "c.sh");
  for (const std::string& a : TrainEstimate(*stated).assumptions)
    CHECK_FALSE(Has(a, "read as each GPU's micro batch"));
  CHECK(RuleIds(dir.Write("c.sh", BatchScript("", "--micro_batch_size 16"))).count("GL101") == 1);
}

TEST_CASE("stating what --batch-size counts makes the verdict exact", "[analysis][readings]") {
  TempDir dir;
  std::set<std::string> per_device = RuleIds(
      dir.Write("a.sh", BatchScript("# gpulint: batch_scope=per_device\n", "--batch-size 16")));
  CHECK(per_device.count("GL101") == 1);
  CHECK(per_device.count("GL009") == 0);
  std::set<std::string> global = RuleIds(
      dir.Write("b.sh", BatchScript("# gpulint: batch_scope=global\n", "--batch-size 16")));
  CHECK(global.count("GL101") == 0);
  CHECK(global.count("GL009") == 0);
  // A value that is neither is a typo, reported as one, not read as per device.
  CHECK(RuleIds(dir.Write("c.sh", BatchScript("# gpulint: batch_scope=globl\n",
                                              "--batch-size 16")))
            .count("GL006") == 1);
}

TEST_CASE("a length flag is judged at the length, padded to it or capped at it",
          "[analysis][readings]") {
  // Qwen2.5-1.5B, 8 sequences of 8192 tokens, one process: the logits alone pass an H100. A
  // team's collator may pad every batch to --max_seq_length or truncate at it and pad each batch
  // to its longest; either way one sample that reaches it brings its batch there, so the length
  // has no reading and the error stands, at the same numbers as packed 8192-token blocks.
  auto script = [](const std::string& length_flag) {
    return "# gpulint: gpu=H100-80GB\npython train.py --model Qwen/Qwen2.5-1.5B "
           "--micro_batch_size 8 " + length_flag + " --optim adamw --gradient_checkpointing\n";
  };
  TempDir dir;
  CHECK(RuleIds(dir.Write("a.sh", script("--max_seq_length 8192"))) ==
        std::set<std::string>{"GL101"});
  auto capped = gpulint::testing::AnalyzeText(script("--max_seq_length 8192"), "a.sh");
  auto packed = gpulint::testing::AnalyzeText(script("--block_size 8192"), "b.sh");
  const gpulint::WorkloadEstimate& e = TrainEstimate(*capped);
  REQUIRE(e.breakdown);
  CHECK(e.reading_decides.empty());
  CHECK(e.undecided.empty());
  CHECK(RangeOf(e) == RangeOf(TrainEstimate(*packed)));
}

TEST_CASE("an optimizer the command line does not name is priced as AdamW and as 8-bit AdamW",
          "[analysis][readings]") {
  // Qwen2.5-7B loaded in bf16 (stated), 4 x 1024 tokens, checkpointing, on an H100-80GB: AdamW's
  // two bf16 moments (28.4 GiB) put it in reach of the limit; an 8-bit AdamW's fit.
  auto script = [](const std::string& optimizer) {
    return "# gpulint: gpu=H100-80GB\n# gpulint: dtype=bf16\npython train.py --model "
           "Qwen/Qwen2.5-7B --micro_batch_size 4 --block_size 1024 --gradient_checkpointing" +
           optimizer + "\n";
  };
  auto analyzed = gpulint::testing::AnalyzeText(script(""), "t.sh");
  const gpulint::WorkloadEstimate& e = TrainEstimate(*analyzed);
  auto eight_bit = gpulint::testing::AnalyzeText(script(" --optim adamw_8bit"), "o.sh");
  const gpulint::WorkloadEstimate& small = TrainEstimate(*eight_bit);
  REQUIRE(e.breakdown);
  REQUIRE(small.breakdown);
  CHECK(e.breakdown->total_high > e.usable_bytes);
  CHECK(small.breakdown->total_high <= small.usable_bytes);
  CheckLeftToReading(
      e, "what the optimizer (not on the command line) means to this script: read as AdamW it "
         "may not fit",
      small, "if the code builds an 8-bit AdamW (bitsandbytes) it fits",
      "'# gpulint: optimizer=adamw_8bit', or '# gpulint: optimizer=adamw' for the first");
  // Named on the command line, or stated: no reading.
  TempDir dir;
  CHECK(RuleIds(dir.Write("a.sh", script(" --optim adamw"))).count("GL009") == 0);
  CHECK(RuleIds(dir.Write("a.sh", script(" --optim adamw"))).count("GL113") == 1);
  CHECK(RuleIds(dir.Write("b.sh", "# gpulint: optimizer=adamw\n" + script(""))).count("GL009") ==
        0);
}

TEST_CASE("readings that decide the verdict only together leave it open too",
          "[analysis][readings]") {
  // Qwen2.5-7B over 8 processes at --batch-size 8 x 1024 tokens with --bf16, AdamW stated, no
  // checkpointing. bf16 weights alone leave 8 sequences' activations past an H100; 8 / 8 = 1
  // sequence alone leaves 16 bytes a parameter of fp32 states past it; both at once come within
  // reach of it.
  const std::string script =
      "# gpulint: gpu=H100-80GB\naccelerate launch --num_processes 8 train.py --model "
      "Qwen/Qwen2.5-7B --batch-size 8 --block_size 1024 --optim adamw --bf16\n";
  auto analyzed = gpulint::testing::AnalyzeText(script, "t.sh");
  const gpulint::WorkloadEstimate& e = TrainEstimate(*analyzed);
  REQUIRE(e.breakdown);
  CHECK(e.breakdown->total_low > e.usable_bytes);
  // The joint reading is the job stated as bf16 at one sequence a GPU.
  auto both = gpulint::testing::AnalyzeText(
      "# gpulint: gpu=H100-80GB\n# gpulint: dtype=bf16\naccelerate launch --num_processes 8 "
      "train.py --model Qwen/Qwen2.5-7B --micro_batch_size 1 --block_size 1024 --optim adamw "
      "--bf16\n",
      "j.sh");
  const gpulint::WorkloadEstimate& joint = TrainEstimate(*both);
  REQUIRE(joint.breakdown);
  CHECK(joint.breakdown->total_low <= joint.usable_bytes);
  CHECK(Has(e.reading_decides, "what --bf16, --batch-size mean to this script: as read it does "
                               "not fit"));
  CHECK(Has(e.reading_decides, "under their other meanings together it may not fit (" +
                                   RangeOf(joint) + ")"));
  CHECK(Has(e.reading_decides,
            "'# gpulint: dtype=bf16 batch_scope=global', or '# gpulint: dtype=amp-bf16 "
            "batch_scope=per_device' as read"));
  TempDir dir;
  CHECK(RuleIds(dir.Write("t.sh", script)) == std::set<std::string>{"GL009"});
  // Each reading alone is listed, with its own numbers.
  int listed = 0;
  for (const std::string& a : e.assumptions)
    listed += Has(a, "--bf16 read as") || Has(a, "--batch-size read as");
  CHECK(listed == 2);
}

TEST_CASE("gpulint.toml's [generic] states a meaning for every script of the project",
          "[analysis][readings]") {
  TempDir dir;
  dir.Write("train.sh", Script(""));
  // --fp16 has a reading of its own: dtype = "bf16" is not one of its meanings.
  dir.Write("fp16.sh", "# gpulint: gpu=H200\naccelerate launch src/main.py --model "
                       "Qwen/Qwen2.5-7B-Instruct --batch-size 8 --max-seq-length 1024 --fp16\n");
  CHECK(gpulint::testing::RunGpulint({"lint", "train.sh"}, "", dir.path()).out.find("GL009") !=
        std::string::npos);
  dir.Write("gpulint.toml", "[generic]\ndtype = \"bf16\"\n");
  auto stated = gpulint::testing::RunGpulint({"lint", "train.sh"}, "", dir.path());
  CHECK(stated.exit_code == 0);
  CHECK(stated.out.find("GL009") == std::string::npos);
  CHECK(stated.out.find("GL101") == std::string::npos);
  CHECK(gpulint::testing::RunGpulint({"lint", "fp16.sh"}, "", dir.path()).out.find("GL009") !=
        std::string::npos);
  // The other meaning, and the optimizer, stated: the error is judged as an error.
  dir.Write("gpulint.toml", "[generic]\ndtype = \"amp-bf16\"\noptimizer = \"adamw\"\n");
  auto amp = gpulint::testing::RunGpulint({"lint", "train.sh"}, "", dir.path());
  CHECK(amp.exit_code == 1);
  CHECK(amp.out.find("GL101") != std::string::npos);
  CHECK(amp.out.find("GL009") == std::string::npos);
  // A directive in the script says more than the project does.
  dir.Write("own.sh", Script("# gpulint: dtype=bf16\n"));
  CHECK(gpulint::testing::RunGpulint({"lint", "own.sh"}, "", dir.path()).exit_code == 0);
}

namespace {

// A program that loads Qwen2.5-7B-Instruct (bf16, 7.62e9 parameters) with from_pretrained on a
// 24 GB GPU; `kwargs` are from_pretrained's further keyword arguments.
std::string Inference(const std::string& directive, const std::string& kwargs) {
  return "# gpulint: gpu=RTX-4090-24GB\n" + directive +
         "from transformers import AutoModelForCausalLM\n"
         "model = AutoModelForCausalLM.from_pretrained(\"Qwen/Qwen2.5-7B-Instruct\"" + kwargs +
         ", device_map=\"cuda\")\n"
         "out = model.generate(**inputs, max_new_tokens=256)\n";
}

const gpulint::WorkloadEstimate& EvalEstimate(const gpulint::testing::Analyzed& analyzed) {
  return analyzed.analysis
      .estimates[gpulint::testing::WorkloadWithRole(analyzed.analysis, "eval")];
}

}  // namespace

TEST_CASE("from_pretrained with no dtype loads by the transformers release the project pins",
          "[analysis][readings]") {
  const double bf16_gib = 7.62e9 * 2 / (1024.0 * 1024 * 1024);
  // transformers 5 loads the checkpoint's dtype ("auto"); 4.x float32, twice the bytes.
  auto five = gpulint::testing::AnalyzeText(Inference("# gpulint: transformers=5.1\n", ""), "a.py");
  auto four = gpulint::testing::AnalyzeText(Inference("# gpulint: transformers=4.46\n", ""), "b.py");
  REQUIRE(EvalEstimate(*five).breakdown);
  REQUIRE(EvalEstimate(*four).breakdown);
  CHECK(EvalEstimate(*five).breakdown->weights / (1024.0 * 1024 * 1024) ==
        Approx(bf16_gib).epsilon(0.01));
  CHECK(EvalEstimate(*four).breakdown->weights ==
        Approx(2 * EvalEstimate(*five).breakdown->weights).epsilon(1e-6));
  CHECK(EvalEstimate(*four).reading_decides.empty());
  CHECK(EvalEstimate(*five).reading_decides.empty());
  TempDir dir;
  CHECK(RuleIds(dir.Write("b.py", Inference("# gpulint: transformers=4.46\n", ""))) ==
        std::set<std::string>{"GL101"});
  CHECK(RuleIds(dir.Write("a.py", Inference("# gpulint: transformers=5.1\n", ""))).empty());

  // Unpinned: the newest release's reading, with 4.x's priced beside it; 14 GiB fits the 24 GB
  // GPU, 28 GiB does not, so the verdict waits for a pin.
  auto unpinned = gpulint::testing::AnalyzeText(Inference("", ""), "c.py");
  const gpulint::WorkloadEstimate& e = EvalEstimate(*unpinned);
  REQUIRE(e.breakdown);
  CHECK(e.breakdown->weights == Approx(EvalEstimate(*five).breakdown->weights).epsilon(1e-6));
  CHECK(Has(e.reading_decides, "read as the checkpoint's dtype (transformers 5) it fits (" +
                                   RangeOf(EvalEstimate(*five)) + " of 24.0 GiB)"));
  CHECK(Has(e.reading_decides, "which loads float32 it does not fit (" +
                                   RangeOf(EvalEstimate(*four)) + ")"));
  CHECK(Has(e.reading_decides, "'# gpulint: transformers=4.57'"));
  CHECK(RuleIds(dir.Write("c.py", Inference("", ""))) == std::set<std::string>{"GL009"});

  // A dtype passed to from_pretrained is no reading; nor is a quantized load, whose quantizer
  // takes float16 for what it leaves unquantized when no dtype is passed (bnb, GPTQ, AWQ).
  CHECK(RuleIds(dir.Write("d.py", Inference("", ", torch_dtype=torch.bfloat16"))).empty());
  CHECK(RuleIds(dir.Write("e.py", Inference("", ", torch_dtype=torch.float32"))) ==
        std::set<std::string>{"GL101"});
  auto quantized = gpulint::testing::AnalyzeText(
      Inference("# gpulint: transformers=4.46\n", ", load_in_4bit=True"), "f.py");
  auto quantized_five = gpulint::testing::AnalyzeText(
      Inference("# gpulint: transformers=5.1\n", ", load_in_4bit=True"), "g.py");
  REQUIRE(EvalEstimate(*quantized).breakdown);
  REQUIRE(EvalEstimate(*quantized_five).breakdown);
  CHECK(EvalEstimate(*quantized).breakdown->weights < 0.5 * bf16_gib * 1024.0 * 1024 * 1024);
  CHECK(EvalEstimate(*quantized).breakdown->weights ==
        Approx(EvalEstimate(*quantized_five).breakdown->weights).epsilon(1e-6));
}

TEST_CASE("an error that holds under every reading says what its numbers rest on",
          "[analysis][readings]") {
  // Seed 002's 7B job at 16 sequences: out of an H200 under every reading of --bf16 and of the
  // optimizer, so GL101 stands, and its message lists both readings with their numbers.
  TempDir dir;
  const std::string path = dir.Write(
      "train.sh", "# gpulint: gpu=H200\naccelerate launch src/main.py --model "
                  "Qwen/Qwen2.5-7B-Instruct --batch-size 16 --max-seq-length 1024 --bf16\n");
  gpulint::testing::LintOutcome outcome = gpulint::testing::LintPath(path);
  REQUIRE(outcome.ok);
  REQUIRE(outcome.findings.size() == 1);
  const std::string& message = outcome.findings[0].message;
  CHECK(outcome.findings[0].rule == "GL101");
  // After the breakdown, what multiplies into its largest term, then the readings.
  CHECK(Has(message, " GiB); activations: 16384 tokens x 28 layers at "));
  CHECK(Has(message, "(no checkpointing); --bf16 read as mixed precision over fp32 weights"));
  CHECK(Has(message, "; if it loads the model in bf16"));
  CHECK(Has(message, "; the optimizer (not on the command line) read as AdamW: "));
  // A framework's own flags have no readings: nothing is added.
  const std::string verl = dir.Write(
      "sft.sh", "# gpulint: gpu=H100-80GB\ntorchrun --nproc_per_node 8 -m "
                "verl.trainer.fsdp_sft_trainer model.partial_pretrain=Qwen/Qwen3-4B "
                "data.micro_batch_size_per_gpu=16 data.max_length=32768 "
                "model.enable_gradient_checkpointing=false\n");
  gpulint::testing::LintOutcome framework = gpulint::testing::LintPath(verl);
  REQUIRE(framework.ok);
  bool error = false;
  for (const gpulint::Finding& f : framework.findings) {
    if (f.rule != "GL101") continue;
    error = true;
    CHECK_FALSE(Has(f.message, " read as "));
  }
  CHECK(error);
}

namespace {

// A 32B model's bf16 weights (61 GiB) fill an A100 of 40 GB, not one of 80 GB.
std::string Serve(const std::string& gres, const std::string& model) {
  return "#!/bin/bash\n#SBATCH --gres=gpu:" + gres + ":1\nvllm serve " + model +
         " --max-model-len 8192\n";
}

}  // namespace

TEST_CASE("a GPU named without its size leaves open a verdict its sizes disagree on",
          "[analysis][readings]") {
  TempDir dir;
  // 'a100' may be either card: on the 40 GB one the weights do not fit, on the 80 GB one the
  // engine starts. No error rests on the guess; the warning names both and points at the name.
  const std::string path = dir.Write("serve.sh", Serve("a100", "Qwen/Qwen3-32B"));
  gpulint::testing::LintOutcome outcome = gpulint::testing::LintPath(path);
  REQUIRE(outcome.ok);
  REQUIRE(outcome.findings.size() == 1);
  const gpulint::Finding& f = outcome.findings[0];
  CHECK(f.rule == "GL009");
  CHECK(f.message.find("the verdict rests on which a100 this is: on A100-40GB it does not fit") !=
        std::string::npos);
  CHECK(f.message.find("on A100-80GB it fits") != std::string::npos);
  CHECK(f.message.find("'# gpulint: gpu=A100-80GB'") != std::string::npos);
  CHECK(f.span.line == 2);  // the --gres line
  auto analyzed = gpulint::testing::AnalyzeText(Serve("a100", "Qwen/Qwen3-32B"), "serve.sh");
  const gpulint::WorkloadEstimate& e = analyzed->analysis.estimates[0];
  CHECK(e.reading_setting == "gpu");
  CHECK(std::find(e.unknown_inputs.begin(), e.unknown_inputs.end(), "gpu") !=
        e.unknown_inputs.end());

  // Named with its size, it is judged: an error on the small card, nothing on the large one.
  CHECK(RuleIds(dir.Write("small.sh", Serve("a100-40gb", "Qwen/Qwen3-32B"))) ==
        std::set<std::string>{"GL101"});
  CHECK(RuleIds(dir.Write("large.sh", Serve("a100-80gb", "Qwen/Qwen3-32B"))).empty());
  // Where both sizes agree there is nothing to wait for: a 0.6B model fits either.
  CHECK(RuleIds(dir.Write("tiny.sh", Serve("a100", "Qwen/Qwen3-0.6B"))).empty());
}
