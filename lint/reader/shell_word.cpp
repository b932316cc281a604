#include "lint/reader/shell_word.h"

namespace gpulint {

bool Word::IsLiteral(std::string* text) const {
  std::string out;
  for (const WordPart& part : parts) {
    if (part.kind != WordPart::Kind::kLiteral) return false;
    out += part.text;
  }
  if (text) *text = std::move(out);
  return true;
}

}  // namespace gpulint
