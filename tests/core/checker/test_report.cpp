// The per-head report: statistics against a plain double oracle, constructed
// inputs with known answers (q = k gives correlation 1), the verdict rules,
// files written by the project's own writer giving the in-memory numbers,
// and the synthetic sample files landing where their names say.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "base/divisor.h"
#include "base/rng.h"
#include "base/size_limits.h"
#include "checker/check_fixtures.h"
#include "checker/io/npy.h"
#include "checker/io/npz.h"
#include "checker/qk_input.h"
#include "checker/report.h"
#include "samples/sample_qk.h"

using namespace checkfix;
using attn::Divisor;

namespace {

attn::QkTensors tensors(std::size_t heads, std::size_t nq, std::size_t nk, std::size_t dk,
                        std::vector<float> q, std::vector<float> k) {
  attn::Tensor tq{{heads, nq, dk}, std::move(q)}, tk{{heads, nk, dk}, std::move(k)};
  return attn::make_qk(std::move(tq), std::move(tk), attn::TensorFormat::Npz);
}

// The oracle: every statistic in double with std::exp, straight from its definition.
struct OracleHead {
  double q_mean = 0, q_var = 0, logit_mean = 0, logit_var = 0;
  std::vector<double> entropy_mean, max_prob_mean, saturated;
};

// Query i attends to the nk = n_k/S keys of its own sequence, i / (n_q/S).
OracleHead oracle(const attn::QkTensors& t, std::size_t h, const std::vector<double>& divisors) {
  const std::size_t nq = t.n_q, nk = t.n_k / t.sequences, dk = t.dk, per_seq = t.n_q / t.sequences;
  const float* q = t.q.data() + h * nq * dk;
  const float* head_k = t.k.data() + h * t.n_k * dk;
  OracleHead o;
  for (std::size_t i = 0; i < nq * dk; ++i) o.q_mean += q[i];
  o.q_mean /= static_cast<double>(nq * dk);
  for (std::size_t i = 0; i < nq * dk; ++i) o.q_var += (q[i] - o.q_mean) * (q[i] - o.q_mean);
  o.q_var /= static_cast<double>(nq * dk);
  std::vector<double> s(nq * nk);
  for (std::size_t i = 0; i < nq; ++i)
    for (std::size_t j = 0; j < nk; ++j) {
      const float* k = head_k + (i / per_seq) * nk * dk;
      double a = 0;
      for (std::size_t c = 0; c < dk; ++c) a += static_cast<double>(q[i * dk + c]) * k[j * dk + c];
      s[i * nk + j] = a;
      o.logit_mean += a;
    }
  o.logit_mean /= static_cast<double>(nq * nk);
  for (double a : s) o.logit_var += (a - o.logit_mean) * (a - o.logit_mean);
  o.logit_var /= static_cast<double>(nq * nk);
  for (double c : divisors) {
    double ent = 0, mp = 0, sat = 0;
    for (std::size_t i = 0; i < nq; ++i) {
      const double* row = &s[i * nk];
      const double mx = *std::max_element(row, row + nk);
      double z = 0;
      for (std::size_t j = 0; j < nk; ++j) z += std::exp((row[j] - mx) / c);
      double e = 0, pmax = 0;
      for (std::size_t j = 0; j < nk; ++j) {
        const double p = std::exp((row[j] - mx) / c) / z;
        if (p > 0) e -= p * std::log(p);
        pmax = std::max(pmax, p);
      }
      ent += e;
      mp += pmax;
      sat += pmax > 0.99 ? 1 : 0;
    }
    o.entropy_mean.push_back(ent / static_cast<double>(nq));
    o.max_prob_mean.push_back(mp / static_cast<double>(nq));
    o.saturated.push_back(sat / static_cast<double>(nq));
  }
  return o;
}

}  // namespace

