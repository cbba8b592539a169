// attnlab train / attnlab sweep: the training lab from the command line.
// Metrics go to stdout (JSON or CSV); a progress bar goes to stderr when it
// is a terminal.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace attncli {

int run_train(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_sweep(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace attncli
