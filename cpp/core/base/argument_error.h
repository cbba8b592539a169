// The one error type the core throws for bad input. It names the argument so
// the CLI, the bindings and the page can show the message next to the control.
//
// Besides its English message (what the CLI prints), an error may carry a
// machine-readable kind ("range", "divisor", "choice", "rank", ...) and the
// parameters a sentence for that kind needs, as the text of a JSON object
// ({"lo":1,"hi":65536,"value":0}): the page writes its own sentence in the
// reader's language from (argument, kind, params) and never shows the English
// message. An error without a kind is shown as a generic sentence.
// The page's sentences live in web/src/bridge/error-strings.js;
// tests/node/error_strings.test.mjs reads every kind and argument from this
// source tree and fails when one has no sentence in English and Chinese.
#pragma once

#include <stdexcept>
#include <string>

namespace attn {

class ArgumentError : public std::invalid_argument {
 public:
  ArgumentError(std::string argument, const std::string& message)
      : std::invalid_argument(message), argument_(std::move(argument)) {}
  ArgumentError(std::string argument, std::string kind, std::string params, const std::string& message)
      : std::invalid_argument(message),
        argument_(std::move(argument)),
        kind_(std::move(kind)),
        params_(std::move(params)) {}
  const std::string& argument() const noexcept { return argument_; }
  // "" when the error has no kind of its own.
  const std::string& kind() const noexcept { return kind_; }
  // A JSON object's text, or "" when there are none.
  const std::string& params() const noexcept { return params_; }

 private:
  std::string argument_, kind_, params_;
};

}  // namespace attn
