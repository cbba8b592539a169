// The one error type the core throws for bad input. It names the argument so
// the CLI, the bindings and the page can show the message next to the control.
#pragma once

#include <stdexcept>
#include <string>

namespace attn {

class ArgumentError : public std::invalid_argument {
 public:
  ArgumentError(std::string argument, const std::string& message)
      : std::invalid_argument(message), argument_(std::move(argument)) {}
  const std::string& argument() const noexcept { return argument_; }

 private:
  std::string argument_;
};

}  // namespace attn
