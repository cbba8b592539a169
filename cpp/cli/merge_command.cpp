#include "merge_command.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "args.h"
#include "base/format.h"
#include "help.h"
#include "output.h"

namespace attncli {

namespace {

constexpr std::size_t kMaxPartBytes = std::size_t{256} << 20;  // 4096 rows are about 3 MB

struct Part {
  std::string file, format, grid, head;  // head: the CSV header line ("" for JSON)
  std::size_t k = 0, n = 0, runs = 0;
  std::vector<std::string> rows;
};

std::string name_of(const std::string& file) { return "'" + attn::escaped(file, 1024) + "'"; }

Part read_part(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw UsageError("cannot open " + name_of(file));
  std::string text;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxPartBytes)
      throw UsageError(name_of(file) + " is larger than " + std::to_string(kMaxPartBytes >> 20) + " MiB: not a sweep part");
  }
  if (in.bad()) throw UsageError("cannot read " + name_of(file));
  Part p;
  p.file = file;
  if (text.empty()) throw UsageError(name_of(file) + " is empty: not a part of a sweep");
  if (text.back() != '\n') throw UsageError(name_of(file) + " ends mid-line: a truncated part?");
  std::vector<std::string> lines;
  for (std::size_t a = 0, b; a < text.size(); a = b + 1) {
    b = text.find('\n', a);
    lines.push_back(text.substr(a, b - a));
  }
  unsigned long long k = 0, n = 0, runs = 0;
  char grid[17] = {0};
  int used = 0;
  const std::string& first = lines[0];
  if (std::sscanf(first.c_str(), "# shard %llu/%llu of %llu runs, grid %16[0-9a-f]%n", &k, &n, &runs, grid, &used) == 4 &&
      static_cast<std::size_t>(used) == first.size()) {
    p.format = "csv";
    if (lines.size() < 2) throw UsageError(name_of(file) + " has no CSV header: a truncated part?");
    p.head = lines[1];
    p.rows.assign(lines.begin() + 2, lines.end());
  } else if (std::sscanf(first.c_str(), "{\"shard\":{\"k\":%llu,\"n\":%llu,\"runs\":%llu,\"grid\":\"%16[0-9a-f]\"}}%n", &k, &n,
                         &runs, grid, &used) == 4 &&
             static_cast<std::size_t>(used) == first.size()) {
    p.format = "json";
    p.rows.assign(lines.begin() + 1, lines.end());
  } else {
    throw UsageError(name_of(file) + " is not a part of a sweep: its first line is not the header `sweep --shard K/N` writes");
  }
  if (k < 1 || n < 1 || k > n || runs < 1)
    throw UsageError(name_of(file) + ": its header says part " + std::to_string(k) + "/" + std::to_string(n) + " of " +
                     std::to_string(runs) + " runs, which cannot be");
  p.k = k;
  p.n = n;
  p.runs = runs;
  p.grid = grid;
  const std::size_t want = runs / n + (k - 1 < runs % n ? 1 : 0);
  if (p.rows.size() != want)
    throw UsageError(name_of(file) + " (part " + std::to_string(k) + "/" + std::to_string(n) + ") has " +
                     std::to_string(p.rows.size()) + " rows, not " + std::to_string(want) + ": a truncated or edited part?");
  for (const std::string& r : p.rows)
    if (r.empty()) throw UsageError(name_of(file) + " has an empty line: not as `sweep --shard` wrote it");
  return p;
}

}  // namespace

int run_merge(const std::vector<std::string>& args, std::ostream& out) {
  std::vector<std::string> files, options;
  for (const std::string& a : args) (a.rfind("--", 0) == 0 || !options.empty() ? options : files).push_back(a);
  const Args opts(options, options_of("merge"));
  if (files.empty()) throw UsageError("merge needs the parts of a sweep: attnlab merge PART...");
  std::vector<Part> parts;
  std::map<std::size_t, std::size_t> seen;  // k -> index in parts
  for (const std::string& f : files) {
    Part p = read_part(f);
    if (!parts.empty()) {
      const Part& first = parts.front();
      if (p.format != first.format || p.grid != first.grid || p.n != first.n || p.runs != first.runs || p.head != first.head)
        throw UsageError(name_of(f) + " is a part of another sweep (grid " + p.grid + ", " + std::to_string(p.n) +
                         " parts of " + std::to_string(p.runs) + " runs, " + p.format + ") than " + name_of(first.file) +
                         " (grid " + first.grid + ", " + std::to_string(first.n) + " parts of " +
                         std::to_string(first.runs) + " runs, " + first.format + ")");
    }
    if (seen.count(p.k))
      throw UsageError(name_of(f) + " is part " + std::to_string(p.k) + "/" + std::to_string(p.n) + " again (also " +
                       name_of(parts[seen[p.k]].file) + ")");
    seen[p.k] = parts.size();
    parts.push_back(std::move(p));
  }
  const std::size_t n = parts.front().n;
  for (std::size_t k = 1; k <= n; ++k)
    if (!seen.count(k)) throw UsageError("the merge is missing part " + std::to_string(k) + "/" + std::to_string(n));
  if (parts.front().format == "csv") out << parts.front().head << "\n";
  for (std::size_t i = 0; i < parts.front().runs; ++i) {
    out << parts[seen[i % n + 1]].rows[i / n] << "\n";
    check_output(out);
  }
  return 0;
}

}  // namespace attncli
