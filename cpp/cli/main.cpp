// attnlab: the attention core from the command line. One JSON object on
// stdout; any bad input is one line on stderr and exit status 2; output that
// could not be written (stdout or --out) is one line and exit status 1.
#include <exception>
#include <memory>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "args.h"
#include "base/argument_error.h"
#include "base/format.h"
#include "check_command.h"
#include "commands.h"
#include "help.h"
#include "merge_command.h"
#include "kernels/madd.h"
#include "output.h"
#include "saturation_command.h"
#include "train_commands.h"

namespace {


// The values in messages are escaped where they are echoed (attn::escaped);
// this keeps the promise of one line for any message, a library's too.
std::string one_line(const std::string& message) {
  std::string out;
  for (char c : message) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += attn::strf("\\x%02x", static_cast<unsigned char>(c));
    else out += c;
  }
  return out;
}

int fail(const std::string& message, int status = 2) {
  std::cerr << "attnlab: " << one_line(message) << "\n";
  return status;
}

// Takes the option every command shares, --madd, out of the arguments and sets
// the kernels' mode (kernels/madd.h); the rest go to the command.
std::vector<std::string> take_madd(const std::vector<std::string>& argv) {
  std::vector<std::string> rest = argv;
  if (const auto v = attncli::take_option(rest, "--madd")) {
    if (*v != "separate" && *v != "fused")
      throw attncli::UsageError("--madd must be 'separate' or 'fused', got '" + attn::escaped(*v) + "'");
    attn::set_madd_mode(*v == "fused" ? attn::Madd::fused : attn::Madd::separate);
  }
  return rest;
}

// --out FILE (every command but sample-qk, whose --out is its archive), taken
// out of the arguments as --madd is; "" when not given.
std::string take_out(std::vector<std::string>& argv) {
  const auto path = attncli::take_option(argv, "--out", "a file name");
  if (path && path->empty()) throw attncli::UsageError("option '--out' needs a file name");
  return path.value_or("");
}

int dispatch(const std::string& cmd, const std::vector<std::string>& rest);

bool asks_help(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") return true;
  return false;
}

int run(const std::string& cmd, const std::vector<std::string>& all) {
  // Help and the version: on stdout, exit 0 (help.h writes them from the option table).
  if (cmd == "--help" || cmd == "-h" || (cmd == "help" && all.empty())) {
    std::cout << attncli::general_help();
    return 0;
  }
  if (cmd == "--version" || cmd == "-V") {
    if (!all.empty()) throw attncli::UsageError("--version takes no arguments");
    std::cout << attncli::version_text();
    return 0;
  }
  if (cmd == "help") {
    if (all.size() == 1 && all[0] == "--markdown") {
      std::cout << attncli::markdown_help();
      return 0;
    }
    const attncli::CommandSpec* c = all.size() == 1 ? attncli::find_command(all[0]) : nullptr;
    if (!c)
      throw attncli::UsageError(all.size() == 1 ? "unknown command '" + attn::escaped(all[0]) + "' (try attnlab help)"
                                                : "help takes one command name (try attnlab help)");
    std::cout << attncli::command_help(*c);
    return 0;
  }
  if (const attncli::CommandSpec* c = attncli::find_command(cmd); c && asks_help(all)) {
    std::cout << attncli::command_help(*c);
    return 0;
  }
  std::vector<std::string> rest = take_madd(all);
  // --out FILE: the output is written to FILE's temporary twin as it comes and
  // renamed into place only when the command has succeeded (output.h).
  std::unique_ptr<attncli::AtomicFile> file;
  if (cmd != "sample-qk" && attncli::find_command(cmd)) {
    const std::string path = take_out(rest);
    if (!path.empty()) {
      file = std::make_unique<attncli::AtomicFile>(path);
      attncli::redirect_stdout(*file, path);
    }
  }
  const int status = dispatch(cmd, rest);
  if (file && status == 0) {
    attncli::finish_stdout();
    file->commit({});
  }
  return status;
}

int dispatch(const std::string& cmd, const std::vector<std::string>& rest) {
  if (cmd == "softmax") return attncli::run_softmax(rest, std::cout);
  if (cmd == "variance") return attncli::run_variance(rest, std::cout, std::cerr);
  if (cmd == "attention") return attncli::run_attention(rest, std::cin, std::cout);
  if (cmd == "train") return attncli::run_train(rest, std::cout, std::cerr);
  if (cmd == "sweep") return attncli::run_sweep(rest, std::cout, std::cerr);
  if (cmd == "check") return attncli::run_check(rest, std::cout, std::cerr);
  if (cmd == "sample-qk") return attncli::run_sample_qk(rest, std::cout);
  if (cmd == "saturation") return attncli::run_saturation(rest, std::cout, std::cerr);
  if (cmd == "presets") return attncli::run_presets(rest, std::cout);
  if (cmd == "merge") return attncli::run_merge(rest, std::cout);
  throw attncli::UsageError("unknown command '" + attn::escaped(cmd) + "' (try attnlab help)");
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  try {
    attncli::guard_standard_streams();
    if (argc < 2) return fail("no command given (try --help)");
    const int status = run(argv[1], std::vector<std::string>(argv + 2, argv + argc));
    attncli::finish_stdout();
    return status;
  } catch (const attncli::OutputError& e) {
    return fail(e.what(), 1);
  } catch (const attncli::UsageError& e) {
    return fail(e.what());
  } catch (const attn::ArgumentError& e) {
    return fail(e.what());
  } catch (const std::bad_alloc&) {
    return fail("out of memory");
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}
