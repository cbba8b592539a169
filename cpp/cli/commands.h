// The CLI's commands; each prints one JSON object on stdout.
#pragma once

#include <iostream>
#include <string>
#include <vector>

namespace attncli {

int run_softmax(const std::vector<std::string>& args, std::ostream& out);
// Progress (--progress, --quiet, or on a terminal) goes to `err`.
int run_variance(const std::vector<std::string>& args, std::ostream& out, std::ostream& err = std::cerr);
int run_attention(const std::vector<std::string>& args, std::istream& in, std::ostream& out);
// Real models' scales (base/presets.h) as JSON: name, label, dk, divisor, softcap, rule, init, source.
int run_presets(const std::vector<std::string>& args, std::ostream& out);

}  // namespace attncli