TEST_CASE("check: statistics agree with a double oracle at every divisor", "[check]") {
  Data d(11);
  const std::size_t H = 3, nq = 17, nk = 23, dk = 16;
  // Head 2 has larger q: some rows saturate at divisor 1.
  std::vector<float> q = d.floats(H * nq * dk), k = d.floats(H * nk * dk);
  for (std::size_t i = 2 * nq * dk; i < q.size(); ++i) q[i] *= 3.0f;
  const auto t = tensors(H, nq, nk, dk, q, k);
  const auto r = attn::check_qk(t, Divisor::parse("3"));
  REQUIRE(r.head.size() == H);
  REQUIRE(r.model_divisor == 4);  // after √d_k, 1, 2, d_k
  const std::vector<double> divs{4, 1, 2, 16, 3};
  for (std::size_t h = 0; h < H; ++h) {
    const auto& c = r.head[h];
    const OracleHead o = oracle(t, h, divs);
    REQUIRE(c.divisors.size() == divs.size());
    CHECK(c.q_mean == Approx(o.q_mean).margin(1e-12));
    CHECK(c.q_var == Approx(o.q_var).epsilon(1e-12));
    // Logits are summed in float (the kernel), the oracle in double.
    CHECK(c.logit_mean == Approx(o.logit_mean).margin(1e-5 * std::sqrt(o.logit_var)));
    CHECK(c.logit_var == Approx(o.logit_var).epsilon(1e-5));
    CHECK(c.suggested_divisor == Approx(std::sqrt(o.logit_var)).epsilon(1e-5));
    CHECK_FALSE(c.has_correlation);  // n_q != n_k
    for (std::size_t i = 0; i < divs.size(); ++i) {
      INFO("head " << h << ", divisor " << divs[i]);
      CHECK(c.divisors[i].value == divs[i]);
      CHECK(c.divisors[i].logit_std == Approx(std::sqrt(o.logit_var) / divs[i]).epsilon(1e-5));
      CHECK(c.divisors[i].entropy_mean == Approx(o.entropy_mean[i]).epsilon(1e-5).margin(1e-6));
      CHECK(c.divisors[i].max_prob_mean == Approx(o.max_prob_mean[i]).epsilon(1e-5));
      CHECK(c.divisors[i].saturated_share == o.saturated[i]);
    }
    REQUIRE(c.row_entropy.size() == nq);
    double mean = 0;
    for (float e : c.row_entropy) mean += e;
    CHECK(mean / nq == Approx(o.entropy_mean[4]).epsilon(1e-5).margin(1e-6));
  }
  CHECK(r.head[2].divisors[1].saturated_share > 0);
}

TEST_CASE("check: a batch of sequences scores each query against its own keys only", "[check]") {
  Data d(17);
  const std::size_t H = 2, S = 3, nq = 4 * S, nk = 5 * S, dk = 8;
  attn::Tensor tq{{H, nq, dk}, d.floats(H * nq * dk)}, tk{{H, nk, dk}, d.floats(H * nk * dk, 1.5)};
  const auto t = attn::make_qk(tq, tk, attn::TensorFormat::Npz, S);
  REQUIRE(t.sequences == S);
  const auto r = attn::check_qk(t, Divisor::sqrt_dk());
  REQUIRE(r.sequences == S);
  const std::vector<double> divs{std::sqrt(8.0), 1, 2, 8};
  for (std::size_t h = 0; h < H; ++h) {
    const OracleHead o = oracle(t, h, divs);
    CHECK(r.head[h].logit_var == Approx(o.logit_var).epsilon(1e-5));
    for (std::size_t i = 0; i < divs.size(); ++i) {
      CHECK(r.head[h].divisors[i].entropy_mean == Approx(o.entropy_mean[i]).epsilon(1e-5).margin(1e-6));
      CHECK(r.head[h].divisors[i].max_prob_mean == Approx(o.max_prob_mean[i]).epsilon(1e-5));
    }
  }
  // The same numbers as one sequence give other statistics: every query sees all 15 keys.
  const auto one = attn::check_qk(attn::make_qk(tq, tk, attn::TensorFormat::Npz, 1), Divisor::sqrt_dk());
  CHECK(one.head[0].divisors[0].entropy_mean > r.head[0].divisors[0].entropy_mean);

  // An .npz's "sequences" array sets S; an explicit option wins.
  const std::vector<float> three{3};
  const Bytes z = attn::write_npz({{"q", attn::write_npy(tq.data.data(), tq.shape)},
                                   {"k", attn::write_npy(tk.data.data(), tk.shape)},
                                   {"sequences", attn::write_npy(three.data(), {1, 1})}});
  CHECK(attn::load_qk(z.data(), z.size(), attn::TensorFormat::Npz).sequences == 3);
  CHECK(attn::load_qk(z.data(), z.size(), attn::TensorFormat::Npz, {"q", "k", 1}).sequences == 1);
  CHECK(error_of([&] { attn::make_qk(tq, tk, attn::TensorFormat::Npz, 2); }) ==
        "2 sequences do not divide q's 12 rows and k's 15 rows into equal blocks");
  CHECK(error_of([&] { attn::make_qk(tq, attn::Tensor{{H, 3, dk}, std::vector<float>(H * 3 * dk)},
                                     attn::TensorFormat::Npz, 3); }) ==
        "3 sequences leave 1 key a sequence: a softmax needs at least 2 keys to compare");
}

