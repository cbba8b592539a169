// A small, strict option parser: --name value pairs only, every value checked.
// Any mistake is a UsageError, which main() prints on one line with exit status 2.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace attncli {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The flags, options with no value (progress.h take_progress).
inline const char* const kFlags[] = {"--progress", "--quiet"};

// Options taken out of the arguments before a command's Args reads the rest
// (--madd and --out for every command, --progress and --quiet for the
// commands with long work). The arguments are walked as the commands read
// them: "--name value" pairs, a flag alone, anything else alone ("--q --madd":
// --madd is --q's value). A flag takes no value ("--quiet --out F" gives --out
// F) and is never taken as another option's value ("--seed --quiet" leaves
// --seed without one). take_option: --name's value, if given ("option
// '--name' needs <needs>" when it has none, "given twice"); take_flag: how
// many times the flag --name was given.
std::optional<std::string> take_option(std::vector<std::string>& argv, const std::string& name,
                                       const std::string& needs = "a value");
std::size_t take_flag(std::vector<std::string>& argv, const std::string& name);

class Args {
 public:
  // argv after the command name; `allowed` are option names without "--".
  Args(const std::vector<std::string>& argv, const std::set<std::string>& allowed);

  bool has(const std::string& name) const { return values_.count(name) != 0; }
  std::string text(const std::string& name, const std::string& fallback) const;
  double real(const std::string& name, double fallback) const;
  std::uint64_t integer(const std::string& name, std::uint64_t fallback, std::uint64_t lo,
                        std::uint64_t hi) const;
  std::vector<double> reals(const std::string& name) const;  // "14,10,12"

 private:
  std::map<std::string, std::string> values_;
};

// --softcap (saturation, train, sweep) and --qk-clip (train, sweep): one range
// for every command, the core's [kMinCap, kMaxCap] = [1e-3, 1e4]
// (base/size_limits.h, which the trainer and the saturation session check
// too: a range per command made one option mean two things, issue 31).
// cap_range() is the text the option table states, cap_option() the one
// check: the value, or 0 (off) when not given; 0 itself is refused (leave the
// option out for no cap).
const std::string& cap_range();
double cap_option(const Args& a, const std::string& name);

}  // namespace attncli
