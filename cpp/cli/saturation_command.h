// attnlab saturation: the saturation explorer's statistics at one (d_k, n) as JSON.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace attncli {

int run_saturation(const std::vector<std::string>& args, std::ostream& out);

}  // namespace attncli