TEST_CASE("check: q = k gives correlation 1, k = -q gives -1, independent near 0", "[check]") {
  Data d(3);
  const std::vector<float> q = d.floats(2 * 32 * 8);
  std::vector<float> neg(q.size());
  for (std::size_t i = 0; i < q.size(); ++i) neg[i] = -q[i];
  const auto same = attn::check_qk(tensors(2, 32, 32, 8, q, q), Divisor::sqrt_dk());
  const auto opposite = attn::check_qk(tensors(2, 32, 32, 8, q, neg), Divisor::sqrt_dk());
  const auto indep = attn::check_qk(tensors(2, 32, 32, 8, q, d.floats(q.size())), Divisor::sqrt_dk());
  for (std::size_t h = 0; h < 2; ++h) {
    REQUIRE(same.head[h].has_correlation);
    CHECK(same.head[h].correlation == Approx(1.0).margin(1e-12));
    CHECK(opposite.head[h].correlation == Approx(-1.0).margin(1e-12));
    CHECK(std::fabs(indep.head[h].correlation) < 5.0 / std::sqrt(32.0 * 8.0));
    CHECK(same.head[h].q_var == same.head[h].k_var);
  }
}

// q = a·I, k = I, one head, d_k = n = 4: logit (i, j) = a if i == j else 0.
static attn::QkTensors one_hot_qk(float a) {
  std::vector<float> q(16, 0), k(16, 0);
  for (int i = 0; i < 4; ++i) {
    q[i * 4 + i] = a;
    k[i * 4 + i] = 1;
  }
  return tensors(1, 4, 4, 4, q, k);
}

