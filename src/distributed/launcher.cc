#include "distributed/launcher.h"

#include "distributed/cluster_environment.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>

namespace plugrt::distributed {
namespace {

void WriteAll(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    text.remove_prefix(static_cast<size_t>(n));
  }
}

struct Process {
  pid_t pid = -1;
  int pipe = -1;        // its stdout and stderr; -1 once closed
  std::string partial;  // an unfinished line
  bool reaped = false;
  int status = 0;
};

std::string Describe(int node, int status) {
  if (WIFSIGNALED(status)) return StrCat("node ", node, " was killed by signal ", WTERMSIG(status));
  return StrCat("node ", node, " exited with status ", WEXITSTATUS(status));
}

bool Failed(int status) { return !WIFEXITED(status) || WEXITSTATUS(status) != 0; }

// Forwards the complete lines of `data` (and, at the end, the rest).
void Forward(int fd, int node, Process& process, std::string_view data, bool flush) {
  process.partial.append(data);
  size_t start = 0;
  const std::string prefix = StrCat("[node ", node, "] ");
  while (true) {
    size_t end = process.partial.find('\n', start);
    if (end == std::string::npos) break;
    WriteAll(fd, prefix + process.partial.substr(start, end - start + 1));
    start = end + 1;
  }
  process.partial.erase(0, start);
  if (flush && !process.partial.empty()) {
    WriteAll(fd, prefix + process.partial + "\n");
    process.partial.clear();
  }
}

std::string SelfPath() {
  std::error_code error;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string("plugrt") : self.string();
}

}  // namespace

StatusOr<LaunchResult> Launch(const LaunchSpec& spec) {
  if (spec.num_processes < 1) {
    return InvalidArgument("launch: the job needs at least one process, got ", spec.num_processes);
  }
  if (spec.command.empty()) return InvalidArgument("launch: no command to run");

  std::string store = spec.store;
  std::string temporary_dir;
  if (store.empty()) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "plugrt-launch-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      return MakeError(StatusCode::kUnavailable, "launch: cannot make a store directory: ",
                       std::strerror(errno));
    }
    temporary_dir = pattern;
    store = "file:" + temporary_dir;
  }
  std::vector<std::string> command = spec.command;
  if (command[0] == "plugrt") command[0] = SelfPath();
  std::vector<char*> argv;
  for (std::string& word : command) argv.push_back(word.data());
  argv.push_back(nullptr);

  std::vector<Process> processes(static_cast<size_t>(spec.num_processes));
  for (int node = 0; node < spec.num_processes; ++node) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      return MakeError(StatusCode::kUnavailable, "launch: pipe: ", std::strerror(errno));
    }
    pid_t pid = ::fork();
    if (pid == 0) {
      ::dup2(fds[1], 1);
      ::dup2(fds[1], 2);
      ::setenv(kNodeIdEnv, std::to_string(node).c_str(), 1);
      ::setenv(kNumNodesEnv, std::to_string(spec.num_processes).c_str(), 1);
      ::setenv(kKvStoreEnv, store.c_str(), 1);
      ::execvp(argv[0], argv.data());
      const std::string message = StrCat("cannot run ", argv[0], ": ", std::strerror(errno), "\n");
      WriteAll(2, message);
      ::_exit(127);
    }
    ::close(fds[1]);
    if (pid < 0) {
      ::close(fds[0]);
      return MakeError(StatusCode::kUnavailable, "launch: fork: ", std::strerror(errno));
    }
    processes[static_cast<size_t>(node)].pid = pid;
    processes[static_cast<size_t>(node)].pipe = fds[0];
  }

  LaunchResult result;
  std::chrono::steady_clock::time_point kill_at{};
  bool terminating = false;
  while (true) {
    std::vector<pollfd> fds;
    std::vector<int> owners;
    for (size_t n = 0; n < processes.size(); ++n) {
      if (processes[n].pipe >= 0) {
        fds.push_back({processes[n].pipe, POLLIN, 0});
        owners.push_back(static_cast<int>(n));
      }
    }
    bool all_reaped = true;
    for (const Process& process : processes) all_reaped = all_reaped && process.reaped;
    if (all_reaped && fds.empty()) break;
    ::poll(fds.data(), fds.size(), 50);
    for (size_t i = 0; i < fds.size(); ++i) {
      if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      Process& process = processes[static_cast<size_t>(owners[i])];
      char chunk[8192];
      ssize_t n = ::read(process.pipe, chunk, sizeof(chunk));
      if (n > 0) {
        Forward(spec.output_fd, owners[i], process, std::string_view(chunk, static_cast<size_t>(n)),
                false);
      } else if (n == 0 || errno != EINTR) {
        Forward(spec.output_fd, owners[i], process, "", true);
        ::close(process.pipe);
        process.pipe = -1;
      }
    }
    for (size_t n = 0; n < processes.size(); ++n) {
      Process& process = processes[n];
      if (process.reaped) continue;
      if (::waitpid(process.pid, &process.status, WNOHANG) != process.pid) continue;
      process.reaped = true;
      // Output a process's own children still write is not waited for.
      if (result.first_failed_node < 0 && Failed(process.status) && !terminating) {
        result.first_failed_node = static_cast<int>(n);
        result.failure = Describe(static_cast<int>(n), process.status);
        result.exit_code = WIFSIGNALED(process.status) ? 128 + WTERMSIG(process.status)
                                                       : WEXITSTATUS(process.status);
        terminating = true;
        kill_at = std::chrono::steady_clock::now() + spec.grace;
        for (const Process& other : processes) {
          if (!other.reaped) ::kill(other.pid, SIGTERM);
        }
      }
    }
    if (terminating && std::chrono::steady_clock::now() >= kill_at) {
      for (const Process& other : processes) {
        if (!other.reaped) ::kill(other.pid, SIGKILL);
      }
    }
    // Once every process is gone, a pipe still open belongs to a descendant
    // that inherited it: stop reading it.
    all_reaped = true;
    for (const Process& process : processes) all_reaped = all_reaped && process.reaped;
    if (all_reaped) {
      for (size_t n = 0; n < processes.size(); ++n) {
        Process& process = processes[n];
        if (process.pipe < 0) continue;
        pollfd probe{process.pipe, POLLIN, 0};
        if (::poll(&probe, 1, 0) > 0) continue;  // drain what is there first
        Forward(spec.output_fd, static_cast<int>(n), process, "", true);
        ::close(process.pipe);
        process.pipe = -1;
      }
    }
  }
  if (!temporary_dir.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(temporary_dir, ignored);
  }
  return result;
}

}  // namespace plugrt::distributed
