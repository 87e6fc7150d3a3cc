#include "core/eval/literal_format.h"

#include "absl/strings/str_cat.h"
#include "core/eval/strided_copy.h"

namespace systolic {
namespace {

class Printer {
 public:
  Printer(const Literal& literal, const LiteralFormatOptions& options)
      : l_(literal),
        dims_(literal.shape().dimensions()),
        strides_(eval::RowMajorStrides(literal.shape().dimensions())),
        elide_(literal.element_count() > options.max_elements),
        edge_(options.edge_items) {}

  std::string Print() {
    const int64_t rank = int64_t(dims_.size());
    std::string out = l_.shape().ToString();
    if (rank == 0) return absl::StrCat(out, " ", l_.ElementToString(0));
    if (rank == 1) {
      out += " {";
      Row(0, &out);
      return out + "}";
    }
    out += " {\n";
    Block(0, 0, &out);
    return out + "}";
  }

 private:
  // The positions of dimension d to print; -1 marks the elided middle.
  std::vector<int64_t> Positions(int64_t d) const {
    std::vector<int64_t> p;
    const int64_t n = dims_[d];
    if (!elide_ || n <= 2 * edge_ + 1) {
      for (int64_t i = 0; i < n; ++i) p.push_back(i);
      return p;
    }
    for (int64_t i = 0; i < edge_; ++i) p.push_back(i);
    p.push_back(-1);
    for (int64_t i = n - edge_; i < n; ++i) p.push_back(i);
    return p;
  }

  // The innermost dimension starting at `base`: "1, 2, 3".
  void Row(int64_t base, std::string* out) const {
    const int64_t d = int64_t(dims_.size()) - 1;
    bool first = true;
    for (int64_t i : Positions(d)) {
      if (!first) *out += ", ";
      first = false;
      *out += i < 0 ? "..." : l_.ElementToString(base + i * strides_[d]);
    }
  }

  // Dimensions [d, rank) starting at `base`, one line per row.
  void Block(int64_t d, int64_t base, std::string* out) const {
    const int64_t rank = int64_t(dims_.size());
    const std::vector<int64_t> positions = Positions(d);
    for (size_t k = 0; k < positions.size(); ++k) {
      const int64_t i = positions[k];
      const bool last = k + 1 == positions.size();
      if (i < 0) {
        *out += rank - d == 2 ? "  ...,\n" : "...,\n";
        continue;
      }
      const int64_t at = base + i * strides_[d];
      if (rank - d == 2) {
        *out += "  { ";
        Row(at, out);
        *out += last ? " }\n" : " },\n";
      } else {
        *out += absl::StrCat("{ /*i", d, "=", i, "*/\n");
        Block(d + 1, at, out);
        *out += last ? "}\n" : "},\n";
      }
    }
  }

  const Literal& l_;
  std::vector<int64_t> dims_;
  std::vector<int64_t> strides_;
  bool elide_;
  int64_t edge_;
};

}  // namespace

std::string FormatLiteral(const Literal& literal, const LiteralFormatOptions& options) {
  const Shape& shape = literal.shape();
  if (shape.IsTuple()) {
    std::string out = absl::StrCat(shape.ToString(), " (\n");
    for (int64_t i = 0; i < literal.tuple_size(); ++i) {
      out += FormatLiteral(literal.tuple_element(i), options);
      out += i + 1 < literal.tuple_size() ? ",\n" : "\n";
    }
    return out + ")";
  }
  if (!shape.IsArray()) return shape.ToString();
  return Printer(literal, options).Print();
}

}  // namespace systolic
