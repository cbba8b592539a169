// Progress on stderr for long work (issue 31), never on stdout: train, sweep,
// saturation, variance and check. On a terminal a bar redrawn in place, 10
// times a second at most; with --progress and no terminal, one line per
// update, a second apart (for logs); --quiet: nothing. Either way only once
// the work has run a second: a short run prints nothing.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "args.h"

namespace attncli {

enum class ProgressMode { Auto, On, Off };

// --progress and --quiet: flags without a value, taken out of the arguments
// (args.h) before Args reads the "--name value" pairs. The option table lists
// them for every command that calls this (help.cpp, progress_flags()).
inline ProgressMode take_progress(std::vector<std::string>& argv) {
  const std::size_t on = take_flag(argv, kFlags[0]), off = take_flag(argv, kFlags[1]);
  if (on + off > 1) throw UsageError("give --progress or --quiet once, not both or twice");
  return on ? ProgressMode::On : off ? ProgressMode::Off : ProgressMode::Auto;
}

class Progress {
 public:
  Progress(std::ostream& err, ProgressMode mode)
      : err_(err),
        tty_(isatty(STDERR_FILENO) == 1),
        out_tty_(isatty(STDOUT_FILENO) == 1),
        on_(mode == ProgressMode::On || (mode == ProgressMode::Auto && tty_)),
        quiet_(mode == ProgressMode::Off),
        start_(Clock::now()) {}
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  // However the command ends (an error included), its message starts on a clean line.
  ~Progress() { finish(); }

  bool on() const { return on_; }

  // `done` of `total` `unit` ("steps", "runs", "rows"), and the text after it.
  // timed: the rate and the time left, from the work done so far; else (work
  // whose parts are not alike: check's stages) the time the work has run.
  void show(std::size_t done, std::size_t total, const char* unit, const std::string& text, bool timed = true) {
    if (!on_) return;
    const auto now = Clock::now();
    const double ran = std::chrono::duration<double>(now - start_).count();
    const double since = std::chrono::duration<double>(now - last_).count();
    if (ran < 1.0 || (drawn_ && since < (tty_ ? 0.1 : 1.0) && done < total)) return;
    last_ = now;
    drawn_ = true;
    constexpr std::size_t kWidth = 24;
    const std::size_t fill = total ? done * kWidth / total : kWidth;
    char nums[96];
    if (timed) {
      const double rate = ran > 0 ? static_cast<double>(done) / ran : 0;
      const double left = rate > 0 ? static_cast<double>(total - done) / rate : 0;
      std::snprintf(nums, sizeof nums, "%zu/%zu %s, %.3g %s/s, %s left", done, total, unit, rate, unit,
                    duration(left).c_str());
    } else {
      std::snprintf(nums, sizeof nums, "%zu/%zu %s, %s so far", done, total, unit, duration(ran).c_str());
    }
    const std::string line = "[" + std::string(fill, '#') + std::string(kWidth - fill, ' ') + "] " + nums +
                             (text.empty() ? "" : (timed ? " " : ": ") + text);
    if (!tty_) {
      err_ << "attnlab: " << line << "\n" << std::flush;
      return;
    }
    // stdout on the same terminal (train's rows): the old bar goes first, so
    // the rows written since land on a line of their own, then the new bar.
    if (out_tty_) clear_line();
    err_ << "\r" << line << "\033[K" << std::flush;
  }
  // The bar off the terminal's line (before another message, or at the end).
  void finish() {
    if (on_ && tty_ && drawn_) clear_line();
    if (tty_) drawn_ = false;
  }
  // Once, unless --quiet: how long `what` will take in all, when that is more
  // than a minute (issue 31), measured from the work done so far.
  void estimate(double seconds, const std::string& what, const std::string& from) {
    if (quiet_ || estimated_ || !(seconds > 60)) return;
    estimated_ = true;
    if (tty_ && drawn_) clear_line();
    err_ << "attnlab: " << what << " will take about " << duration(seconds) << " (estimated from " << from
         << "; --quiet hides this)\n" << std::flush;
  }

 private:
  using Clock = std::chrono::steady_clock;
  // The bar's line cleared before stdout is flushed: std::cerr is tied to
  // std::cout, and a row flushed first would be printed after the bar, on its line.
  void clear_line() {
    std::ostream* tied = err_.tie(nullptr);
    err_ << "\r\033[K" << std::flush;
    err_.tie(tied);
  }
  static std::string duration(double s) {
    char b[32];
    if (s < 60) std::snprintf(b, sizeof b, "%.0f s", s);
    else if (s < 3600) std::snprintf(b, sizeof b, "%.0f min %02.0f s", std::floor(s / 60), std::fmod(s, 60));
    else std::snprintf(b, sizeof b, "%.0f h %02.0f min", std::floor(s / 3600), std::floor(std::fmod(s, 3600) / 60));
    return b;
  }
  std::ostream& err_;
  bool tty_, out_tty_, on_, quiet_;
  Clock::time_point start_, last_{};
  bool drawn_ = false, estimated_ = false;
};

// For work the command cannot interrupt to draw (check: one call of the core
// reads a file, another judges every head): a thread redraws the bar 10 times
// a second with the stage set last. No thread when the bar is off; while it
// runs, only it touches the bar (stop() before any other use).
class ProgressTicker {
 public:
  explicit ProgressTicker(Progress& bar, const char* unit) : bar_(bar), unit_(unit) {
    if (bar_.on()) thread_ = std::thread([this] { loop(); });
  }
  ProgressTicker(const ProgressTicker&) = delete;
  ProgressTicker& operator=(const ProgressTicker&) = delete;
  ~ProgressTicker() { stop(); }

  void set(std::size_t done, std::size_t total, const std::string& text) {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = done;
    total_ = total;
    text_ = text;
  }
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopped_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!stopped_) {
      if (total_) bar_.show(done_, total_, unit_, text_, false);
      cv_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stopped_; });
    }
  }
  Progress& bar_;
  const char* unit_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::size_t done_ = 0, total_ = 0;
  std::string text_;
  bool stopped_ = false;
  std::thread thread_;
};

}  // namespace attncli
