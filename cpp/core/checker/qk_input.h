// q and k from a user's files, in any of the formats the checker reads:
//   one file holding both: .npz (numpy.savez(f, q=q, k=k)), a JSON object
//     {"q": ..., "k": ...}, or a CSV whose rows start with q or k;
//   two files, q first, then k: .npy, a bare JSON array or a plain CSV each.
// Each tensor is [n, d_k] (one head) or [heads, n, d_k]; q and k must agree on
// heads and d_k (n may differ: cross-attention). Every size is checked against
// size_limits.h before the values are allocated.
//
// Sequences: a dump of a batch of S sequences stacks their rows, q [heads,
// S·n_q', d_k] and k [heads, S·n_k', d_k]; each query then attends only to the
// keys of its own sequence (block s of q against block s of k). S comes from
// the options, or from an .npz array "sequences" holding one number (the
// training lab's export writes it), else it is 1.
//
// Divisor: an .npz may also hold the number the model divided q·k by, as an
// array "divisor" of one positive number (the lab's export and the sample
// files write it); the checker then judges at that divisor unless told another.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "checker/io/tensor_file.h"
#include "checker/scale_fit.h"

namespace attn {

enum class TensorFormat { Auto, Npy, Npz, Csv, Json };

TensorFormat parse_format(std::string_view text);  // "auto", "npy", "npz", "csv" or "json"
const char* format_name(TensorFormat f);
// By the file name's extension (.npy, .npz, .csv/.tsv/.txt, .json); Auto otherwise.
TensorFormat format_from_name(std::string_view file_name);
// By the first bytes: \x93NUMPY, PK (zip), '{' or '[' (JSON), else CSV.
TensorFormat sniff_format(const std::uint8_t* data, std::size_t size);

struct QkTensors {
  std::size_t heads = 0, n_q = 0, n_k = 0, dk = 0;
  std::size_t sequences = 1;  // S: query block s attends to key block s only
  std::vector<float> q, k;  // [heads, n_q, dk] and [heads, n_k, dk], row-major
  double stored_divisor = 0;  // an .npz's "divisor" array; 0 when it has none
  TensorFormat format = TensorFormat::Auto;
};

struct QkOptions {
  std::string q = "q", k = "k";  // npz arrays, JSON members, CSV row names
  std::size_t sequences = 0;     // S; 0: the .npz's "sequences" array if any, else 1
};

// One file holding both q and k. `format` Auto sniffs the bytes.
QkTensors load_qk(const std::uint8_t* data, std::size_t size, TensorFormat format,
                  const QkOptions& options = {});

// Two files: q, then k.
QkTensors load_qk_pair(const std::uint8_t* q_data, std::size_t q_size, TensorFormat q_format,
                       const std::uint8_t* k_data, std::size_t k_size, TensorFormat k_format,
                       std::size_t sequences = 1);

// The model's logits or probabilities (scale_fit.h), from a file that holds
// only them (.npy, a bare JSON array, a plain CSV): argument "logits" or
// "probs". An .npy keeps NaN and ±inf for fit_scale to judge (−inf: a mask);
// the text readers refuse any value that is not finite, as for q and k.
// With `against` (the q and k they go with), a file of the wrong number of
// dimensions is refused naming the shape q and k need (kind "scores_shape",
// as a wrong shape of the right rank is by check_scores_shape).
Scores load_scores(const std::uint8_t* data, std::size_t size, TensorFormat format, ScoreKind kind,
                   const QkTensors* against = nullptr);

// The shape logits or probs for q and k must have: "(3, 5) or (1, 3, 5)" for
// one head, "(2, 3, 5)" for two (n_k per sequence); `alternatives` false:
// the first alone (the page's error parameters, worded in its own language).
std::string scores_shape_text(const QkTensors& t, bool alternatives = true);

// The .npz's own array "logits" or "probs", if it holds one; both is an error
// (argument "file", kind "scores_both"). False when it holds neither.
bool load_npz_scores(const std::uint8_t* data, std::size_t size, Scores& out);

// Checks that the shapes agree, that S divides n_q and n_k with at least 2
// keys a sequence, and that the work is within the limits.
QkTensors make_qk(Tensor q, Tensor k, TensorFormat format, std::size_t sequences = 1);

}  // namespace attn
