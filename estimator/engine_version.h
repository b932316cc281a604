// Versions of an inference engine and the ranges a repository allows: "0.6.3" (one release),
// ">=0.8.5,<=0.12.0" (a requirements pin), "v0.10.1.post1" (an image tag). The engine's memory
// accounting changed between releases (estimator/engine_era.h), so an estimate holds for the
// versions a range admits, not for one guessed release.
#pragma once

#include <string>

namespace gpulint::est {

/// major.minor.patch; what follows (".post1", "rc2", ".dev233+gad5a35c2", "-cu124") is dropped:
/// no accounting change gpulint models lands in a post, rc or dev release.
struct EngineVersion {
  int major = 0, minor = 0, patch = 0;

  friend bool operator<(const EngineVersion& a, const EngineVersion& b) {
    if (a.major != b.major) return a.major < b.major;
    if (a.minor != b.minor) return a.minor < b.minor;
    return a.patch < b.patch;
  }
  friend bool operator==(const EngineVersion& a, const EngineVersion& b) {
    return a.major == b.major && a.minor == b.minor && a.patch == b.patch;
  }
  friend bool operator<=(const EngineVersion& a, const EngineVersion& b) { return !(b < a); }
  std::string ToString() const;
};

/// The versions a pin admits, both ends inclusive. An open end is the oldest (0.0.0) or the
/// newest (kNewestVersion) release.
struct VersionRange {
  EngineVersion low, high;
  bool Contains(const EngineVersion& v) const { return low <= v && v <= high; }
  bool Exact() const { return low == high; }
  std::string ToString() const;  ///< "0.6.3", "0.8.5 to 0.12.0", "0.9.0 or later"
  std::string ToSpec() const;    ///< what ParseVersionRange reads back: "0.6.3", ">=0.9.0,<=1.2.0"
};

/// Stands for "no upper bound": later than any release.
inline constexpr EngineVersion kNewestVersion{999, 0, 0};

/// "0.6.3", "v0.6.3", "0.7.3.dev233+gad5a35c2", "0.10", "1": false for text that does not start
/// with a number (after an optional 'v'), or numbers above 9999.
bool ParseEngineVersion(const std::string& text, EngineVersion* version);

/// A pip-style specifier list or a bare version: "==0.6.3", "0.6.3", ">=0.8.5,<=0.12.0",
/// "<0.9", "~=0.6.3" (0.6.3 up to 0.7), ">0.5" (0.5.1 on), "!=0.8.0" (ignored: it removes one
/// release, not an era), "*" (any). False when a clause cannot be read or the range is empty.
bool ParseVersionRange(const std::string& text, VersionRange* range);

}  // namespace gpulint::est
