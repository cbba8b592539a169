// `attnlab check` and `attnlab sample-qk`. The argument handling is split from
// the file reading so a fuzz target can drive it without touching the disk or
// exiting the process: parse_check_args() and check_report() throw UsageError
// or attn::ArgumentError, and only run_check() prints.
#pragma once

#include <cstdint>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "checker/qk_input.h"
#include "checker/report.h"

namespace attncli {

struct CheckRequest {
  std::vector<std::string> files;  // one (q and k together) or two (q, then k)
  std::string divisor = "sqrt";    // the divisor the model uses: the verdict is judged there
  std::string format;              // empty: each file's extension, else its first bytes
  attn::QkOptions options;         // array names (.npz, JSON object, CSV rows) and sequences
  std::string preset;              // the model's d_k, divisor and soft-cap; a --divisor beside it wins
  std::string logits, probs;       // the model's own scores, for the scale fit (at most one)
};

// argv after "check": FILE [FILE_K] [--divisor sqrt|dk|X] [--preset NAME] [--q NAME] [--k NAME]
// [--sequences S] [--format auto|npy|npz|csv|json] [--logits FILE | --probs FILE].
CheckRequest parse_check_args(const std::vector<std::string>& argv);

using FileReader = std::function<std::vector<std::uint8_t>(const std::string& path)>;

// Reads a regular file, refusing one above kMaxCheckFileBytes before reading it.
std::vector<std::uint8_t> read_input_file(const std::string& path);

// What check_files is doing: `done` of `total` stages (each file read, then
// the judging), and the stage under way, for the progress bar.
using StageReport = std::function<void(std::size_t done, std::size_t total, const std::string& what)>;

// The files read and judged, then the report as one line of JSON.
attn::CheckReport check_files(const CheckRequest& request, const FileReader& read, const StageReport& stage = {});
std::string check_report(const CheckRequest& request, const FileReader& read);

// Progress (--progress, --quiet, or on a terminal) goes to `err`.
int run_check(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err = std::cerr);
int run_sample_qk(const std::vector<std::string>& argv, std::ostream& out);

}  // namespace attncli
