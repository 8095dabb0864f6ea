// plugrt eager: the StableHLO functions loaded into a context (the eager
// analog of tf.function): called as ops by name, or used as the regions of
// reduce, sort and while. Only the text around each func.func is read here
// (name, argument and result types, callees); the plugin's compiler checks
// the rest when a program using the function is compiled.
#ifndef PLUGRT_EAGER_FUNCTION_LIBRARY_H_
#define PLUGRT_EAGER_FUNCTION_LIBRARY_H_

#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace plugrt::eager {

struct FunctionSignature {
  std::string name;
  // StableHLO types as written ("tensor<2xf32>").
  std::vector<std::string> argument_types;
  std::vector<std::string> result_types;
};

// Thread-safe.
class FunctionLibrary {
 public:
  // Adds every func.func of `text` (a module or bare functions). A name
  // already loaded, or "main" (the entry of the programs the context builds),
  // is an error and nothing of `text` is added.
  Status Load(std::string_view text);

  bool Contains(std::string_view name) const;
  StatusOr<FunctionSignature> Signature(std::string_view name) const;
  std::vector<std::string> Names() const;
  // The definitions (made private) of `roots` and of every loaded function
  // they call, transitively, in a stable order.
  StatusOr<std::string> DefinitionsFor(const std::vector<std::string>& roots) const;

 private:
  struct Function {
    FunctionSignature signature;
    std::string private_text;
    std::vector<std::string> references;  // every @symbol in the body
  };
  mutable std::mutex mu_;
  std::map<std::string, Function, std::less<>> functions_;
};

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_FUNCTION_LIBRARY_H_
