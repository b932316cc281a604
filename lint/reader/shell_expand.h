// Expansion helpers shared by the evaluator: glob-style pattern removal (${X##*/}), shell
// arithmetic ($((A * B))) and `[ ... ]` tests over values that are known.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpulint {

/// bash glob match of `text` against `pattern` (*, ?, [...] and literal characters).
bool GlobMatch(const std::string& pattern, const std::string& text);

/// ${X#p} (shortest prefix), ${X##p} (longest prefix), ${X%p}, ${X%%p}: the [begin, end) range
/// of `value` that remains after removing the match.
void RemovePattern(const std::string& value, const std::string& op, const std::string& pattern,
                   size_t* begin, size_t* end);

/// Evaluates integer shell arithmetic. `lookup` returns a variable's number (nullopt when
/// unknown). Returns nullopt when the expression is invalid or uses an unknown value;
/// `unknown_name` then names the unknown variable, if that was the cause.
std::optional<long long> EvaluateArithmetic(
    const std::string& expression,
    const std::function<std::optional<long long>(const std::string&)>& lookup,
    std::string* unknown_name);

/// Decides `[ args ]` / `test args` / `[[ args ]]` with known operands; nullopt when it
/// depends on something unknown (files, unknown values) or is not understood.
std::optional<bool> EvaluateTest(const std::vector<std::optional<std::string>>& args,
                                 bool double_bracket);

}  // namespace gpulint
