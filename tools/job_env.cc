#include "tools/job_env.h"

#include "distributed/join_job.h"

namespace plugrt::tools {

Status AddJobOptions(ClientOptions& options) {
  return distributed::JoinJob(options.create_options, options.kv_store).status();
}

}  // namespace plugrt::tools
