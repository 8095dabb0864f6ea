// Helpers of the HLO importer's tests (hlo_proto_test.cc,
// hlo_proto_ops_test.cc, hlo_text_test.cc): HloModuleProtos built with the generated classes,
// the imported IR compared with the text parser's, programs run on the CPU
// plugin through format "hlo".
#ifndef PLUGRT_TESTS_COMPILER_HLO_PROTO_BUILDER_H_
#define PLUGRT_TESTS_COMPILER_HLO_PROTO_BUILDER_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compiler/importers/hlo/hlo_reader.h"
#include "compiler/importers/mlir/parser.h"
#include "proto/hlo.pb.h"
#include "stablehlo/verifier.h"
#include "testutil/plugin_env.h"
#include "testutil/status_matchers.h"

namespace plugrt::hlo_test {

using testing::CreateCpuClient;
using testing::Download;
using testing::Upload;

// ----------------------------------------------------------- proto building

inline xla::ShapeProto Shape(xla::PrimitiveType type, std::vector<int64_t> dims) {
  xla::ShapeProto s;
  s.set_element_type(type);
  for (int64_t d : dims) s.add_dimensions(d);
  return s;
}

inline xla::ShapeProto TupleShape(const std::vector<xla::ShapeProto>& elements) {
  xla::ShapeProto s;
  s.set_element_type(xla::TUPLE);
  for (const auto& e : elements) *s.add_tuple_shapes() = e;
  return s;
}

// Builds one module; ids are unique across it, as XLA writes them.
class ModuleBuilder {
 public:
  explicit ModuleBuilder(const std::string& name) { proto_.set_name(name); }

  // A computation; the last instruction added is its root unless SetRoot.
  class Computation {
   public:
    Computation(ModuleBuilder* m, xla::HloComputationProto* c) : m_(m), c_(c) {}
    int64_t id() const { return c_->id(); }

    xla::HloInstructionProto* Add(const std::string& opcode, const xla::ShapeProto& shape,
                                  std::vector<int64_t> operands = {}) {
      xla::HloInstructionProto* inst = c_->add_instructions();
      inst->set_id(m_->next_id_++);
      inst->set_name(opcode + "." + std::to_string(inst->id()));
      inst->set_opcode(opcode);
      *inst->mutable_shape() = shape;
      for (int64_t o : operands) inst->add_operand_ids(o);
      c_->set_root_id(inst->id());
      return inst;
    }
    int64_t Param(int64_t number, const xla::ShapeProto& shape) {
      xla::HloInstructionProto* p = Add("parameter", shape);
      p->set_parameter_number(number);
      return p->id();
    }
    int64_t Op(const std::string& opcode, const xla::ShapeProto& shape,
               std::vector<int64_t> operands) {
      return Add(opcode, shape, std::move(operands))->id();
    }
    int64_t ConstantF32(float value) {
      xla::HloInstructionProto* c = Add("constant", Shape(xla::F32, {}));
      *c->mutable_literal()->mutable_shape() = c->shape();
      c->mutable_literal()->add_f32s(value);
      return c->id();
    }
    int64_t ConstantS32(int32_t value) {
      xla::HloInstructionProto* c = Add("constant", Shape(xla::S32, {}));
      *c->mutable_literal()->mutable_shape() = c->shape();
      c->mutable_literal()->add_s32s(value);
      return c->id();
    }
    void SetRoot(int64_t id) { c_->set_root_id(id); }

   private:
    ModuleBuilder* m_;
    xla::HloComputationProto* c_;
  };

  Computation Add(const std::string& name) {
    xla::HloComputationProto* c = proto_.add_computations();
    c->set_name(name);
    c->set_id(next_id_++);
    return Computation(this, c);
  }
  // A scalar f32 (or other type) binary computation: `opcode`(p0, p1).
  Computation Binary(const std::string& name, const std::string& opcode,
                     xla::PrimitiveType type = xla::F32) {
    Computation c = Add(name);
    int64_t a = c.Param(0, Shape(type, {}));
    int64_t b = c.Param(1, Shape(type, {}));
    c.Op(opcode, Shape(type, {}), {a, b});
    return c;
  }
  void SetEntry(const Computation& c) { proto_.set_entry_computation_id(c.id()); }
  xla::HloModuleProto& proto() { return proto_; }
  std::string Bytes() const { return proto_.SerializeAsString(); }

