// A baseline: the findings a team has accepted, recorded by `lint --write-baseline` as
// {"version": 1, "findings": [{"path", "rule", "fingerprint"}, ...]}, so that `lint --baseline`
// reports only new ones. The file comes from the repository, so it is untrusted input.
#pragma once

#include <set>
#include <string>

namespace gpulint {

/// The keys "path|fingerprint" of the findings `text` records. False with `error` ("baseline is
/// not a gpulint baseline ...: WHERE") when it is not JSON whose "findings" is a list of
/// objects with a string "path" and "fingerprint" (a "rule" and other fields are not needed).
bool ParseBaseline(const std::string& text, const std::string& where,
                   std::set<std::string>* keys, std::string* error);

}  // namespace gpulint
