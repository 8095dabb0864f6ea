// `plugrt conformance PATH...`: runs every .mlir file under the paths, each
// in its own child process (`plugrt conformance-file FILE`) so that a crash
// or hang costs one file, N at a time, and reports pass/fail per file and
// per section. Started by a launcher (mpirun, srun, `plugrt launch`: a job
// of N processes), `conformance --processes` runs in this process instead:
// each process is one member of every grid section of N members, and node 0
// reports.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

#include "distributed/cluster_environment.h"
#include "tools/commands.h"
#include "tools/conformance_protocol.h"
#include "tools/conformance_sections.h"
#include "tools/known_failures.h"
#include "tools/program_file.h"
#include "tools/run_parallel_grid.h"

extern char** environ;

namespace plugrt::tools {
namespace {

using Clock = std::chrono::steady_clock;

struct ConformanceOptions {
  PluginOptions plugin;
  std::vector<std::string> paths;
  int jobs = 0;  // 0: one per core
  double timeout_seconds = 60;
  std::string json_path;
  bool verbose = false;
  std::optional<int> fail_below;
  std::optional<int> sections_below;
  std::string known_failures_path;
  // Only sections with interpreter.run_parallel grids, each as a job of one
  // OS process per grid member (`conformance-file --processes`).
  bool processes = false;
  // "hlo": each program runs after a round trip through HLO text.
  std::string via;
};

struct SectionResult {
  int index = 0;
  int line = 0;
  bool passed = false;
  std::string code;
  std::string reason;
};

struct FileResult {
  std::string file;
  std::string status;  // pass, fail, unsupported, timeout, crash
  std::string reason;
  int sections_total = 0;
  std::vector<SectionResult> sections;
  double seconds = 0;

  int sections_passed() const {
    return static_cast<int>(
        std::count_if(sections.begin(), sections.end(), [](auto& s) { return s.passed; }));
  }
};

// The files to run, in order, with their keys in a known-failure list (the
// path below the folder given, led by that folder's name), and the scopes
// of those keys (the names of the paths given).
struct Collected {
  std::vector<std::string> files;
  std::map<std::string, std::string> keys;  // file -> key
  std::vector<std::string> scopes;
};

StatusOr<Collected> CollectFiles(const std::vector<std::string>& paths) {
  Collected collected;
  for (const std::string& path : paths) {
    std::error_code error;
    auto status = std::filesystem::status(path, error);
    if (error || !std::filesystem::exists(status)) {
      return NotFound(path, ": no such file or directory");
    }
    std::filesystem::path root = std::filesystem::weakly_canonical(path, error);
    if (error) return InvalidArgument(path, ": cannot resolve the path (", error.message(), ")");
    if (root.filename().empty()) root = root.parent_path();
    const std::string name = root.filename().string();
    collected.scopes.push_back(name);
    if (std::filesystem::is_directory(status)) {
      std::filesystem::recursive_directory_iterator it(path, error), end;
      if (error) return InvalidArgument(path, ": cannot list the folder (", error.message(), ")");
      for (; it != end; it.increment(error)) {
        if (error) return InvalidArgument(path, ": cannot list the folder (", error.message(), ")");
        if (it->is_regular_file() && it->path().extension() == ".mlir") {
          std::filesystem::path below = std::filesystem::relative(it->path(), path, error);
          if (error) below = it->path().filename();
          collected.keys.emplace(it->path().string(), (name / below).generic_string());
        }
      }
    } else {
      collected.keys.emplace(path, name);
    }
  }
  for (const auto& [file, key] : collected.keys) collected.files.push_back(file);
  return collected;
}

// One child process and what it has said so far.
struct Child {
  size_t file_index = 0;
  pid_t pid = -1;
  int out_fd = -1;
  int err_fd = -1;
  Clock::time_point start;
  std::string out;  // unparsed stdout
  std::string err;  // the tail of stderr
  bool timed_out = false;
  bool done = false;  // said "done"
  FileResult result;
};

constexpr size_t kStderrTail = 4096;

void ParseLine(Child& child, const std::string& line) {
  if (line.rfind(kConformancePrefix, 0) != 0) return;  // the plugin's own chatter
  std::istringstream words(line.substr(kConformancePrefix.size()));
  std::string word;
  words >> word;
  if (word == "sections") {
    words >> child.result.sections_total;
  } else if (word == "section") {
    SectionResult section;
    std::string verdict;
    words >> section.index >> section.line >> verdict;
    section.passed = verdict == "pass";
    if (!section.passed) {
      words >> section.code;
      std::getline(words >> std::ws, section.reason);
    }
    child.result.sections.push_back(std::move(section));
  } else if (word == "done") {
    child.done = true;
  }
}

// Reads what is available; false at end of file.
bool Drain(int fd, std::string& into) {
  char buffer[4096];
  ssize_t n = read(fd, buffer, sizeof(buffer));
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
  if (n <= 0) return false;
  into.append(buffer, static_cast<size_t>(n));
  return true;
}

void ConsumeStdout(Child& child) {
  size_t newline;
  while ((newline = child.out.find('\n')) != std::string::npos) {
    ParseLine(child, child.out.substr(0, newline));
    child.out.erase(0, newline + 1);
  }
}

StatusOr<Child> Spawn(const std::string& exe, const std::string& file, size_t index,
                      const ConformanceOptions& options) {
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return Internal("pipe: ", std::strerror(errno));
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return Internal("pipe: ", std::strerror(errno));
  }
  std::vector<std::string> args = {exe, std::string(kConformanceFileCommand), file};
  if (!options.plugin.plugin_path.empty()) {
    args.push_back("--plugin");
    args.push_back(options.plugin.plugin_path);
  }
  if (options.plugin.devices) {
    args.push_back("--devices");
    args.push_back(std::to_string(*options.plugin.devices));
  }
  if (options.processes) args.push_back("--processes");
  if (!options.via.empty()) {
    args.push_back("--via");
    args.push_back(options.via);
  }
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    return Internal("cannot start ", exe, ": ", std::strerror(rc));
  }
  Child child;
  child.file_index = index;
  child.pid = pid;
  child.out_fd = out_pipe[0];
  child.err_fd = err_pipe[0];
  child.start = Clock::now();
  child.result.file = file;
  return child;
}

