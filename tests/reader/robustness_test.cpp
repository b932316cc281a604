// Hostile and broken input: never a crash, a hang, or a silent wrong answer.
#include <catch2/catch.hpp>

#include "tests/support/reader_helpers.h"

using gpulint::SourceMap;
using gpulint::testing::ReadText;

namespace {

bool HasNote(const gpulint::RunConfig& config, const std::string& text) {
  for (const auto& note : config.notes)
    if (note.message.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("unterminated quotes and heredocs are notes, not crashes", "[reader][robust]") {
  SourceMap a, b, c;
  CHECK(HasNote(ReadText("vllm serve 'Qwen/Qwen3-8B\n--tp 2\n", &a).config,
                "single quote is never closed"));
  CHECK(HasNote(ReadText("echo \"abc\n", &b).config, "double quote is never closed"));
  CHECK(HasNote(ReadText("cat > x.json <<EOF\n{\"a\": 1}\n", &c).config,
                "heredoc 'EOF' is never terminated"));
}

TEST_CASE("a 10 MB single line reads", "[reader][robust]") {
  std::string line = "vllm serve Qwen/Qwen3-8B --served-model-name " + std::string(10 << 20, 'a');
  SourceMap sources;
  auto result = ReadText(line + "\n", &sources);
  REQUIRE(result.config.workloads.size() == 1);
  CHECK(result.config.workloads[0].Find("model")->value.ToString() == "Qwen/Qwen3-8B");
}

TEST_CASE("a 200k-line file reads", "[reader][robust]") {
  std::string text;
  for (int i = 0; i < 200000; ++i) text += "VAR_" + std::to_string(i % 1000) + "=" + std::to_string(i) + "\n";
  text += "vllm serve Qwen/Qwen3-8B --max-model-len $VAR_999\n";
  SourceMap sources;
  auto result = ReadText(text, &sources);
  REQUIRE(result.config.workloads.size() == 1);
  // The last assignment of VAR_999 is i = 199999.
  CHECK(result.config.workloads[0].Find("max_model_len")->value.number == 199999);
}

TEST_CASE("deep nesting stops at a limit with a note", "[reader][robust]") {
  std::string ifs, fis;
  for (int i = 0; i < 5000; ++i) {
    ifs += "if true; then\n";
    fis += "fi\n";
  }
  SourceMap a;
  CHECK(HasNote(ReadText(ifs + "vllm serve x\n" + fis, &a).config, "nesting deeper than 100"));

  std::string defaults = "X=";
  for (int i = 0; i < 10000; ++i) defaults += "${A:-";
  defaults += "1";
  for (int i = 0; i < 10000; ++i) defaults += "}";
  SourceMap b;
  auto result = ReadText(defaults + "\nvllm serve m --max-model-len $X\n", &b);
  REQUIRE(result.config.workloads.size() == 1);
  CHECK(result.config.workloads[0].Find("max_model_len")->value.kind ==
        gpulint::Value::Kind::kNone);  // past the depth cap the value is unknown, not guessed

  SourceMap c;
  ReadText("X=" + std::string(100000, '(') + "\n" + std::string(100000, '(') + "\n", &c);
  SourceMap d;
  ReadText("echo " + std::string(50000, '$') + std::string(50000, '(') + "\n", &d);
  SUCCEED("deeply nested parentheses read without exhausting the stack");
}

TEST_CASE("self-referencing variables do not blow up", "[reader][robust]") {
  std::string text = "X=ab\n";
  for (int i = 0; i < 64; ++i) text += "X=$X$X\n";
  text += "vllm serve m --max-model-len $X\n";
  SourceMap sources;
  auto result = ReadText(text, &sources);
  REQUIRE(result.config.workloads.size() == 1);
  CHECK(result.config.workloads[0].Find("max_model_len")->value.kind ==
        gpulint::Value::Kind::kNone);
  SourceMap loop;
  ReadText("f() { f; }\nf\nX=$X\n", &loop);  // recursion is cut at a call depth
  SUCCEED("recursive functions stop");
}

TEST_CASE("nested loops are bounded", "[reader][robust]") {
  std::string text = "L=\"1 2 3 4 5 6 7 8 9 10\"\n";
  for (int i = 0; i < 8; ++i) text += "for a" + std::to_string(i) + " in $L; do\n";
  text += "vllm serve m\n";
  for (int i = 0; i < 8; ++i) text += "done\n";
  SourceMap sources;
  auto result = ReadText(text, &sources);
  CHECK(HasNote(result.config, "more than 20000 commands"));
}

TEST_CASE("a command with several further models keeps each (found by the fuzzer)",
          "[reader][robustness]") {
  // tests/fuzz/regressions/shell/two-further-models.sh: the second further model used to read
  // the primary workload through a reference the first one's insertion had moved.
  gpulint::SourceMap sources;
  auto read = gpulint::testing::ReadText(
      "accelerate launch src/main.py --model Qwen/Qwen2.5-7B-Instruct --batch-size 4 "
      "--evaluator-model Qwen/Qwen2.5-14B-Instruct --reward-model Qwen/Qwen2.5-0.5B-Instruct "
      "--ref-model Qwen/Qwen2.5-7B-Instruct\n",
      &sources);
  REQUIRE(read.config.workloads.size() == 4);
  for (size_t i = 1; i < 4; ++i) {
    INFO(i);
    CHECK(read.config.workloads[i].shares_process_gpus);
    REQUIRE(read.config.workloads[i].Find("micro_batch"));
    CHECK(read.config.workloads[i].Find("micro_batch")->value.number == 4);
  }
}

TEST_CASE("background jobs overlap what follows, and their record stays linear",
          "[reader][robust]") {
  SourceMap sources;
  // Two jobs, a wait, then one more: the first two overlap each other, not the third.
  auto small = ReadText("vllm serve a &\nvllm serve b &\nwait\nvllm serve c\n", &sources);
  REQUIRE(small.config.workloads.size() == 3);
  CHECK(small.config.workloads[0].concurrent_processes == std::vector<int>{1});
  CHECK(small.config.workloads[1].concurrent_processes == std::vector<int>{0});
  CHECK(small.config.workloads[2].concurrent_processes.empty());
  // 300 jobs at once (tests/fuzz/regressions/shell/many-background-jobs.sh made loops of them):
  // each command used to copy every live job, quadratic in the script. Past 256 live jobs the
  // later ones are not tracked, and the reader says so.
  std::string text;
  for (int i = 0; i < 300; ++i) text += "vllm serve m &\n";
  SourceMap many_sources;
  auto many = ReadText(text, &many_sources);
  REQUIRE(many.config.workloads.size() == 300);
  CHECK(HasNote(many.config, "more than 256 background jobs"));
  CHECK(many.config.workloads[0].concurrent_processes.size() == 299);
  CHECK(many.config.workloads[299].concurrent_processes.size() == 256);
}

TEST_CASE("an empty double-quoted argument is an argument (found by the fuzzer)",
          "[reader][robust]") {
  // tests/fuzz/regressions/edits/shell-empty-double-quotes: "" made no word at all, as if it
  // were not written, so a flag took the next flag as its value; '' was right.
  for (const char* empty : {"\"\"", "''"}) {
    INFO(empty);
    SourceMap sources;
    auto read = ReadText(std::string("vllm serve m --kv-cache-dtype ") + empty +
                             " --tensor-parallel-size 2\n",
                         &sources);
    REQUIRE(read.config.workloads.size() == 1);
    const auto* tp = read.config.workloads[0].Find("tp");
    REQUIRE(tp);
    CHECK(tp->value.number == 2);
  }
}

TEST_CASE("a syntax error at the end of a script points inside it (found by the fuzzer)",
          "[reader][robust]") {
  // tests/fuzz/regressions/shell/note-at-end-of-text.sh: the note of an unclosed '{' pointed at
  // one byte past the end of the file.
  SourceMap sources;
  auto read = ReadText("{", &sources);
  REQUIRE_FALSE(read.config.notes.empty());
  for (const auto& note : read.config.notes) CHECK(note.span.end() <= 1);
}

TEST_CASE("a value assembled from several places points inside the file (found by the fuzzer)",
          "[reader][robust]") {
  // tests/fuzz/regressions/shell/assembled-value-span-past-end.sh: the span of `o$S` took the
  // length of the whole value, "o:wr", from the 'o' on, past the end of the script.
  const std::string text = "S=:wr\npython x.py --model o$S";
  SourceMap sources;
  auto read = ReadText(text, &sources);
  REQUIRE(read.config.workloads.size() == 1);
  const auto* model = read.config.workloads[0].Find("model");
  REQUIRE(model);
  CHECK(model->value.text == "o:wr");
  CHECK_FALSE(model->editable);
  CHECK(model->span.end() <= text.size());
}

TEST_CASE("'function' last in a script is a note (found by the fuzzer)", "[reader][robust]") {
  // tests/fuzz/regressions/shell/function-keyword-at-end.sh: the parser read past the end of
  // its tokens looking for the function's name.
  SourceMap sources;
  CHECK(HasNote(ReadText("function", &sources).config, "function has no name"));
}

TEST_CASE("a device ordinal or GPU count past int is not one (found by the fuzzer)",
          "[reader][robust]") {
  // tests/fuzz/regressions/shell/visible-devices-past-int.sh: 6.7e101 was cast to int.
  SourceMap sources;
  auto read = ReadText("CUDA_VISIBLE_DEVICES=0,66666666666666666666666666666666666 "
                       "vllm serve Qwen/Qwen3-8B\n",
                       &sources);
  REQUIRE(read.config.workloads.size() == 1);
  for (int device : read.config.workloads[0].devices) CHECK(device < 65536);
  // 10^30 learners per node: no GPU count at all rather than a wrapped one.
  SourceMap more;
  auto learners = ReadText(
      "python open_instruct/grpo_fast.py --model_name_or_path Qwen/Qwen2.5-7B "
      "--num_learners_per_node 1000000000000000000000000000000\n",
      &more);
  REQUIRE(!learners.config.workloads.empty());
  CHECK(learners.config.workloads[0].gpus == 0);
}

TEST_CASE("more nodes than GPUs leaves none per node, past int too (found by the fuzzer)",
          "[reader][robust]") {
  // tests/fuzz/regressions/shell/nodes-past-int.sh: trainer.nnodes=1e69 was cast to int to
  // divide the GPU count by it.
  SourceMap sources;
  auto read = ReadText(
      "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-3B-Instruct "
      "trainer.n_gpus_per_node=8 trainer.nnodes=1000000000000000000000000000000000000000000\n",
      &sources);
  REQUIRE(!read.config.workloads.empty());
  for (const auto& w : read.config.workloads) CHECK(w.devices.empty());
  SourceMap two;
  auto fine = ReadText(
      "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-3B-Instruct "
      "trainer.n_gpus_per_node=8 trainer.nnodes=2\n",
      &two);
  REQUIRE(!fine.config.workloads.empty());
  CHECK(fine.config.workloads[0].devices.size() == 8);
}

TEST_CASE("arrays hold what a script's lists hold, and no more (found by the issue 18 audit)",
          "[reader][robust]") {
  // An element set within the array's cap is read; B[100000000]=x once resized the array to
  // the index (2.4 GB), B[1e18]=x failed the run and B[1e300] was no size_t.
  SourceMap a;
  auto read = ReadText("B=(1 2 4)\nB[1]=8\nvllm serve Qwen/Qwen3-8B --tensor-parallel-size ${B[1]}\n",
                       &a);
  REQUIRE(read.config.workloads.size() == 1);
  CHECK(read.config.workloads[0].Find("tp")->value.ToString() == "8");
  for (const char* index : {"100000000", "1000000000000000000", "1e300", "-1"}) {
    SourceMap b;
    auto far = ReadText(std::string("B=(1 2 4)\nB[") + index +
                            "]=8\nvllm serve Qwen/Qwen3-8B --tensor-parallel-size ${B[0]}\n",
                        &b);
    REQUIRE(far.config.workloads.size() == 1);
    CHECK(far.config.workloads[0].Find("tp")->value.ToString() == "1");
  }
  // An array that appends itself stops at 256 elements: "${#B[@]}" counts them.
  std::string doubling = "B=(x)\n";
  for (int i = 0; i < 20; ++i) doubling += "B+=(\"${B[@]}\")\n";
  doubling += "N=${#B[@]}\nvllm serve Qwen/Qwen3-8B --max-num-seqs $N\n";
  SourceMap c;
  auto capped = ReadText(doubling, &c);
  REQUIRE(capped.config.workloads.size() == 1);
  CHECK(capped.config.workloads[0].Find("max_num_seqs")->value.ToString() == "256");
}
