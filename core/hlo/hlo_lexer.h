// A cursor over HLO text: skips whitespace and `//` / `/* */` comments,
// scans identifiers, numbers and strings, and formats errors as
// `file:line:column: message` with the offending line and a caret.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace systolic {

class HloLexer {
 public:
  struct Location {
    size_t offset = 0;
    int line = 1;
    int column = 1;
  };

  HloLexer(absl::string_view text, std::string filename, int first_line);

  // Skips whitespace and comments; keeps the line count. Inline for the
  // common case of a cursor already on a significant character: the parser
  // peeks several times per token.
  void SkipWhitespace() {
    if (pos_ < text_.size() && !MayStartSpaceOrComment(text_[pos_])) return;
    SkipWhitespaceSlow();
  }
  bool AtEnd() {
    SkipWhitespace();
    return pos_ >= text_.size();
  }
  // The next significant character ('\0' at the end).
  char Peek() {
    SkipWhitespace();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  // Raw character `ahead` after the next significant one.
  char PeekAt(size_t ahead) {
    SkipWhitespace();
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  bool TryConsume(char c) {
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  // `text` exactly (punctuation such as "->" or "<=").
  bool TryConsume(absl::string_view text);
  // A whole word: `word` not followed by an identifier character.
  bool TryConsumeKeyword(absl::string_view word);
  bool LooksAtKeyword(absl::string_view word);
  absl::Status Expect(char c, absl::string_view what);
  // As above with the description "<prefix><subject>", built only on error.
  absl::Status Expect(char c, absl::string_view prefix, absl::string_view subject);

  // [%]name: letters, digits, '_', '.', '-' (a leading '%' is dropped).
  absl::StatusOr<absl::string_view> ParseName(absl::string_view what);
  // An identifier that may not start with a digit (keys, keywords, types).
  absl::StatusOr<absl::string_view> ParseIdentifier(absl::string_view what);
  absl::string_view PeekIdentifier();
  absl::StatusOr<int64_t> ParseInt(absl::string_view what);
  absl::StatusOr<uint64_t> ParseUnsigned(absl::string_view what);
  // Text of a number as written ("-1.5e3", "inf", "-nan", "0x1F"); not consumed on failure.
  absl::StatusOr<absl::string_view> ParseNumberText(absl::string_view what);
  absl::StatusOr<bool> ParseBool(absl::string_view what);
  // "..." with C escapes.
  absl::StatusOr<std::string> ParseString(absl::string_view what);
  // Raw text of a balanced {...} (strings respected), braces included.
  absl::StatusOr<absl::string_view> ParseBalancedBraces(absl::string_view what);
  // Raw characters while `pred` holds, after skipping whitespace.
  template <typename Pred>
  absl::string_view ScanWhile(Pred pred) {
    SkipWhitespace();
    size_t start = pos_;
    while (pos_ < text_.size() && pred(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  // The text from the next significant character on, for a caller that
  // scans a token itself (a number read in place with std::from_chars);
  // Advance(n) then consumes n characters of it, none of them a newline.
  absl::string_view Remaining() {
    SkipWhitespace();
    return text_.substr(pos_);
  }
  void Advance(size_t n) { pos_ += n; }

  Location location();  // of the next significant character
  Location raw_location() const;  // of the cursor, without skipping
  // An error at `where`: "file:line:col: message\n<line>\n<caret>".
  absl::Status Error(const Location& where, absl::string_view message) const;
  absl::Status ErrorHere(absl::string_view message);
  const std::string& filename() const { return filename_; }

  static bool IsNameChar(char c);

 private:
  static bool MayStartSpaceOrComment(char c) {
    return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '/';
  }
  void SkipWhitespaceSlow();

  absl::string_view text_;
  std::string filename_;
  size_t pos_ = 0;
  int line_;
  size_t line_start_ = 0;
};

}  // namespace systolic
