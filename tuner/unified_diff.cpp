#include "tuner/unified_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <vector>

namespace gpulint {
namespace {

// Lines with their newline; a last line without one is marked so that the diff says so.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size() - 1;
    lines.push_back(text.substr(start, end - start + 1));
    start = end + 1;
  }
  return lines;
}

std::string Out(char mark, const std::string& line) {
  std::string out(1, mark);
  out += line;
  if (out.back() != '\n') out += "\n\\ No newline at end of file\n";
  return out;
}

// Longest common subsequence table of two line lists (scripts are small: thousands of lines).
std::vector<std::vector<int>> LcsTable(const std::vector<std::string>& a,
                                      const std::vector<std::string>& b) {
  std::vector<std::vector<int>> table(a.size() + 1, std::vector<int>(b.size() + 1, 0));
  for (size_t i = a.size(); i-- > 0;)
    for (size_t j = b.size(); j-- > 0;)
      table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1
                                 : std::max(table[i + 1][j], table[i][j + 1]);
  return table;
}

struct Step {
  char kind;  // ' ', '-', '+'
  size_t old_line, new_line;  // 0-based indices into before/after
};

}  // namespace

std::string UnifiedDiff(const std::string& path, const std::string& before,
                        const std::string& after, int context) {
  if (before == after) return "";
  std::vector<std::string> a = Lines(before), b = Lines(after);
  // Common head and tail are trimmed before the table, which then covers only the edited part.
  size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head &&
         a[a.size() - 1 - tail] == b[b.size() - 1 - tail])
    ++tail;
  std::vector<std::string> mid_a(a.begin() + head, a.end() - tail);
  std::vector<std::string> mid_b(b.begin() + head, b.end() - tail);
  // The table is quadratic; past a few million cells the edited region is shown replaced whole.
  std::vector<std::vector<int>> table;
  bool small = mid_a.size() * mid_b.size() <= 4'000'000;
  if (small) table = LcsTable(mid_a, mid_b);
  std::vector<Step> steps;
  for (size_t i = 0; i < head; ++i) steps.push_back({' ', i, i});
  size_t i = 0, j = 0;
  while (i < mid_a.size() || j < mid_b.size()) {
    // Removals before additions, as diff(1) and git print them.
    if (small && i < mid_a.size() && j < mid_b.size() && mid_a[i] == mid_b[j]) {
      steps.push_back({' ', head + i++, head + j++});
    } else if (i < mid_a.size() &&
               (j == mid_b.size() || !small || table[i + 1][j] >= table[i][j + 1])) {
      steps.push_back({'-', head + i++, head + j});
    } else {
      steps.push_back({'+', head + i, head + j++});
    }
  }
  for (size_t k = 0; k < tail; ++k)
    steps.push_back({' ', a.size() - tail + k, b.size() - tail + k});

  // a/ and b/ prefixes for a relative path (git apply, patch -p1); an absolute path as it is.
  std::string out = !path.empty() && path[0] == '/'
                        ? fmt::format("--- {}\n+++ {}\n", path, path)
                        : fmt::format("--- a/{}\n+++ b/{}\n", path, path);
  size_t k = 0;
  while (k < steps.size()) {
    while (k < steps.size() && steps[k].kind == ' ') ++k;
    if (k == steps.size()) break;
    // A hunk: from `context` lines before this change to `context` lines after the last change
    // that is no more than 2 * context unchanged lines further on.
    size_t first = k >= static_cast<size_t>(context) ? k - context : 0;
    size_t last = k;
    for (size_t m = k; m < steps.size(); ++m) {
      if (steps[m].kind != ' ') last = m;
      else if (m - last > static_cast<size_t>(2 * context)) break;
    }
    size_t end = std::min(steps.size(), last + context + 1);
    size_t old_count = 0, new_count = 0;
    for (size_t m = first; m < end; ++m) {
      old_count += steps[m].kind != '+';
      new_count += steps[m].kind != '-';
    }
    size_t old_start = steps[first].old_line + (old_count ? 1 : 0);
    size_t new_start = steps[first].new_line + (new_count ? 1 : 0);
    out += fmt::format("@@ -{},{} +{},{} @@\n", old_start, old_count, new_start, new_count);
    for (size_t m = first; m < end; ++m) {
      const Step& s = steps[m];
      out += Out(s.kind, s.kind == '+' ? b[s.new_line] : a[s.old_line]);
    }
    k = end;
  }
  return out;
}

std::string DiffPath(const std::string& path, const std::string& cwd) {
  namespace fs = std::filesystem;
  if (cwd.empty()) return path;  // the working folder is not known: as typed
  std::string folder = cwd;
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  const fs::path base = fs::path(folder).lexically_normal();
  fs::path full = fs::path(path);
  if (full.is_relative()) full = base / full;
  full = full.lexically_normal();
  const fs::path inside = full.lexically_relative(base);
  if (!inside.empty() && *inside.begin() != ".." && inside != ".") return inside.string();
  return full.string();
}

}  // namespace gpulint