std::string LastLine(const std::string& text) {
  size_t end = text.find_last_not_of("\n\r ");
  if (end == std::string::npos) return "";
  size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end + 1 - (start == std::string::npos ? 0 : start + 1));
}

// Where a child that stopped early was: the section after its last report.
std::string WhereStopped(const FileResult& result) {
  if (result.sections_total <= 1) return "";
  return StrCat(" (in section ", result.sections.size() + 1, " of ", result.sections_total, ")");
}

void Summarize(FileResult& r);

void Finish(Child& child, int wait_status, double timeout_seconds) {
  FileResult& r = child.result;
  r.seconds = std::chrono::duration<double>(Clock::now() - child.start).count();
  if (child.timed_out) {
    r.status = "timeout";
    r.reason = StrCat("timed out after ", timeout_seconds, " s", WhereStopped(r));
    return;
  }
  if (WIFSIGNALED(wait_status)) {
    int sig = WTERMSIG(wait_status);
    r.status = "crash";
    r.reason = StrCat("killed by signal ", sig, " (", strsignal(sig), ")", WhereStopped(r));
    std::string last = LastLine(child.err);
    if (!last.empty()) r.reason += ": " + last;
    return;
  }
  if (!child.done) {
    int code = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
    std::string last = LastLine(child.err);
    // A clean non-zero exit is the child's own error (e.g. the plugin did
    // not load); anything else stopped it mid-run.
    r.status = code != 0 && r.sections_total == 0 ? "fail" : "crash";
    r.reason = last.empty() ? StrCat("exited with code ", code, WhereStopped(r))
                            : last + WhereStopped(r);
    return;
  }
  Summarize(r);
}

