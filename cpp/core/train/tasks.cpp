#include "train/tasks.h"

#include <cmath>

#include "base/argument_checks.h"
#include "base/argument_error.h"
#include "base/format.h"

namespace attn {

TaskKind parse_task(std::string_view text) {
  return static_cast<TaskKind>(choice_index("task", text, kTaskNames));
}

const char* task_name(TaskKind k) { return kTaskNames[static_cast<std::size_t>(k)].data(); }

namespace {

// Uniform in [0, n). The modulo bias of a 64-bit draw is below 2^-58 for n = 32.
std::size_t below(Rng& rng, std::size_t n) { return static_cast<std::size_t>(rng.next_u64() % n); }

std::vector<float> normals(Rng& rng, std::size_t n) {
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>(rng.normal());
  return v;
}

}  // namespace

Task::Task(TaskKind kind, std::size_t d_model, Rng& rng)
    : kind_(kind), d_model_(d_model),
      e_a_(normals(rng, kTaskVocab * d_model)),
      e_b_(normals(rng, kTaskVocab * d_model)),
      e_flag_(normals(rng, d_model)),
      e_mark_(normals(rng, d_model)),
      e_query_(normals(rng, d_model)) {}

void Task::embed(float* x, const float* e1, const float* e2) const {
  if (e2 == nullptr) {
    for (std::size_t i = 0; i < d_model_; ++i) x[i] = e1[i];
    return;
  }
  // The sum of two unit-variance vectors over √2 keeps unit variance per entry.
  const float r = static_cast<float>(1.0 / std::sqrt(2.0));
  for (std::size_t i = 0; i < d_model_; ++i) x[i] = (e1[i] + e2[i]) * r;
}

void Task::sample(Rng& rng, std::size_t size, TaskBatch& out) const {
  const std::size_t T = kTaskSeq, D = d_model_;
  out.size = size;
  out.x.resize(size * T * D);
  out.target.resize(size);
  out.answer.resize(size);
  out.tok_a.resize(size * T);
  out.tok_b.resize(size * T);
  for (std::size_t s = 0; s < size; ++s) {
    int* a = out.tok_a.data() + s * T;
    int* b = out.tok_b.data() + s * T;
    float* x = out.x.data() + s * T * D;
    const std::size_t pick = below(rng, kTaskContext);
    if (kind_ == TaskKind::Recall) {
      // 16 distinct keys: the first 16 of a partial Fisher-Yates shuffle of 0..31.
      int perm[kTaskVocab];
      for (std::size_t i = 0; i < kTaskVocab; ++i) perm[i] = static_cast<int>(i);
      for (std::size_t i = 0; i < kTaskContext; ++i) {
        const std::size_t j = i + below(rng, kTaskVocab - i);
        const int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
        a[i] = perm[i];
        b[i] = static_cast<int>(below(rng, kTaskVocab));
      }
      a[kTaskQueryPos] = a[pick];
      b[kTaskQueryPos] = -1;
      out.target[s] = b[pick];
      for (std::size_t i = 0; i < kTaskContext; ++i)
        embed(x + i * D, &e_a_[a[i] * D], &e_b_[b[i] * D]);
      embed(x + kTaskQueryPos * D, &e_a_[a[pick] * D], e_flag_.data());
    } else {
      for (std::size_t i = 0; i < kTaskContext; ++i) {
        a[i] = static_cast<int>(below(rng, kTaskVocab));
        b[i] = i == pick ? 1 : -1;
        embed(x + i * D, &e_a_[a[i] * D], i == pick ? e_mark_.data() : nullptr);
      }
      a[kTaskQueryPos] = -1;
      b[kTaskQueryPos] = -1;
      out.target[s] = a[pick];
      embed(x + kTaskQueryPos * D, e_query_.data(), nullptr);
    }
    out.answer[s] = static_cast<int>(pick);
  }
}

}  // namespace attn
