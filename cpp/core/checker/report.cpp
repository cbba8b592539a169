#include "checker/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/argument_error.h"
#include "base/format.h"
#include "base/size_limits.h"
#include "base/text.h"
#include "checker/io/json_writer.h"
#include "explain/softmax.h"
#include "kernels/dot.h"
#include "kernels/qk_scores.h"

namespace attn {

namespace {

struct Moments {
  double mean = 0, var = 0;
};

// Two passes in double: no cancellation when the mean is large.
Moments moments(const float* x, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += x[i];
  const double mean = s / static_cast<double>(n);
  double m2 = 0;
  for (std::size_t i = 0; i < n; ++i) m2 += (x[i] - mean) * (x[i] - mean);
  return {mean, m2 / static_cast<double>(n)};
}

// Chan et al.'s merge of (count, mean, M2) summaries, one softmax row at a time.
struct Running {
  double n = 0, mean = 0, m2 = 0;
  void add(double nb, double mean_b, double m2_b) {
    const double total = n + nb;
    const double delta = mean_b - mean;
    mean += delta * nb / total;
    m2 += m2_b + delta * delta * n * nb / total;
    n = total;
  }
};

// The rules of report.h, first match wins; the reason is one sentence.
void judge(HeadCheck& h, const DivisorCheck& m, std::size_t keys) {
  using namespace check_rules;
  const std::string at = m.label == "sqrt" ? strf("√d_k = %.3g", m.value)
                         : m.label == "dk" ? strf("d_k = %.3g", m.value)
                                           : strf("%.3g", m.value);
  const std::string fix =
      h.suggested_divisor > 0 ? strf("; dividing by %.3g would bring their variance to 1", h.suggested_divisor) : "";
  const double pct = 100.0 * m.saturated_share;
  const bool q_off = !(h.q_var >= kEntryVarLow && h.q_var <= kEntryVarHigh);
  const bool k_off = !(h.k_var >= kEntryVarLow && h.k_var <= kEntryVarHigh);
  const double ln_n = std::log(static_cast<double>(keys));
  if (m.frozen_share > kFrozenShare) {
    h.verdict = Verdict::Frozen;
    h.reason_code = "frozen_rows";
    h.reason = strf("%.0f%% of softmax rows are frozen at divisor %s: every weight but the largest has p(1 − p) "
                    "below 2⁻²⁴ (the median row's largest is %.2g), too small for a float32 step to move, so this "
                    "head can no longer change which key it reads%s.",
                    100.0 * m.frozen_share, at.c_str(), m.grad_median, fix.c_str());
  } else if (m.sharp_share > kSharpShare) {
    h.verdict = Verdict::Sharp;
    h.reason_code = "sharp_rows";
    h.reason = strf("%.0f%% of softmax rows put more than %g on one key at divisor %s, and the gradient still "
                    "flows (the median row's largest p(1 − p) off its top key is %.2g, above 2⁻²⁴): sharp and "
                    "still learning. From a trained model, a head that has chosen its keys; at initialisation, "
                    "keys chosen by chance that training goes on sharpening.",
                    100.0 * m.sharp_share, kSharpMaxProb, at.c_str(), m.grad_median);
  } else if (m.logit_std > kRiskLogitStd) {
    h.verdict = Verdict::AtRisk;
    h.reason_code = "logit_std";
    h.reason = strf("The logits q·k / %s have standard deviation %.3g, above %g, so rows are close to one-hot%s.",
                    at.c_str(), m.logit_std, kRiskLogitStd, fix.c_str());
  } else if (m.saturated_share > kRiskShare) {
    h.verdict = Verdict::AtRisk;
    h.reason_code = "risk_rows";
    h.reason = strf("%.0f%% of softmax rows already put more than %g on a single key at divisor %s.", pct,
                    kSaturatedMaxProb, at.c_str());
  } else if (m.row_logit_std < kFlatRowStd) {
    h.verdict = Verdict::TooFlat;
    h.reason_code = "flat_logits";
    h.reason = strf("The logits q·k / %s vary by %.3g within a row (standard deviation), below %g: attention is "
                    "close to uniform (mean entropy %.3g nats of ln %zu = %.3g), so the head starts by averaging "
                    "every key%s.",
                    at.c_str(), m.row_logit_std, kFlatRowStd, m.entropy_mean, keys, ln_n, fix.c_str());
  } else if (q_off || k_off) {
    h.verdict = Verdict::AtRisk;
    h.reason_code = q_off ? "entry_var_q" : "entry_var_k";
    h.reason = strf("%s entries have variance %.3g, outside [%g, %g]: scaling by √d_k assumes variance 1, so "
                    "the logit spread will not stay near 1.",
                    q_off ? "q" : "k", q_off ? h.q_var : h.k_var, kEntryVarLow, kEntryVarHigh);
  } else {
    h.verdict = Verdict::Fine;
    h.reason_code = "ok";
    h.reason = strf("The logits q·k / %s have standard deviation %.3g and %.0f%% of rows are saturated: the "
                    "softmax has room to learn.",
                    at.c_str(), m.logit_std, pct);
  }
}

// The largest p(1 − p) over a row's weights other than its largest one: what
// the softmax passes back to the best competitor's score (0 for one key only).
double runner_up_grad(const double* p, std::size_t n, std::size_t argmax) {
  double g = 0;
  for (std::size_t j = 0; j < n; ++j)
    if (j != argmax) g = std::max(g, p[j] * (1.0 - p[j]));
  return g;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  const std::size_t m = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m), v.end());
  if (v.size() % 2) return v[m];
  const double hi = v[m];
  return 0.5 * (hi + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m)));
}

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Fine: return "fine";
    case Verdict::AtRisk: return "at_risk";
    case Verdict::TooFlat: return "too_flat";
    case Verdict::Sharp: return "sharp";
    case Verdict::Frozen: return "frozen";
  }
  return "fine";
}

