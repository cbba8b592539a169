// Output that is never lost in silence. A command's JSON goes to stdout and
// sample-qk's archive to a file; a write, flush, close or rename that fails is
// an OutputError, which main() reports on one line with exit status 1 (bad
// arguments and input exit with 2).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

namespace attncli {

struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Before a command runs: a closed stdin or stderr is reopened on /dev/null, so
// a file the command opens cannot take descriptor 0 or 2. A closed stdout is
// an OutputError (the command's one output would go nowhere).
void guard_standard_streams();

// After a command: flushes std::cout and closes descriptor 1, so an error the
// kernel reports only at the last write or at close (a full disk, /dev/full)
// still fails the run.
void finish_stdout();

// Throws the OutputError for a stream that lost output (a command that prints
// as it goes checks after each line, so a long run stops when nobody reads it).
void check_output(const std::ostream& out);

// --out FILE (every command but sample-qk, whose --out is its archive): the
// command's output goes to `file`'s temporary twin instead of stdout, as it is
// written (no more memory than for stdout), and becomes `file` only once the
// command has finished and every byte is synced; messages name the file.
class AtomicFile;
void redirect_stdout(AtomicFile& file, const std::string& name);

// A file written whole or not at all. open() creates a temporary file beside
// `path` (so a bad path fails before the work); commit() writes, syncs and
// renames it over `path`. A run that fails before commit() leaves no file and
// no partial file behind. A path that already exists and is not a regular file
// (/dev/full, a FIFO, /dev/stdout) is written in place, its errors checked: a
// device must never be replaced by a file.
class AtomicFile {
 public:
  explicit AtomicFile(const std::string& path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();  // removes the temporary file if commit() was not reached

  void commit(const std::vector<std::uint8_t>& bytes);
  int fd() const { return fd_; }  // the temporary file's (or the device's) descriptor

 private:
  [[noreturn]] void fail(const std::string& what, int error);  // cleans up, then throws
  void clean_up() noexcept;
  std::string path_;    // as given, for messages
  std::string target_;  // what is replaced: `path`, or the file a symlink names
  std::string temp_;    // empty when writing in place
  int fd_ = -1;
  bool committed_ = false;
};

}  // namespace attncli
