// A string after shell expansion that remembers where each of its characters was written:
// the basis of exact spans ("the 16 in MBS=16 on line 3") through variables and defaults.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpulint {

struct TextPiece {
  std::string text;
  int file = -1;          ///< SourceMap index of the file holding the characters, -1: none
  size_t offset = 0;      ///< where the characters are written
  size_t length = 0;
  bool exact = false;     ///< `text` equals the source bytes [offset, offset + length)
  bool quoted = false;    ///< from inside quotes: never split into fields
  std::string variable;   ///< the variable it came through, "" when written in place
  bool from_default = false;  ///< from a ${X:-default}
  bool unknown = false;   ///< stands for a value gpulint cannot know
  std::string unknown_reason;
};

class Text {
 public:
  Text() = default;
  static Text Literal(std::string text, int file, size_t offset, size_t length, bool exact,
                      bool quoted);
  static Text Unknown(std::string reason, int file, size_t offset, size_t length);

  void Append(const Text& other);
  void AppendPiece(TextPiece piece);
  const std::vector<TextPiece>& pieces() const { return pieces_; }
  std::vector<TextPiece>& mutable_pieces() { return pieces_; }
  bool empty() const { return pieces_.empty(); }

  /// The expanded string (unknown pieces contribute nothing).
  std::string Str() const;
  bool Known() const;
  /// Why the text is not known (the first unknown piece's reason).
  std::string UnknownReason() const;
  /// The characters [begin, end) of Str(), with their provenance.
  Text Substr(size_t begin, size_t end) const;
  /// When the whole text is one run of exact source characters: that run (file, offset,
  /// length). Adjacent exact pieces that touch in the source count as one run.
  bool ExactRun(int* file, size_t* offset, size_t* length) const;
  /// The variable the whole text came through ("" when written in place or mixed).
  std::string Variable() const;
  bool FromDefault() const;
  /// Marks every piece as having come through variable `name`.
  void MarkVariable(const std::string& name, bool from_default);
  /// Splits at unquoted blanks (IFS default) into fields, as the shell does for $X unquoted.
  std::vector<Text> SplitFields() const;
  /// Where the text starts in the source (first piece with a file), or nullopt.
  std::optional<std::pair<int, size_t>> Start() const;

 private:
  std::vector<TextPiece> pieces_;
};

}  // namespace gpulint
