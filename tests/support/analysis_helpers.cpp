#include "tests/support/analysis_helpers.h"

#include <catch2/catch.hpp>

namespace gpulint::testing {

std::unique_ptr<Analyzed> AnalyzeText(const std::string& text, const std::string& name) {
  auto out = std::make_unique<Analyzed>();
  out->path = out->dir.Write(name, text);
  InputOptions options;
  options.paths = {out->path};
  options.isolated = true;
  out->workspace = std::make_unique<Workspace>(options);
  std::string error;
  std::vector<LoadedFile> files;
  REQUIRE(out->workspace->Init(&error));
  REQUIRE(out->workspace->LoadInputs(&files, &error));
  REQUIRE(files.size() == 1);
  INFO(error);
  REQUIRE(AnalyzeFile(*out->workspace, files[0], {}, &out->analysis, &error));
  return out;
}

size_t WorkloadWithRole(const FileAnalysis& analysis, const std::string& role) {
  const auto& workloads = analysis.read.config.workloads;
  for (size_t i = 0; i < workloads.size(); ++i)
    if (workloads[i].role == role) return i;
  FAIL("no workload with role " << role);
  return 0;
}

}  // namespace gpulint::testing
