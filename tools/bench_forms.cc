#include "tools/bench_forms.h"

#include <memory>
#include <vector>

#include "compiler/importers/bytecode/writer.h"
#include "compiler/importers/mlir/parser.h"

namespace plugrt::tools {

StatusOr<CompileFormsResult> MeasureCompileForms(const Client& client, std::string_view text,
                                                 const std::string& path,
                                                 const RepeatPolicy& policy) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module, shlo::ParseModule(text, path));
  StatusOr<std::string> bytecode = shlo::WriteBytecodeModule(*module, "");
  if (!bytecode.ok()) {
    return Status(bytecode.status().code(),
                  StrCat(path, ": writing a portable artifact failed: ",
                         bytecode.status().message()));
  }
  auto compile_ms = [&](std::string_view program, const char* form) -> StatusOr<double> {
    const long long start = NowNanoseconds();
    StatusOr<LoadedExecutable> compiled = client.Compile(program);
    if (!compiled.ok()) {
      return Status(compiled.status().code(), StrCat(path, ": compile from ", form,
                                                     " failed: ", compiled.status().message()));
    }
    return MillisecondsSince(start);
  };
  std::vector<double> text_ms, bytecode_ms;
  PLUGRT_ASSIGN_OR_RETURN(std::vector<double> pairs,
                          TimeRepeated(policy, [&]() -> StatusOr<double> {
                            PLUGRT_ASSIGN_OR_RETURN(double t, compile_ms(text, "text"));
                            PLUGRT_ASSIGN_OR_RETURN(double b, compile_ms(*bytecode, "bytecode"));
                            text_ms.push_back(t);
                            bytecode_ms.push_back(b);
                            return t + b;
                          }));
  // The warm-up pairs came first.
  const size_t warmup = text_ms.size() - pairs.size();
  text_ms.erase(text_ms.begin(), text_ms.begin() + static_cast<std::ptrdiff_t>(warmup));
  bytecode_ms.erase(bytecode_ms.begin(), bytecode_ms.begin() + static_cast<std::ptrdiff_t>(warmup));
  CompileFormsResult result;
  result.text = Summarize(std::move(text_ms));
  result.bytecode = Summarize(std::move(bytecode_ms));
  result.text_bytes = text.size();
  result.bytecode_bytes = bytecode->size();
  if (result.text.median > 0) result.bytecode_vs_text = result.bytecode.median / result.text.median;
  return result;
}

}  // namespace plugrt::tools
