#include "base/presets.h"

#include <cmath>
#include <string>

#include "base/argument_error.h"
#include "base/format.h"
#include "base/text.h"

namespace attn {

const std::vector<Preset>& presets() {
  // The divisors are computed, not typed: √128 = 11.31..., √144 = 12.
  static const std::vector<Preset> table = {
      {"gpt2", "GPT-2", 64, std::sqrt(64.0), 0, "sqrt(d_k)", "",
       "Radford et al. 2019; Hugging Face transformers modeling_gpt2.py: attn_weights / sqrt(head_dim), 768 / 12 heads"},
      {"bert-base", "BERT-base", 64, std::sqrt(64.0), 0, "sqrt(d_k)", "",
       "Devlin et al. 2019; google-research/bert modeling.py: 1 / sqrt(size_per_head), 768 / 12 heads"},
      {"llama", "Llama 2 / Llama 3", 128, std::sqrt(128.0), 0, "sqrt(d_k)", "",
       "meta-llama/llama3 model.py: scores / math.sqrt(head_dim), head_dim 128 (4096 / 32 heads)"},
      {"gemma2-2b", "Gemma 2 2B", 256, std::sqrt(256.0), 50, "sqrt(query_pre_attn_scalar) = sqrt(256)", "",
       "google/gemma-2-2b config.json: head_dim 256, query_pre_attn_scalar 256, attn_logit_softcapping 50.0"},
      {"gemma2-9b", "Gemma 2 9B", 256, std::sqrt(256.0), 50, "sqrt(query_pre_attn_scalar) = sqrt(256)", "",
       "google/gemma-2-9b config.json: head_dim 256, query_pre_attn_scalar 256, attn_logit_softcapping 50.0"},
      {"gemma2-27b", "Gemma 2 27B", 128, std::sqrt(144.0), 50, "sqrt(query_pre_attn_scalar) = sqrt(144)", "",
       "google/gemma-2-27b config.json: head_dim 128, query_pre_attn_scalar 144, attn_logit_softcapping 50.0"},
      {"t5", "T5", 64, 1, 0, "1 (none)", "t5",
       "Raffel et al. 2020; mesh-tensorflow transformer attention: no 1/sqrt(d_kv), W_Q initialised with std "
       "(d_model * d_kv)^-0.5; t5-base d_kv 64"},
      {"mup", "muP", 64, 64, 0, "d_k", "",
       "Yang et al. 2022, Tensor Programs V: attention logits q.k / d_k; microsoft/mup writes it 8 / d_k, "
       "which equals 1 / sqrt(d_k) at d_k = 64"},
  };
  return table;
}

double preset_query_std(const Preset& p) {
  return std::string_view(p.init) == "t5" ? 1 / std::sqrt(static_cast<double>(p.dk)) : 1;
}

const Preset& find_preset(std::string_view name) {
  std::string names;
  for (const Preset& p : presets()) {
    if (name == p.name) return p;
    names += names.empty() ? "" : ", ";
    names += p.name;
  }
  throw ArgumentError("preset", "choice", "{\"value\":" + jstr(name) + ",\"choices\":" + jstr(names, 400) + "}",
                      "preset must be one of " + names + ", got '" + escaped(name) + "'");
}

}  // namespace attn
