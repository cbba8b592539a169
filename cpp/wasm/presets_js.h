// The core's presets (base/presets.h) as JS objects, as `attnlab presets`
// lists them: [{name, label, dk, divisor, softcap (null: none), rule, init
// (null or "t5"), source}]. One list for every module that offers them (the
// lab's, the checker's, the explainer's presets table).
#pragma once

#include <emscripten/bind.h>

#include <string>

#include "base/presets.h"

namespace attn::wasm {

inline emscripten::val presets_val() {
  using emscripten::val;
  val out = val::array();
  for (const Preset& p : presets()) {
    val o = val::object();
    o.set("name", std::string(p.name));
    o.set("label", std::string(p.label));
    o.set("dk", static_cast<double>(p.dk));
    o.set("divisor", p.divisor);
    o.set("softcap", p.softcap > 0 ? val(p.softcap) : val::null());
    o.set("rule", std::string(p.rule));
    o.set("init", *p.init ? val(std::string(p.init)) : val::null());
    o.set("source", std::string(p.source));
    out.call<void>("push", o);
  }
  return out;
}

}  // namespace attn::wasm
