#include "lint/reader/shell_text.h"

namespace gpulint {

Text Text::Literal(std::string text, int file, size_t offset, size_t length, bool exact,
                   bool quoted) {
  Text t;
  TextPiece piece;
  piece.text = std::move(text);
  piece.file = file;
  piece.offset = offset;
  piece.length = length;
  piece.exact = exact;
  piece.quoted = quoted;
  t.pieces_.push_back(std::move(piece));
  return t;
}

Text Text::Unknown(std::string reason, int file, size_t offset, size_t length) {
  Text t;
  TextPiece piece;
  piece.file = file;
  piece.offset = offset;
  piece.length = length;
  piece.unknown = true;
  piece.unknown_reason = std::move(reason);
  piece.quoted = true;  // an unknown value is never split into fields
  t.pieces_.push_back(std::move(piece));
  return t;
}

void Text::Append(const Text& other) {
  for (const TextPiece& piece : other.pieces_) AppendPiece(piece);
}

void Text::AppendPiece(TextPiece piece) {
  if (!piece.unknown && piece.text.empty()) return;
  pieces_.push_back(std::move(piece));
}

std::string Text::Str() const {
  std::string out;
  for (const TextPiece& piece : pieces_) out += piece.text;
  return out;
}

bool Text::Known() const {
  for (const TextPiece& piece : pieces_)
    if (piece.unknown) return false;
  return true;
}

std::string Text::UnknownReason() const {
  for (const TextPiece& piece : pieces_)
    if (piece.unknown) return piece.unknown_reason;
  return "";
}

Text Text::Substr(size_t begin, size_t end) const {
  Text out;
  size_t position = 0;
  for (const TextPiece& piece : pieces_) {
    size_t piece_begin = position, piece_end = position + piece.text.size();
    position = piece_end;
    if (piece.unknown) {
      // An unknown piece has no characters; keep it when it sits inside the range.
      if (piece_begin >= begin && piece_begin < end) out.pieces_.push_back(piece);
      continue;
    }
    size_t from = std::max(begin, piece_begin), to = std::min(end, piece_end);
    if (from >= to) continue;
    TextPiece slice = piece;
    slice.text = piece.text.substr(from - piece_begin, to - from);
    if (piece.exact) {
      slice.offset = piece.offset + (from - piece_begin);
      slice.length = to - from;
    } else {
      slice.exact = false;  // escapes inside: positions do not map one to one
    }
    out.pieces_.push_back(std::move(slice));
  }
  return out;
}

bool Text::ExactRun(int* file, size_t* offset, size_t* length) const {
  if (pieces_.empty()) return false;
  const TextPiece& first = pieces_.front();
  if (!first.exact || first.unknown) return false;
  size_t run_end = first.offset + first.length;
  for (size_t i = 1; i < pieces_.size(); ++i) {
    const TextPiece& piece = pieces_[i];
    if (!piece.exact || piece.unknown || piece.file != first.file || piece.offset != run_end)
      return false;
    run_end += piece.length;
  }
  *file = first.file;
  *offset = first.offset;
  *length = run_end - first.offset;
  return true;
}

std::string Text::Variable() const {
  if (pieces_.empty()) return "";
  std::string name = pieces_.front().variable;
  for (const TextPiece& piece : pieces_)
    if (piece.variable != name) return "";
  return name;
}

bool Text::FromDefault() const {
  for (const TextPiece& piece : pieces_)
    if (piece.from_default) return true;
  return false;
}

void Text::MarkVariable(const std::string& name, bool from_default) {
  for (TextPiece& piece : pieces_) {
    if (piece.variable.empty()) piece.variable = name;
    piece.from_default = piece.from_default || from_default;
  }
}

std::vector<Text> Text::SplitFields() const {
  std::vector<Text> fields;
  Text current;
  bool in_field = false;
  auto flush = [&] {
    if (in_field) fields.push_back(std::move(current));
    current = Text();
    in_field = false;
  };
  for (const TextPiece& piece : pieces_) {
    if (piece.quoted || piece.unknown) {
      current.pieces_.push_back(piece);
      in_field = true;
      continue;
    }
    size_t start = 0;
    for (size_t i = 0; i <= piece.text.size(); ++i) {
      bool blank = i < piece.text.size() &&
                   (piece.text[i] == ' ' || piece.text[i] == '\t' || piece.text[i] == '\n');
      if (i == piece.text.size() || blank) {
        if (i > start) {
          Text one;
          one.pieces_.push_back(piece);
          Text slice = one.Substr(start, i);
          current.Append(slice);
          in_field = true;
        }
        if (blank) flush();
        start = i + 1;
      }
    }
  }
  flush();
  return fields;
}

std::optional<std::pair<int, size_t>> Text::Start() const {
  for (const TextPiece& piece : pieces_)
    if (piece.file >= 0) return std::make_pair(piece.file, piece.offset);
  return std::nullopt;
}

}  // namespace gpulint
