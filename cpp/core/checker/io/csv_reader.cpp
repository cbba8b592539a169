#include "checker/io/csv_reader.h"

#include <cstring>

#include "base/format.h"
#include "base/size_limits.h"
#include "checker/io/text_values.h"

namespace attn {

using namespace text_io;

std::vector<Tensor> parse_csv(const std::uint8_t* data, std::size_t size,
                              const std::vector<std::string>& names, const char* argument) {
  if (size == 0) fail_kind(argument, "file_empty", "", "csv: the file is empty");
  const bool tagged = !names.empty();
  const char* const end = reinterpret_cast<const char*>(data) + size;
  const char* s = reinterpret_cast<const char*>(data) + text_start(data, size, argument, "csv");
  Growing t[2];
  std::size_t first_line[2] = {0, 0};
  std::size_t line_no = 0;

  for (const char* line = s; line < end;) {
    const char* nl = static_cast<const char*>(std::memchr(line, '\n', static_cast<std::size_t>(end - line)));
    const char* le = nl ? nl : end;
    const char* next = nl ? nl + 1 : end;
    ++line_no;
    if (le > line && le[-1] == '\r') --le;
    const char* p = line;
    while (p < le && is_space(*p)) ++p;
    if (p == le || *p == '#') {
      line = next;
      continue;
    }
    const bool commas = std::memchr(p, ',', static_cast<std::size_t>(le - p)) != nullptr;
    // Field i is [fb, fe), trimmed; advance() moves to the next one.
    const char* fb = p;
    const char* fe = p;
    bool more = true;
    auto advance = [&]() {
      if (commas) {
        const char* c = static_cast<const char*>(std::memchr(fb, ',', static_cast<std::size_t>(le - fb)));
        fe = c ? c : le;
        more = c != nullptr;
        const char* b = fb;
        while (b < fe && is_space(*b)) ++b;
        const char* e = fe;
        while (e > b && is_space(e[-1])) --e;
        const char* after = c ? c + 1 : le;
        fb = b;
        fe = e;
        return after;
      }
      fe = fb;
      while (fe < le && !is_space(*fe)) ++fe;
      const char* after = fe;
      while (after < le && is_space(*after)) ++after;
      more = after < le;
      return after;
    };
    const char* after = advance();
    std::size_t which = 0;
    float v = 0;
    const bool first_is_number = read_value(fb, fe, v) == NumberRead::Ok;
    if (tagged) {
      const std::string tag(fb, fe);
      if (tag == names[0]) which = 0;
      else if (tag == names[1]) which = 1;
      else if (first_is_number)
        fail_kind(argument, "row_names", strf("{\"line\":%zu,\"q\":", line_no) + jstr(names[0]) + ",\"k\":" + jstr(names[1]) + "}",
                 "csv: line %zu starts with a number: when one file holds both, every row starts with "
                 "'%s' or '%s' (or give two files, q first, then k)",
                 line_no, names[0].c_str(), names[1].c_str());
      else
        fail_kind(argument, "row_names", strf("{\"line\":%zu,\"q\":", line_no) + jstr(names[0]) + ",\"k\":" + jstr(names[1]) + "}",
                  "csv: line %zu starts with '%s', not '%s' or '%s'", line_no,
                 printable(fb, fe).c_str(), names[0].c_str(), names[1].c_str());
      if (!more) fail_kind(argument, "syntax", strf("{\"format\":\"csv\",\"line\":%zu}", line_no), "csv: line %zu has a name but no values", line_no);
      fb = after;
      after = advance();
    } else if (!first_is_number && (fe - fb == 1) && (*fb == 'q' || *fb == 'k')) {
      fail_kind(argument, "npz_alone", strf("{\"line\":%zu}", line_no), "csv: line %zu starts with '%c': a file of named rows holds both q and k, so give it alone",
               line_no, *fb);
    }
    Growing& g = t[which];
    const std::size_t row_start = g.data.size();
    std::size_t field = tagged ? 2 : 1;
    while (true) {
      if (fb == fe) fail_kind(argument, "not_number", strf("{\"line\":%zu,\"field\":%zu,\"text\":\"\"}", line_no, field), "csv: line %zu, field %zu is empty", line_no, field);
      const NumberRead r = read_value(fb, fe, v);
      if (r == NumberRead::Syntax)
        fail_kind(argument, "not_number", strf("{\"line\":%zu,\"field\":%zu,\"text\":", line_no, field) + jstr(std::string(fb, fe), 40) + "}",
                  "csv: line %zu, field %zu ('%s') is not a number", line_no, field,
                 printable(fb, fe).c_str());
      if (r == NumberRead::NotFinite)
        fail_kind(argument, "value_finite", strf("{\"line\":%zu,\"field\":%zu,\"value\":", line_no, field) + jnum(v) + "}", "csv: line %zu, field %zu is %g: q and k must hold finite numbers", line_no, field, static_cast<double>(v));
      if (r == NumberRead::Range)
        fail_kind(argument, "value_float", strf("{\"line\":%zu,\"field\":%zu,\"value\":", line_no, field) + jstr(std::string(fb, fe), 40) + "}", "csv: line %zu, field %zu is %s, outside the float32 range (about ±3.4e38)", line_no,
                 field, printable(fb, fe).c_str());
      if (g.data.size() >= limits::kMaxCheckValues)
        fail_kind(argument, "values", strf("{\"limit\":%zu}", limits::kMaxCheckValues), "csv: %s holds more than the limit of %zu values (heads·n·d_k)",
                 tagged ? names[which].c_str() : "the file", limits::kMaxCheckValues);
      g.data.push_back(v);
      ++field;
      if (!more) break;
      fb = after;
      after = advance();
    }
    const std::uint64_t width = g.data.size() - row_start;
    if (!g.seen) {
      g.seen = true;
      g.shape = {0, width};
      first_line[which] = line_no;
    } else if (width != g.shape[1]) {
      fail_kind(argument, "ragged", strf("{\"line\":%zu,\"count\":%llu,\"firstLine\":%zu,\"first\":%llu}", line_no, static_cast<unsigned long long>(width), first_line[which], static_cast<unsigned long long>(g.shape[1])),
                "csv: line %zu has %llu values, but the first %s%srow (line %zu) has %llu", line_no,
               static_cast<unsigned long long>(width), tagged ? names[which].c_str() : "", tagged ? " " : "",
               first_line[which], static_cast<unsigned long long>(g.shape[1]));
    }
    if (++g.shape[0] > limits::kMaxSeqLen)
      fail_kind(argument, "dim", strf("{\"dim\":\"rows\",\"limit\":%zu}", limits::kMaxSeqLen), "csv: %s has more than %zu rows, the limit of n",
               tagged ? names[which].c_str() : "the file", limits::kMaxSeqLen);
    line = next;
  }

  std::vector<Tensor> out;
  for (std::size_t i = 0; i < (tagged ? 2u : 1u); ++i) {
    if (!t[i].seen) {
      if (tagged)
        fail_kind(argument, "no_rows", "{\"name\":" + jstr(names[i]) + "}", "csv: no row starts with '%s'", names[i].c_str());
      fail_kind(argument, "no_rows", "", "csv: no rows of numbers");
    }
    out.push_back(finish(t[i], argument, "csv (" + (tagged ? names[i] : std::string(argument)) + ")"));
  }
  return out;
}

}  // namespace attn
