// gpulint.toml from text (ParseProjectConfig) and from a file (LoadProjectConfig).
#include "lint/config/project_config.h"

#include <catch2/catch.hpp>

#include "tests/support/process.h"

using gpulint::ProjectConfig;

TEST_CASE("a file and its text parse the same", "[config]") {
  const std::string text =
      "gpu = \"H100-80GB\"\nheadroom = 0.1\nselect = [\"GL1\"]\nrules = [\"team.toml\"]\n"
      "[env]\nTP = 2\n";
  gpulint::testing::TempDir dir;
  dir.Write("gpulint.toml", text);
  ProjectConfig from_file, from_text;
  std::string error;
  REQUIRE(gpulint::LoadProjectConfig(dir.path() + "/gpulint.toml", &from_file, &error));
  REQUIRE(gpulint::ParseProjectConfig(text, dir.path() + "/gpulint.toml", &from_text, &error));
  CHECK(from_text.text == from_file.text);
  CHECK(from_text.gpu == from_file.gpu);
  CHECK(from_text.headroom == from_file.headroom);
  CHECK(from_text.select == from_file.select);
  CHECK(from_text.rule_packs == from_file.rule_packs);
  CHECK(from_text.rule_packs == std::vector<std::string>{dir.path() + "/team.toml"});
  CHECK(from_text.env == from_file.env);
}

TEST_CASE("non-ASCII text where TOML wants whitespace is an error (found by the fuzzer)",
          "[config]") {
  // tests/fuzz/regressions/project_config/: toml++ 3.3.0 reached __builtin_unreachable() on
  // code points such as U+01DF at the start of a line (lint/util/toml_impl.cpp).
  for (const char* text : {"\xc7\x9f$", "\xc3\xa9 = 1\n",
                           "gpu = \"x\"\n\xcf\xa9"
                           "b"}) {
    INFO(text);
    ProjectConfig config;
    std::string error;
    CHECK_FALSE(gpulint::ParseProjectConfig(text, "/p/gpulint.toml", &config, &error));
    CHECK(error.find("invalid TOML") != std::string::npos);
  }
}

TEST_CASE("a versions table pins engine and framework releases, each with where it is written",
          "[config][version]") {
  ProjectConfig config;
  std::string error;
  REQUIRE(gpulint::ParseProjectConfig("[versions]\nvllm = \"0.6.3\"\nsglang = \">=0.4.6\"\n"
                                      "trl = \"0.23\"\n",
                                      "gpulint.toml", &config, &error));
  CHECK(config.versions.at("vllm") == "0.6.3");
  CHECK(config.versions.at("sglang") == ">=0.4.6");
  CHECK(config.versions.at("trl") == "0.23");
  CHECK(config.versions_where.at("trl").find("gpulint.toml:4") != std::string::npos);
  // Which packages gpulint models is the flag maps' business: the workspace warns of others.
  CHECK(config.warnings.empty());

  ProjectConfig bad;
  CHECK_FALSE(gpulint::ParseProjectConfig("[versions]\nvllm = \"latest\"\n", "gpulint.toml", &bad,
                                          &error));
  CHECK(error.find("versions.vllm") != std::string::npos);
  CHECK(error.find("gpulint.toml:2") != std::string::npos);
  CHECK_FALSE(gpulint::ParseProjectConfig("versions = 3\n", "gpulint.toml", &bad, &error));
}

TEST_CASE("a pyproject.toml declares models as [[tool.gpulint.model]]", "[config]") {
  // Read from the top-level "model" array before, so a pyproject's models were dropped in silence.
  const std::string text =
      "[project]\nname = \"x\"\n[tool.gpulint]\ngpu = \"H100-80GB\"\n"
      "[[tool.gpulint.model]]\nhf_id = \"acme/tiny\"\nmodel_type = \"llama\"\nhidden_size = 64\n"
      "num_hidden_layers = 2\nnum_attention_heads = 4\nnum_key_value_heads = 4\n"
      "intermediate_size = 128\nvocab_size = 100\ntie_word_embeddings = true\n";
  ProjectConfig config;
  std::string error;
  REQUIRE(gpulint::ParseProjectConfig(text, "/p/pyproject.toml", &config, &error));
  REQUIRE(config.models.size() == 1);
  CHECK(config.models[0].hf_id == "acme/tiny");
  CHECK(config.models[0].arch.num_layers == 2);
  CHECK(config.gpu == "H100-80GB");
}

TEST_CASE("a generic table states what a team's own flags mean, checked as --set is",
          "[config][readings]") {
  ProjectConfig config;
  std::string error;
  REQUIRE(gpulint::ParseProjectConfig("[generic]\ndtype = \"bf16\"\nbatch_scope = \"global\"\n",
                                      "gpulint.toml", &config, &error));
  CHECK(config.generic.at("dtype") == "bf16");
  CHECK(config.generic.at("batch_scope") == "global");
  CHECK(config.generic_where.find("gpulint.toml:1") != std::string::npos);
  CHECK(config.warnings.empty());
  const std::pair<const char*, const char*> refused[] = {
      {"[generic]\nbatch_scope = \"globl\"\n",
       "'generic.batch_scope': not one of per_device, global: gpulint.toml:2"},
      {"[generic]\nbatch_scop = \"global\"\n", "'generic.batch_scop': unknown setting"},
      {"[generic]\nmicro_batch = 0\n", "'generic.micro_batch': less than 1"},
      {"generic = 1\n", "'generic' must be a table"},
  };
  for (const auto& [text, expected] : refused) {
    INFO(text);
    ProjectConfig bad;
    CHECK_FALSE(gpulint::ParseProjectConfig(text, "gpulint.toml", &bad, &error));
    CHECK(error.find(expected) == 0);
  }
}
