#include "args.h"

#include "base/format.h"
#include "base/number.h"
#include "base/size_limits.h"
#include "base/text.h"

namespace attncli {

using attn::escaped;  // every value echoed in a message: one line on stderr

namespace {

bool is_flag(const std::string& a) {
  for (const char* f : kFlags)
    if (a == f) return true;
  return false;
}

// Every occurrence of `name` (and its value when `with_value`), out of argv.
std::vector<std::string> take(std::vector<std::string>& argv, const std::string& name, bool with_value,
                              const std::string& needs) {
  std::vector<std::string> found, rest;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] == name) {
      if (!with_value) {
        found.emplace_back();
        continue;
      }
      if (i + 1 >= argv.size() || is_flag(argv[i + 1])) throw UsageError("option '" + name + "' needs " + needs);
      found.push_back(argv[++i]);
      continue;
    }
    rest.push_back(argv[i]);
    // Another option's value, whatever it reads ("--q --madd" names an array --madd), but never a flag's,
    // and never a flag.
    if (argv[i].rfind("--", 0) == 0 && !is_flag(argv[i]) && i + 1 < argv.size() && !is_flag(argv[i + 1]))
      rest.push_back(argv[++i]);
  }
  argv.swap(rest);
  return found;
}

}  // namespace

std::optional<std::string> take_option(std::vector<std::string>& argv, const std::string& name,
                                       const std::string& needs) {
  const std::vector<std::string> found = take(argv, name, true, needs);
  if (found.size() > 1) throw UsageError("option '" + name + "' given twice");
  if (found.empty()) return std::nullopt;
  return found[0];
}

std::size_t take_flag(std::vector<std::string>& argv, const std::string& name) {
  return take(argv, name, false, "").size();
}

Args::Args(const std::vector<std::string>& argv, const std::set<std::string>& allowed) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.rfind("--", 0) != 0 || a.size() == 2) throw UsageError("unexpected argument '" + escaped(a) + "'");
    const std::string name = a.substr(2);
    if (!allowed.count(name)) throw UsageError("unknown option '" + escaped(a) + "'");
    if (values_.count(name)) throw UsageError("option '" + a + "' given twice");
    if (i + 1 >= argv.size()) throw UsageError("option '" + a + "' needs a value");
    values_[name] = argv[++i];
  }
}

std::string Args::text(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

// The core's number grammar (base/number.h), read as a double.
static double parse_real(const std::string& name, const std::string& s) {
  double v = 0;
  if (attn::read_double(s, v) != attn::NumberRead::Ok)
    throw UsageError("--" + name + " must be a finite number, got '" + escaped(s) + "'");
  return v;
}

double Args::real(const std::string& name, double fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : parse_real(name, it->second);
}

std::uint64_t Args::integer(const std::string& name, std::uint64_t fallback, std::uint64_t lo,
                            std::uint64_t hi) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  const std::string& s = it->second;
  const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  std::uint64_t v = 0;
  const attn::NumberRead r = attn::read_whole(s, v);
  if (r == attn::NumberRead::Syntax)
    throw UsageError("--" + name + " must be an integer in " + range + ", got '" + escaped(s) + "'");
  if (r != attn::NumberRead::Ok || v < lo || v > hi)
    throw UsageError("--" + name + " must be an integer in " + range + ", got " + s);
  return v;
}

std::vector<double> Args::reals(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw UsageError("--" + name + " is required");
  std::vector<double> out;
  const std::string& s = it->second;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = s.find(',', start);
    const std::string item = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    out.push_back(parse_real(name, item));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

const std::string& cap_range() {
  namespace L = attn::limits;
  static const std::string text = "[" + attn::num(L::kMinCap) + ", " + attn::num(L::kMaxCap) + "]";
  return text;
}

double cap_option(const Args& a, const std::string& name) {
  namespace L = attn::limits;
  if (!a.has(name)) return 0;
  const double v = a.real(name, 0.0);
  if (!(v >= L::kMinCap && v <= L::kMaxCap))
    throw UsageError("--" + name + " must be a number in " + cap_range() + ", got " + escaped(a.text(name, "")));
  return v;
}

}  // namespace attncli
