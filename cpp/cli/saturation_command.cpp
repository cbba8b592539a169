#include "saturation_command.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>

#include "args.h"
#include "help.h"
#include "progress.h"
#include "base/format.h"
#include "base/presets.h"
#include "base/size_limits.h"
#include "explain/saturation.h"
#include "explain/saturation_divisor.h"

namespace attncli {

using Json = nlohmann::ordered_json;


namespace {

Json mean_se(const attn::MeanSe& x) { return Json{{"mean", x.mean}, {"se", x.se}}; }

// --threshold T: the shares are counted at the histogram's edges (saturation.h),
// so T is 10^-k for a whole k in [1, kMaxThresholdExponent]; returns k.
int threshold_exponent(const Args& a) {
  if (!a.has("threshold")) return 3;
  const std::string text = a.text("threshold", "");
  const double t = a.real("threshold", 1e-3);
  const double k = -std::log10(t);
  const double r = std::round(k);
  if (!(t > 0) || std::fabs(k - r) > 1e-9 || r < 1 || r > attn::kMaxThresholdExponent)
    throw UsageError("--threshold must be a power of ten from 1e-40 to 0.1 (the shares are counted at those edges), got " + text);
  return static_cast<int>(r);
}

}  // namespace

int run_saturation(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> argv = args;
  const ProgressMode progress = take_progress(argv);
  const Args a(argv, options_of("saturation"));
  // --preset NAME: its d_k, divisor and soft-cap are defaults; an option given
  // beside it wins (--dk, --divisor, --softcap), as in train, sweep and check.
  const attn::Preset* preset = a.has("preset") ? &attn::find_preset(a.text("preset", "")) : nullptr;
  if (!preset && !a.has("dk")) throw UsageError("--dk is required (or --preset NAME)");
  if (!a.has("n")) throw UsageError("--n is required (the number of keys)");
  const std::size_t dk = a.integer("dk", preset ? preset->dk : 64, 1, attn::limits::kMaxDk);
  const std::size_t n = a.integer("n", 1, 1, attn::limits::kMaxSeqLen);
  const std::size_t samples = a.integer("samples", 1000, 2, attn::kMaxSaturationRows);
  const std::uint64_t seed = a.integer("seed", 0, 0, std::numeric_limits<std::uint64_t>::max() >> 11);
  const attn::SaturationDivisor div = preset && !a.has("divisor")
                                          ? attn::SaturationDivisor::fixed(attn::Divisor::value(preset->divisor))
                                          : attn::SaturationDivisor::parse(a.text("divisor", "sqrt"));
  if (div.ssmax() && n < 2) throw UsageError("--divisor " + div.label() + " needs --n >= 2 (s ln n is 0 at n = 1)");
  // The range every command gives --softcap (args.h).
  const double softcap = a.has("softcap") ? cap_option(a, "softcap") : preset ? preset->softcap : 0;
  // The core bounds each call (SaturationSession::draw); the whole run is bounded here, in the options' names.
  const unsigned long long work = 1ULL * samples * n * dk;  // each factor < 2^20: no overflow
  if (work > attn::limits::kMaxSampleWork)
    throw UsageError("--samples * --n * --dk = " + std::to_string(work) + ", more than the limit of " +
                     std::to_string(attn::limits::kMaxSampleWork));
  const int k = threshold_exponent(a);
  const double d = div.resolve(dk, n);
  // The rows drawn a batch at a time, for the bar: batches of any sizes give
  // the rows and numbers of one call (saturation.h), so stdout is the same
  // bytes with or without progress.
  attn::SaturationSession session(dk, n, seed, &d, 1, softcap);
  session.enable_distribution();
  Progress bar(err, progress);
  const std::size_t batch = std::max<std::size_t>(1, samples / 200);
  for (std::size_t done = 0; done < samples;) {
    const std::size_t rows = std::min(batch, samples - done);
    session.draw(rows);
    done += rows;
    if (bar.on()) {
      const auto now = session.stats(k).at(0);
      bar.show(done, samples, "rows", "max p " + attn::strf("%.3g", now.max_prob.mean) + ", entropy " +
                                          attn::strf("%.3g", now.entropy.mean));
    }
  }
  bar.finish();
  const attn::SaturationStats st = session.stats(k).at(0);
  Json j;
  j["dk"] = dk;
  j["n"] = n;
  j["divisor"] = d;
  j["divisor_label"] = div.label();
  j["softcap"] = softcap > 0 ? Json(softcap) : Json(nullptr);
  j["preset"] = preset ? Json(preset->name) : Json(nullptr);
  j["samples"] = samples;
  j["seed"] = seed;
  j["max_prob"] = mean_se(st.max_prob);
  j["entropy"] = mean_se(st.entropy);
  j["jacobian_norm"] = mean_se(st.jacobian_norm);
  // The median is known to its histogram bin: [lo, hi) and an estimate inside.
  j["jacobian_norm_median"] = Json{{"estimate", st.jacobian_median.estimate}, {"lo", st.jacobian_median.lo},
                                   {"hi", st.jacobian_median.hi}};
  j["target_grad"] = mean_se(st.target_grad);
  j["threshold"] = st.threshold;
  j["jacobian_norm_below"] = st.jacobian_below;
  j["target_grad_below"] = st.target_below;
  out << j.dump() << "\n";
  return 0;
}

}  // namespace attncli
