#include "checker/scale_fit.h"

#include <algorithm>
#include <cmath>

#include "base/format.h"
#include "checker/qk_input.h"
#include "kernels/qk_scores.h"

namespace attn {

namespace {

using namespace fit_rules;

// Neumaier's compensated sum: the residual is Σy² − (Σxy)²/Σx², which cancels
// to ρ²·Σy²; plain sums over 2^22 terms would leave a floor near ρ = 1e-6.
struct Sum {
  double s = 0, c = 0;
  void add(double v) {
    const double t = s + v;
    c += std::fabs(s) >= std::fabs(v) ? (s - t) + v : (v - t) + s;
    s = t;
  }
  double value() const { return s + c; }
};

bool near(double x, double target, double tol) { return target > 0 && std::fabs(x / target - 1) <= tol; }

// A divisor as the sentences write it: 8.0, 22.6, 64 (whole numbers from 10 up), 0.354.
std::string num(double c) {
  if (c >= 10 && std::fabs(c - std::round(c)) < 0.05) return strf("%.0f", c);
  if (c >= 1) return strf("%.1f", c);
  return strf("%.3g", c);
}

// The expected divisor, " = √64", " = d_k", " = √144" (a preset's or a
// non-whole number's root), or "" when the number says it all.
std::string expected_form(const ScaleExpectation& e, double expected, std::size_t dk) {
  if (e.label == "sqrt") return strf(" = √%zu", dk);
  if (e.label == "dk") return " = d_k";
  const double sq = expected * expected, r = std::round(sq);
  if ((!e.preset.empty() || expected != std::round(expected)) && r >= 2 && std::fabs(sq - r) <= 1e-9 * r)
    return strf(" = √%.0f", r);
  return "";
}

std::string residual_text(double r) { return strf("fit residual %.2g", r); }

void verdict(HeadScaleFit& f, const ScaleExpectation& e, ScoreKind kind, std::size_t heads, std::size_t dk) {
  const double expected = e.divisor > 0 ? e.divisor : std::sqrt(static_cast<double>(dk));
  const double sqrt_dk = std::sqrt(static_cast<double>(dk));
  const std::string of = e.preset.empty() ? "" : " for " + e.preset_label;
  std::string notes = residual_text(f.residual);
  if (e.softcap > 0 && kind == ScoreKind::Logits) notes = strf("after undoing the soft-cap %g; ", e.softcap) + notes;
  if (f.masked) notes += strf("; %zu masked entries left out", f.masked);
  if (f.capped) notes += strf("; %zu entries near the cap left out", f.capped);
  const std::string subject =
      kind == ScoreKind::Logits ? "the logits" : "the logits behind these probabilities";
  const double c = f.c;
  if (f.verdict == "uniform") {
    f.sentence = strf("%s are uniform within every row (their spread, %.2g, is at the level of float32 rounding) "
                      "over the %zu entries used: no divisor can be fitted",
                      subject.c_str(), f.spread, f.entries);
    return;
  }
  if (std::isnan(f.residual)) {
    f.verdict = "no_signal";
    f.sentence = strf("q·k is 0, or the same within every row, over the %zu entries used: no divisor can be seen",
                      f.entries);
    return;
  }
  if (!(c > 0) || f.residual > kMaxResidual) {
    f.verdict = "not_qk";
    f.sentence = subject + " are not q·k / c for any c: a mask, bias or softcap is applied (" +
                 (c > 0 ? "best c = " + num(c) + ", " : std::string("no c > 0 fits, ")) + notes + ")";
    return;
  }
  std::string what;  // what dividing by c is
  if (near(c, expected, kMatch)) {
    f.verdict = "expected";
    what = near(expected, 1, 1e-12) ? "does not divide, as expected" + of
                                    : "divides by " + num(c) + expected_form(e, expected, dk) + ", as expected" + of;
  } else if (near(c, 1, kMatch)) {
    f.verdict = "none";
    what = strf("does not divide: c = %.3g, where ", c) + num(expected) + expected_form(e, expected, dk) +
           " was expected" + of;
  } else if (near(c, sqrt_dk, kMatch)) {
    f.verdict = "sqrt_dk";
    what = "divides by " + num(c) + strf(" = √%zu = √d_k, but ", dk) + (e.preset.empty() ? "the model" : e.preset_label) +
           " divides by " + num(expected) + expected_form(e, expected, dk);
  } else if (near(c, static_cast<double>(dk), kMatch)) {
    f.verdict = "dk";
    what = "divides by " + num(c) + " = d_k (μP-style; or √d_k applied twice: " + num(sqrt_dk) + " × " + num(sqrt_dk) + ")";
  } else if (expected > 1 && near(c, expected * expected, 2 * kMatch)) {
    f.verdict = "twice";
    what = "divides by " + num(c) + " = " + num(expected) + "², the expected divisor applied twice";
  } else {
    const double r = std::round(c * c / static_cast<double>(dk));
    if (r >= 2 && r <= 1024 && near(c * c, r * static_cast<double>(dk), 2 * kMatch)) {
      f.verdict = "width";
      const std::string root = "divides by " + num(c) + strf(" ≈ √%.0f = √d_model", r * static_cast<double>(dk));
      what = static_cast<double>(heads) == r
                 ? root + strf(" (%zu heads × d_k %zu): the head width should be used, √d_k = ", heads, dk) + num(sqrt_dk)
                 : root + strf(" if the model has %.0f heads of d_k %zu: the head width should be used, √d_k = ", r, dk) +
                       num(sqrt_dk);
    } else {
      f.verdict = "other";
      what = "divides by " + num(c) + ", none of √d_k = " + num(sqrt_dk) + ", 1, d_k = " + strf("%zu", dk) +
             (heads > 1 ? ", √d_model = " + num(std::sqrt(static_cast<double>(heads * dk))) : std::string()) +
             "; expected " + num(expected) + of;
    }
  }
  if (!std::isnan(f.after_softmax)) {
    f.verdict = "after_softmax";
    f.sentence = "the scale is applied after the softmax: every row sums to " + strf("%.3g", f.after_softmax) +
                 " = 1/" + num(1 / f.after_softmax) + " instead of 1; before the softmax it " + what + " (" + notes + ")";
    return;
  }
  f.sentence = what + " (" + notes + ")";
}

void check_scores_shape(const QkTensors& t, const Scores& sc) {
  const char* arg = score_kind_name(sc.kind);
  const std::size_t nk = t.n_k / t.sequences;
  const std::vector<std::size_t>& s = sc.t.shape;
  const bool ok = (s.size() == 3 && s[0] == t.heads && s[1] == t.n_q && s[2] == nk) ||
                  (s.size() == 2 && t.heads == 1 && s[0] == t.n_q && s[1] == nk);
  const std::string want = scores_shape_text(t);
  if (!ok || sc.t.data.size() != t.heads * t.n_q * nk)
    fail_kind(arg, "scores_shape",
              "{\"shape\":" + jstr(shape_text(s)) + ",\"expected\":" + jstr(scores_shape_text(t, false)) + "}",
              "%s has shape %s, but q and k need %s: [heads, n_q, n_k / sequences], one row per query over its "
              "sequence's keys",
              arg, shape_text(s).c_str(), want.c_str());
}

// NaN and +inf anywhere, −inf in probabilities, negative probabilities: refused, naming the place.
void check_scores_values(const Scores& sc) {
  const char* arg = score_kind_name(sc.kind);
  for (std::size_t i = 0; i < sc.t.data.size(); ++i) {
    const float v = sc.t.data[i];
    const bool mask = sc.kind == ScoreKind::Logits && v == -INFINITY;
    if (!std::isfinite(v) && !mask)
      fail_kind(arg, "scores_finite", "{\"at\":" + jstr(index_text(sc.t.shape, i)) + ",\"value\":" + jnum(v) + "}",
                "%s: the value at %s is %g: %s must be finite (a logit may be -inf, as a mask)", arg,
                index_text(sc.t.shape, i).c_str(), static_cast<double>(v), arg);
    if (sc.kind == ScoreKind::Probs && v < 0)
      fail_kind(arg, "probs_negative", "{\"at\":" + jstr(index_text(sc.t.shape, i)) + ",\"value\":" + jnum(v) + "}",
                "probs: the value at %s is %g: probabilities cannot be negative", index_text(sc.t.shape, i).c_str(),
                static_cast<double>(v));
  }
}

}  // namespace

const char* score_kind_name(ScoreKind k) { return k == ScoreKind::Probs ? "probs" : "logits"; }

std::vector<HeadScaleFit> fit_scale(const QkTensors& t, const Scores& sc, const ScaleExpectation& e) {
  const std::size_t H = t.heads, nq = t.n_q, dk = t.dk, S = t.sequences;
  if (H == 0 || nq == 0 || dk == 0 || S == 0 || t.n_k % S != 0 || nq % S != 0 || t.n_k / S < 2 ||
      t.q.size() != H * nq * dk || t.k.size() != H * t.n_k * dk)
    fail_kind("tensors", "state", "", "q and k do not match their shapes");
  check_scores_shape(t, sc);
  check_scores_values(sc);
  const std::size_t nk = t.n_k / S, nq_seq = nq / S;
  const bool probs = sc.kind == ScoreKind::Probs;
  const double cap = probs ? 0 : e.softcap;

  // Probabilities: every row not wholly 0 sums to 1, or all of them to one same r.
  std::vector<double> sums;
  if (probs) {
    for (std::size_t row = 0; row < H * nq; ++row) {
      double s = 0;
      for (std::size_t j = 0; j < nk; ++j) s += sc.t.data[row * nk + j];
      if (s > 0) sums.push_back(s);
    }
  }
  double common = NAN;  // r, when every row sums to r ≠ 1
  if (!sums.empty()) {
    const auto [lo, hi] = std::minmax_element(sums.begin(), sums.end());
    double mean = 0;
    for (double s : sums) mean += s;
    mean /= static_cast<double>(sums.size());
    const bool ones = std::fabs(*lo - 1) <= kRowSum && std::fabs(*hi - 1) <= kRowSum;
    const bool same = *lo >= mean * (1 - kRowSum) && *hi <= mean * (1 + kRowSum);
    if (!ones && !same) {
      const double bad = std::fabs(*lo - 1) > std::fabs(*hi - 1) ? *lo : *hi;
      fail_kind("probs", "probs_rows", strf("{\"sum\":%.6g,\"tolerance\":%g}", bad, kRowSum),
                "probs: a row sums to %.6g: each row of probabilities must sum to 1 within %g (or every row to one "
                "same number, a scale applied after the softmax)",
                bad, kRowSum);
    }
    if (!ones) common = mean;
  }

  const std::size_t block = std::max<std::size_t>(1, std::min<std::size_t>(nq_seq, 65536 / nk));
  std::vector<float> scores(block * nk);
  std::vector<double> x(nk), y(nk);
  std::vector<HeadScaleFit> out(H);
  for (std::size_t h = 0; h < H; ++h) {
    const float* q = t.q.data() + h * nq * dk;
    const float* k = t.k.data() + h * t.n_k * dk;
    const float* given = sc.t.data.data() + h * nq * nk;
    HeadScaleFit& f = out[h];
    Sum sxx, sxy, syy;
    Sum spread, level;  // Σ (y − row mean)², and the rounding noise's Σ (its square)
    double rmin = HUGE_VAL, rmax = 0;
    for (std::size_t i0 = 0, b = 0; i0 < nq; i0 += b) {
      const std::size_t seq = i0 / nq_seq;
      b = std::min(block, (seq + 1) * nq_seq - i0);
      qk_scores_f32(q + i0 * dk, k + seq * nk * dk, b, nk, dk, 1.0f, scores.data());
      for (std::size_t i = 0; i < b; ++i) {
        const float* s = scores.data() + i * nk;
        const float* g = given + (i0 + i) * nk;
        std::size_t used = 0;
        double mx = 0, my = 0, rs = 0;
        for (std::size_t j = 0; j < nk; ++j) {
          const double v = g[j];
          rs += probs ? v : 0;
          if (probs ? v == 0 : v <= kMaskBelow) {
            ++f.masked;
            continue;
          }
          if (cap > 0 && std::fabs(v) > kCapEdge * cap) {
            ++f.capped;
            continue;
          }
          x[used] = s[j];
          y[used] = probs ? std::log(v) : cap > 0 ? cap * std::atanh(v / cap) : v;
          mx += x[used];
          my += y[used];
          ++used;
        }
        if (probs && rs > 0) {
          rmin = std::min(rmin, rs);
          rmax = std::max(rmax, rs);
        }
        // Probabilities: centred within the row, where the normaliser is one constant.
        if (probs) {
          if (used < 2) {
            f.masked += used;  // a row with one key left says nothing of the scale: counted as masked
            continue;
          }
          mx /= static_cast<double>(used);
          my /= static_cast<double>(used);
        } else {
          mx = my = 0;
        }
        f.entries += used;
        // The spread within the row, against what float32 rounding alone gives:
        // 2^-24 absolute in log p, 2^-24 relative in a logit.
        double row_mean = 0;
        for (std::size_t j = 0; j < used; ++j) row_mean += y[j] - my;
        row_mean /= static_cast<double>(used ? used : 1);
        for (std::size_t j = 0; j < used; ++j) {
          const double d = y[j] - my - row_mean;
          spread.add(d * d);
          const double unit = 0x1p-24 * (probs ? 1.0 : std::fabs(y[j]));
          level.add(unit * unit);
        }
        for (std::size_t j = 0; j < used; ++j) {
          const double xc = x[j] - mx, yc = y[j] - my;
          if (!std::isfinite(xc))
            fail_kind("file", "overflow", strf("{\"head\":%zu}", h),
                      "head %zu: q·k overflows float32: q and k are far too large", h);
          sxx.add(xc * xc);
          sxy.add(xc * yc);
          syy.add(yc * yc);
        }
      }
    }
    f.row_sum_min = probs && rmax > 0 ? rmin : NAN;
    f.row_sum_max = probs && rmax > 0 ? rmax : NAN;
    f.after_softmax = common;
    const double xx = sxx.value(), xy = sxy.value(), yy = syy.value();
    f.spread = f.entries ? std::sqrt(spread.value() / static_cast<double>(f.entries)) : NAN;
    if (xx > 0 && !(spread.value() > kNoiseFloor * kNoiseFloor * level.value())) {
      f.verdict = "uniform";
      f.c = NAN;
      f.residual = NAN;
    } else if (!(xx > 0)) {
      f.c = NAN;
      f.residual = NAN;
    } else {
      const double a = xy / xx;
      f.c = a > 0 ? 1 / a : NAN;
      f.residual = yy > 0 ? std::sqrt(std::max(0.0, yy - xy * a) / yy) : 0;
    }
    verdict(f, e, sc.kind, H, dk);
  }
  return out;
}

}  // namespace attn
