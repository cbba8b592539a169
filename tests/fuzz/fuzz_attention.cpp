// libFuzzer target: `attnlab attention`'s input reader (issue 14, class 2) on
// arbitrary bytes, then the attention itself on what it accepts, when small.
// Its refusals are UsageError or ArgumentError; anything else escapes and is
// a finding. Seeds: corpus/attention.
#include <string>
#include <vector>

#include "args.h"
#include "attention_input.h"
#include "base/argument_error.h"
#include "base/divisor.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto in = attncli::read_attention_input(std::string(reinterpret_cast<const char*>(data), size));
    const attn::AttentionShape& s = in.shape;
    if (s.n * s.m + s.n * s.dv > 4096) return 0;
    std::vector<float> w(s.n * s.m), o(s.n * s.dv);
    attn::attention_forward(in.q.data(), in.k.data(), in.v.data(), s, attn::Divisor::parse(in.divisor).resolve(s.dk),
                            w.data(), o.data());
  } catch (const attncli::UsageError&) {
  } catch (const attn::ArgumentError&) {
  }
  return 0;
}