// A file's status and reason from its sections' results.
void Summarize(FileResult& r) {
  if (r.sections_total == 0) {
    r.status = "fail";
    r.reason = "the file holds no program";
    return;
  }
  const SectionResult* first_failure = nullptr;
  bool only_unimplemented = true;
  for (const SectionResult& s : r.sections) {
    if (s.passed) continue;
    if (first_failure == nullptr) first_failure = &s;
    only_unimplemented &= s.code == "UNIMPLEMENTED";
  }
  if (first_failure == nullptr && r.sections_passed() == r.sections_total) {
    r.status = "pass";
    return;
  }
  if (first_failure == nullptr) {
    r.status = "fail";
    r.reason = "not every section reported";
    return;
  }
  r.status = only_unimplemented ? "unsupported" : "fail";
  r.reason = first_failure->code + ": " + first_failure->reason;
  if (r.sections_total > 1) {
    r.reason = StrCat("section ", first_failure->index, " (line ", first_failure->line, "): ",
                      r.reason);
  }
}

// Runs every file, at most `jobs` at a time; results in file order.
StatusOr<std::vector<FileResult>> RunAll(const std::vector<std::string>& files,
                                         const ConformanceOptions& options, int jobs) {
  std::error_code error;
  std::string exe = std::filesystem::read_symlink("/proc/self/exe", error).string();
  if (error) return Internal("cannot find this executable (/proc/self/exe): ", error.message());
  const auto limit = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(options.timeout_seconds));

  std::vector<FileResult> results(files.size());
  std::deque<size_t> pending;
  for (size_t i = 0; i < files.size(); ++i) pending.push_back(i);
  std::vector<std::unique_ptr<Child>> running;
  size_t finished = 0;

  while (!pending.empty() || !running.empty()) {
    while (!pending.empty() && static_cast<int>(running.size()) < jobs) {
      size_t index = pending.front();
      pending.pop_front();
      StatusOr<Child> child = Spawn(exe, files[index], index, options);
      if (!child.ok()) {
        for (auto& c : running) kill(c->pid, SIGKILL);
        return child.status();
      }
      running.push_back(std::make_unique<Child>(std::move(*child)));
    }

    std::vector<pollfd> fds;
    for (auto& c : running) {
      if (c->out_fd >= 0) fds.push_back({c->out_fd, POLLIN, 0});
      if (c->err_fd >= 0) fds.push_back({c->err_fd, POLLIN, 0});
    }
    // Wake up at least every 50 ms to check deadlines and reap children.
    poll(fds.data(), fds.size(), 50);

    const auto now = Clock::now();
    for (auto it = running.begin(); it != running.end();) {
      Child& c = **it;
      for (const pollfd& p : fds) {
        if (p.revents == 0) continue;
        if (p.fd == c.out_fd && !Drain(c.out_fd, c.out)) {
          close(c.out_fd);
          c.out_fd = -1;
        } else if (p.fd == c.err_fd && !Drain(c.err_fd, c.err)) {
          close(c.err_fd);
          c.err_fd = -1;
        }
      }
      ConsumeStdout(c);
      if (c.err.size() > 2 * kStderrTail) c.err.erase(0, c.err.size() - kStderrTail);
      if (!c.timed_out && now - c.start > limit) {
        c.timed_out = true;
        kill(c.pid, SIGKILL);
      }
      int wait_status = 0;
      bool exited = false;
      if (c.out_fd < 0 && c.err_fd < 0) {
        exited = waitpid(c.pid, &wait_status, c.timed_out ? 0 : WNOHANG) == c.pid;
      }
      if (!exited) {
        ++it;
        continue;
      }
      if (!c.out.empty()) {
        c.out += '\n';
        ConsumeStdout(c);
      }
      Finish(c, wait_status, options.timeout_seconds);
      ++finished;
      if (options.verbose) {
        std::cout << "[" << finished << "/" << files.size() << "] "
                  << c.result.status << " " << c.result.file;
        if (!c.result.reason.empty()) std::cout << ": " << c.result.reason;
        std::cout << std::endl;
      }
      results[c.file_index] = std::move(c.result);
      it = running.erase(it);
    }
  }
  return results;
}

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (char ch : text) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof(buffer), "\\u%04x", c);
          out += buffer;
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

