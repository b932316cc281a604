#include "lint/reader/map_condition.h"

#include "lint/util/strings.h"

namespace gpulint {

bool ConditionHolds(const std::string& when, const Workload& workload) {
  if (when.empty()) return true;
  // "a & b": both hold.
  if (size_t amp = when.find(" & "); amp != std::string::npos)
    return ConditionHolds(when.substr(0, amp), workload) &&
           ConditionHolds(when.substr(amp + 3), workload);
  size_t op = when.find_first_of("=>");
  if (op == std::string::npos) {
    // "!name": the setting is absent, a false switch or empty.
    if (when.size() > 1 && when[0] == '!') return !ConditionHolds(when.substr(1), workload);
    if (auto b = workload.Bool(when)) return *b;
    auto text = workload.String(when);
    return text && !text->empty();
  }
  // "name!=value": absent, or any other value.
  if (when[op] == '=' && op > 0 && when[op - 1] == '!') {
    auto value = workload.String(when.substr(0, op - 1));
    return !value || *value != when.substr(op + 1);
  }
  const std::string name = when.substr(0, op), operand = when.substr(op + 1);
  if (when[op] == '>') {
    auto number = workload.Number(name);
    double bound = 0;
    return number && ParseNumber(operand, &bound) && *number > bound;
  }
  auto value = workload.String(name);
  return value && *value == operand;
}

bool ValidCondition(const std::string& when, std::string* why) {
  if (size_t amp = when.find(" & "); amp != std::string::npos) {
    const std::string first = when.substr(0, amp), rest = when.substr(amp + 3);
    if (first.empty() || rest.empty()) {
      *why = "has nothing on one side of '&'";
      return false;
    }
    return ValidCondition(first, why) && ValidCondition(rest, why);
  }
  size_t op = when.find_first_of("=>");
  if (op == std::string::npos) {
    if (when == "!") *why = "names no setting after '!'";
    return when != "!";
  }
  double bound = 0;
  if (op == 0 || (op == 1 && when[0] == '!')) {
    *why = "names no setting before '" + std::string(1, when[0]) + "'";
    return false;
  }
  if (when[op] == '>' && !ParseNumber(when.substr(op + 1), &bound)) {
    *why = "compares with '" + when.substr(op + 1) + "', not a number";
    return false;
  }
  return true;
}

}  // namespace gpulint
