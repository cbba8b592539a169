#include "output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <streambuf>

#include "base/format.h"

namespace attncli {

namespace {

// std::cout's buffer: plain write(2) on descriptor 1, keeping the first
// error's errno (iostreams keep only a failbit, and errno is overwritten by
// the time the stream is checked).
class FdOutBuf : public std::streambuf {
 public:
  explicit FdOutBuf(int fd) : fd_(fd) { setp(buf_, buf_ + sizeof buf_); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* p = pbase();
    const char* end = pptr();
    setp(buf_, buf_ + sizeof buf_);  // after an error the rest is dropped, not retried
    while (error_ == 0 && p < end) {
      const ssize_t w = ::write(fd_, p, static_cast<std::size_t>(end - p));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) error_ = w < 0 ? errno : EIO;
      else p += w;
    }
    return error_ == 0;
  }

  int fd_;
  int error_ = 0;
  char buf_[1 << 16];
};

// Never destroyed: std::cout is flushed at exit, after main's locals are gone.
FdOutBuf* stdout_buf = nullptr;
// What descriptor 1 is, in messages: standard output, or --out's file.
std::string stdout_name = "standard output";

std::string reason(int error) { return error ? std::string(": ") + std::strerror(error) : ""; }

}  // namespace

void guard_standard_streams() {
  bool stdout_closed = false;
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // open() takes the lowest free descriptor: this one, as the lower ones are open.
    ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (fd == 1) stdout_closed = true;
  }
  stdout_buf = new FdOutBuf(STDOUT_FILENO);
  std::cout.rdbuf(stdout_buf);
  if (stdout_closed) throw OutputError("cannot write standard output: it is closed");
}

void check_output(const std::ostream& out) {
  if (out) return;
  throw OutputError("cannot write " + stdout_name + reason(stdout_buf ? stdout_buf->error() : 0));
}

void redirect_stdout(AtomicFile& file, const std::string& name) {
  std::cout.flush();
  if (::dup2(file.fd(), STDOUT_FILENO) < 0) throw OutputError("cannot write '" + attn::escaped(name, 1024) + "'" + reason(errno));
  stdout_name = "'" + attn::escaped(name, 1024) + "'";
}

void finish_stdout() {
  std::cout.flush();
  check_output(std::cout);
  // close() is where some file systems (NFS, a full quota) first report a
  // failed write; descriptor 1 stays taken by /dev/null for the exit flush.
  const int copy = ::dup(STDOUT_FILENO);
  if (copy >= 0 && ::close(copy) != 0 && errno != EINTR)
    throw OutputError("cannot write " + stdout_name + reason(errno));
}

AtomicFile::AtomicFile(const std::string& path) : path_(path), target_(path) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) fail("it is a directory", 0);
  if (exists && !S_ISREG(st.st_mode)) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) fail("", errno);
    return;
  }
  // A symlink stays a symlink: the file it names is the one replaced.
  struct stat lst {};
  if (exists && ::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
    if (char* real = ::realpath(path.c_str(), nullptr)) {
      target_ = real;
      std::free(real);
    }
  }
  const std::size_t slash = target_.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : target_.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? target_ : target_.substr(slash + 1);
  // Hidden, in the same directory (rename() cannot cross file systems), and
  // short enough for NAME_MAX whatever the name's length.
  temp_ = (slash == std::string::npos ? "" : dir) + "." + base.substr(0, 200) + ".tmp-XXXXXX";
  fd_ = ::mkstemp(&temp_[0]);
  if (fd_ < 0) {
    temp_.clear();
    fail("", errno);
  }
  // mkstemp makes the file 0600; give it the mode the replaced file had, or
  // the one a plain open() would give.
  mode_t mode = 0;
  if (exists) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(fd_, mode) != 0) fail("", errno);
}

AtomicFile::~AtomicFile() { clean_up(); }

void AtomicFile::clean_up() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
}

void AtomicFile::commit(const std::vector<std::uint8_t>& bytes) {
  const std::uint8_t* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t w = ::write(fd_, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) fail("", w < 0 ? errno : EIO);
    p += w;
    left -= static_cast<std::size_t>(w);
  }
  // The data reaches the disk before the rename makes it the file: a crash
  // then leaves the old file or the new one, never an empty one.
  if (!temp_.empty() && ::fsync(fd_) != 0) fail("", errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && errno != EINTR) fail("", errno);
  if (!temp_.empty() && ::rename(temp_.c_str(), target_.c_str()) != 0) fail("", errno);
  committed_ = true;
}

void AtomicFile::fail(const std::string& what, int error) {
  // Also from the constructor, where no destructor will run.
  clean_up();
  throw OutputError("cannot write '" + attn::escaped(path_, 1024) + "'" + (what.empty() ? reason(error) : ": " + what));
}

}  // namespace attncli