CheckReport check_qk(const QkTensors& t, const Divisor& model) {
  const std::size_t H = t.heads, nq = t.n_q, dk = t.dk, S = t.sequences;
  if (H == 0 || nq == 0 || t.n_k < 2 || dk == 0 || S == 0 || nq % S != 0 || t.n_k % S != 0 ||
      t.n_k / S < 2 || t.q.size() != H * nq * dk || t.k.size() != H * t.n_k * dk)
    fail_kind("tensors", "state", "", "q and k do not match their shapes");
  // Each query row is scored against the nk keys of its own sequence.
  const std::size_t nk = t.n_k / S, nq_seq = nq / S;
  const std::uint64_t logits = std::uint64_t{H} * nq * nk;
  if (H > limits::kMaxCheckHeads || nq > limits::kMaxSeqLen || nk > limits::kMaxSeqLen ||
      dk > limits::kMaxDk || logits > limits::kMaxCheckLogits || logits * dk > limits::kMaxCheckWork)
    fail_kind("tensors", "state", "", "q and k are larger than the checker's limits");

  CheckReport r;
  r.heads = H;
  r.n_q = nq;
  r.n_k = t.n_k;
  r.sequences = S;
  r.dk = dk;
  r.format = t.format;

  // The divisors every report shows, then the model's own if it is another.
  std::vector<Divisor> divs{Divisor::sqrt_dk(), Divisor::value(1), Divisor::value(2), Divisor::dk()};
  r.model_divisor = divs.size();
  for (std::size_t i = 0; i < divs.size(); ++i)
    if (divs[i].label() == model.label()) r.model_divisor = i;
  if (r.model_divisor == divs.size()) divs.push_back(model);
  const std::size_t nd = divs.size();

  // Scores for a block of query rows at a time: B·n_k floats, at most 256 KiB.
  const std::size_t block = std::max<std::size_t>(1, std::min<std::size_t>(nq_seq, 65536 / nk));
  std::vector<float> scores(block * nk);
  std::vector<double> row(nk), probs(nk);

  for (std::size_t h = 0; h < H; ++h) {
    const float* q = t.q.data() + h * nq * dk;
    const float* k = t.k.data() + h * t.n_k * dk;
    HeadCheck hc;
    const Moments mq = moments(q, nq * dk), mk = moments(k, t.n_k * dk);
    hc.q_mean = mq.mean;
    hc.q_var = mq.var;
    hc.k_mean = mk.mean;
    hc.k_var = mk.var;
    if (nq == t.n_k && mq.var > 0 && mk.var > 0) {
      double cov = 0;
      for (std::size_t i = 0; i < nq * dk; ++i) cov += (q[i] - mq.mean) * (k[i] - mk.mean);
      cov /= static_cast<double>(nq * dk);
      hc.has_correlation = true;
      hc.correlation = std::max(-1.0, std::min(1.0, cov / std::sqrt(mq.var * mk.var)));
    }

    hc.divisors.resize(nd);
    std::vector<double> ent_sum(nd, 0), ent_min(nd, HUGE_VAL), mp_sum(nd, 0), mp_max(nd, 0);
    std::vector<std::size_t> saturated(nd, 0), sharp(nd, 0), frozen(nd, 0);
    std::vector<std::vector<double>> grads(nd, std::vector<double>(nq));
    hc.row_entropy.resize(nq);
    hc.row_max_prob.resize(nq);
    hc.row_grad.resize(nq);
    Running all;
    double row_m2_sum = 0;

    for (std::size_t i0 = 0, b = 0; i0 < nq; i0 += b) {
      // A block of query rows never straddles two sequences: it stops at its sequence's end.
      const std::size_t seq = i0 / nq_seq;
      b = std::min(block, (seq + 1) * nq_seq - i0);
      const float* keys = k + seq * nk * dk;
      qk_scores_f32(q + i0 * dk, keys, b, nk, dk, 1.0f, scores.data());
      for (std::size_t i = 0; i < b; ++i) {
        const float* s = scores.data() + i * nk;
        double sum = 0;
        for (std::size_t j = 0; j < nk; ++j) {
          if (!std::isfinite(s[j]))
            fail_kind("file", "overflow", strf("{\"head\":%zu}", h), "head %zu: q·k overflows float32 (query %zu, key %zu): q and k are far too large", h,
                     i0 + i, j);
          row[j] = s[j];
          sum += row[j];
        }
        const double mean = sum / static_cast<double>(nk);
        double m2 = 0;
        for (std::size_t j = 0; j < nk; ++j) m2 += (row[j] - mean) * (row[j] - mean);
        all.add(static_cast<double>(nk), mean, m2);
        row_m2_sum += m2;
        for (std::size_t d = 0; d < nd; ++d) {
          const double c = divs[d].resolve(dk);
          const SoftmaxStats st = softmax_stats(row.data(), nk, c, probs.data());
          ent_sum[d] += st.entropy;
          ent_min[d] = std::min(ent_min[d], st.entropy);
          mp_sum[d] += st.max_prob;
          mp_max[d] = std::max(mp_max[d], st.max_prob);
          if (st.max_prob > check_rules::kSaturatedMaxProb) ++saturated[d];
          if (st.max_prob > check_rules::kSharpMaxProb) ++sharp[d];
          const double g = runner_up_grad(probs.data(), nk, st.argmax);
          grads[d][i0 + i] = g;
          if (g < check_rules::kFrozenGrad) ++frozen[d];
          if (d == r.model_divisor) {
            hc.row_entropy[i0 + i] = static_cast<float>(st.entropy);
            hc.row_max_prob[i0 + i] = static_cast<float>(st.max_prob);
            hc.row_grad[i0 + i] = static_cast<float>(g);
          }
        }
      }
    }

    const double pairs = static_cast<double>(nq) * static_cast<double>(nk);
    hc.logit_mean = all.mean;
    hc.logit_var = all.m2 / pairs;
    hc.logit_row_var = row_m2_sum / pairs;
    hc.suggested_divisor = std::sqrt(hc.logit_var);
    for (std::size_t d = 0; d < nd; ++d) {
      DivisorCheck& dc = hc.divisors[d];
      dc.label = divs[d].label();
      dc.value = divs[d].resolve(dk);
      dc.logit_std = std::sqrt(hc.logit_var) / dc.value;
      dc.entropy_mean = ent_sum[d] / static_cast<double>(nq);
      dc.entropy_min = ent_min[d];
      dc.max_prob_mean = mp_sum[d] / static_cast<double>(nq);
      dc.max_prob_max = mp_max[d];
      dc.saturated_share = static_cast<double>(saturated[d]) / static_cast<double>(nq);
      dc.sharp_share = static_cast<double>(sharp[d]) / static_cast<double>(nq);
      dc.frozen_share = static_cast<double>(frozen[d]) / static_cast<double>(nq);
      dc.grad_median = median(std::move(grads[d]));
      dc.row_logit_std = std::sqrt(hc.logit_row_var) / dc.value;
    }
    judge(hc, hc.divisors[r.model_divisor], nk);
    r.head.push_back(std::move(hc));
  }
  return r;
}

