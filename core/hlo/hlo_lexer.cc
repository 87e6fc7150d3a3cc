#include "core/hlo/hlo_lexer.h"

#include <cctype>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace systolic {

HloLexer::HloLexer(absl::string_view text, std::string filename, int first_line)
    : text_(text), filename_(std::move(filename)), line_(first_line) {}

namespace {

struct NameCharTable {
  bool is_name[256] = {};
  constexpr NameCharTable() {
    for (int c = 0; c < 256; ++c) {
      is_name[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '_' || c == '.' || c == '-';
    }
  }
};
constexpr NameCharTable kNameChars;

}  // namespace

bool HloLexer::IsNameChar(char c) { return kNameChars.is_name[static_cast<unsigned char>(c)]; }

void HloLexer::SkipWhitespaceSlow() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == '\n') {
      ++pos_;
      ++line_;
      line_start_ = pos_;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
      pos_ += 2;
      while (pos_ < text_.size() && !(text_[pos_] == '*' && pos_ + 1 < text_.size() &&
                                      text_[pos_ + 1] == '/')) {
        if (text_[pos_] == '\n') {
          ++line_;
          line_start_ = pos_ + 1;
        }
        ++pos_;
      }
      pos_ = std::min(pos_ + 2, text_.size());
    } else {
      break;
    }
  }
}

bool HloLexer::TryConsume(absl::string_view s) {
  SkipWhitespace();
  if (text_.substr(pos_, s.size()) != s) return false;
  pos_ += s.size();
  return true;
}

bool HloLexer::LooksAtKeyword(absl::string_view word) {
  SkipWhitespace();
  if (text_.substr(pos_, word.size()) != word) return false;
  size_t end = pos_ + word.size();
  return end >= text_.size() || !IsNameChar(text_[end]);
}

bool HloLexer::TryConsumeKeyword(absl::string_view word) {
  if (!LooksAtKeyword(word)) return false;
  pos_ += word.size();
  return true;
}

absl::Status HloLexer::Expect(char c, absl::string_view what) {
  if (TryConsume(c)) return absl::OkStatus();
  char got = Peek();
  std::string seen = got == '\0' ? "end of input" : absl::StrCat("'", std::string(1, got), "'");
  return ErrorHere(absl::StrCat("expected '", std::string(1, c), "' ", what, ", found ", seen));
}

absl::Status HloLexer::Expect(char c, absl::string_view prefix, absl::string_view subject) {
  if (TryConsume(c)) return absl::OkStatus();
  return Expect(c, absl::StrCat(prefix, subject));
}

absl::StatusOr<absl::string_view> HloLexer::ParseName(absl::string_view what) {
  SkipWhitespace();
  size_t start = pos_;
  if (pos_ < text_.size() && text_[pos_] == '%') ++pos_;
  size_t name_start = pos_;
  while (pos_ < text_.size() && IsNameChar(text_[pos_])) ++pos_;
  if (pos_ == name_start) {
    pos_ = start;
    return ErrorHere(absl::StrCat("expected ", what));
  }
  return text_.substr(name_start, pos_ - name_start);
}

absl::StatusOr<absl::string_view> HloLexer::ParseIdentifier(absl::string_view what) {
  absl::string_view id = PeekIdentifier();
  if (id.empty()) return ErrorHere(absl::StrCat("expected ", what));
  pos_ += id.size();
  return id;
}

absl::string_view HloLexer::PeekIdentifier() {
  SkipWhitespace();
  size_t end = pos_;
  if (end >= text_.size() ||
      !(std::isalpha(static_cast<unsigned char>(text_[end])) || text_[end] == '_')) {
    return {};
  }
  while (end < text_.size() && IsNameChar(text_[end])) ++end;
  return text_.substr(pos_, end - pos_);
}

absl::StatusOr<absl::string_view> HloLexer::ParseNumberText(absl::string_view what) {
  SkipWhitespace();
  size_t start = pos_, p = pos_;
  if (p < text_.size() && (text_[p] == '-' || text_[p] == '+')) ++p;
  auto word_at = [&](absl::string_view w) {
    return text_.substr(p, w.size()) == w &&
           (p + w.size() >= text_.size() || !IsNameChar(text_[p + w.size()]));
  };
  if (word_at("inf")) {
    p += 3;
  } else if (word_at("nan")) {
    p += 3;
  } else if (text_.substr(p, 2) == "0x" || text_.substr(p, 2) == "0X") {
    p += 2;
    while (p < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[p]))) ++p;
  } else {
    size_t digits_start = p;
    while (p < text_.size() && std::isdigit(static_cast<unsigned char>(text_[p]))) ++p;
    if (p < text_.size() && text_[p] == '.') {
      ++p;
      while (p < text_.size() && std::isdigit(static_cast<unsigned char>(text_[p]))) ++p;
    }
    if (p == digits_start || (p == digits_start + 1 && text_[digits_start] == '.')) {
      return ErrorHere(absl::StrCat("expected ", what));
    }
    if (p < text_.size() && (text_[p] == 'e' || text_[p] == 'E')) {
      size_t q = p + 1;
      if (q < text_.size() && (text_[q] == '-' || text_[q] == '+')) ++q;
      if (q < text_.size() && std::isdigit(static_cast<unsigned char>(text_[q]))) {
        p = q;
        while (p < text_.size() && std::isdigit(static_cast<unsigned char>(text_[p]))) ++p;
      }
    }
  }
  pos_ = p;
  return text_.substr(start, p - start);
}

