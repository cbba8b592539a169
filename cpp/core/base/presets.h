// Real models' attention scales, as presets: a preset sets d_k, the number the
// scores are divided by, and the logit soft-cap if the model has one; every
// figure is then computed as for any other setting. Each names its source.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace attn {

struct Preset {
  const char* name;     // what --preset takes: "gpt2", "gemma2-27b", ...
  const char* label;    // for people: "Gemma 2 27B"
  std::size_t dk;       // the head's query/key width
  double divisor;       // scores are q·k / divisor (1: no division)
  double softcap;       // logits s -> softcap·tanh(s / softcap); 0: none
  const char* rule;     // how the model writes the divisor: "sqrt(d_k)", "sqrt(144)", "1", ...
  const char* init;     // "" or "t5": W_Q initialised with std (d_model·d_kv)^-1/2
  const char* source;   // the paper or config file it is read from
};

// Every preset, in the order `attnlab presets` prints them.
const std::vector<Preset>& presets();

// The standard deviation of q's entries at initialisation for unit-variance
// inputs, as the preset's init leaves it: T5's W_Q has std (d_model·d_kv)^-1/2
// over d_model inputs, so q_i has variance 1/d_kv (the 1/√d_k is in W_Q, not
// the divisor); every other preset keeps the seed's unit-variance q.
double preset_query_std(const Preset& p);

// The preset of that name; throws ArgumentError (argument "preset", kind
// "choice", with the names) when there is none.
const Preset& find_preset(std::string_view name);

}  // namespace attn