TEST_CASE("check: one-hot logits with known moments and verdicts", "[check]") {
  // q = a·I, k = I (d_k = n = 4): logit (i, j) = a if i == j else 0, so the
  // mean is a/4, the variance 3a²/16 and each row's largest probability
  // e^{a/c} / (e^{a/c} + 3).
  const auto make = one_hot_qk;
  const auto big = attn::check_qk(make(40), Divisor::sqrt_dk()).head[0];
  CHECK(big.logit_mean == 10.0);
  CHECK(big.logit_var == Approx(3.0 * 1600 / 16));
  CHECK(big.divisors[0].max_prob_mean == Approx(std::exp(20.0) / (std::exp(20.0) + 3)));
  CHECK(big.divisors[0].saturated_share == 1.0);
  // The three others each have p = 1/(e^20 + 3): p(1 − p) = 2.1e-9, below 2^-24.
  const double p20 = 1 / (std::exp(20.0) + 3);
  CHECK(big.divisors[0].grad_median == Approx(p20 * (1 - p20)));
  CHECK(big.divisors[0].frozen_share == 1.0);
  CHECK(big.verdict == attn::Verdict::Frozen);
  CHECK(big.reason_code == "frozen_rows");
  CHECK(big.reason == "100% of softmax rows are frozen at divisor √d_k = 2: every weight but the largest has "
                      "p(1 − p) below 2⁻²⁴ (the median row's largest is 2.1e-09), too small for a float32 step "
                      "to move, so this head can no longer change which key it reads; dividing by 17.3 would "
                      "bring their variance to 1.");
  CHECK(big.suggested_divisor == Approx(std::sqrt(300.0)));

  // a = 1: q's entries (one 1 in four) have variance 3/16, and each row's
  // logits [1, 0, 0, 0] / 2 have standard deviation √3/8 = 0.217: too flat,
  // which the rules name before the entries' variance.
  const auto small = attn::check_qk(make(1), Divisor::sqrt_dk()).head[0];
  CHECK(small.q_var == Approx(3.0 / 16));
  CHECK(small.divisors[0].row_logit_std == Approx(std::sqrt(3.0) / 8));
  CHECK(small.verdict == attn::Verdict::TooFlat);
  CHECK(small.reason_code == "flat_logits");
  // a = 4: rows [2, 0, 0, 0] (std 0.87, largest p = e²/(e² + 3) = 0.71), q's variance 3: at risk.
  const auto four = attn::check_qk(make(4), Divisor::sqrt_dk()).head[0];
  CHECK(four.verdict == attn::Verdict::AtRisk);
  CHECK(four.reason_code == "entry_var_q");

  // a = 8 at divisor 1: the largest probability e^8/(e^8+3) = 0.999 > 0.9, and
  // the others' p(1 − p) = 3.4e-4 is far above 2^-24: sharp, not frozen.
  const auto at8 = attn::check_qk(make(8), Divisor::value(1)).head[0];
  CHECK(at8.divisors[1].frozen_share == 0);
  CHECK(at8.verdict == attn::Verdict::Sharp);
  CHECK(at8.reason_code == "sharp_rows");
  // a = 5: p = e^5/(e^5+3) = 0.980, above 0.9 in every row: sharp as well.
  const auto at5 = attn::check_qk(make(5), Divisor::value(1)).head[0];
  CHECK(at5.divisors[1].saturated_share == 0);
  CHECK(at5.divisors[1].sharp_share == 1);
  CHECK(at5.divisors[1].logit_std == Approx(5 * std::sqrt(3.0) / 4));
  CHECK(at5.verdict == attn::Verdict::Sharp);
  // a = 2 at divisor 1: p = e²/(e² + 3) = 0.711, row std 0.87, q's variance
  // 4·3/16 = 0.75 inside [0.5, 2]: only k's entries (one 1 in four, variance 3/16) are off.
  const auto two = attn::check_qk(make(2), Divisor::value(1)).head[0];
  CHECK(two.verdict == attn::Verdict::AtRisk);
  CHECK(two.reason_code == "entry_var_k");
}

TEST_CASE("check: frozen at 2^-24, on each side of the line", "[check]") {
  // One-hot rows of 4 keys at divisor 1: the three others have p = 1/(e^a + 3),
  // so p(1 − p) crosses 2^-24 at a = 16.6355. 16.5 is sharp, 16.8 frozen.
  const auto make = one_hot_qk;
  for (const double a : {16.5, 16.8}) {
    const auto h = attn::check_qk(make(static_cast<float>(a)), Divisor::value(1)).head[0];
    const double af = static_cast<float>(a);  // the value q holds
    const double p = 1 / (std::exp(af) + 3), g = p * (1 - p);
    CAPTURE(a, g);
    CHECK(h.divisors[1].grad_median == Approx(g).epsilon(1e-9));
    for (float r : h.row_grad) CHECK(r == Approx(g).epsilon(1e-6));
    CHECK(h.verdict == (g < 0x1p-24 ? attn::Verdict::Frozen : attn::Verdict::Sharp));
  }
  CHECK(1 / (std::exp(16.5) + 3) > 0x1p-24);
  CHECK(1 / (std::exp(16.8) + 3) < 0x1p-24);
}

