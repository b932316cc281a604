#include "estimator/engine_version.h"

#include <fmt/format.h>

#include <cctype>
#include <string_view>
#include <vector>

namespace gpulint::est {
namespace {

constexpr int kLargestPart = 9999;

// Reads "12" at text[*at], advancing *at; false without a digit or above kLargestPart.
bool ReadPart(std::string_view text, size_t* at, int* part) {
  size_t start = *at;
  int value = 0;
  while (*at < text.size() && std::isdigit(static_cast<unsigned char>(text[*at]))) {
    value = value * 10 + (text[*at] - '0');
    if (value > kLargestPart) return false;
    ++*at;
  }
  *part = value;
  return *at > start;
}

// Counts the numeric parts of a version ("0.6" has 2), for "~=" and wildcards.
int PartsWritten(std::string_view text) {
  size_t at = text.find_first_not_of("v ");
  int parts = 0;
  int part = 0;
  while (at != std::string_view::npos && at < text.size() && ReadPart(text, &at, &part)) {
    ++parts;
    if (at >= text.size() || text[at] != '.') break;
    ++at;
  }
  return parts;
}

// The last release before `v` ("<0.9" admits 0.8.x).
EngineVersion Before(EngineVersion v) {
  if (v.patch > 0) {
    --v.patch;
  } else if (v.minor > 0) {
    --v.minor;
    v.patch = kLargestPart;
  } else if (v.major > 0) {
    --v.major;
    v.minor = v.patch = kLargestPart;
  }
  return v;
}

std::string_view TrimView(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string EngineVersion::ToString() const {
  return fmt::format("{}.{}.{}", major, minor, patch);
}

std::string VersionRange::ToString() const {
  if (Exact()) return low.ToString();
  if (high == kNewestVersion) return low == EngineVersion{} ? "any version"
                                                            : low.ToString() + " or later";
  if (low == EngineVersion{}) return high.ToString() + " or earlier";
  return low.ToString() + " to " + high.ToString();
}

std::string VersionRange::ToSpec() const {
  if (Exact()) return low.ToString();
  std::string spec = ">=" + low.ToString();
  if (!(high == kNewestVersion)) spec += ",<=" + high.ToString();
  return spec;
}

bool ParseEngineVersion(const std::string& text, EngineVersion* version) {
  std::string_view s = TrimView(text);
  size_t at = 0;
  if (at < s.size() && (s[at] == 'v' || s[at] == 'V')) ++at;
  EngineVersion v;
  if (!ReadPart(s, &at, &v.major)) return false;
  if (at + 1 < s.size() && s[at] == '.' && std::isdigit(static_cast<unsigned char>(s[at + 1]))) {
    ++at;
    if (!ReadPart(s, &at, &v.minor)) return false;
    if (at + 1 < s.size() && s[at] == '.' &&
        std::isdigit(static_cast<unsigned char>(s[at + 1]))) {
      ++at;
      if (!ReadPart(s, &at, &v.patch)) return false;
    }
  }
  *version = v;
  return true;
}

bool ParseVersionRange(const std::string& text, VersionRange* range) {
  VersionRange r{EngineVersion{}, kNewestVersion};
  std::string_view all = TrimView(text);
  if (all.empty()) return false;
  size_t start = 0;
  while (start <= all.size()) {
    size_t comma = all.find(',', start);
    std::string_view clause =
        TrimView(all.substr(start, comma == std::string_view::npos ? all.npos : comma - start));
    start = comma == std::string_view::npos ? all.size() + 1 : comma + 1;
    if (clause.empty()) return false;
    if (clause == "*") continue;
    std::string_view op;
    for (std::string_view candidate : {"===", "==", ">=", "<=", "~=", "!=", ">", "<"})
      if (clause.substr(0, candidate.size()) == candidate) {
        op = candidate;
        break;
      }
    std::string_view rest = TrimView(clause.substr(op.size()));
    bool wildcard = rest.size() >= 2 && rest.substr(rest.size() - 2) == ".*";
    if (wildcard) rest.remove_suffix(2);
    EngineVersion v;
    if (!ParseEngineVersion(std::string(rest), &v)) return false;
    const int parts = PartsWritten(rest);
    if (op.empty() || op == "==" || op == "===") {
      // "==0.8.*" and "0.8" admit every 0.8.x; "0.8.5" one release.
      EngineVersion last = v;
      if (wildcard || parts < 3) {
        if (parts <= 1) last.minor = kLargestPart;
        last.patch = kLargestPart;
      }
      if (r.low < v) r.low = v;
      if (last < r.high) r.high = last;
    } else if (op == ">=") {
      if (r.low < v) r.low = v;
    } else if (op == ">") {
      EngineVersion next = v;
      ++next.patch;
      if (r.low < next) r.low = next;
    } else if (op == "<=") {
      if (v < r.high) r.high = v;
    } else if (op == "<") {
      EngineVersion last = Before(v);
      if (last < r.high) r.high = last;
    } else if (op == "~=") {
      // Compatible release: "~=0.6.3" is >=0.6.3, ==0.6.*; "~=0.6" is >=0.6, ==0.*.
      EngineVersion last = v;
      if (parts >= 3) {
        last.patch = kLargestPart;
      } else {
        last.minor = last.patch = kLargestPart;
      }
      if (r.low < v) r.low = v;
      if (last < r.high) r.high = last;
    }
    // "!=" removes a release, never an era: nothing to narrow.
  }
  if (r.high < r.low) return false;
  *range = r;
  return true;
}

}  // namespace gpulint::est
