// The CLI's file output (cpp/cli/output.h): written whole or not at all, and
// every failure an OutputError. Native only (POSIX files).
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "output.h"

namespace fs = std::filesystem;
using attncli::AtomicFile;
using attncli::OutputError;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "attn-output-XXXXXX").string();
    path = ::mkdtemp(&t[0]);
  }
  ~TempDir() { fs::remove_all(path); }
  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const auto& e : fs::directory_iterator(path)) n.push_back(e.path().filename().string());
    return n;
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

void spit(const fs::path& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; }

std::vector<std::uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const OutputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("AtomicFile writes a new file whole, with the mode open() would give", "[cli][output]") {
  TempDir d;
  const fs::path p = d.path / "new.npz";
  {
    AtomicFile f(p.string());
    REQUIRE(d.names().size() == 1);  // the temporary file, hidden
    REQUIRE(d.names()[0].rfind(".new.npz.tmp-", 0) == 0);
    REQUIRE_FALSE(fs::exists(p));
    f.commit(bytes("hello"));
  }
  REQUIRE(slurp(p) == "hello");
  REQUIRE(d.names() == std::vector<std::string>{"new.npz"});
  const mode_t mask = ::umask(0);
  ::umask(mask);
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  REQUIRE((st.st_mode & 0777) == (0666 & ~mask));
}

TEST_CASE("AtomicFile replaces an existing file and keeps its mode", "[cli][output]") {
  TempDir d;
  const fs::path p = d.path / "old.npz";
  spit(p, "old contents, longer than the new");
  REQUIRE(::chmod(p.c_str(), 0640) == 0);
  AtomicFile f(p.string());
  REQUIRE(slurp(p) == "old contents, longer than the new");  // untouched until commit
  f.commit(bytes("new"));
  REQUIRE(slurp(p) == "new");
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  REQUIRE((st.st_mode & 0777) == 0640);
  REQUIRE(d.names().size() == 1);
}

TEST_CASE("AtomicFile abandoned before commit leaves no file and the old one intact", "[cli][output]") {
  TempDir d;
  const fs::path fresh = d.path / "fresh.npz", old = d.path / "old.npz";
  spit(old, "keep me");
  { AtomicFile a(fresh.string()); }
  { AtomicFile b(old.string()); }
  REQUIRE(d.names() == std::vector<std::string>{"old.npz"});
  REQUIRE(slurp(old) == "keep me");
}

TEST_CASE("AtomicFile: a bad path fails at once, naming it and the reason", "[cli][output]") {
  TempDir d;
  const std::string missing = (d.path / "no" / "such.npz").string();
  REQUIRE(error_of([&] { AtomicFile f(missing); }) ==
          "cannot write '" + missing + "': No such file or directory");
  REQUIRE(error_of([&] { AtomicFile f(d.path.string()); }) ==
          "cannot write '" + d.path.string() + "': it is a directory");
  spit(d.path / "file", "x");
  const std::string under_file = (d.path / "file" / "x.npz").string();
  REQUIRE(error_of([&] { AtomicFile f(under_file); }) == "cannot write '" + under_file + "': Not a directory");
  REQUIRE(d.names() == std::vector<std::string>{"file"});
}

TEST_CASE("AtomicFile writes a device in place and reports its write error", "[cli][output]") {
  AtomicFile full("/dev/full");
  REQUIRE(error_of([&] { full.commit(bytes("x")); }) == "cannot write '/dev/full': No space left on device");
  struct stat st {};
  REQUIRE(::stat("/dev/full", &st) == 0);
  REQUIRE(S_ISCHR(st.st_mode));  // never replaced by a file
  AtomicFile null("/dev/null");
  null.commit(bytes("x"));
}

TEST_CASE("AtomicFile through a symlink replaces the file it names", "[cli][output]") {
  TempDir d;
  const fs::path real = d.path / "real.npz", link = d.path / "link.npz";
  spit(real, "old");
  fs::create_symlink(real, link);
  AtomicFile f(link.string());
  f.commit(bytes("new"));
  REQUIRE(fs::is_symlink(link));
  REQUIRE(slurp(real) == "new");
  REQUIRE(d.names().size() == 2);
}
