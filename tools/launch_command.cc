// `plugrt launch -n N [--store ADDRESS] -- COMMAND ...`: a multi-process job
// on this machine (src/distributed/launcher.h), e.g.
//   plugrt launch -n 2 -- plugrt run program.mlir
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "distributed/launcher.h"
#include "tools/commands.h"

namespace plugrt::tools {

void RegisterLaunchCommand(CLI::App& app, int& exit_code) {
  auto spec = std::make_shared<distributed::LaunchSpec>();
  auto grace_ms = std::make_shared<int64_t>(2000);
  CLI::App* command = app.add_subcommand(
      "launch",
      "Run COMMAND as the N processes of one job (node ids 0..N-1 in PLUGRT_NODE_ID, "
      "PLUGRT_NUM_NODES, PLUGRT_KV_STORE); output lines get a [node K] prefix; when one "
      "process fails the others are stopped and launch exits with its status");
  command->add_option("-n,--processes", spec->num_processes, "processes to start")
      ->required()
      ->check(CLI::Range(1, 4096));
  command->add_option("--store", spec->store,
                      "the job's key-value store: redis://HOST:PORT[/PREFIX] or file:DIR "
                      "(default: a fresh directory, removed afterwards)");
  command->add_option("--grace-ms", *grace_ms,
                      "after a failure, how long the other processes get to end after SIGTERM "
                      "before SIGKILL (default 2000)")
      ->check(CLI::Range(int64_t{0}, int64_t{3'600'000}));
  command->add_option("command", spec->command,
                      "the command every process runs (after --); \"plugrt\" is this plugrt")
      ->required();
  command->callback([spec, grace_ms, &exit_code] {
    spec->grace = std::chrono::milliseconds(*grace_ms);
    StatusOr<distributed::LaunchResult> result = distributed::Launch(*spec);
    if (!result.ok()) {
      std::cerr << "plugrt launch: " << result.status().ToString() << "\n";
      exit_code = 1;
      return;
    }
    if (result->first_failed_node >= 0) {
      std::cerr << "plugrt launch: " << result->failure << " first; the other processes were "
                << "stopped\n";
    }
    exit_code = result->exit_code;
  });
}

}  // namespace plugrt::tools
