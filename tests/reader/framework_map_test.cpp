// Built-in flag maps are read in two steps (header at start-up, the rest on first use); both
// must give the same map as reading the file at once.
#include "lint/reader/framework_map.h"

#include <catch2/catch.hpp>

#include <algorithm>

#include "lint/core/setting_types.h"
#include "lint/data/embedded_data.h"
#include "lint/reader/script_reader.h"
#include "lint/reader/source_map.h"

using namespace gpulint;

TEST_CASE("every built-in flag map loads in full, as if read at once", "[reader][maps]") {
  FrameworkMaps maps;
  REQUIRE(maps.maps().size() >= 20);
  for (const FrameworkMap& header : maps.maps()) {
    INFO(header.path);
    // The header alone carries what matching needs.
    CHECK_FALSE(header.name.empty());
    const FrameworkMap& full = maps.Loaded(header);
    CHECK(&full == &header);  // loaded in place: pointers taken while matching stay valid
    CHECK(full.loaded);
    FrameworkMap direct;
    std::string error;
    std::string text;
    for (const EmbeddedFile& file : EmbeddedFilesUnder("rules/frameworks/"))
      if (std::string(file.path) == full.path) text = std::string(file.content);
    REQUIRE(ParseFrameworkMap(text, full.path, &direct, &error));
    CHECK(full.matches.size() == direct.matches.size());
    CHECK(full.workloads.size() == direct.workloads.size());
    // Inherited entries are added, never lost.
    CHECK(full.flags.size() >= direct.flags.size());
    CHECK(full.keys.size() >= direct.keys.size());
    CHECK(full.kwargs.size() >= direct.kwargs.size());
    CHECK(full.defaults.size() >= direct.defaults.size());
    CHECK(full.requirements.size() >= direct.requirements.size());
    for (const auto& [flag, spec] : direct.flags) CHECK(full.flags.count(flag) == 1);
  }
}

TEST_CASE("an heir map gets its parent's flags and keeps its own", "[reader][maps]") {
  FrameworkMaps maps;
  const FrameworkMap* trl = maps.Find("trl");
  const FrameworkMap* trainer = maps.Find("hf-trainer");
  REQUIRE(trl);
  REQUIRE(trainer);
  REQUIRE(std::find(trl->inherits.begin(), trl->inherits.end(), "hf-trainer") != trl->inherits.end());
  for (const auto& [flag, spec] : trainer->flags) CHECK(trl->flags.count(flag) == 1);
}

TEST_CASE("loading a map while its [[match]] list is being walked keeps the list alive",
          "[reader][maps]") {
  // Found by the fuzzer (tests/fuzz/regressions/shell/wrapper-loads-map-while-matching.sh): a
  // wrapper map loaded in the middle of matching its own patterns must not move them.
  FrameworkMaps fresh;
  SourceMap sources;
  ReadOptions options;
  auto read = ReadScript("run.sh", "nohup env A=1 timeout 60 vllm serve Qwen/Qwen3-8B\n", fresh,
                         options, &sources);
  REQUIRE(read.config.workloads.size() == 1);
  CHECK(read.config.workloads[0].framework == "vllm");
}

TEST_CASE("a change a framework refuses without another is data: [[requires]]",
          "[reader][maps]") {
  FrameworkMaps maps;
  const FrameworkMap* sft = maps.Find("verl-sft");
  REQUIRE(sft);
  REQUIRE(sft->requirements.size() == 1);
  CHECK(sft->requirements[0].when == "cp>1");
  CHECK(sft->requirements[0].set ==
        std::vector<std::pair<std::string, std::string>>{{"padding_free", "true"}});
  FrameworkMap map;
  std::string error;
  CHECK_FALSE(ParseFrameworkMap("[framework]\nname = \"x\"\n[[requires]]\nwhen = \"cp>1\"\n",
                                "x.toml", &map, &error));
  CHECK(error == "[[requires]] needs a `set` table: x.toml");
  CHECK_FALSE(ParseFrameworkMap("[framework]\nname = \"x\"\n[defaults]\n"
                                "fsdp = { value = \"full_shard\", when = \"nproc>one\" }\n",
                                "x.toml", &map, &error));
  CHECK(error == "default fsdp: condition 'nproc>one' compares with 'one', not a number: x.toml");
}

