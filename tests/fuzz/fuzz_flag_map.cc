// libFuzzer target for framework flag maps (FrameworkMaps::AddText): the bytes are added as a
// project's map beside the built-in ones, loaded in full with its parents, and then a fixed
// script is read with it. The script runs commands, Python modules and scripts, launchers and a
// Python call of the shapes a [[match]] names, and refers to config files that an in-memory
// reader serves, so that a fuzzed map's flags, keys, kwargs, defaults and requirements are
// applied. Few built-in programs: each one loads its built-in map in full for every input.
// Properties: no crash, hang or sanitizer report; a map that fails to load says why; the script
// always reads.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "lint/reader/framework_map.h"
#include "lint/reader/script_reader.h"
#include "lint/reader/source_map.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

constexpr const char* kScript = R"(#!/bin/bash
#SBATCH --gpus-per-node=8
export CUDA_VISIBLE_DEVICES=0,1,2,3
MODEL=Qwen/Qwen3-8B
fuzz --tp 2 --micro-batch 4 --model $MODEL --config ds.json key.a=1 train.batch=8 pos1 pos2
fuzz serve $MODEL --tensor-parallel-size 2 --flag=value --no-x -x 3 --quant 4
fuzz train --deepspeed ds.json --config cfg.yaml a.b.c=7 +x=1 -- inner --tp 4
torchrun --nproc_per_node 2 train.py --tp 2 --bf16 --a.b=3 --gradient_checkpointing false
python -m fuzz.module --max-len 4096 x=1 --lr=1e-4
python3 train.py --actor-num-gpus-per-node 8 --tp 4 --config cfg.yaml
python serve.py --port 8000
nohup fuzz run --tp 8 &
wait
)";

bool ReadFile(const std::string& path, std::string* text) {
  static const std::map<std::string, std::string> files = {
      {"ds.json",
       R"({"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 3,
       "offload_optimizer": {"device": "cpu"}}, "bf16": {"enabled": true}, "tp": 2})"},
      {"cfg.yaml",
       "model: Qwen/Qwen3-8B\ntrain:\n  batch: 8\n  micro_batch: 2\nkey:\n  a: 1\n"
       "distributed_type: FSDP\nnum_processes: 4\n"},
      {"serve.py",
       "from vllm import LLM\nllm = LLM(model='Qwen/Qwen3-8B', tensor_parallel_size=2,\n"
       "          gpu_memory_utilization=0.8, max_model_len=4096)\n"},
      {"train.py",
       "import argparse\np = argparse.ArgumentParser()\np.add_argument('--tp', type=int, "
       "default=1)\nargs = p.parse_args()\nm = AutoModelForCausalLM.from_pretrained("
       "'Qwen/Qwen3-8B', torch_dtype='bfloat16')\nfuzz(tp=args.tp, micro_batch=2)\n"},
  };
  size_t slash = path.rfind('/');
  auto found = files.find(slash == std::string::npos ? path : path.substr(slash + 1));
  if (found == files.end()) return false;
  *text = found->second;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::string error;
  // Most inputs are no map at all: parsed alone first, they skip loading the built-in maps.
  gpulint::FrameworkMap alone;
  if (!gpulint::ParseFrameworkMap(text, "/project/team-map.toml", &alone, &error)) {
    FUZZ_CHECK(!error.empty(), "a map that fails to load says nothing");
    return 0;
  }
  gpulint::FrameworkMaps maps;  // fresh: a map added to one input must not stay for the next
  FUZZ_CHECK(maps.AddText(text, "/project/team-map.toml", &error),
             "a map that parses alone is refused beside the built-in ones: %s", error.c_str());
  maps.ResolveInheritance();
  for (const gpulint::FrameworkMap& map : maps.maps())
    if (map.path == "/project/team-map.toml") maps.Loaded(map);
  gpulint::SourceMap sources;
  gpulint::ReadOptions options;
  options.read_file = ReadFile;
  options.gpu_default = "H100-80GB";
  // GPU-dependent defaults (a map's `variants`) need the GPU's size.
  options.gpu_facts = [](const std::string& name) {
    return std::optional<gpulint::GpuFacts>(gpulint::GpuFacts{name, 79.2});
  };
  gpulint::ReadResult result = gpulint::ReadScript("/job/run.sh", kScript, maps, options, &sources);
  FUZZ_CHECK(result.ok, "the fixed script does not read: %s", result.error.c_str());
  return 0;
}
