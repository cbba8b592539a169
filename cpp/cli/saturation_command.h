// attnlab saturation: the saturation explorer's statistics at one (d_k, n) as JSON.
#pragma once

#include <iostream>
#include <string>
#include <vector>

namespace attncli {

// Progress (--progress, --quiet, or on a terminal) goes to `err`.
int run_saturation(const std::vector<std::string>& args, std::ostream& out, std::ostream& err = std::cerr);

}  // namespace attncli
