#include "compiler/importers/bytecode/writer.h"

#include "compiler/importers/bytecode/container_writer.h"
#include "compiler/importers/bytecode/to_vhlo.h"
#include "compiler/importers/bytecode/vhlo_version.h"

namespace plugrt::shlo {

StatusOr<std::string> WriteBytecodeModule(const Module& module, std::string_view target_version) {
  bytecode::VhloVersion target = bytecode::kCurrentVhloVersion;
  if (!target_version.empty()) {
    PLUGRT_ASSIGN_OR_RETURN(target, bytecode::ParseVhloVersion(target_version));
  }
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<bytecode::BcFile> file,
                          bytecode::ModuleToVhlo(module, target));
  return bytecode::EncodeBytecode(*file, target);
}

}  // namespace plugrt::shlo