absl::StatusOr<int64_t> HloLexer::ParseInt(absl::string_view what) {
  SkipWhitespace();
  // Fast path: a plain decimal integer not followed by a float's '.'/'e'.
  {
    size_t p = pos_;
    bool negative = p < text_.size() && text_[p] == '-';
    if (negative) ++p;
    size_t digits = p;
    uint64_t value = 0;
    while (p < text_.size() && text_[p] >= '0' && text_[p] <= '9' && p - digits < 18) {
      value = value * 10 + uint64_t(text_[p] - '0');
      ++p;
    }
    if (p > digits && (p >= text_.size() || !(IsNameChar(text_[p]) || text_[p] == '.'))) {
      pos_ = p;
      return negative ? -int64_t(value) : int64_t(value);
    }
  }
  Location where = location();
  auto text = ParseNumberText(what);
  if (!text.ok()) return text.status();
  int64_t value;
  if (!absl::SimpleAtoi(*text, &value)) {
    return Error(where, absl::StrCat("expected an integer for ", what, ", found '", *text, "'"));
  }
  return value;
}

absl::StatusOr<uint64_t> HloLexer::ParseUnsigned(absl::string_view what) {
  Location where = location();
  auto text = ParseNumberText(what);
  if (!text.ok()) return text.status();
  uint64_t value;
  if (!absl::SimpleAtoi(*text, &value)) {
    return Error(where, absl::StrCat("expected an unsigned integer for ", what, ", found '",
                                     *text, "'"));
  }
  return value;
}

absl::StatusOr<bool> HloLexer::ParseBool(absl::string_view what) {
  if (TryConsumeKeyword("true")) return true;
  if (TryConsumeKeyword("false")) return false;
  return ErrorHere(absl::StrCat("expected true or false for ", what));
}

absl::StatusOr<std::string> HloLexer::ParseString(absl::string_view what) {
  SkipWhitespace();
  if (pos_ >= text_.size() || text_[pos_] != '"') {
    return ErrorHere(absl::StrCat("expected a quoted string for ", what));
  }
  Location start = location();
  ++pos_;
  std::string out;
  while (pos_ < text_.size() && text_[pos_] != '"') {
    // Copy runs of plain characters at once.
    size_t run = pos_;
    while (run < text_.size() && text_[run] != '"' && text_[run] != '\\' && text_[run] != '\n') {
      ++run;
    }
    if (run > pos_) {
      out.append(text_.data() + pos_, run - pos_);
      pos_ = run;
      continue;
    }
    char c = text_[pos_++];
    if (c == '\n') {
      ++line_;
      line_start_ = pos_;
    }
    if (c != '\\') {
      out += c;
      continue;
    }
    if (pos_ >= text_.size()) break;
    char e = text_[pos_++];
    switch (e) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'x': {
        int value = 0, n = 0;
        while (n < 2 && pos_ < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[pos_]))) {
          char h = text_[pos_++];
          value = value * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
          ++n;
        }
        out += char(value);
        break;
      }
      default:
        out += e;  // \" \\ \' and anything else literally
    }
  }
  if (pos_ >= text_.size()) return Error(start, absl::StrCat("unterminated string in ", what));
  ++pos_;  // closing quote
  return out;
}

absl::StatusOr<absl::string_view> HloLexer::ParseBalancedBraces(absl::string_view what) {
  SkipWhitespace();
  if (pos_ >= text_.size() || text_[pos_] != '{') {
    return ErrorHere(absl::StrCat("expected '{' for ", what));
  }
  Location start = location();
  size_t begin = pos_;
  int depth = 0;
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == '"') {
      ++pos_;
      while (pos_ < text_.size() && text_[pos_] != '"') {
        if (text_[pos_] == '\\') ++pos_;
        if (pos_ < text_.size() && text_[pos_] == '\n') {
          ++line_;
          line_start_ = pos_ + 1;
        }
        ++pos_;
      }
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      if (--depth == 0) {
        ++pos_;
        return text_.substr(begin, pos_ - begin);
      }
    } else if (c == '\n') {
      ++line_;
      line_start_ = pos_ + 1;
    }
    ++pos_;
  }
  return Error(start, absl::StrCat("unbalanced braces in ", what));
}

HloLexer::Location HloLexer::location() {
  SkipWhitespace();
  return raw_location();
}

HloLexer::Location HloLexer::raw_location() const {
  return Location{pos_, line_, int(pos_ - line_start_) + 1};
}

absl::Status HloLexer::Error(const Location& where, absl::string_view message) const {
  // The line and caret come from the offset itself, so a location whose
  // column is off still prints (and never reads past the text).
  const size_t offset = std::min(where.offset, text_.size());
  const size_t newline = offset == 0 ? absl::string_view::npos : text_.rfind('\n', offset - 1);
  const size_t line_begin = newline == absl::string_view::npos ? 0 : newline + 1;
  size_t line_end = text_.find('\n', line_begin);
  if (line_end == absl::string_view::npos) line_end = text_.size();
  std::string line(text_.substr(line_begin, line_end - line_begin));
  // Long lines are cut around the column so the caret stays readable.
  int caret = int(offset - line_begin);
  if (line.size() > 160 && caret > 80) {
    size_t cut = size_t(caret - 60);
    line = "..." + line.substr(cut, 160);
    caret = caret - int(cut) + 3;
  } else if (line.size() > 160) {
    line = line.substr(0, 160) + "...";
  }
  return absl::InvalidArgumentError(absl::StrCat(filename_, ":", where.line, ":", where.column,
                                                 ": ", message, "\n", line, "\n",
                                                 std::string(std::max(caret, 0), ' '), "^"));
}

absl::Status HloLexer::ErrorHere(absl::string_view message) {
  return Error(location(), message);
}

}  // namespace systolic
