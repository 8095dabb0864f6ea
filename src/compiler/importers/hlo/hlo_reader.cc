#include "compiler/importers/hlo/hlo_reader.h"

#include <limits>

#include "compiler/importers/hlo/hlo_converter.h"
#include "proto/hlo.pb.h"

namespace plugrt::shlo {
namespace {

template <typename Message>
Status DecodeHloMessage(std::string_view bytes, std::string_view name, std::string_view what,
              Message* message) {
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !message->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return InvalidArgument(name, ": the program is not a serialized ", what, " (", bytes.size(),
                           " bytes)");
  }
  return OkStatus();
}

StatusOr<std::unique_ptr<Module>> ImportHloModule(const xla::HloModuleProto& proto,
                                         const xla::HloModuleConfigProto* config,
                                         std::string_view name) {
  if (proto.computations_size() == 0) {
    return InvalidArgument(name, ": the HLO module has no computations");
  }
  hlo::HloConverter converter(proto, name);
  StatusOr<std::unique_ptr<Module>> module = converter.Convert(config);
  if (!module.ok()) {
    return Status(module.status().code(),
                  StrCat(name, ": HLO module '", proto.name(), "': ", module.status().message()));
  }
  return module;
}

}  // namespace

StatusOr<std::unique_ptr<Module>> ReadHloModuleProto(std::string_view bytes, std::string_view name) {
  xla::HloModuleProto proto;
  PLUGRT_RETURN_IF_ERROR(DecodeHloMessage(bytes, name, "xla.HloModuleProto", &proto));
  return ImportHloModule(proto, nullptr, name);
}

StatusOr<std::unique_ptr<Module>> ReadHloModuleProtoWithConfig(std::string_view bytes,
                                                               std::string_view name) {
  xla::HloModuleProtoWithConfig proto;
  PLUGRT_RETURN_IF_ERROR(DecodeHloMessage(bytes, name, "xla.HloModuleProtoWithConfig", &proto));
  if (!proto.has_hlo_module()) {
    return InvalidArgument(name, ": the HloModuleProtoWithConfig holds no module");
  }
  return ImportHloModule(proto.hlo_module(), proto.has_config() ? &proto.config() : nullptr, name);
}

}  // namespace plugrt::shlo
