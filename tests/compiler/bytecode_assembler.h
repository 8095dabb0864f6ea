// Tests' MLIR bytecode files written byte by byte, from the format's facts
// (upstream "MLIR Bytecode Format"): the primitives (prefix varints, zigzag
// signed varints, sections) and an assembler that lays out the string,
// dialect, attribute/type, properties and resource sections around an IR
// section the test writes itself. It lets tests build the files that tools
// write (MHLO from TensorFlow, Shardy in JAX exports) without those tools.
#ifndef PLUGRT_TESTS_COMPILER_BYTECODE_ASSEMBLER_H_
#define PLUGRT_TESTS_COMPILER_BYTECODE_ASSEMBLER_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace plugrt::shlo::bc_test {

// A prefix varint: the count of trailing zero bits of the first byte says
// how many more bytes follow (up to 8; 0x00 then 8 bytes for 64 bits).
inline std::string VarInt(uint64_t v) {
  for (int bytes = 1; bytes <= 8; ++bytes) {
    if (bytes < 8 ? v < (uint64_t{1} << (7 * bytes)) : v < (uint64_t{1} << 56)) {
      const uint64_t encoded = (v << bytes) | (uint64_t{1} << (bytes - 1));
      std::string out;
      for (int i = 0; i < bytes; ++i) out += static_cast<char>((encoded >> (8 * i)) & 0xFF);
      return out;
    }
  }
  std::string out(1, '\0');
  for (int i = 0; i < 8; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
  return out;
}
inline std::string Signed(int64_t v) {
  return VarInt((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
}
// A count, then references.
inline std::string List(const std::vector<uint64_t>& refs) {
  std::string out = VarInt(refs.size());
  for (uint64_t r : refs) out += VarInt(r);
  return out;
}
inline std::string SignedList(const std::vector<int64_t>& values) {
  std::string out = VarInt(values.size());
  for (int64_t v : values) out += Signed(v);
  return out;
}
inline std::string Byte(uint8_t b) { return std::string(1, static_cast<char>(b)); }
inline std::string Section(int id, const std::string& data) {
  return Byte(static_cast<uint8_t>(id)) + VarInt(data.size()) + data;
}

// Op encoding mask bits.
inline constexpr uint8_t kOpHasAttrs = 0x01, kOpHasResults = 0x02, kOpHasOperands = 0x04,
                         kOpHasRegions = 0x10, kOpHasProperties = 0x40;

// One file: table entries get their indices as they are added; Finish lays
// the sections out around the IR section's top-level block.
class BytecodeAssembler {
 public:
  uint64_t Str(const std::string& s) {
    auto [it, added] = string_index_.emplace(s, strings_.size());
    if (added) strings_.push_back(s);
    return it->second;
  }
  uint64_t Dialect(const std::string& name) {
    for (size_t i = 0; i < dialects_.size(); ++i) {
      if (dialects_[i] == name) return i;
    }
    Str(name);
    dialects_.push_back(name);
    return dialects_.size() - 1;
  }
  // A registered op name "dialect.name".
  uint64_t OpName(const std::string& dialect, const std::string& name) {
    ops_.emplace_back(Dialect(dialect), Str(name));
    return ops_.size() - 1;
  }
  // An attribute or type of `dialect` in its custom encoding, or as text.
  uint64_t Attr(const std::string& dialect, const std::string& bytes, bool custom = true) {
    attrs_.push_back({Dialect(dialect), custom, bytes});
    return attrs_.size() - 1;
  }
  uint64_t Type(const std::string& dialect, const std::string& bytes) {
    types_.push_back({Dialect(dialect), true, bytes});
    return types_.size() - 1;
  }
  uint64_t Properties(const std::string& bytes) {
    properties_.push_back(bytes);
    return properties_.size() - 1;
  }
  // A resource of `dialect`: a blob (aligned to `alignment`), or, when
  // `declared_only`, just its key. Returns its handle.
  uint64_t Resource(const std::string& dialect, const std::string& key, const std::string& blob,
                    bool declared_only = false, uint64_t alignment = 16) {
    resources_.push_back({Dialect(dialect), Str(key), blob, declared_only, alignment});
    return resources_.size() - 1;
  }

  std::string Finish(const std::string& top_block, uint64_t version = 6) {
    std::string sizes, data;
    for (auto it = strings_.rbegin(); it != strings_.rend(); ++it) sizes += VarInt(it->size() + 1);
    for (const std::string& s : strings_) data += s + std::string(1, '\0');
    const std::string strings = VarInt(strings_.size()) + sizes + data;

    std::string dialects = VarInt(dialects_.size());
    for (const std::string& d : dialects_) dialects += VarInt(Str(d) << 1);
    dialects += VarInt(ops_.size());
    for (size_t i = 0; i < ops_.size();) {
      size_t j = i;
      while (j < ops_.size() && ops_[j].first == ops_[i].first) ++j;
      dialects += VarInt(ops_[i].first) + VarInt(j - i);
      for (size_t k = i; k < j; ++k) dialects += VarInt((ops_[k].second << 1) | 1);
      i = j;
    }

    std::string offsets = VarInt(attrs_.size()) + VarInt(types_.size());
    std::string attr_data;
    for (const std::vector<Entry>* entries : {&attrs_, &types_}) {
      for (size_t i = 0; i < entries->size();) {
        size_t j = i;
        while (j < entries->size() && (*entries)[j].dialect == (*entries)[i].dialect) ++j;
        offsets += VarInt((*entries)[i].dialect) + VarInt(j - i);
        for (size_t k = i; k < j; ++k) {
          const Entry& e = (*entries)[k];
          const std::string bytes = e.custom ? e.bytes : e.bytes + std::string(1, '\0');
          offsets += VarInt((bytes.size() << 1) | (e.custom ? 1 : 0));
          attr_data += bytes;
        }
        i = j;
      }
    }

    std::string properties = VarInt(properties_.size());
    for (const std::string& p : properties_) properties += VarInt(p.size()) + p;

    std::string out = std::string("ML\xEFR", 4) + VarInt(version) + std::string("test\0", 5) +
                      Section(0, strings) + Section(1, dialects) + Section(3, offsets) +
                      Section(2, attr_data);
    if (version >= 5) out += Section(8, properties);
    out += Section(4, top_block);
    if (!resources_.empty()) {
      // Resource offsets: no external groups, then one group per dialect
      // run; the data section is aligned to 64 so blobs align within it.
      std::string res_offsets = VarInt(0), res_data;
      for (size_t i = 0; i < resources_.size();) {
        size_t j = i;
        while (j < resources_.size() && resources_[j].dialect == resources_[i].dialect) ++j;
        res_offsets += VarInt(resources_[i].dialect) + VarInt(j - i);
        for (size_t k = i; k < j; ++k) {
          const Res& r = resources_[k];
          std::string entry;
          if (!r.declared_only) {
            entry = VarInt(r.alignment) + VarInt(r.blob.size());
            while ((res_data.size() + entry.size()) % r.alignment != 0) entry += Byte(0xCB);
            entry += r.blob;
          }
          res_offsets += VarInt(r.key) + VarInt(entry.size()) + Byte(0);
          res_data += entry;
        }
        i = j;
      }
      out += Section(6, res_offsets);
      std::string header = Byte(5 | 0x80) + VarInt(res_data.size()) + VarInt(64);
      while ((out.size() + header.size()) % 64 != 0) header += Byte(0xCB);
      out += header + res_data;
    }
    return out;
  }

 private:
  struct Entry {
    uint64_t dialect;
    bool custom;
    std::string bytes;
  };
  struct Res {
    uint64_t dialect;
    uint64_t key;
    std::string blob;
    bool declared_only;
    uint64_t alignment;
  };
  std::vector<std::string> strings_;
  std::map<std::string, uint64_t> string_index_;
  std::vector<std::string> dialects_;
  std::vector<std::pair<uint64_t, uint64_t>> ops_;  // dialect, name string
  std::vector<Entry> attrs_, types_;
  std::vector<std::string> properties_;
  std::vector<Res> resources_;
};

}  // namespace plugrt::shlo::bc_test

#endif  // PLUGRT_TESTS_COMPILER_BYTECODE_ASSEMBLER_H_
