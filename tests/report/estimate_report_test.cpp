// The estimate's text report on a terminal: prose wraps under its own indent, nothing is lost.
#include "lint/report/estimate_report.h"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "tests/support/analysis_helpers.h"

namespace {

size_t LongestLine(const std::string& text) {
  std::istringstream in(text);
  size_t longest = 0;
  for (std::string line; std::getline(in, line);) longest = std::max(longest, line.size());
  return longest;
}

// The words of a text, whatever its line breaks and indents.
std::string Words(const std::string& text) {
  std::istringstream in(text);
  std::string out;
  for (std::string word; in >> word;) out += word + " ";
  return out;
}

}  // namespace

TEST_CASE("estimate's text wraps its prose at the terminal's width", "[report][estimate]") {
  // A GPU named without its size and an engine release not pinned: long assumptions.
  auto analyzed = gpulint::testing::AnalyzeText(
      "#SBATCH --gres=gpu:h100:8\n"
      "python -m sglang.launch_server --model-path Qwen/Qwen3-VL-30B-A3B-Thinking --tp 8 "
      "--context-length 16384\n");
  const std::string whole = gpulint::FileEstimateText(analyzed->analysis, false);
  const std::string wrapped = gpulint::FileEstimateText(analyzed->analysis, false, 80);
  CHECK(LongestLine(whole) > 80);
  CHECK(LongestLine(wrapped) <= 80);
  CHECK(Words(wrapped) == Words(whole));
  // A continued assumption is indented under its text, past the bullet.
  CHECK(wrapped.find("\n        ") != std::string::npos);
}