TEST_CASE("check: PyTorch's default nn.Linear init is too flat at √d_k", "[check]") {
  // nn.Linear's default weights, U(±1/√fan_in), give q and k entries of
  // variance 1/3 from unit inputs: logits of standard deviation √d_k/3, so
  // 1/3 after √d_k, and rows close to uniform (entropy near ln 64).
  attn::Rng rng(5);
  const std::size_t n = 64, dk = 64;
  std::vector<float> q(n * dk), k(n * dk);
  for (float& v : q) v = static_cast<float>((2 * rng.uniform() - 1));  // U(-1, 1): variance 1/3
  for (float& v : k) v = static_cast<float>((2 * rng.uniform() - 1));
  const auto h = attn::check_qk(tensors(1, n, n, dk, q, k), Divisor::sqrt_dk()).head[0];
  CHECK(h.q_var == Approx(1.0 / 3).margin(0.02));
  CHECK(h.divisors[0].row_logit_std == Approx(1.0 / 3).margin(0.03));
  CHECK(h.divisors[0].entropy_mean > std::log(64.0) - 0.1);
  CHECK(h.verdict == attn::Verdict::TooFlat);
  CHECK(h.reason_code == "flat_logits");
  // The same entries scaled to variance 1 are fine.
  for (float& v : q) v *= std::sqrt(3.0f);
  for (float& v : k) v *= std::sqrt(3.0f);
  CHECK(attn::check_qk(tensors(1, n, n, dk, q, k), Divisor::sqrt_dk()).head[0].verdict == attn::Verdict::Fine);
}

TEST_CASE("check: the verdict rules, one at a time", "[check]") {
  // Unit-variance q and k at √d_k: fine. The same at divisor 1 (std √d_k = 8): at risk
  // or saturated. Scaled by 3 at √d_k: logit std 9.
  Data d(21);
  const std::size_t n = 64, dk = 64;
  const auto q = d.floats(n * dk), k = d.floats(n * dk);
  const auto t = tensors(1, n, n, dk, q, k);
  const auto fine = attn::check_qk(t, Divisor::sqrt_dk()).head[0];
  CHECK(fine.verdict == attn::Verdict::Fine);
  CHECK(fine.reason_code == "ok");
  CHECK(fine.divisors[0].logit_std == Approx(1.0).margin(0.15));
  const auto unscaled = attn::check_qk(t, Divisor::value(1)).head[0];
  CHECK(unscaled.verdict != attn::Verdict::Fine);
  CHECK(unscaled.divisors[1].logit_std > 3);
  std::vector<float> q3 = q;
  for (float& x : q3) x *= 1.2f;  // entry variance 1.44: inside [0.5, 2]
  CHECK(attn::check_qk(tensors(1, n, n, dk, q3, k), Divisor::sqrt_dk()).head[0].verdict == attn::Verdict::Fine);
  for (float& x : q3) x *= 1.25f;  // 2.25: outside
  const auto var_off = attn::check_qk(tensors(1, n, n, dk, q3, k), Divisor::sqrt_dk()).head[0];
  CHECK(var_off.verdict == attn::Verdict::AtRisk);
  CHECK(var_off.reason_code == "entry_var_q");
}