Status WriteJson(const std::string& path, const std::vector<FileResult>& results) {
  std::ofstream out(path, std::ios::trunc);
  if (!out) return InvalidArgument(path, ": cannot create the file (", std::strerror(errno), ")");
  out << "[\n";
  for (size_t i = 0; i < results.size(); ++i) {
    const FileResult& r = results[i];
    out << "  {\"file\": " << JsonString(r.file) << ", \"status\": " << JsonString(r.status)
        << ", \"reason\": " << JsonString(r.reason)
        << ", \"sections_passed\": " << r.sections_passed()
        << ", \"sections_total\": " << r.sections_total << ", \"seconds\": " << std::fixed
        << std::setprecision(3) << r.seconds << "}" << (i + 1 < results.size() ? "," : "")
        << "\n";
  }
  out << "]\n";
  out.close();
  if (!out) return Internal(path, ": error writing the file");
  return OkStatus();
}

// `text` with the runner's name for `file` replaced, so that a list does
// not depend on where the corpus lies: "FILE:12:3:" (a location) becomes
// "line 12:3:", any other mention the key.
std::string WithKey(std::string text, const std::string& file, const std::string& key) {
  const std::string located = file + ":";
  for (size_t at = text.find(located); at != std::string::npos; at = text.find(located, at)) {
    text.replace(at, located.size(), "line ");
  }
  for (size_t at = text.find(file); at != std::string::npos; at = text.find(file, at + key.size())) {
    text.replace(at, file.size(), key);
  }
  return text;
}

// What failed in `r`, as entries of a known-failure list: the file when it
// has one section (or stopped before saying how many), else each section
// that did not pass, with the file's reason for those it never reported.
void AddFailures(const FileResult& r, const std::string& key, FailureList& list) {
  if (r.status == "pass") return;
  auto upper = [](std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), ::toupper);
    return text;
  };
  if (r.sections_total <= 1) {
    const bool stopped = r.status == "timeout" || r.status == "crash";
    list[key] = WithKey(stopped ? upper(r.status) + ": " + r.reason : r.reason, r.file, key);
    return;
  }
  std::map<int, const SectionResult*> reported;
  for (const SectionResult& s : r.sections) reported[s.index] = &s;
  size_t added = 0;
  for (int k = 1; k <= r.sections_total; ++k) {
    auto it = reported.find(k);
    if (it != reported.end() && it->second->passed) continue;
    std::string reason = it != reported.end()
                             ? StrCat(it->second->code, ": ", it->second->reason)
                             : StrCat(upper(r.status), ": ", r.reason);
    list[StrCat(key, "#", k)] = WithKey(reason, r.file, key);
    ++added;
  }
  if (added == 0) list[key] = WithKey(r.reason, r.file, key);
}

StatusOr<FailureList> ReadKnownFailures(const std::string& path) {
  std::ifstream in(path);
  if (!in) return NotFound(path, ": cannot open the known-failure list (", std::strerror(errno), ")");
  std::stringstream text;
  text << in.rdbuf();
  return ParseKnownFailures(text.str(), path);
}

// Compares this run's failures with `known` (read from `path`); false,
// after saying what changed, when they differ.
bool MatchesKnownFailures(const FailureList& known, const std::string& path,
                          const Collected& collected, const std::vector<FileResult>& results) {
  FailureList current;
  for (const FileResult& r : results) AddFailures(r, collected.keys.at(r.file), current);
  FailureChanges changes = CompareKnownFailures(known, current, collected.scopes);
  if (changes.empty()) {
    std::cout << "known failures: as listed in " << path << " (" << current.size() << ")\n";
    return true;
  }
  std::ostream& err = std::cerr;
  err << "plugrt conformance: the failures differ from the known-failure list " << path
      << ":\n";
  for (const auto& [key, reason] : changes.new_failures) {
    err << "  new failure:  " << FormatKnownFailure(key, reason) << "\n";
  }
  for (const auto& [key, reason] : changes.now_passing) {
    err << "  now passes:   " << FormatKnownFailure(key, reason) << "\n";
  }
  err << "Fix the new failures, or update " << path
      << " if the change is intended (add the lines after \"new failure:\", remove those "
         "after \"now passes:\").\n";
  return false;
}

