#include "compiler/importers/hlo/hlo_reader.h"

#include <limits>

#include "compiler/importers/hlo/hlo_converter.h"
#include "compiler/importers/hlo/hlo_text_parser.h"
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

// Whether `layout` (of a shape of `rank`) is absent or row-major: the
// layout of every plugrt buffer.
bool IsRowMajor(const xla::ShapeProto& shape) {
  if (!shape.has_layout() || shape.layout().minor_to_major_size() == 0) return true;
  const auto& order = shape.layout().minor_to_major();
  for (int i = 0; i < order.size(); ++i) {
    if (order[i] != order.size() - 1 - i) return false;
  }
  return true;
}

std::string LayoutText(const xla::ShapeProto& shape) {
  std::string text = "{";
  for (int i = 0; i < shape.layout().minor_to_major_size(); ++i) {
    text += (i ? "," : "") + std::to_string(shape.layout().minor_to_major(i));
  }
  return text + "}";
}

// The first leaf of `shape` that is not row-major, or null.
const xla::ShapeProto* FirstNonRowMajorLeaf(const xla::ShapeProto& shape) {
  if (shape.element_type() == xla::TUPLE) {
    for (const auto& element : shape.tuple_shapes()) {
      if (const xla::ShapeProto* leaf = FirstNonRowMajorLeaf(element)) return leaf;
    }
    return nullptr;
  }
  return IsRowMajor(shape) ? nullptr : &shape;
}

// The entry computation's parameters and result meet the caller's buffers,
// which plugrt keeps row-major; a program that asks for another layout
// there would read them wrongly, so it is refused. (Layouts inside the
// program only place intermediate values and do not change results.)
Status CheckEntryLayouts(const xla::HloModuleProto& proto, const xla::HloModuleConfigProto* config) {
  auto refuse = [](const std::string& what, const xla::ShapeProto& leaf) {
    return Unimplemented(what, " has layout ", LayoutText(leaf),
                         "; plugrt's buffers are row-major (major-to-minor), and entry layouts "
                         "other than that are not supported");
  };
  if (config != nullptr && config->has_entry_computation_layout()) {
    const xla::ProgramShapeProto& layout = config->entry_computation_layout();
    for (int i = 0; i < layout.parameters_size(); ++i) {
      if (const xla::ShapeProto* leaf = FirstNonRowMajorLeaf(layout.parameters(i))) {
        return refuse(StrCat("entry_computation_layout: parameter ", i), *leaf);
      }
    }
    if (const xla::ShapeProto* leaf = FirstNonRowMajorLeaf(layout.result())) {
      return refuse("entry_computation_layout: the result", *leaf);
    }
    return OkStatus();  // it governs; the instructions' layouts are not yet assigned
  }
  for (const xla::HloComputationProto& comp : proto.computations()) {
    const bool is_entry = proto.entry_computation_id() != 0
                              ? comp.id() == proto.entry_computation_id()
                              : comp.name() == proto.entry_computation_name();
    if (!is_entry) continue;
    for (const xla::HloInstructionProto& inst : comp.instructions()) {
      if (inst.opcode() != "parameter" && inst.id() != comp.root_id()) continue;
      if (const xla::ShapeProto* leaf = FirstNonRowMajorLeaf(inst.shape())) {
        return refuse(StrCat("entry ", inst.opcode() == "parameter" ? "parameter" : "result",
                             " '", inst.name(), "'"),
                      *leaf);
      }
    }
  }
  return OkStatus();
}

StatusOr<std::unique_ptr<Module>> ImportHloModule(const xla::HloModuleProto& proto,
                                         const xla::HloModuleConfigProto* config,
                                         std::string_view name) {
  if (proto.computations_size() == 0) {
    return InvalidArgument(name, ": the HLO module has no computations");
  }
  if (Status layouts = CheckEntryLayouts(proto, config); !layouts.ok()) {
    return Status(layouts.code(), StrCat(name, ": HLO module '", proto.name(), "': ",
                                         layouts.message()));
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

StatusOr<std::unique_ptr<Module>> ReadHloText(std::string_view text, std::string_view name,
                                              const ReadOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(hlo::HloText parsed, hlo::ParseHloText(text, name, options));
  return ImportHloModule(parsed.module, &parsed.config, name);
}

StatusOr<std::string> HloTextToProtoBytes(std::string_view text, std::string_view name) {
  PLUGRT_ASSIGN_OR_RETURN(hlo::HloText parsed, hlo::ParseHloText(text, name, ReadOptions{}));
  return parsed.module.SerializeAsString();
}

}  // namespace plugrt::shlo
