#include "eager/program_key.h"

#include <cstring>

namespace plugrt::eager {

namespace {

// Every field is a fixed-width number or a length-prefixed byte string, and
// every variable part starts with its count: no two inputs encode alike.
class KeyWriter {
 public:
  explicit KeyWriter(std::string& out) : out_(out) {}
  void Int(int64_t v) { out_.append(reinterpret_cast<const char*>(&v), sizeof(v)); }
  void Double(double v) { out_.append(reinterpret_cast<const char*>(&v), sizeof(v)); }
  void Bytes(std::string_view s) {
    Int(static_cast<int64_t>(s.size()));
    out_.append(s);
  }
  void Ints(const std::vector<int64_t>& v) {
    Int(static_cast<int64_t>(v.size()));
    for (int64_t x : v) Int(x);
  }

 private:
  std::string& out_;
};

struct AttrKey {
  KeyWriter& w;
  void operator()(int64_t v) const { w.Int(v); }
  void operator()(double v) const { w.Double(v); }
  void operator()(bool v) const { w.Int(v ? 1 : 0); }
  void operator()(const std::string& v) const { w.Bytes(v); }
  void operator()(PJRT_Buffer_Type v) const { w.Int(v); }
  void operator()(const Shape& v) const { w.Ints(v.dims); }
  void operator()(const std::vector<int64_t>& v) const { w.Ints(v); }
  void operator()(const std::vector<double>& v) const {
    w.Int(static_cast<int64_t>(v.size()));
    for (double x : v) w.Double(x);
  }
  void operator()(const std::vector<bool>& v) const {
    w.Int(static_cast<int64_t>(v.size()));
    for (bool x : v) w.Int(x ? 1 : 0);
  }
  void operator()(const std::vector<std::string>& v) const {
    w.Int(static_cast<int64_t>(v.size()));
    for (const std::string& x : v) w.Bytes(x);
  }
  void operator()(const std::vector<PJRT_Buffer_Type>& v) const {
    w.Int(static_cast<int64_t>(v.size()));
    for (PJRT_Buffer_Type x : v) w.Int(x);
  }
  void operator()(const std::vector<Shape>& v) const {
    w.Int(static_cast<int64_t>(v.size()));
    for (const Shape& x : v) w.Ints(x.dims);
  }
  void operator()(const DenseTensor& v) const {
    w.Int(v.type.type);
    w.Ints(v.type.dims);
    w.Bytes(std::string_view(reinterpret_cast<const char*>(v.data.data()), v.data.size()));
  }
  void operator()(const FunctionRef& v) const { w.Bytes(v.name); }
  void operator()(Reducer v) const { w.Int(static_cast<int64_t>(v)); }
};

}  // namespace

void WriteProgramKey(std::string_view device, const Op& op, std::span<const Tensor> inputs,
                     std::string& out) {
  out.clear();
  KeyWriter w(out);
  w.Bytes(device);
  w.Bytes(op.name());
  w.Int(static_cast<int64_t>(op.attrs().size()));
  for (const auto& [name, value] : op.attrs()) {
    w.Bytes(name);
    w.Int(static_cast<int64_t>(value.index()));  // the kind: 1 and 1.0 differ
    std::visit(AttrKey{w}, value);
  }
  w.Int(static_cast<int64_t>(op.num_input_groups()));
  size_t next = 0;
  for (size_t g = 0; g < op.num_input_groups(); ++g) {
    const size_t size = op.input_group_size(g);
    w.Int(static_cast<int64_t>(size));
    for (size_t i = next; i < next + size && i < inputs.size(); ++i) {
      const TensorType& t = inputs[i].state()->type();
      w.Int(t.type);
      w.Ints(t.dims);
    }
    next += size;
  }
}

}  // namespace plugrt::eager
