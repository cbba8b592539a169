#include "train/trainer.h"

#include <algorithm>
#include <cmath>

#include "base/argument_checks.h"
#include "train/qk_clip.h"

namespace attn {

namespace {

// One random stream per purpose, all derived from the run's seed.
enum Stream : std::uint64_t { kEmbeddings = 1, kInit, kData, kEval, kMaps, kSnapshot, kInitStats };

Rng stream(std::uint64_t seed, Stream s) { return Rng(seed ^ (s * 0xD1B54A32D192ED03ULL)); }

const TrainConfig& validated(const TrainConfig& c) {
  validate(c);
  return c;
}

ModelDims dims_of(const TrainConfig& c) {
  return {kTaskSeq, c.d_model, c.heads, c.dk, c.dv, kTaskVocab, kTaskQueryPos, c.qk_norm};
}

Task make_task(const TrainConfig& c) {
  Rng rng = stream(c.seed, kEmbeddings);
  return Task(c.task, c.d_model, rng);
}

double sum_squares(const float* p, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += static_cast<double>(p[i]) * p[i];
  return s;
}

// Frobenius norm of columns [c0, c1) of a row-major [rows x cols] matrix.
double column_norm(const float* m, std::size_t rows, std::size_t cols, std::size_t c0,
                   std::size_t c1) {
  double s = 0;
  for (std::size_t r = 0; r < rows; ++r) s += sum_squares(m + r * cols + c0, c1 - c0);
  return std::sqrt(s);
}

// The larger of a running maximum and x, where a NaN x makes it NaN for good
// (std::max drops a NaN argument: a diverged run's attention would read 0).
double max_keep_nan(double m, double x) { return std::isnan(m) || std::isnan(x) ? std::nan("") : std::max(m, x); }

// Attention statistics of the query rows, summed over forward passes (a
// measurement may span several batches) and averaged at the end. A NaN weight
// or logit makes the statistics it enters NaN: never a number it did not give.
struct AttnSums {
  double rows = 0, logits = 0;  // (sample, head) rows and logits seen
  double entropy = 0, max = 0, correct = 0, spread = 0, logit_sum = 0, logit_sum2 = 0;
  double logit_max_abs = 0;
  std::vector<double> head_entropy;  // per head, summed over rows (the head's max logit: head_max_logits)
  std::vector<double> head_correct, head_max, head_frozen;  // per head, summed over rows
  // Per head: some row's logits came from an intermediate that was not finite
  // (then its largest logit, head_max_logits', is no number either).
  std::vector<bool> head_undefined;

  // Whether the row (sample b, head h) was computed from finite numbers only:
  // its query and keys as projected and, with QK-LayerNorm, their statistics.
  // A float LayerNorm whose variance overflows has 1/√∞ = 0 and gives q̂ = 0:
  // finite logits of 0, uniform attention, read as numbers though nothing
  // finite produced them (issue 32).
  static bool row_finite(const MhaBuffers<float>& m, std::size_t b, std::size_t h, std::size_t heads,
                         std::size_t seq, std::size_t dk) {
    const std::size_t hk = heads * dk;
    auto finite = [](const float* p, std::size_t n) {
      for (std::size_t i = 0; i < n; ++i)
        if (!std::isfinite(p[i])) return false;
      return true;
    };
    if (!finite(m.q.data() + b * hk + h * dk, dk)) return false;
    if (!m.q_rstd.empty() && !(m.q_rstd[b * heads + h] > 0 && std::isfinite(m.q_rstd[b * heads + h]))) return false;
    for (std::size_t j = 0; j < seq; ++j) {
      if (!finite(m.k.data() + (b * seq + j) * hk + h * dk, dk)) return false;
      const std::size_t kr = (b * seq + j) * heads + h;
      if (!m.k_rstd.empty() && !(m.k_rstd[kr] > 0 && std::isfinite(m.k_rstd[kr]))) return false;
    }
    return true;
  }

