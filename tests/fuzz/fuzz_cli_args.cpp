// libFuzzer target: the arguments of softmax, variance, train, sweep,
// sample-qk and saturation, end to end (parsing, every check, then the command). The input is
// the command and its argv, one argument a line. So that one input runs in
// milliseconds, sizes the input gives as plain integers above a small cap are
// skipped (their range checks are the tests'), small defaults are appended for
// the sizes it leaves out, and sample-qk writes to /dev/null. Everything else
// (junk numbers, unknown or repeated options, refused combinations) goes
// through as typed. Seeds: corpus/cli_args.
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "args.h"
#include "base/argument_error.h"
#include "check_command.h"
#include "commands.h"
#include "saturation_command.h"
#include "train_commands.h"

namespace {

bool digits(const std::string& s) {
  if (s.empty() || s.size() > 19) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// Every item of a comma list that is a plain integer is at most `cap`; counts the items.
bool within(const std::string& value, std::uint64_t cap, std::size_t& items) {
  items = 0;
  std::stringstream ss(value);
  for (std::string item; std::getline(ss, item, ',');) {
    ++items;
    if (digits(item) && std::stoull(item) > cap) return false;
  }
  return true;
}

bool has(const std::vector<std::string>& argv, const std::string& opt) {
  for (const auto& a : argv)
    if (a == opt) return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> argv(1);
  for (std::size_t i = 0; i < size && argv.size() <= 33; ++i) {
    if (data[i] == '\n') argv.emplace_back();
    else argv.back() += static_cast<char>(data[i]);
  }
  const std::string command = argv.front();
  argv.erase(argv.begin());
  static const std::map<std::string, std::uint64_t> caps{
      {"--steps", 3},  {"--eval", 16}, {"--batch", 8},   {"--dk", 64},  {"--dks", 16},    {"--dmodel", 16},
      {"--dv", 16},    {"--heads", 4}, {"--samples", 2000}, {"--n", 16}, {"--log-every", 1000000}};
  // A sweep's runs: the lists' lengths (5 divisors and 2 optimizers by default).
  std::map<std::string, std::size_t> lists{{"--dks", 1}, {"--divisors", 5}, {"--optimizers", 2}, {"--seeds", 1}};
  for (std::size_t i = 0; i + 1 < argv.size(); ++i) {
    std::size_t items = 0;
    const auto cap = caps.find(argv[i]);
    if (cap != caps.end() && !within(argv[i + 1], cap->second, items)) return 0;
    if (lists.count(argv[i])) {
      within(argv[i + 1], ~std::uint64_t{0}, items);
      lists[argv[i]] = items;
    }
    if (argv[i] == "--out" && !argv[i + 1].empty()) argv[i + 1] = "/dev/null";
    if (argv[i] == "--source" && argv[i + 1] == "lab" && !has(argv, "--steps")) return 0;  // 200 steps
  }
  std::size_t runs = 1;
  for (const auto& [name, items] : lists) runs *= items;
  if (command == "sweep" && runs > 16) return 0;
  const auto fill = [&](const char* opt, const char* value) {
    if (!has(argv, opt)) argv.insert(argv.end(), {opt, value});
  };
  std::ostringstream out, err;
  std::istringstream in;
  try {
    if (command == "softmax") {
      attncli::run_softmax(argv, out);
    } else if (command == "variance") {
      fill("--samples", "200");
      attncli::run_variance(argv, out);
    } else if (command == "train" || command == "sweep") {
      for (auto [opt, value] : {std::pair{"--steps", "2"}, {"--eval", "8"}, {"--batch", "4"}, {"--dmodel", "8"}})
        fill(opt, value);
      fill(command == "train" ? "--dk" : "--dks", "8");
      if (command == "train") attncli::run_train(argv, out, err);
      else attncli::run_sweep(argv, out, err);
    } else if (command == "sample-qk") {
      attncli::run_sample_qk(argv, out);
    } else if (command == "saturation") {
      fill("--samples", "20");
      attncli::run_saturation(argv, out);
    }
  } catch (const attncli::UsageError&) {
  } catch (const attn::ArgumentError&) {
  }
  return 0;
}
