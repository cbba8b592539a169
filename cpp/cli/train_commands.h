// attnlab train / attnlab sweep: the training lab from the command line.
// Metrics go to stdout (JSON or CSV); a progress bar goes to stderr when it
// is a terminal.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "base/argument_checks.h"
#include "train/optimizer.h"

namespace attncli {

// sweep's axes when not given (help.cpp states them); every optimiser the core has.
inline const std::string kSweepDks = "64,128,256";
inline const std::string kSweepDivisors = "sqrt,1,2,dk,qknorm";
inline const std::string kSweepOptimizers = attn::choice_list(attn::kOptimizerNames, ",");

int run_train(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_sweep(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace attncli
