// Engine pins in scripts, requirements and image names, as a table of text -> pins.
#include "lint/reader/version_pins.h"

#include <catch2/catch.hpp>

#include <string>

using namespace gpulint;

namespace {

// "vllm ==0.6.3; sglang v0.4.6" style dump of every pin found.
std::string Dump(const std::string& text) {
  std::string out;
  for (const VersionPin& pin : FindVersionPins(text)) {
    if (!out.empty()) out += "; ";
    out += pin.package + " " + pin.spec;
    REQUIRE(text.compare(pin.offset, pin.spec.size(), pin.spec) == 0);
  }
  return out;
}

}  // namespace

TEST_CASE("pins as scripts and repositories write them", "[reader][version]") {
  struct Row {
    const char* text;
    const char* pins;
  };
  const Row rows[] = {
      {"pip install vllm==0.6.3\n", "vllm ==0.6.3"},
      {"pip3 install -U \"vllm>=0.8,<0.9\" flash-attn\n", "vllm >=0.8,<0.9"},
      {"uv pip install \"sglang[all]==0.4.6.post1\"\n", "sglang ==0.4.6.post1"},
      // verl setup.py at b178a3cd, line 52.
      {"VLLM_REQUIRES = [\"tensordict>=0.8.0,<=0.10.0,!=0.9.0\", \"vllm>=0.8.5,<=0.12.0\"]\n",
       "vllm >=0.8.5,<=0.12.0"},
      {"vllm >= 0.8.5, <= 0.12.0\n", "vllm >= 0.8.5, <= 0.12.0"},
      {"docker run --gpus all vllm/vllm-openai:v0.6.3 --model x\n", "vllm v0.6.3"},
      {"image: lmsysorg/sglang:v0.4.6.post1-cu124\n", "sglang v0.4.6.post1-cu124"},
      {"FROM verlai/verl:app-verl0.5-vllm0.9.1-mcore0.12.2-te2.2\n", "vllm 0.9.1"},
      // No version, another package, a comment, a flag: no pin.
      {"pip install vllm\n", ""},
      {"pip install vllm-ascend==0.9.1\n", ""},
      {"pip install sglang-router==0.1.4\n", ""},
      {"# vllm==0.8.4\n", ""},
      {"    --vllm_gpu_memory_utilization 0.9\n", ""},
      {"from vllm import LLM\n", ""},
      {"vllm serve Qwen/Qwen3-8B --max-model-len 4096\n", ""},
      {"docker run vllm/vllm-openai:latest\n", ""},
  };
  for (const Row& row : rows) {
    INFO(row.text);
    CHECK(Dump(row.text) == row.pins);
  }
}

TEST_CASE("a pin at the end of the text is read to its end", "[reader][version]") {
  CHECK(Dump("vllm==0.6.3") == "vllm ==0.6.3");
  CHECK(Dump("vllm") == "");
  CHECK(Dump("sglang[") == "");
}

TEST_CASE("a framework's package is pinned as an engine is, where the maps name it",
          "[reader][version]") {
  auto dump = [](const std::string& text) {
    std::string out;
    for (const VersionPin& pin : FindVersionPins(text, {"trl", "verl"})) {
      if (!out.empty()) out += "; ";
      out += pin.package + " " + pin.spec;
    }
    return out;
  };
  CHECK(dump("pip install trl==0.23.1 vllm==0.10.2\n") == "vllm ==0.10.2; trl ==0.23.1");
  CHECK(dump("trl>=0.19,<0.20\n") == "trl >=0.19,<0.20");
  CHECK(dump("pip install trlx==0.7 ctrl==1.0\n").empty());  // other packages
  CHECK(dump("FROM verlai/verl:app-verl0.5-vllm0.9.1-mcore0.12.2\n") == "vllm 0.9.1; verl 0.5");
  // Without the maps' packages only the engines are read.
  CHECK(FindVersionPins("pip install trl==0.23.1\n").empty());
}