 private:
  xla::HloModuleProto proto_;
  int64_t next_id_ = 1;
};

// ----------------------------------------------------------- IR comparison

inline std::vector<shlo::NamedAttribute> Sorted(std::vector<shlo::NamedAttribute> attrs) {
  std::sort(attrs.begin(), attrs.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return attrs;
}

// The ops of two regions agree in name, attributes, result types and
// (recursively) regions: the importer builds the parser's normal form.
inline void ExpectSameOps(const shlo::Region& a, const shlo::Region& b, const std::string& where) {
  ASSERT_EQ(a.blocks.size(), b.blocks.size()) << where;
  for (size_t k = 0; k < a.blocks.size(); ++k) {
    const auto& ops_a = a.blocks[k]->operations;
    const auto& ops_b = b.blocks[k]->operations;
    ASSERT_EQ(ops_a.size(), ops_b.size()) << where;
    for (size_t i = 0; i < ops_a.size(); ++i) {
      const shlo::Operation& x = *ops_a[i];
      const shlo::Operation& y = *ops_b[i];
      const std::string at = where + " op " + std::to_string(i) + " (" + y.name + ")";
      EXPECT_EQ(x.name, y.name) << at;
      auto ax = Sorted(x.attributes), ay = Sorted(y.attributes);
      ASSERT_EQ(ax.size(), ay.size()) << at;
      for (size_t j = 0; j < ax.size(); ++j) {
        EXPECT_EQ(ax[j].first, ay[j].first) << at;
        EXPECT_TRUE(ax[j].second == ay[j].second)
            << at << ": " << ax[j].first << " is " << ax[j].second.ToString() << ", parser says "
            << ay[j].second.ToString();
      }
      ASSERT_EQ(x.results.size(), y.results.size()) << at;
      for (size_t j = 0; j < x.results.size(); ++j) {
        EXPECT_EQ(x.results[j]->type, y.results[j]->type) << at;
      }
      ASSERT_EQ(x.regions.size(), y.regions.size()) << at;
      for (size_t j = 0; j < x.regions.size(); ++j) ExpectSameOps(*x.regions[j], *y.regions[j], at);
    }
  }
}

// Reads `bytes` as format "hlo", verifies it and compares @main with the
// parsed `text`.
inline void ExpectImportsAs(const std::string& bytes, const std::string& text) {
  StatusOr<std::unique_ptr<shlo::Module>> imported = shlo::ReadHloModuleProto(bytes, "test.hlo");
  ASSERT_TRUE(imported.ok()) << imported.status().ToString();
  PLUGRT_EXPECT_OK(shlo::VerifyModule(**imported));
  StatusOr<std::unique_ptr<shlo::Module>> parsed = shlo::ParseModule(text, "test.mlir");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const shlo::Function* a = (*imported)->EntryFunction();
  const shlo::Function* b = (*parsed)->EntryFunction();
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->name, "main");
  EXPECT_EQ(a->input_types, b->input_types);
  EXPECT_EQ(a->result_types, b->result_types);
  ExpectSameOps(*a->body, *b->body, "@main");
}

// Compiles `bytes` as `format` on one CPU device, runs it on f32 arguments
// and returns each output's values.
inline std::vector<std::vector<float>> RunF32(const std::string& bytes,
                                       const std::vector<std::pair<std::vector<int64_t>, std::vector<float>>>& args,
                                       const std::string& format = "hlo") {
  StatusOr<std::unique_ptr<Client>> client = CreateCpuClient(1);
  EXPECT_TRUE(client.ok()) << client.status().ToString();
  if (!client.ok()) return {};
  StatusOr<LoadedExecutable> executable = (*client)->Compile(bytes, format);
  EXPECT_TRUE(executable.ok()) << executable.status().ToString();
  if (!executable.ok()) return {};
  StatusOr<std::vector<Device>> devices = executable->addressable_devices();
  EXPECT_TRUE(devices.ok());
  if (!devices.ok()) return {};
  std::vector<Buffer> buffers;
  for (const auto& [dims, values] : args) {
    buffers.push_back(Upload<float>(**client, (*devices)[0], PJRT_Buffer_Type_F32, dims, values));
  }
  std::vector<Buffer*> list;
  for (Buffer& b : buffers) list.push_back(&b);
  StatusOr<std::vector<std::vector<Buffer>>> outputs = executable->Execute({list});
  EXPECT_TRUE(outputs.ok()) << outputs.status().ToString();
  if (!outputs.ok()) return {};
  std::vector<std::vector<float>> result;
  for (const Buffer& out : (*outputs)[0]) result.push_back(Download<float>(out));
  return result;
}

inline const xla::ShapeProto kF23 = Shape(xla::F32, {2, 3});

}  // namespace plugrt::hlo_test

#endif  // PLUGRT_TESTS_COMPILER_HLO_PROTO_BUILDER_H_