TEST_CASE("check: files from the project's writer give the in-memory statistics", "[check][roundtrip]") {
  Data d(8);
  const std::size_t H = 2, n = 12, dk = 8;
  const auto q = d.floats(H * n * dk), k = d.floats(H * n * dk, 2.0);
  const auto mem = attn::check_qk(tensors(H, n, n, dk, q, k), Divisor::sqrt_dk());
  const Bytes qb = attn::write_npy(q.data(), {H, n, dk}), kb = attn::write_npy(k.data(), {H, n, dk});
  const Bytes z = attn::write_npz({{"q", qb}, {"k", kb}});
  const auto from_npz = attn::check_qk(attn::load_qk(z.data(), z.size(), attn::TensorFormat::Auto), Divisor::sqrt_dk());
  const auto from_pair = attn::check_qk(
      attn::load_qk_pair(qb.data(), qb.size(), attn::TensorFormat::Npy, kb.data(), kb.size(), attn::TensorFormat::Auto),
      Divisor::sqrt_dk());
  // Bit-identical inputs, so identical reports (the format field aside).
  std::string a = attn::check_report_json(mem), b = attn::check_report_json(from_npz),
              c = attn::check_report_json(from_pair);
  REQUIRE(a == b);
  REQUIRE(nlohmann::json::parse(c)["format"] == "npy");
  REQUIRE(nlohmann::json::parse(c)["heads"] == nlohmann::json::parse(a)["heads"]);
}

TEST_CASE("check: the JSON report holds every field, one per head", "[check]") {
  Data d(2);
  const auto r = attn::check_qk(tensors(2, 6, 6, 4, d.floats(48), d.floats(48)), Divisor::dk());
  const auto j = nlohmann::json::parse(attn::check_report_json(r));
  REQUIRE(j["shape"] == nlohmann::json({{"heads", 2}, {"n_q", 6}, {"n_k", 6}, {"dk", 4}, {"sequences", 1},
                                        {"keys_per_query", 6}}));
  REQUIRE(j["divisor"]["label"] == "dk");
  REQUIRE(j["divisor"]["index"] == 3);
  REQUIRE(j["thresholds"]["saturated_max_prob"] == 0.99);
  REQUIRE(j["heads"].size() == 2);
  for (const auto& h : j["heads"]) {
    REQUIRE(h["divisors"].size() == 4);
    REQUIRE(h["rows"]["entropy"].size() == 6);
    REQUIRE(h["rows"]["max_prob"].size() == 6);
    REQUIRE(h["correlation"].is_number());
    for (const char* key : {"verdict", "reason_code", "reason"}) REQUIRE(h[key].is_string());
  }
}

TEST_CASE("check: shapes that do not fit together, and the limits", "[check][errors]") {
  using attn::Tensor;
  auto err = [](Tensor q, Tensor k) {
    return error_of([&] { attn::make_qk(std::move(q), std::move(k), attn::TensorFormat::Npy); });
  };
  CHECK(err(Tensor{{2, 3, 4}, std::vector<float>(24)}, Tensor{{2, 3, 5}, std::vector<float>(30)}) ==
        "q has shape (2, 3, 4) but k has shape (2, 3, 5): heads and d_k must match");
  CHECK(err(Tensor{{2, 3, 4}, std::vector<float>(24)}, Tensor{{3, 4}, std::vector<float>(12)}) ==
        "q has shape (2, 3, 4) but k has shape (3, 4): heads and d_k must match");
  CHECK(err(Tensor{{3, 4}, std::vector<float>(12)}, Tensor{{1, 4}, std::vector<float>(4)}) ==
        "k has 1 row: a softmax needs at least 2 keys to compare");
  // 64 heads of 4096 x 16 queries and keys: 2^30 logits.
  CHECK(err(Tensor{{64, 4096, 16}, {}}, Tensor{{64, 4096, 16}, {}}) ==
        "heads·n_q·n_k/S = 1073741824 logits, more than the limit of 16777216");
  CHECK(err(Tensor{{1, 4096, 1024}, {}}, Tensor{{1, 4096, 1024}, {}}) ==
        "heads·n_q·n_k·d_k/S = 17179869184 multiply-adds, more than the limit of 1073741824");
  // Overflowing q·k is reported, not passed to the softmax as inf.
  std::vector<float> big(8, 3e19f);
  CHECK(error_of([&] { attn::check_qk(tensors(1, 2, 2, 4, big, big), Divisor::sqrt_dk()); }) ==
        "head 0: q·k overflows float32 (query 0, key 0): q and k are far too large");
}

