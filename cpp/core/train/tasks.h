// The training lab's tasks: sequences where the answer can only be read
// through attention, with no positional encodings, so a position is found by
// what it holds. Every draw goes through attn::Rng (never std::
// distributions, which differ native vs wasm).
//
//   recall: 16 context positions hold (key, value) pairs: keys 16 distinct
//     tokens out of 32, values independent tokens out of 32. Position 17
//     holds a query repeating one key; the target is that key's value.
//     x = (E_key[k] + E_val[v])/√2 at a context position, (E_key[k] + e_flag)/√2
//     at the query.
//   copy: 16 context positions hold independent tokens out of 32, one of them
//     marked; position 17 asks for the marked token. x = E_tok[t] unmarked,
//     (E_tok[t] + e_mark)/√2 marked, e_query at the query.
// Embeddings are N(0, 1), drawn once per task (seeded), and not trained.
// Chance level is 1/32 (loss ln 32) for both.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/rng.h"

namespace attn {

enum class TaskKind { Recall, Copy };
inline constexpr std::array<std::string_view, 2> kTaskNames = {"recall", "copy"};  // in TaskKind's order

TaskKind parse_task(std::string_view text);  // "recall" or "copy"; ArgumentError otherwise
const char* task_name(TaskKind k);

inline constexpr std::size_t kTaskContext = 16;                // context positions
inline constexpr std::size_t kTaskSeq = kTaskContext + 1;      // plus the query
inline constexpr std::size_t kTaskQueryPos = kTaskContext;     // the query comes last
inline constexpr std::size_t kTaskVocab = 32;                  // tokens and classes

// A batch of B sequences. Per position two token ids describe what it holds:
//   recall: a = key, b = value (b = -1 at the query)
//   copy:   a = token, b = 1 if marked else -1 (a = -1 at the query)
struct TaskBatch {
  std::size_t size = 0;
  std::vector<float> x;       // [B, T, D]
  std::vector<int> target;    // [B]
  std::vector<int> answer;    // [B] the context position that holds the answer
  std::vector<int> tok_a, tok_b;  // [B, T]
};

class Task {
 public:
  // Draws the embeddings [vocab, D] from rng.
  Task(TaskKind kind, std::size_t d_model, Rng& rng);

  TaskKind kind() const { return kind_; }
  std::size_t d_model() const { return d_model_; }
  // Overwrites out with `size` fresh sequences drawn from rng.
  void sample(Rng& rng, std::size_t size, TaskBatch& out) const;

 private:
  void embed(float* x, const float* e1, const float* e2) const;  // (e1 + e2)/√2, or e1 alone

  TaskKind kind_;
  std::size_t d_model_;
  std::vector<float> e_a_, e_b_;         // [vocab, D]: keys / tokens, values
  std::vector<float> e_flag_, e_mark_, e_query_;  // [D]
};

}  // namespace attn
