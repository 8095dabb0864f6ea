// plugrt CLI: a streaming JSON writer for --json output (commas, nesting and
// string escapes handled here so that commands only say what they print).
#ifndef PLUGRT_TOOLS_JSON_WRITER_H_
#define PLUGRT_TOOLS_JSON_WRITER_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>
#include <vector>

#include "common/named_value.h"

namespace plugrt::tools {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}
  // Ends the output with a newline.
  ~JsonWriter() { out_ << "\n"; }

  // Inside an object, Key comes before each value.
  JsonWriter& Key(std::string_view key);
  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& String(std::string_view value);
  JsonWriter& Int(int64_t value);
  JsonWriter& Double(double value);  // NaN and infinities become null
  JsonWriter& Bool(bool value);
  JsonWriter& Null();
  // A value already written as JSON (by another JsonWriter).
  JsonWriter& Raw(std::string_view json);
  // Key(name) then the value, for each; lists become arrays.
  JsonWriter& NamedValues(const std::vector<NamedValue>& values);
  // Key(key) then the value, or nothing when `value` is empty.
  JsonWriter& OptionalInt(std::string_view key, const std::optional<int64_t>& value);

 private:
  void BeforeValue();
  void Quote(std::string_view text);

  std::ostream& out_;
  // One entry per open object or array: whether it has an element yet.
  std::vector<bool> has_element_;
  bool after_key_ = false;
};

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_JSON_WRITER_H_