  // The query rows of the model's last forward over `batch` samples.
  void add(const MhaBuffers<float>& m, std::size_t batch, std::size_t heads, std::size_t seq, std::size_t dk,
           const int* answer) {
    head_entropy.resize(heads, 0.0);
    head_correct.resize(heads, 0.0);
    head_max.resize(heads, 0.0);
    head_frozen.resize(heads, 0.0);
    head_undefined.resize(heads, false);
    for (std::size_t b = 0; b < batch; ++b) {
      for (std::size_t h = 0; h < heads; ++h) {
        const float* a = m.a.data() + (b * heads + h) * seq;
        const float* s = m.s.data() + (b * heads + h) * seq;
        const bool inputs_finite = row_finite(m, b, h, heads, seq, dk);
        if (!inputs_finite) {
          head_undefined[h] = true;
          logit_max_abs = NAN;
          logit_sum = NAN;
        }
        double ent = 0, mx = 0, mean = 0, var = 0;
        std::size_t top = 0;
        for (std::size_t j = 0; j < seq; ++j) {
          if (!(a[j] <= 0)) ent -= a[j] * std::log(static_cast<double>(a[j]));  // 0 log 0 = 0; NaN stays
          mx = max_keep_nan(mx, static_cast<double>(a[j]));
          if (a[j] > a[top]) top = j;
          mean += s[j];
          logit_max_abs = max_keep_nan(logit_max_abs, std::fabs(static_cast<double>(s[j])));
          logit_sum += s[j];
          logit_sum2 += static_cast<double>(s[j]) * s[j];
        }
        mean /= static_cast<double>(seq);
        for (std::size_t j = 0; j < seq; ++j) var += (s[j] - mean) * (s[j] - mean);
        // A logit that is not finite has no softmax weight (the float exp maps
        // NaN to 0, and x86's max and wasm's differ on NaN): the row's
        // attention statistics are NaN, in every build alike.
        const bool undefined = !std::isfinite(mean) || !inputs_finite;
        entropy += undefined ? NAN : ent;
        head_entropy[h] += undefined ? NAN : ent;
        max += undefined ? NAN : mx;
        correct += undefined ? NAN : a[answer[b]];
        // Frozen: every weight but the largest passes back p(1 − p) < 2⁻²⁴.
        double grad = 0;
        for (std::size_t j = 0; j < seq; ++j)
          if (j != top) grad = std::max(grad, static_cast<double>(a[j]) * (1.0 - a[j]));
        head_correct[h] += undefined ? NAN : a[answer[b]];
        head_max[h] += undefined ? NAN : mx;
        head_frozen[h] += undefined ? NAN : (grad < 0x1p-24 ? 1.0 : 0.0);
        spread += undefined ? NAN : std::sqrt(var / static_cast<double>(seq));
      }
    }
    rows += static_cast<double>(batch * heads);
    logits += static_cast<double>(batch * heads * seq);
  }
  double logit_var() const {
    const double mean = logit_sum / logits;
    return logit_sum2 / logits - mean * mean;
  }
};

}  // namespace

std::vector<std::string> metric_columns(std::size_t heads) {
  std::vector<std::string> c{"step",         "loss",          "accuracy",      "attn_entropy",
                             "attn_max",     "attn_correct",  "logit_max_abs", "logit_spread",
                             "grad_wq",      "grad_wk",       "grad_wv",       "grad_wo"};
  for (std::size_t h = 0; h < heads; ++h) c.push_back("grad_wq_h" + std::to_string(h));
  for (std::size_t h = 0; h < heads; ++h) c.push_back("grad_wk_h" + std::to_string(h));
  for (std::size_t h = 0; h < heads; ++h) c.push_back("max_logit_h" + std::to_string(h));
  for (std::size_t h = 0; h < heads; ++h) c.push_back("entropy_h" + std::to_string(h));
  for (const char* group : {"correct_h", "attn_max_h", "frozen_h", "qk_grad_rel_h"})
    for (std::size_t h = 0; h < heads; ++h) c.push_back(group + std::to_string(h));
  return c;
}

Trainer::Trainer(const TrainConfig& config)
    : config_(validated(config)),
      divisor_(config.divisor.resolve(config.dk)),
      dims_(dims_of(config)),
      task_(make_task(config)),
      model_(dims_, divisor_, config.softcap),
      opt_(config.optimizer, config.lr, ParamLayout(dims_).total),
      data_rng_(stream(config.seed, kData)),
      columns_(kFixedColumns + 8 * config.heads) {
  Rng init_rng = stream(config.seed, kInit);
  const std::vector<double> p = init_params(dims_, config.init, init_rng);
  std::copy(p.begin(), p.end(), model_.params().begin());
  latest_.assign(columns_, 0.0);
  measure_init();
}

void Trainer::measure_init() {
  // 256 samples, in chunks of the batch size so memory stays at a batch's.
  constexpr std::size_t kSamples = 256;
  Rng rng = stream(config_.seed, kInitStats);
  const std::size_t H = config_.heads, dk = config_.dk, T = kTaskSeq, hk = H * dk;
  double q1 = 0, q2 = 0, k1 = 0, k2 = 0, d1 = 0, d2 = 0, loss = 0, correct = 0;
  AttnSums a;
  for (std::size_t done = 0; done < kSamples;) {
    const std::size_t n = std::min(config_.batch, kSamples - done);
    task_.sample(rng, n, scratch_);
    const auto ce = model_.forward(scratch_.x.data(), scratch_.target.data(), n);
    const auto& m = model_.mha();
    for (std::size_t i = 0; i < n * hk; ++i) q1 += m.q[i], q2 += static_cast<double>(m.q[i]) * m.q[i];
    for (std::size_t i = 0; i < n * T * hk; ++i) k1 += m.k[i], k2 += static_cast<double>(m.k[i]) * m.k[i];
    // Raw per-head dot products, before any divisor or QK-LayerNorm.
    for (std::size_t b = 0; b < n; ++b)
      for (std::size_t h = 0; h < H; ++h)
        for (std::size_t j = 0; j < T; ++j) {
          double d = 0;
          const float* q = m.q.data() + b * hk + h * dk;
          const float* k = m.k.data() + (b * T + j) * hk + h * dk;
          for (std::size_t i = 0; i < dk; ++i) d += static_cast<double>(q[i]) * k[i];
          d1 += d;
          d2 += d * d;
        }
    a.add(m, n, H, T, dk, scratch_.answer.data());
    loss += ce.loss_sum;
    correct += ce.undefined ? std::nan("") : static_cast<double>(ce.correct);
    done += n;
  }
  auto var = [](double s1, double s2, double n) { return s2 / n - (s1 / n) * (s1 / n); };
  const double n = static_cast<double>(kSamples);
  init_.samples = kSamples;
  init_.var_q = var(q1, q2, n * static_cast<double>(hk));
  init_.var_k = var(k1, k2, n * static_cast<double>(T * hk));
  init_.var_qk = var(d1, d2, n * static_cast<double>(H * T));
  init_.theory_var_qk = static_cast<double>(dk) * init_.var_q * init_.var_k;
  init_.var_logit = a.logit_var();
  init_.attn_entropy = a.entropy / a.rows;
  init_.attn_max = a.max / a.rows;
  init_.loss = loss / n;
  init_.accuracy = correct / n;
}

void Trainer::step(std::size_t count) {
  check_size("steps", count, 1, train_limits::kMaxStepsPerCall);
  check_work("steps", run_work(config_, count, 0), train_limits::kMaxTrainWork);
  for (std::size_t i = 0; i < count; ++i) {
    // A training step is four calls: data, forward, backward, update.
    task_.sample(data_rng_, config_.batch, batch_);
    auto ce = model_.forward(batch_.x.data(), batch_.target.data(), config_.batch);
    if (config_.qk_clip > 0) ce = clip(ce);
    model_.backward();
    ++steps_;
    record(steps_, ce, batch_);
    opt_.update(model_.params().data(), model_.grads().data());
  }
}

CrossEntropyResult Trainer::clip(const CrossEntropyResult& ce) {
  // QK-clip of the last update (or of the initial weights), measured at those
  // weights on the batch they meet next, this step's: a head past τ is scaled
  // back and the forward runs again, so every logit the model trains with,
  // and every row, is within τ. (Kimi K2 takes the max from the forward
  // before the update, which the update itself may then pass.)
  const auto m = head_max_logits(model_.mha().logits(), config_.batch, config_.heads, kTaskSeq);
  const std::size_t clipped = qk_clip(model_.params().data(), model_.layout(), dims_, m, config_.qk_clip);
  if (clipped == 0) return ce;
  qk_clips_ += clipped;
  return model_.forward(batch_.x.data(), batch_.target.data(), config_.batch);
}

void Trainer::record(std::size_t step, const CrossEntropyResult& ce, const TaskBatch& batch) {
  const std::size_t B = config_.batch, H = config_.heads, D = config_.d_model;
  const std::size_t dk = config_.dk, hk = H * dk;
  AttnSums a;
  a.add(model_.mha(), B, H, kTaskSeq, dk, batch.answer.data());
  const float* g = model_.grads().data();
  const ParamLayout& L = model_.layout();
  double* r = latest_.data();
  r[kColStep] = static_cast<double>(step);
  r[kColLoss] = ce.loss_sum / static_cast<double>(B);
  r[kColAccuracy] = ce.undefined ? std::nan("") : static_cast<double>(ce.correct) / static_cast<double>(B);
  r[kColAttnEntropy] = a.entropy / a.rows;
  r[kColAttnMax] = a.max / a.rows;
  r[kColAttnCorrect] = a.correct / a.rows;
  r[kColLogitMaxAbs] = a.logit_max_abs;
  r[kColLogitSpread] = a.spread / a.rows;
  r[kColGradWq] = std::sqrt(sum_squares(g + L.wq.offset, L.wq.size));
  r[kColGradWk] = std::sqrt(sum_squares(g + L.wk.offset, L.wk.size));
  r[kColGradWv] = std::sqrt(sum_squares(g + L.wv.offset, L.wv.size));
  r[kColGradWo] = std::sqrt(sum_squares(g + L.wo.offset, L.wo.size));
  const auto head_max = head_max_logits(model_.mha().logits(), B, H, kTaskSeq);
  if (step == 1) first_qk_grad_.assign(H, 0.0);
  for (std::size_t h = 0; h < H; ++h) {
    r[kFixedColumns + h] = column_norm(g + L.wq.offset, D, hk, h * dk, (h + 1) * dk);
    r[kFixedColumns + H + h] = column_norm(g + L.wk.offset, D, hk, h * dk, (h + 1) * dk);
    r[kFixedColumns + 2 * H + h] = a.head_undefined[h] ? std::nan("") : head_max[h];
    r[kFixedColumns + 3 * H + h] = a.head_entropy[h] / static_cast<double>(B);
    r[kFixedColumns + 4 * H + h] = a.head_correct[h] / static_cast<double>(B);
    r[kFixedColumns + 5 * H + h] = a.head_max[h] / static_cast<double>(B);
    r[kFixedColumns + 6 * H + h] = a.head_frozen[h] / static_cast<double>(B);
    const double qk = std::hypot(r[kFixedColumns + h], r[kFixedColumns + H + h]);
    if (step == 1) first_qk_grad_[h] = qk;
    const double first = first_qk_grad_[h];
    r[kFixedColumns + 7 * H + h] = first > 0 ? qk / first : std::nan("");
  }
  if (steps_to_90_ == 0 && r[kColAccuracy] >= 0.9) steps_to_90_ = step;
  // Diverged: the first step with a metric that is not finite (a NaN or
  // infinite loss, logit or gradient norm). The weights are then NaN or
  // infinite for good; the rows keep coming, NaN, as the run really is.
  if (diverged_at_ == 0 && !std::all_of(latest_.begin(), latest_.end(), [](double v) { return std::isfinite(v); }))
    diverged_at_ = step;
  if (step == 1 || step % config_.log_every == 0) rows_.insert(rows_.end(), latest_.begin(), latest_.end());
}

std::vector<double> Trainer::take_rows() {
  std::vector<double> out;
  out.swap(rows_);
  return out;
}

EvalResult Trainer::evaluate(std::size_t samples) {
  check_size("samples", samples, 1, train_limits::kMaxEvalSamples);
  check_work("samples", run_work(config_, 0, samples), train_limits::kMaxEvalWork);
  Rng rng = stream(config_.seed, kEval);
  EvalResult r;
  r.samples = samples;
  double loss = 0, correct = 0;
  AttnSums a;
  for (std::size_t done = 0; done < samples;) {
    const std::size_t n = std::min(config_.batch, samples - done);
    task_.sample(rng, n, scratch_);
    const auto ce = model_.forward(scratch_.x.data(), scratch_.target.data(), n);
    a.add(model_.mha(), n, config_.heads, kTaskSeq, config_.dk, scratch_.answer.data());
    loss += ce.loss_sum;
    correct += ce.undefined ? std::nan("") : static_cast<double>(ce.correct);
    done += n;
  }
  const double n = static_cast<double>(samples);
  r.loss = loss / n;
  r.accuracy = correct / n;
  r.attn_correct = a.correct / a.rows;
  return r;
}

AttentionMaps Trainer::attention_maps() {
  Rng rng = stream(config_.seed, kMaps);
  task_.sample(rng, kMapExamples, scratch_);
  model_.forward(scratch_.x.data(), scratch_.target.data(), kMapExamples);
  AttentionMaps m;
  m.examples = kMapExamples;
  m.heads = config_.heads;
  m.seq = kTaskSeq;
  m.weights = model_.mha().a;
  m.tok_a = scratch_.tok_a;
  m.tok_b = scratch_.tok_b;
  m.target = scratch_.target;
  m.answer = scratch_.answer;
  m.predicted.resize(kMapExamples);
  const auto& p = model_.probs();
  for (std::size_t e = 0; e < kMapExamples; ++e) {
    const float* pe = p.data() + e * kTaskVocab;
    m.predicted[e] = static_cast<int>(std::max_element(pe, pe + kTaskVocab) - pe);
  }
  return m;
}

QkSnapshot Trainer::qk_snapshot(std::size_t samples) {
  check_size("samples", samples, 1, config_.batch);
  Rng rng = stream(config_.seed, kSnapshot);
  task_.sample(rng, samples, scratch_);
  model_.forward(scratch_.x.data(), scratch_.target.data(), samples);
  QkSnapshot s;
  s.samples = samples;
  s.seq = kTaskSeq;
  s.heads = config_.heads;
  s.dk = config_.dk;
  s.q = model_.mha().q;
  s.k = model_.mha().k;
  s.logits = model_.mha().s;
  s.answer = scratch_.answer;
  s.divisor = config_.qk_norm ? 0.0 : config_.divisor.resolve(config_.dk);
  return s;
}

}  // namespace attn