TEST_CASE("a [[reading]] names the spellings it holds for, or the value an unset flag assumes",
          "[reader][maps]") {
  FrameworkMaps maps;
  const FrameworkMap* generic = maps.Find("generic");
  REQUIRE(generic);
  const ReadingSpec* batch = nullptr;
  const ReadingSpec* optimizer = nullptr;
  for (const ReadingSpec& reading : generic->readings) {
    if (reading.setting == "micro_batch") batch = &reading;
    if (reading.setting == "optimizer") optimizer = &reading;
  }
  REQUIRE(batch);
  CHECK(std::find(batch->flags.begin(), batch->flags.end(), "--batch-size") != batch->flags.end());
  // The per-device spellings are not ambiguous.
  CHECK(std::find(batch->flags.begin(), batch->flags.end(), "--micro_batch_size") ==
        batch->flags.end());
  CHECK(batch->taken == std::vector<std::pair<std::string, std::string>>{
                            {"batch_scope", "per_device"}});
  REQUIRE(optimizer);
  CHECK(optimizer->unset);
  CHECK(optimizer->value == "adamw");

  FrameworkMap map;
  std::string error;
  CHECK_FALSE(ParseFrameworkMap("[framework]\nname = \"x\"\n[[reading]]\nsetting = \"optimizer\"\n"
                                "unset = true\ntaken_as = \"a\"\nother_as = \"b\"\n"
                                "other = { optimizer = \"sgd\" }\n",
                                "x.toml", &map, &error));
  CHECK(error == "[[reading]] of an unset optimizer names the `value` it assumes and no `flags`: "
                 "x.toml");
}

TEST_CASE("a jsonargparse map takes its config keys as flags too", "[reader][maps]") {
  FrameworkMaps maps;
  const FrameworkMap* litgpt = maps.Find("litgpt-lora");  // and its parent's keys
  REQUIRE(litgpt);
  const FlagSpec* flag = litgpt->Flag("--train.micro_batch_size");
  REQUIRE(flag);
  CHECK(flag->setting == "micro_batch");
  const FrameworkMap* trainer = maps.Find("hf-trainer");  // no such habit
  REQUIRE(trainer);
  CHECK(trainer->Flag("--model_name_or_path"));
  CHECK_FALSE(trainer->Flag("--per_device_train_batch_size.x"));
}

TEST_CASE("a [[match]] or [[workload]] key spelled wrong or of the wrong type is refused",
          "[reader][maps]") {
  auto refused = [](const std::string& body) {
    FrameworkMap map;
    std::string error;
    const bool ok = ParseFrameworkMap("[framework]\nname = \"x\"\n" + body, "x.toml", &map, &error);
    return ok ? std::string() : error;
  };
  // What a well-formed map holds is read.
  CHECK(refused("[[match]]\ncommand = [\"x\", \"train\"]\ntitle = \"x\"\n"
                "[[workload]]\nrole = \"train\"\nprimary = true\nunless = \"colocate\"\n")
            .empty());
  CHECK(refused("[[match]]\npython_module = \"x.train\"\nrequires_flag = \"--a\"\n").empty());
  // requires_value: a flag's accepted values, one string or a list of them.
  CHECK(refused("[[match]]\ncommand = [\"x\"]\nrequires_value = { \"--t\" = [\"a\", \"b\"] }\n")
            .empty());
  CHECK(refused("[[match]]\ncommand = [\"x\"]\nrequires_value = { \"--t\" = 1 }\n")
            .find("requires_value.--t lists no values") == 0);
  CHECK(refused("[[match]]\ncommand = [\"x\"]\nrequires_value = \"--t\"\n")
            .find("requires_value") != std::string::npos);
  // Each of these read before as a map that matches nothing (or a workload always present).
  auto refused_top = [](const std::string& top) {
    FrameworkMap map;
    std::string error;
    const bool ok = ParseFrameworkMap(top + "[framework]\nname = \"x\"\n", "x.toml", &map, &error);
    return ok ? std::string() : error;
  };
  CHECK(refused_top("match = 1\n") == "match is a list of tables ([[match]]): x.toml:1:9");
  CHECK(refused("[match]\ncommand = \"x\"\n").find("match is a list of tables") == 0);
  CHECK(refused("[[match]]\ncommand = 1\n") ==
        "command in [[match]] must be a string or a list of strings: x.toml:4:11");
  CHECK(refused("[[match]]\ncommand = [\"x\", 1]\n").find("must be a string or a list") !=
        std::string::npos);
  CHECK(refused("[[match]]\npython_modul = \"x.train\"\n") ==
        "unknown key 'python_modul' in [[match]]: x.toml:4:16");
  CHECK(refused("[[match]]\ntitle = \"x\"\n").find("a [[match]] names a command") == 0);
  CHECK(refused("[[workload]]\nrole = \"train\"\nshares_process = \"yes\"\n") ==
        "shares_process in [[workload]] must be true or false: x.toml:5:18");
  CHECK(refused("[[workload]]\nrole = \"train\"\nunles = \"colocate\"\n")
            .find("unknown key 'unles' in [[workload]]") == 0);
  CHECK(refused_top("workload = \"train\"\n").find("workload is a list of tables") == 0);
  // A condition that is no map condition would hold or fail silently.
  CHECK(refused("[[workload]]\nrole = \"critic\"\nwhen = \"lora_rank>two\"\n")
            .find("[[workload]] critic: condition 'lora_rank>two' compares with 'two', not a "
                  "number") == 0);
  CHECK(refused("[[workload]]\nrole = \"critic\"\nunless = \"\"\n").find("is empty") !=
        std::string::npos);
}

