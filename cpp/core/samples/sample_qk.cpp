#include "samples/sample_qk.h"

#include <cmath>
#include <string>
#include <vector>

#include "base/argument_checks.h"
#include "base/argument_error.h"
#include "base/format.h"
#include "base/rng.h"
#include "base/size_limits.h"
#include "checker/io/npy.h"
#include "checker/io/npz.h"
#include "train/trainer.h"

namespace attn {

SampleKind parse_sample_kind(std::string_view text) {
  if (text == "init") return SampleKind::Init;
  if (text == "saturated") return SampleKind::Saturated;
  if (text == "learned") return SampleKind::Learned;
  throw ArgumentError("kind", "choice", "{\"choices\":\"init, saturated, learned\"}",
                      "kind must be 'init', 'saturated' or 'learned', got '" + escaped(text) + "'");
}

const char* sample_kind_name(SampleKind k) {
  switch (k) {
    case SampleKind::Init: return "init";
    case SampleKind::Saturated: return "saturated";
    case SampleKind::Learned: return "learned";
  }
  return "init";
}

QkTensors sample_qk(const SampleQkConfig& c) {
  check_size("heads", c.heads, 1, 64);
  check_size("n", c.n, 2, 1024);
  check_size("dk", c.dk, 1, 1024);
  check_size("d_model", c.d_model, 1, 1024);
  // Each tensor at most what `check` reads (2^22 values, 16 MiB), checked
  // before anything is allocated: 64 x 1024 x 1024 took 2.6 GB and 12 s and
  // wrote a 537 MB file that check then refused.
  if (c.heads * c.n * c.dk > limits::kMaxCheckValues)
    throw ArgumentError("heads*n*dk", "work_limit",
                        "{\"limit\":" + std::to_string(limits::kMaxCheckValues) + ",\"value\":" +
                            std::to_string(c.heads * c.n * c.dk) + "}",
                        "heads*n*dk must be at most " + std::to_string(limits::kMaxCheckValues) +
                                          " (the values check reads), got " + std::to_string(c.heads) + "*" +
                                          std::to_string(c.n) + "*" + std::to_string(c.dk));
  const std::size_t H = c.heads, n = c.n, dk = c.dk, D = c.d_model;
  // Weight scale of W_Q, mixing of W_Q into W_K, and scale of W_K's own noise
  // (all as multiples of the 1/√d_model that keeps entries at variance 1).
  double wq = 1, mix = 0, noise = 1;
  if (c.kind == SampleKind::Saturated) {
    wq = 3;
    mix = 1;
    noise = 1;
  } else if (c.kind == SampleKind::Learned) {
    wq = std::sqrt(1.2);
    mix = 0.6;
    noise = std::sqrt(0.9);
  }
  Rng rng(c.seed);
  std::vector<double> x(n * D);
  for (double& v : x) v = rng.normal();
  QkTensors t;
  t.heads = H;
  t.n_q = t.n_k = n;
  t.dk = dk;
  t.format = TensorFormat::Npz;
  t.q.resize(H * n * dk);
  t.k.resize(H * n * dk);
  const double s = 1.0 / std::sqrt(static_cast<double>(D));
  std::vector<double> w_q(D * dk), w_k(D * dk);
  for (std::size_t h = 0; h < H; ++h) {
    for (std::size_t i = 0; i < D * dk; ++i) {
      w_q[i] = wq * s * rng.normal();
      // Fresh init: W_K independent of W_Q (mix = 0, noise = 1).
      w_k[i] = mix * w_q[i] + noise * s * rng.normal();
    }
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t j = 0; j < dk; ++j) {
        double a = 0, b = 0;
        for (std::size_t p = 0; p < D; ++p) {
          a += x[r * D + p] * w_q[p * dk + j];
          b += x[r * D + p] * w_k[p * dk + j];
        }
        t.q[(h * n + r) * dk + j] = static_cast<float>(a);
        t.k[(h * n + r) * dk + j] = static_cast<float>(b);
      }
  }
  return t;
}

namespace {

// Snapshot rows: q [S, H·dk], k [S, T, H·dk] -> per head [H, S, dk], [H, S·T, dk].
QkTensors checker_layout(const QkSnapshot& snap) {
  const std::size_t H = snap.heads, S = snap.samples, T = snap.seq, dk = snap.dk;
  QkTensors t;
  t.heads = H;
  t.n_q = S;
  t.n_k = S * T;
  t.dk = dk;
  t.sequences = S;
  t.format = TensorFormat::Npz;
  t.q.resize(H * S * dk);
  t.k.resize(H * S * T * dk);
  for (std::size_t h = 0; h < H; ++h)
    for (std::size_t s = 0; s < S; ++s) {
      for (std::size_t j = 0; j < dk; ++j) t.q[(h * S + s) * dk + j] = snap.q[s * H * dk + h * dk + j];
      for (std::size_t p = 0; p < T; ++p)
        for (std::size_t j = 0; j < dk; ++j)
          t.k[((h * S + s) * T + p) * dk + j] = snap.k[(s * T + p) * H * dk + h * dk + j];
    }
  return t;
}

}  // namespace

Divisor lab_sample_divisor(SampleKind kind) {
  return kind == SampleKind::Saturated ? Divisor::value(1.0) : TrainConfig{}.divisor;
}

QkTensors lab_sample_qk(const LabSampleConfig& c) {
  // 2000 steps of the lab's configuration: 2.6e11 multiply-adds, within train_limits::kMaxTrainWork.
  check_size("steps", c.steps, 1, kMaxLabSampleSteps);
  TrainConfig cfg;  // the lab's default configuration
  check_size("sequences", c.sequences, 1, cfg.batch);
  cfg.seed = c.seed;
  cfg.divisor = lab_sample_divisor(c.kind);
  Trainer trainer(cfg);
  if (c.kind != SampleKind::Init) trainer.step(c.steps);
  return checker_layout(trainer.qk_snapshot(c.sequences));
}

std::vector<std::uint8_t> snapshot_npz(const QkSnapshot& snap) {
  const QkTensors t = checker_layout(snap);
  const std::size_t H = snap.heads, S = snap.samples, T = snap.seq;
  // Logits [S, H, T] -> [H, S, T].
  std::vector<float> logits(H * S * T);
  for (std::size_t h = 0; h < H; ++h)
    for (std::size_t s = 0; s < S; ++s)
      for (std::size_t p = 0; p < T; ++p) logits[(h * S + s) * T + p] = snap.logits[(s * H + h) * T + p];
  const float sequences = static_cast<float>(S);
  const float divisor = static_cast<float>(snap.divisor);
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> members{
      {"q", write_npy(t.q.data(), {H, S, t.dk})},
      {"k", write_npy(t.k.data(), {H, S * T, t.dk})},
      // (1, 1): the core's .npy reader takes 2-D and 3-D arrays.
      {"sequences", write_npy(&sequences, {1, 1})},
      {"logits", write_npy(logits.data(), {H, S, T})}};
  if (snap.divisor > 0) members.push_back({"divisor", write_npy(&divisor, {1, 1})});
  return write_npz(members);
}

}  // namespace attn