// `--processes` in a job of `job_size` processes (this one among them):
// the grid sections of `job_size` members of every file, this process
// running its member of each through one client that joined the job.
// Every process runs the same files in the same order; files without such
// a section are left out.
StatusOr<std::vector<FileResult>> RunGridsInJob(const std::vector<std::string>& files,
                                                const ConformanceOptions& options,
                                                int job_size) {
  PluginOptions plugin = options.plugin;
  plugin.conformance_harness = true;
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, OpenClient(plugin));
  std::vector<FileResult> results;
  for (const std::string& file : files) {
    const auto start = Clock::now();
    PLUGRT_ASSIGN_OR_RETURN(std::string contents, ReadProgramFile(file));
    FileResult result;
    result.file = file;
    const std::vector<Section> sections = SplitSections(contents);
    for (size_t k = 0; k < sections.size(); ++k) {
      StatusOr<int> size = GridSize(sections[k].text);
      if (size.ok() && *size != job_size) continue;
      SectionResult section;
      section.index = static_cast<int>(k) + 1;
      section.line = sections[k].first_line;
      Status status = size.ok() ? RunSectionAsMember(*client, sections[k].text) : size.status();
      section.passed = status.ok();
      if (!status.ok()) {
        section.code = std::string(StatusCodeName(status.code()));
        section.reason = Reason(status.message(), file);
      }
      if (options.verbose) {
        std::cerr << file << " section " << section.index << ": "
                  << (section.passed ? "pass" : section.code + " " + section.reason) << "\n";
      }
      result.sections.push_back(std::move(section));
    }
    if (result.sections.empty()) continue;
    result.sections_total = static_cast<int>(result.sections.size());
    Summarize(result);
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    results.push_back(std::move(result));
  }
  return results;
}

// The exit code: 0 when the run happened (failures are the measurement),
// 1 below --fail-below passes or --sections-below sections, or when the
// failures differ from --known-failures.
StatusOr<int> RunConformance(const ConformanceOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(Collected collected, CollectFiles(options.paths));
  if (options.processes) {
    // Files without grids have nothing to run as processes.
    std::vector<std::string> with_grids;
    for (const std::string& file : collected.files) {
      std::ifstream in(file, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      const std::vector<int> sizes = RunParallelGridSizes(text.str());
      if (std::any_of(sizes.begin(), sizes.end(), [](int size) { return size != 1; })) {
        with_grids.push_back(file);
      }
    }
    collected.files = std::move(with_grids);
  }
  const std::vector<std::string>& files = collected.files;
  if (files.empty()) return NotFound("no .mlir files under the given paths");
  PLUGRT_ASSIGN_OR_RETURN(std::optional<distributed::ClusterEnvironment> job,
                          distributed::DetectCluster(distributed::ProcessEnvironment()));
  const bool in_job = job && job->num_nodes > 1;
  if (in_job && !options.processes) {
    return FailedPrecondition("this is process ", job->node_id, " of a job of ", job->num_nodes,
                              " (", job->launcher, "): under a launcher, `plugrt conformance` "
                              "runs with --processes only (each process a member of the grid "
                              "sections sized like the job)");
  }
  // A list that cannot be read fails now, not after the whole run.
  std::optional<FailureList> known;
  if (!options.known_failures_path.empty()) {
    PLUGRT_ASSIGN_OR_RETURN(known, ReadKnownFailures(options.known_failures_path));
  }
  if (!in_job) {
    // A plugin that does not load would fail every file the same way: say
    // so once instead. (In a job, the one client the run opens says so.)
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, OpenClient(options.plugin));
  }
  int jobs = options.jobs > 0 ? options.jobs
                              : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  std::vector<FileResult> results;
  if (in_job) {
    PLUGRT_ASSIGN_OR_RETURN(results, RunGridsInJob(files, options, job->num_nodes));
  } else {
    PLUGRT_ASSIGN_OR_RETURN(results, RunAll(files, options, jobs));
  }

  // In a job every process has the same results: node 0 tells them.
  std::ostringstream silent;
  std::ostream& out = in_job && job->node_id != 0 ? silent : std::cout;
  int passed = 0, sections_passed = 0, sections_total = 0;
  std::map<std::string, int> by_status;
  for (const FileResult& r : results) {
    by_status[r.status]++;
    passed += r.status == "pass";
    sections_passed += r.sections_passed();
    sections_total += r.sections_total;
    if (r.status == "pass") continue;
    std::string label = r.status;
    std::transform(label.begin(), label.end(), label.begin(), ::toupper);
    out << label << " " << r.file << ": " << r.reason << "\n";
    if (options.verbose && r.sections_total > 1) {
      for (const SectionResult& s : r.sections) {
        if (!s.passed) {
          out << "    section " << s.index << " (line " << s.line << "): " << s.code << ": "
              << s.reason << "\n";
        }
      }
    }
  }
  if (!options.json_path.empty()) PLUGRT_RETURN_IF_ERROR(WriteJson(options.json_path, results));
  const int failed = static_cast<int>(results.size()) - passed;
  out << "sections: " << sections_passed << " passed, " << sections_total - sections_passed
      << " failed\n";
  if (failed > 0) {
    out << "failures:";
    for (const auto& [status, count] : by_status) {
      if (status != "pass") out << " " << status << "=" << count;
    }
    out << "\n";
  }
  out << passed << " passed, " << failed << " failed" << std::endl;
  int code = 0;
  if (options.fail_below && passed < *options.fail_below) {
    std::cerr << "plugrt conformance: " << passed << " files passed, below --fail-below "
              << *options.fail_below << "\n";
    code = 1;
  }
  if (options.sections_below && sections_passed < *options.sections_below) {
    std::cerr << "plugrt conformance: " << sections_passed
              << " sections passed, below --sections-below " << *options.sections_below << "\n";
    code = 1;
  }
  if (known && !MatchesKnownFailures(*known, options.known_failures_path, collected, results)) {
    code = 1;
  }
  return code;
}

}  // namespace