TEST_CASE("every built-in workload condition names a declared setting", "[reader][maps]") {
  // An undeclared setting reads as text, and a bare text condition holds whatever it says:
  // verl's 'unless = "old_logprob_bypass"' dropped the workload it guards until declared.
  FrameworkMaps maps;
  for (const FrameworkMap& header : maps.maps()) {
    const FrameworkMap& map = maps.Loaded(header);
    for (const WorkloadSpec& w : map.workloads)
      for (const auto* conditions : {&w.unless, &w.when, &w.when_all})
        for (const std::string& condition : *conditions) {
          std::string name = condition;
          if (size_t amp = name.find(" & "); amp != std::string::npos) name.resize(amp);
          if (!name.empty() && name[0] == '!') name.erase(0, 1);
          name = name.substr(0, name.find_first_of("!=>"));
          INFO(map.path << ": " << condition);
          CHECK(SettingTypes().count(name) == 1);
        }
  }
}

TEST_CASE("every built-in default steps back only for declared settings", "[reader][maps]") {
  // A misspelled name in unless_written is a switch no script can ever write: the default
  // would never step back (axolotl's fused LoRA kernels name lora_fused_qkv, _o, _mlp).
  FrameworkMaps maps;
  int checked = 0;
  for (const FrameworkMap& header : maps.maps()) {
    const FrameworkMap& map = maps.Loaded(header);
    for (const DefaultSpec& d : map.defaults)
      for (const std::string& name : d.unless_written) {
        INFO(map.path << ": " << d.setting << " unless_written " << name);
        CHECK(SettingTypes().count(name) == 1);
        ++checked;
      }
  }
  CHECK(checked >= 9);  // axolotl's three kernel defaults, three names each
}

TEST_CASE("every built-in bound names declared settings and cites its source", "[reader][maps]") {
  // A bound over a misspelled setting is never crossed: the tuner would move the length alone
  // and write a diff the framework cuts or refuses.
  FrameworkMaps maps;
  int checked = 0;
  for (const FrameworkMap& header : maps.maps()) {
    const FrameworkMap& map = maps.Loaded(header);
    for (const BoundSpec& bound : map.bounds) {
      INFO(map.path << ": [[at_least]] " << bound.setting);
      CHECK(SettingTypes().count(bound.setting) == 1);
      for (const std::string& name : bound.sum) CHECK(SettingTypes().count(name) == 1);
      CHECK_FALSE(bound.source.empty());
      ++checked;
    }
  }
  CHECK(checked >= 2);  // verl's token budget and rollout length
}

TEST_CASE("an [[at_least]] without a sum is a broken map", "[reader][maps]") {
  FrameworkMap map;
  std::string error;
  CHECK_FALSE(ParseFrameworkMap("[framework]\nname = \"x\"\n[[at_least]]\nsetting = \"a\"\n",
                                "x.toml", &map, &error));
  CHECK(error.find("[[at_least]]") != std::string::npos);
  CHECK_FALSE(ParseFrameworkMap("[framework]\nname = \"x\"\n[[at_least]]\nsetting = \"a\"\n"
                                "sum = [\"b\"]\ntimes = [2]\n",
                                "x.toml", &map, &error));
  CHECK(error.find("`times` lists setting names") != std::string::npos);
  CHECK(ParseFrameworkMap("[framework]\nname = \"x\"\n[[at_least]]\nsetting = \"max_model_len\"\n"
                          "sum = [\"max_prompt_len\", \"max_response_len\"]\nworkload = "
                          "\"rollout\"\n",
                          "x.toml", &map, &error));
  REQUIRE(map.bounds.size() == 1);
  CHECK(map.bounds[0].role == "rollout");
  CHECK(map.bounds[0].sum.size() == 2);
}
