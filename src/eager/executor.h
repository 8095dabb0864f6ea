// plugrt eager: executors run op nodes. The synchronous one runs each node on
// the caller's thread and waits for its device work, so errors come back from
// the op's Execute. The asynchronous one queues nodes for one worker thread
// (in order) and returns at once: the outputs are pending handles that
// resolve when the node runs and are ready when the device says so.
//
// An op whose input was poisoned (its producer failed) does not run; its
// outputs are poisoned with an error naming the input, so a failure reaches
// exactly the handles that depend on it. Wait returns the first error since
// the previous Wait.
#ifndef PLUGRT_EAGER_EXECUTOR_H_
#define PLUGRT_EAGER_EXECUTOR_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "client/event.h"
#include "common/status.h"
#include "eager/tensor.h"

namespace plugrt::eager {

struct Node {
  std::string op;  // for messages
  std::vector<Tensor> inputs;
  std::vector<Tensor> outputs;
  // Runs the op once its inputs are resolved: resolves the outputs and
  // returns the future of its device work. On error the executor poisons
  // the outputs it left pending.
  std::function<StatusOr<Future>()> run;
};

class Executor {
 public:
  virtual ~Executor() = default;
  virtual bool is_async() const = 0;
  // Sync: the node's error. Async: OK (errors surface through the outputs
  // and Wait).
  virtual Status Submit(Node node) = 0;
  // Waits for every submitted node and its device work; the first error
  // since the last Wait (which clears it).
  virtual Status Wait() = 0;
};

std::unique_ptr<Executor> MakeSyncExecutor();
std::unique_ptr<Executor> MakeAsyncExecutor();

// The shared part: checks the inputs, runs the node, poisons on failure.
// Returns the device future, or the error that poisoned the outputs.
StatusOr<Future> RunNode(Node& node);

// Whether input `index` of `op` can be read: waits until it is resolved and
// its data is on the device; the error of the op that failed to make it,
// naming the input. (RunNode's check, also made by ops run inline.)
Status CheckInput(std::string_view op, size_t index, const Tensor& input);

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_EXECUTOR_H_
