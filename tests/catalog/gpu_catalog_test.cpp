// GPU names as SLURM, nvidia-smi, marketing and people write them.
#include "lint/catalog/gpu_catalog.h"

#include <catch2/catch.hpp>

#include "estimator/units.h"

using gpulint::GpuCatalog;

TEST_CASE("the GPU catalog holds every reference GPU with a memory size", "[catalog][gpu]") {
  GpuCatalog catalog;
  CHECK(catalog.entries().size() >= 25);
  for (const auto& entry : catalog.entries()) {
    INFO(entry.spec.name);
    CHECK(entry.spec.total_bytes > 8 * gpulint::est::kGiB);
  }
}

TEST_CASE("aliases resolve to canonical names", "[catalog][gpu]") {
  GpuCatalog catalog;
  const std::pair<const char*, const char*> rows[] = {
      {"H100-80GB", "H100-80GB"},
      {"NVIDIA H100 80GB HBM3", "H100-80GB"},     // nvidia-smi
      {"H100 SXM", "H100-80GB"},                  // marketing
      {"h200", "H200-141GB"},
      {"a100_80g", "A100-80GB"},                  // SLURM gres type
      {"A100-SXM4-80GB", "A100-80GB"},
      {"NVIDIA A100-SXM4-40GB", "A100-40GB"},
      {"rtx4090", "RTX-4090-24GB"},
      {"L40S", "L40S-48GB"},
      {"Tesla T4", "T4-16GB"},
  };
  for (const auto& [name, canonical] : rows) {
    INFO(name);
    auto result = catalog.Resolve(name);
    REQUIRE(result.spec);
    CHECK(result.spec->name == canonical);
    CHECK(result.assumptions.empty());
  }
}

TEST_CASE("nvidia-smi totals are the memory budget", "[catalog][gpu]") {
  GpuCatalog catalog;
  CHECK(catalog.Resolve("H100-80GB").spec->total_bytes == 81559.0 * 1024 * 1024);
  CHECK(catalog.Resolve("A100-80GB").spec->total_bytes == 81920.0 * 1024 * 1024);
  CHECK(catalog.Resolve("H200").spec->total_bytes == 143771.0 * 1024 * 1024);
}

TEST_CASE("an unsized name takes the smaller variant, as an assumption", "[catalog][gpu]") {
  GpuCatalog catalog;
  auto result = catalog.Resolve("a100");
  REQUIRE(result.spec);
  CHECK(result.spec->name == "A100-40GB");
  REQUIRE(result.assumptions.size() == 1);
  CHECK(result.assumptions[0].find("smaller variant") != std::string::npos);
}

TEST_CASE("an unsized name takes the cluster's declared size", "[catalog][gpu]") {
  GpuCatalog catalog;
  auto result = catalog.Resolve("a100", "A100-80GB");
  REQUIRE(result.spec);
  CHECK(result.spec->name == "A100-80GB");
  CHECK(result.assumptions.empty());
}

TEST_CASE("GENERIC-<N>GB is a GPU known only by its size", "[catalog][gpu]") {
  GpuCatalog catalog;
  auto result = catalog.Resolve("GENERIC-24GB");
  REQUIRE(result.spec);
  CHECK(result.spec->total_bytes == 24 * gpulint::est::kGiB);
  CHECK_FALSE(result.spec->fp8_support);
  CHECK(result.assumptions.size() == 1);
}

TEST_CASE("an unknown GPU gets suggestions", "[catalog][gpu]") {
  GpuCatalog catalog;
  auto result = catalog.Resolve("H10-80GB");
  CHECK_FALSE(result.spec);
  CHECK(result.message == "unknown GPU 'H10-80GB'");
  REQUIRE_FALSE(result.suggestions.empty());
  CHECK(result.suggestions[0] == "H100-80GB");
}

TEST_CASE("user GPUs from gpulint.toml", "[catalog][gpu]") {
  GpuCatalog catalog;
  std::string error;
  REQUIRE(catalog.AddFromToml(R"(
gpu = "ACME-X1"
[[gpu_type]]
name = "ACME-X1"
aliases = ["acme x1"]
memory_gib = 96
fp8_support = true
)", "gpulint.toml", &error));
  auto result = catalog.Resolve("acme x1");
  REQUIRE(result.spec);
  CHECK(result.spec->total_bytes == 96 * gpulint::est::kGiB);
  CHECK(result.spec->fp8_support);
}

TEST_CASE("a user GPU without memory is an error naming the file", "[catalog][gpu]") {
  GpuCatalog catalog;
  std::string error;
  CHECK_FALSE(catalog.AddFromToml("[[gpu_type]]\nname = \"X\"\n", "gpulint.toml", &error));
  CHECK(error.find("no memory size") != std::string::npos);
  CHECK(error.find("gpulint.toml") != std::string::npos);
}

TEST_CASE("the start-up name index finds every GPU by every name the full entry has",
          "[catalog][gpu]") {
  gpulint::GpuCatalog full;
  const auto& entries = full.entries();  // parses every entry in full
  REQUIRE(entries.size() >= 20);
  for (const gpulint::GpuEntry& entry : entries) {
    for (const std::string& alias : entry.aliases) {
      gpulint::GpuCatalog lazy;  // only the index, until Resolve parses the match
      gpulint::GpuResolution resolution = lazy.Resolve(alias);
      INFO(entry.spec.name << " by " << alias);
      REQUIRE(resolution.spec);
      // An alias shared with an unsized name (a100) may pick the smaller variant; otherwise it
      // is this GPU, with the same memory as the full parse.
      if (std::find(entry.unsized_aliases.begin(), entry.unsized_aliases.end(), alias) ==
          entry.unsized_aliases.end() && resolution.spec->name == entry.spec.name)
        CHECK(resolution.spec->total_bytes == entry.spec.total_bytes);
    }
  }
}