void RegisterConformanceCommands(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ConformanceOptions>();
  CLI::App* command = app.add_subcommand(
      "conformance",
      "Run every .mlir file under the paths, each in its own process, and report pass/fail");
  command->add_option("paths", options->paths, "files or folders (searched recursively)")
      ->required();
  command->add_option("--jobs,-j", options->jobs, "files run at once (default: one per core)")
      ->check(CLI::Range(1, 1024));
  command->add_option("--timeout", options->timeout_seconds,
                      "seconds one file may take before it is killed (default 60)")
      ->check(CLI::Range(0.001, 1e6));
  command->add_option("--json", options->json_path, "also write the results as JSON to FILE");
  command->add_option("--fail-below", options->fail_below,
                      "exit 1 if fewer than N files pass")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--sections-below", options->sections_below,
                      "exit 1 if fewer than N sections pass (a file without `// -----` "
                      "is one section)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--known-failures", options->known_failures_path,
                      "exit 1 unless exactly the files and sections listed in FILE fail "
                      "(entries under other folders than the paths given are not compared)");
  command->add_flag("--verbose,-v", options->verbose,
                    "report each file as it finishes and every failing section");
  command->add_option("--via", options->via,
                      "hlo: run each program after converting it to XLA's HLO text and reading "
                      "that back (checks the HLO text writer and reader against the corpus)")
      ->check(CLI::IsMember({"hlo"}));
  command->add_flag("--processes", options->processes,
                    "run only the sections with interpreter.run_parallel grids, each as a job "
                    "of one OS process per grid member (through `plugrt launch`'s launcher; "
                    "collectives over Gloo); started by a launcher itself (mpirun -n N, srun), "
                    "each process runs its member of the grid sections of N members");
  AddPluginOptions(*command, options->plugin);
  command->callback([options, &exit_code] {
    StatusOr<int> code = RunConformance(*options);
    if (!code.ok()) {
      std::cerr << "plugrt conformance: " << code.status().ToString() << "\n";
      exit_code = 1;
      return;
    }
    exit_code = *code;
  });
  RegisterConformanceFileCommand(app, exit_code);
}

}  // namespace plugrt::tools
