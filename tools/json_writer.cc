#include "tools/json_writer.h"

#include <cmath>
#include <cstdio>
#include <variant>

namespace plugrt::tools {

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_element_.empty()) {
    if (has_element_.back()) out_ << ",";
    has_element_.back() = true;
  }
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  BeforeValue();
  Quote(key);
  out_ << ":";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::BeginObject() {
  BeforeValue();
  out_ << "{";
  has_element_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::EndObject() {
  has_element_.pop_back();
  out_ << "}";
  return *this;
}

JsonWriter& JsonWriter::BeginArray() {
  BeforeValue();
  out_ << "[";
  has_element_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::EndArray() {
  has_element_.pop_back();
  out_ << "]";
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view value) {
  BeforeValue();
  Quote(value);
  return *this;
}

void JsonWriter::Quote(std::string_view value) {
  out_ << '"';
  for (unsigned char c : value) {
    switch (c) {
      case '"': out_ << "\\\""; break;
      case '\\': out_ << "\\\\"; break;
      case '\n': out_ << "\\n"; break;
      case '\t': out_ << "\\t"; break;
      case '\r': out_ << "\\r"; break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
          out_ << escaped;
        } else {
          out_ << c;
        }
    }
  }
  out_ << '"';
}

JsonWriter& JsonWriter::Int(int64_t value) {
  BeforeValue();
  out_ << value;
  return *this;
}

JsonWriter& JsonWriter::Double(double value) {
  if (!std::isfinite(value)) return Null();
  BeforeValue();
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", value);
  out_ << text;
  return *this;
}

JsonWriter& JsonWriter::Bool(bool value) {
  BeforeValue();
  out_ << (value ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::Null() {
  BeforeValue();
  out_ << "null";
  return *this;
}

JsonWriter& JsonWriter::Raw(std::string_view json) {
  BeforeValue();
  out_ << json;
  return *this;
}

JsonWriter& JsonWriter::NamedValues(const std::vector<NamedValue>& values) {
  for (const NamedValue& value : values) {
    Key(value.name);
    std::visit(
        [this](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::string>) {
            String(v);
          } else if constexpr (std::is_same_v<T, int64_t>) {
            Int(v);
          } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
            BeginArray();
            for (int64_t element : v) Int(element);
            EndArray();
          } else if constexpr (std::is_same_v<T, float>) {
            Double(v);
          } else {
            Bool(v);
          }
        },
        value.value);
  }
  return *this;
}

JsonWriter& JsonWriter::OptionalInt(std::string_view key, const std::optional<int64_t>& value) {
  if (value) Key(key).Int(*value);
  return *this;
}

}  // namespace plugrt::tools
