// The commands and their options, as one table: the parser takes each
// command's option names from it (options_of), and every help text is written
// from it (attnlab help, attnlab help COMMAND, COMMAND --help, docs/cli.md),
// so help cannot name an option the parser refuses or miss one it takes.
// tests/node/help_cli.test.mjs holds the table's ranges against the parser's
// refusals at their edges, and docs/cli.md against `attnlab help --markdown`.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace attncli {

struct OptionSpec {
  std::string name;     // without "--"
  std::string meta;     // the value as the synopsis writes it: N, X, FILE, adam|sgd
  std::string type;     // integer, number, text, list, file, choice
  std::string range;    // "1 .. 65536", "[0.001, 10000]", "" when any value of the type
  std::string def;      // the default, or "required", or "none"
  std::string meaning;  // one line
};

struct CommandSpec {
  std::string name;
  std::string args;     // positional arguments, "FILE [FILE_K]", or ""
  std::string summary;  // one line
  std::vector<OptionSpec> options;
  std::string notes;    // more lines, or ""
};

const std::vector<CommandSpec>& command_specs();
const CommandSpec* find_command(const std::string& name);

// The option names `command` takes (for Args).
std::set<std::string> options_of(const std::string& command);

// `attnlab help`: every command's synopsis; `attnlab help COMMAND`: its options.
std::string general_help();
std::string command_help(const CommandSpec& c);
// docs/cli.md, from the same table.
std::string markdown_help();
// `attnlab --version`: the version, the build and the kernels.
std::string version_text();

}  // namespace attncli
