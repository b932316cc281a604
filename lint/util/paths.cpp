#include "lint/util/paths.h"

#include <vector>

namespace gpulint {

std::string JoinPath(std::string_view base, std::string_view path) {
  if (base.empty() || (!path.empty() && path.front() == '/')) return std::string(path);
  std::string joined(base);
  if (joined.back() != '/') joined += '/';
  joined += path;
  return joined;
}

std::string LexicallyNormal(std::string_view path) {
  if (path.empty()) return "";
  const bool absolute = path.front() == '/';
  std::vector<std::string_view> kept;
  std::string_view last;  // the last non-empty element as written
  for (size_t start = 0; start <= path.size();) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view element = path.substr(start, end - start);
    start = end + 1;
    if (element.empty()) continue;
    last = element;
    if (element == ".") continue;
    if (element == "..") {
      if (!kept.empty() && kept.back() != "..")
        kept.pop_back();
      else if (!absolute)
        kept.push_back(element);  // at the root, ".." is the root
      continue;
    }
    kept.push_back(element);
  }
  // "a/b/", "a/b/." and "a/b/c/.." name a folder: the result keeps the trailing '/', unless it
  // ends in "..".
  bool names_folder = path.back() == '/' || last == "." || last == "..";
  std::string out = absolute ? "/" : "";
  for (size_t i = 0; i < kept.size(); ++i) {
    if (i > 0) out += '/';
    out += kept[i];
  }
  if (!kept.empty() && names_folder && kept.back() != "..") out += '/';
  return out.empty() ? "." : out;
}

std::string JoinNormal(std::string_view base, std::string_view path) {
  return LexicallyNormal(JoinPath(base, path));
}

std::string ReportPath(std::string_view path, std::string_view working_dir) {
  if (path.empty()) return "";
  std::string out = path.front() == '/' ? "/" : "";
  for (size_t start = 0; start <= path.size();) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view element = path.substr(start, end - start);
    start = end + 1;
    if (element.empty() || element == ".") continue;
    if (!out.empty() && out.back() != '/') out += '/';
    out += element;
  }
  if (out.empty()) return ".";
  while (working_dir.size() > 1 && working_dir.back() == '/') working_dir.remove_suffix(1);
  if (out.front() == '/' && working_dir.size() > 1 && working_dir.front() == '/') {
    if (out == working_dir) return ".";
    if (out.size() > working_dir.size() && out.compare(0, working_dir.size(), working_dir) == 0 &&
        out[working_dir.size()] == '/')
      return out.substr(working_dir.size() + 1);
  }
  return out;
}

}  // namespace gpulint
