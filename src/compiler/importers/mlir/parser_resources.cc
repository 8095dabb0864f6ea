// `dense_resource<name> : tensor<...>` constants and the resource section
// that holds their data at the end of the file:
//   {-#
//     dialect_resources: {
//       builtin: {
//         name: "0x04000000..."    // 4 bytes of alignment (little-endian),
//       }                          // then the elements, little-endian
//     }
//   #-}
// The section follows the module, so each use is recorded with shared,
// still-empty data and filled in once the whole file is read. Printers that
// elide large constants write `dense_resource<__elided__>` and no blob; such
// files are refused: the weights are not in them.
#include "compiler/importers/dense_resource.h"
#include "compiler/importers/mlir/dense_data.h"
#include "compiler/importers/mlir/parser_impl.h"

namespace plugrt::shlo::internal {
namespace {

int HexNibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// "0x..." -> bytes; false when the text is not whole hex bytes.
bool DecodeHexBlob(std::string_view text, std::string* out) {
  if (text.size() < 2 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X') ||
      text.size() % 2 != 0) {
    return false;
  }
  out->clear();
  out->reserve(text.size() / 2 - 1);
  for (size_t i = 2; i < text.size(); i += 2) {
    int hi = HexNibble(text[i]), lo = HexNibble(text[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

}  // namespace

StatusOr<Attribute> Parser::ParseDenseResource(size_t start) {
  // 'dense_resource' consumed.
  if (!lex_.ConsumeIf("<")) return lex_.Expected("'<' after 'dense_resource'");
  lex_.Peek();
  std::string name;
  if (lex_.PeekRaw() == '"') {
    PLUGRT_ASSIGN_OR_RETURN(name, lex_.LexString());
  } else {
    name = std::string(lex_.LexSuffixId());
  }
  if (name.empty()) return lex_.Expected("a resource name in dense_resource<...>");
  if (!lex_.ConsumeIf(">")) return lex_.Expected("'>' to close dense_resource<...>");
  if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the type of the dense_resource");
  lex_.Peek();
  size_t type_pos = lex_.pos();
  PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
  if (type.kind() == Type::Kind::kUnsupported) {
    return lex_.ErrorAt(type_pos, "dense_resource of unsupported type ", type.ToString());
  }
  if (Status s = CheckDenseLiteralType(type); !s.ok()) return lex_.ErrorAt(type_pos, s.message());
  auto data = std::make_shared<DenseData>();
  resource_uses_.push_back({name, type, data, start});
  return Attribute::Dense(type, std::move(data));
}

Status Parser::ParseResourceSection() {
  if (!lex_.ConsumeIf("{-#")) return lex_.Expected("'{-#' to open the resource section");
  // `key: { dialect: { name: value, ... }, ... }`, comma-separated.
  auto parse_key = [&](std::string* key) -> Status {
    lex_.Peek();
    if (lex_.PeekRaw() == '"') {
      PLUGRT_ASSIGN_OR_RETURN(*key, lex_.LexString());
    } else {
      *key = std::string(lex_.LexSuffixId());
    }
    if (key->empty()) return lex_.Expected("a resource key");
    if (!lex_.ConsumeIf(":")) return lex_.Expected("':' after the resource key");
    return OkStatus();
  };
  auto parse_group = [&](bool keep) -> Status {
    // { dialect: { name: "0x..", ... }, ... }
    if (!lex_.ConsumeIf("{")) return lex_.Expected("'{' to open the resources");
    if (lex_.ConsumeIf("}")) return OkStatus();
    while (true) {
      std::string dialect;
      PLUGRT_RETURN_IF_ERROR(parse_key(&dialect));
      if (!lex_.ConsumeIf("{")) return lex_.Expected("'{' to open the resources of " + dialect);
      if (!lex_.ConsumeIf("}")) {
        while (true) {
          std::string name;
          PLUGRT_RETURN_IF_ERROR(parse_key(&name));
          lex_.Peek();
          size_t value_pos = lex_.pos();
          std::string value;
          if (lex_.Peek() == '"') {
            PLUGRT_ASSIGN_OR_RETURN(value, lex_.LexString());
          } else if (lex_.ConsumeKeyword("true") || lex_.ConsumeKeyword("false")) {
            value.clear();  // a bool resource: not element data
          } else {
            return lex_.Expected("a resource value (a \"0x...\" string)");
          }
          if (keep && dialect == "builtin") {
            if (resource_blobs_.count(name) != 0) {
              return lex_.ErrorAt(value_pos, "resource '", name, "' is defined twice");
            }
            resource_blobs_.emplace(std::move(name), std::move(value));
          }
          if (lex_.ConsumeIf("}")) break;
          if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or '}' in the resources");
        }
      }
      if (lex_.ConsumeIf("}")) return OkStatus();
      if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or '}' in the resource section");
    }
  };
  if (!lex_.ConsumeIf("#-}")) {
    while (true) {
      std::string key;
      lex_.Peek();
      size_t key_pos = lex_.pos();
      PLUGRT_RETURN_IF_ERROR(parse_key(&key));
      if (key != "dialect_resources" && key != "external_resources") {
        return lex_.ErrorAt(key_pos, "unknown resource section '", key,
                            "' (expected dialect_resources or external_resources)");
      }
      PLUGRT_RETURN_IF_ERROR(parse_group(key == "dialect_resources"));
      if (lex_.ConsumeIf("#-}")) break;
      if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or '#-}' in the resource section");
    }
  }
  return OkStatus();
}

Status Parser::ResolveResources() {
  for (size_t i = 0; i < resource_uses_.size(); ++i) {
    ResourceUse& use = resource_uses_[i];
    auto found = resource_blobs_.find(use.name);
    const bool elided = found != resource_blobs_.end() && found->second == kElidedResource;
    std::optional<std::string_view> elements;
    std::string bytes;
    if (found != resource_blobs_.end() && !elided) {
      if (!DecodeHexBlob(found->second, &bytes) || bytes.size() < 4) {
        return lex_.ErrorAt(use.pos, "the blob of dense_resource<", use.name,
                            "> is not a hex string \"0x...\" of 4 alignment bytes and the data");
      }
      elements = std::string_view(bytes).substr(4);
    }
    // Each use its own filled values.
    StatusOr<std::shared_ptr<const DenseData>> data = DenseResourceData(
        use.name, use.type, elements, elided, elided_fill_, StrCat(use.name, "#", i));
    if (!data.ok()) return lex_.ErrorAt(use.pos, data.status().message());
    *use.data = **data;
  }
  return OkStatus();
}

}  // namespace plugrt::shlo::internal
