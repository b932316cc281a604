#include "lint/core/setting.h"

#include <fmt/format.h>

#include "lint/util/strings.h"

namespace gpulint {

const char* OriginName(Origin origin) {
  switch (origin) {
    case Origin::kLiteral: return "literal";
    case Origin::kVariableDefault: return "variable-default";
    case Origin::kConfigFile: return "config-file";
    case Origin::kFrameworkDefault: return "framework-default";
    case Origin::kDirective: return "directive";
    case Origin::kCommandLine: return "command-line";
  }
  return "literal";
}

Value Value::Number(double n, std::string spelling) {
  Value v;
  v.kind = Kind::kNumber;
  v.number = n;
  v.text = spelling.empty() ? fmt::format("{}", n) : std::move(spelling);
  return v;
}

Value Value::Bool(bool b) {
  Value v;
  v.kind = Kind::kBool;
  v.boolean = b;
  v.text = b ? "true" : "false";
  return v;
}

Value Value::String(std::string s) {
  Value v;
  v.kind = Kind::kString;
  v.text = std::move(s);
  return v;
}

Value Value::List(std::vector<std::string> items) {
  Value v;
  v.kind = Kind::kList;
  v.list = std::move(items);
  v.text = Join(v.list, ",");
  return v;
}

std::string Value::ToString() const {
  switch (kind) {
    case Kind::kNone: return "";
    case Kind::kNumber: return fmt::format("{}", number);
    case Kind::kBool: return boolean ? "true" : "false";
    case Kind::kString: return text;
    case Kind::kList: return Join(list, ",");
  }
  return "";
}

}  // namespace gpulint
