#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace attncli {

// attnlab merge PART...: the parts of a `sweep --shard K/N` (JSON lines or
// CSV, any order) joined into what the unsharded sweep prints, in the grid's
// order. A missing, repeated, truncated or foreign part is refused (UsageError
// naming it) before anything is printed.
int run_merge(const std::vector<std::string>& args, std::ostream& out);

}  // namespace attncli