void add_scale_fit(CheckReport& r, const QkTensors& t, const Scores& scores, const ScaleExpectation& e) {
  std::vector<HeadScaleFit> fits = fit_scale(t, scores, e);
  for (std::size_t h = 0; h < r.head.size() && h < fits.size(); ++h) r.head[h].fit = std::move(fits[h]);
  r.has_fit = true;
  r.fit_kind = scores.kind;
  r.expected = e;
}

std::string check_report_json(const CheckReport& r) {
  std::string text;
  write_check_report_json(r, [&](const std::string& chunk) { text += chunk; });
  return text;
}

void write_check_report_json(const CheckReport& r, const std::function<void(const std::string&)>& write) {
  using namespace check_rules;
  JsonOut j;
  auto flush = [&] {
    write(j.s);
    j.s.clear();
  };
  j.open('{');
  j.str("format", format_name(r.format));
  j.open("shape", '{');
  j.integer("heads", r.heads);
  j.integer("n_q", r.n_q);
  j.integer("n_k", r.n_k);
  j.integer("dk", r.dk);
  j.integer("sequences", r.sequences);
  j.integer("keys_per_query", r.n_k / r.sequences);
  j.close('}');
  const DivisorCheck* model = r.head.empty() ? nullptr : &r.head[0].divisors[r.model_divisor];
  j.open("divisor", '{');
  j.str("label", model ? model->label : "");
  j.num("value", model ? model->value : 0);
  j.integer("index", r.model_divisor);
  j.str("source", r.divisor_source);
  j.close('}');
  j.open("thresholds", '{');
  j.num("saturated_max_prob", kSaturatedMaxProb);
  j.num("saturated_share", kSaturatedShare);
  j.num("risk_share", kRiskShare);
  j.num("risk_logit_std", kRiskLogitStd);
  j.num("entry_var_low", kEntryVarLow);
  j.num("entry_var_high", kEntryVarHigh);
  j.num("frozen_grad", kFrozenGrad);
  j.num("frozen_share", kFrozenShare);
  j.num("sharp_max_prob", kSharpMaxProb);
  j.num("sharp_share", kSharpShare);
  j.num("flat_row_std", kFlatRowStd);
  j.close('}');
  j.str("kernel", dot_f32_kernel_name());
  if (r.preset.empty()) j.num("preset", NAN);  // null
  else j.str("preset", r.preset);
  if (!r.has_fit) {
    j.num("scale_fit", NAN);  // null
  } else {
    j.open("scale_fit", '{');
    j.str("input", score_kind_name(r.fit_kind));
    j.num("expected", r.expected.divisor > 0 ? r.expected.divisor : std::sqrt(static_cast<double>(r.dk)));
    j.num("softcap", r.expected.softcap > 0 && r.fit_kind == ScoreKind::Logits ? r.expected.softcap : NAN);
    j.open("tolerances", '{');
    j.num("residual", fit_rules::kMaxResidual);
    j.num("match", fit_rules::kMatch);
    j.num("row_sum", fit_rules::kRowSum);
    j.num("mask_below", fit_rules::kMaskBelow);
    j.num("cap_edge", fit_rules::kCapEdge);
    j.close('}');
    j.close('}');
  }
  j.open("heads", '[');
  for (std::size_t h = 0; h < r.head.size(); ++h) {
    const HeadCheck& c = r.head[h];
    j.open('{');
    j.integer("head", h);
    j.open("q", '{');
    j.num("mean", c.q_mean);
    j.num("var", c.q_var);
    j.close('}');
    j.open("k", '{');
    j.num("mean", c.k_mean);
    j.num("var", c.k_var);
    j.close('}');
    j.open("logits", '{');
    j.num("mean", c.logit_mean);
    j.num("var", c.logit_var);
    j.num("std", std::sqrt(c.logit_var));
    j.num("row_std", std::sqrt(c.logit_row_var));
    j.close('}');
    j.num("correlation", c.has_correlation ? c.correlation : NAN);  // NaN is written as null
    j.open("divisors", '[');
    for (const DivisorCheck& d : c.divisors) {
      j.open('{');
      j.str("label", d.label);
      j.num("value", d.value);
      j.num("logit_std", d.logit_std);
      j.num("entropy_mean", d.entropy_mean);
      j.num("entropy_min", d.entropy_min);
      j.num("max_prob_mean", d.max_prob_mean);
      j.num("max_prob_max", d.max_prob_max);
      j.num("saturated_share", d.saturated_share);
      j.num("sharp_share", d.sharp_share);
      j.num("frozen_share", d.frozen_share);
      j.num("grad_median", d.grad_median);
      j.num("row_logit_std", d.row_logit_std);
      j.close('}');
    }
    j.close(']');
    j.str("verdict", verdict_name(c.verdict));
    j.str("reason_code", c.reason_code);
    j.str("reason", c.reason);
    j.num("suggested_divisor", c.suggested_divisor > 0 ? c.suggested_divisor : NAN);
    j.open("rows", '{');
    j.open("entropy", '[');
    for (float v : c.row_entropy) j.num6(v);
    j.close(']');
    j.open("max_prob", '[');
    for (float v : c.row_max_prob) j.num6(v);
    j.close(']');
    j.open("grad", '[');
    for (float v : c.row_grad) j.num6(v);
    j.close(']');
    j.close('}');
    if (!r.has_fit) {
      j.num("scale_fit", NAN);  // null
    } else {
      const HeadScaleFit& f = c.fit;
      j.open("scale_fit", '{');
      j.str("verdict", f.verdict);
      j.str("sentence", f.sentence);
      j.num("c", f.c);
      j.num("residual", f.residual);
      j.num("spread", f.spread);
      j.integer("entries", f.entries);
      j.integer("masked", f.masked);
      j.integer("capped", f.capped);
      j.num("row_sum_min", f.row_sum_min);
      j.num("row_sum_max", f.row_sum_max);
      j.num("after_softmax", f.after_softmax);
      j.close('}');
    }
    j.close('}');
    flush();  // one head's text at a time: 2^22 rows are 76 MB of it
  }
  j.close(']');
  j.close('}');
  flush();
}

}  // namespace attn