TEST_CASE("check: the loader refuses what one file cannot hold", "[check][errors]") {
  const Bytes npy = [] {
    const std::vector<float> v(6, 1);
    return attn::write_npy(v.data(), {2, 3});
  }();
  CHECK(error_of([&] { attn::load_qk(npy.data(), npy.size(), attn::TensorFormat::Auto); }) ==
        "npy: a .npy file holds one array: give two files (q first, then k), or one .npz written by "
        "numpy.savez(f, q=q, k=k)");
  CHECK(error_of([&] { attn::load_qk(npy.data(), 0, attn::TensorFormat::Auto); }) == "file: the file is empty");
  CHECK(error_of([&] {
          attn::load_qk(npy.data(), attn::limits::kMaxCheckFileBytes + 1, attn::TensorFormat::Npz);
        }) == "file: the file is 67108865 bytes, more than the limit of 64 MiB");
  CHECK(error_of([&] { attn::load_qk(npy.data(), npy.size(), attn::TensorFormat::Npz, {"q", "q"}); }) ==
        "q and k need different names, got 'q' twice");
  CHECK(error_of([&] { attn::parse_format("xls"); }) ==
        "format must be 'auto', 'npy', 'npz', 'csv' or 'json', got 'xls'");
  // Values from the command line or a file are echoed escaped, on one line.
  CHECK(error_of([&] { attn::parse_format("npz\n"); }) ==
        "format must be 'auto', 'npy', 'npz', 'csv' or 'json', got 'npz\\n'");
  CHECK(error_of([&] { attn::load_qk(npy.data(), npy.size(), attn::TensorFormat::Npz, {"q\nx", "k"}); }) ==
        "array names must be 1 to 64 printable characters without spaces, commas or quotes, got 'q\\nx'");
  CHECK(attn::format_from_name("dump/Q.NPY") == attn::TensorFormat::Npy);
  CHECK(attn::format_from_name("qk.txt") == attn::TensorFormat::Csv);
  CHECK(attn::format_from_name("qk") == attn::TensorFormat::Auto);
}

TEST_CASE("check: the synthetic sample files land where their names say", "[check][samples]") {
  attn::SampleQkConfig c;
  c.kind = attn::SampleKind::Init;
  for (const auto& h : attn::check_qk(attn::sample_qk(c), Divisor::sqrt_dk()).head) {
    CHECK(h.verdict == attn::Verdict::Fine);
    CHECK(h.q_var == Approx(1).margin(0.15));
    CHECK(h.k_var == Approx(1).margin(0.15));
  }
  c.kind = attn::SampleKind::Saturated;
  for (const auto& h : attn::check_qk(attn::sample_qk(c), Divisor::sqrt_dk()).head) {
    CHECK((h.verdict == attn::Verdict::Frozen || h.verdict == attn::Verdict::Sharp));
    CHECK(h.correlation > 0.9);
  }
  c.kind = attn::SampleKind::Learned;
  for (const auto& h : attn::check_qk(attn::sample_qk(c), Divisor::sqrt_dk()).head) {
    CHECK(h.verdict == attn::Verdict::Fine);
    CHECK(h.divisors[0].max_prob_mean > 0.4);  // peaked, not saturated
  }
  // Same seed, same numbers.
  REQUIRE(attn::sample_qk(c).q == attn::sample_qk(c).q);
  // Each tensor at most what check reads (2^22 values), refused before any allocation.
  c.d_model = 1;  // the projections' cost; the sizes are what is tested
  for (const auto& [heads, n, dk] : {std::array<std::size_t, 3>{64, 1024, 1024}, {4, 1024, 1024}, {5, 1024, 1024}}) {
    c.heads = heads;
    c.n = n;
    c.dk = dk;
    if (heads * n * dk <= attn::limits::kMaxCheckValues) {
      REQUIRE(attn::sample_qk(c).q.size() == heads * n * dk);
    } else {
      CHECK(error_of([&] { attn::sample_qk(c); }) ==
            "heads*n*dk must be at most 4194304 (the values check reads), got " + std::to_string(heads) + "*" +
                std::to_string(n) + "*" + std::to_string(dk));
    }
  }
}
