// `attnlab attention`'s input, {"q": [[...]], "k": [[...]], "v": [[...]],
// "divisor": "sqrt"|"dk"|number}, read in one pass over the text (no document
// tree): each matrix's rows and columns are checked against the core's limits
// as they grow, so no buffer ever holds more than a limit allows, and the
// shapes together are checked before the caller allocates any output.
// Every fault is a UsageError naming where it is ("q[1][2] is not a number").
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "explain/attention.h"

namespace attncli {

struct AttentionInput {
  attn::AttentionShape shape;     // n, m, dk, dv, all checked (attn::check_attention_shape)
  std::vector<float> q, k, v;     // [n x dk], [m x dk], [m x dv], row-major
  std::string divisor = "sqrt";   // as the file gives it ("sqrt", "dk" or a number's text)
};

// Members other than q, k, v and divisor are skipped; any of those four given
// twice is refused (a parser that kept the first or the last would guess).
// The stream is read whole into one string, then parsed (its source's size
// limit applies as it is read: commands.cpp's LimitedInput).
AttentionInput read_attention_input(std::istream& text);
AttentionInput read_attention_input(const std::string& text);

}  // namespace attncli
