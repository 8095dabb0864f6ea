// Pretty (custom assembly) forms of ops, each turned into the attributes,
// operands and regions its generic form has, so that later stages see one
// shape per op.
#include <cstring>
#include <functional>

#include "compiler/importers/mlir/parser_impl.h"

namespace plugrt::shlo::internal {
namespace {

Attribute I64(int64_t v) { return Attribute::Integer(v, Type::Element(ElementType::kSI64)); }
Attribute I32(int64_t v) { return Attribute::Integer(v, Type::Element(ElementType::kSI32)); }

// Keyword `dims`/`dim` of each op -> the generic attribute name.
std::string_view DimsName(std::string_view op) {
  if (op == "stablehlo.transpose") return "permutation";
  if (op == "stablehlo.reverse") return "dimensions";
  return "broadcast_dimensions";
}
std::string_view DimName(std::string_view op) {
  if (op == "stablehlo.iota" || op == "stablehlo.dynamic_iota") return "iota_dimension";
  return "dimension";
}

// A dense i64 tensor of shape [rows, 2] (convolution padding).
Attribute PaddingAttr(const std::vector<int64_t>& flat) {
  auto data = std::make_shared<DenseData>();
  data->bytes.resize(flat.size() * sizeof(int64_t));
  std::memcpy(data->bytes.data(), flat.data(), data->bytes.size());
  return Attribute::Dense(
      Type::Tensor(ElementType::kSI64, {static_cast<int64_t>(flat.size() / 2), 2}), data);
}

}  // namespace

Status Parser::ParsePrettyOp(Operation* op, size_t num_results, std::vector<Type>* result_types) {
  const std::string& name = op->name;
  if (name.starts_with("arith.")) return ParsePrettyArith(op, result_types);
  if (name == "stablehlo.constant" && lex_.Peek() == '@') return ParsePrettyGlobalLoad(op, result_types);
  if (name == "stablehlo.constant") {
    if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
    lex_.Peek();
    size_t pos = lex_.pos();
    PLUGRT_ASSIGN_OR_RETURN(Attribute value, ParseAttribute());
    if (value.kind != Attribute::Kind::kDenseElements) {
      return lex_.ErrorAt(pos, "stablehlo.constant expects a dense<...> : tensor<...> literal");
    }
    result_types->push_back(value.type);
    SetAttr(op, "value", std::move(value));
    return OkStatus();
  }
  if (name == "stablehlo.reduce") return ParsePrettyReduce(op, num_results, result_types);
  if (name == "stablehlo.while") return ParsePrettyWhile(op, num_results, result_types);
  if (name == "chlo.scan") return ParsePrettyScan(op, num_results, result_types);
  if (name == "tensor.cast") return ParsePrettyTensorCast(op, result_types);
  if (name == "tensor.extract") return ParsePrettyTensorExtract(op, result_types);
  if (name == "tensor.dim") return ParsePrettyTensorDim(op, result_types);
  if (name == "tensor.from_elements") return ParsePrettyFromElements(op, result_types);
  if (name.rfind("sdy.", 0) == 0) return ParsePrettySdy(op, result_types);
  return ParsePrettyDefault(op, num_results, result_types);
}

Status Parser::FinishPrettyResults(Operation* op, size_t num_results,
                                   const std::vector<Type>& sig,
                                   const std::vector<Type>& arrow_results, bool has_arrow,
                                   std::vector<Type>* result_types, size_t pos) {
  if (has_arrow) {
    *result_types = arrow_results;
    return OkStatus();
  }
  if (num_results == 0) return OkStatus();
  if (sig.size() >= num_results) {
    result_types->assign(sig.end() - static_cast<std::ptrdiff_t>(num_results), sig.end());
  } else if (sig.size() == 1) {
    result_types->assign(num_results, sig[0]);
  } else {
    return lex_.ErrorAt(pos, op->name, " names ", num_results, " results but its type lists ",
                        sig.size());
  }
  return OkStatus();
}

Status Parser::ParsePrettyKeywordValue(Operation* op, std::string_view kw, size_t pos) {
  const std::string& name = op->name;
  auto enum_word = [&](std::string_view what) -> StatusOr<std::string> {
    std::string_view word = lex_.LexBareId();
    if (word.empty()) return lex_.Expected(what);
    return std::string(word);
  };
  if (kw == "dims") {
    PLUGRT_ASSIGN_OR_RETURN(auto list, ParseIntList());
    SetAttr(op, std::string(DimsName(name)), Attribute::DenseI64Array(std::move(list)));
  } else if (kw == "dim") {
    PLUGRT_ASSIGN_OR_RETURN(int64_t v, ParseInt64());
    SetAttr(op, std::string(DimName(name)), I64(v));
  } else if (kw == "sizes") {
    PLUGRT_ASSIGN_OR_RETURN(auto list, ParseIntList());
    SetAttr(op, "slice_sizes", Attribute::DenseI64Array(std::move(list)));
  } else if (kw == "low" || kw == "high" || kw == "interior") {
    PLUGRT_ASSIGN_OR_RETURN(auto list, ParseIntList());
    std::string attr = kw == "low"    ? "edge_padding_low"
                       : kw == "high" ? "edge_padding_high"
                                      : "interior_padding";
    SetAttr(op, attr, Attribute::DenseI64Array(std::move(list)));
  } else if (kw == "type" && name == "stablehlo.fft") {
    PLUGRT_ASSIGN_OR_RETURN(std::string v, enum_word("an FFT type"));
    SetAttr(op, "fft_type", Attribute::Enum("stablehlo.fft_type", v));
  } else if (kw == "length") {
    PLUGRT_ASSIGN_OR_RETURN(auto list, ParseIntList());
    SetAttr(op, "fft_length", Attribute::DenseI64Array(std::move(list)));
  } else if (kw == "algorithm" && name == "stablehlo.dot_general") {
    if (!lex_.ConsumeIf("<")) return lex_.Expected("'<' to open the dot algorithm");
    std::vector<NamedAttribute> fields;
    PLUGRT_RETURN_IF_ERROR(ParseStructFields(&fields, '>'));
    SetAttr(op, "algorithm", Attribute::Struct("stablehlo.dot_algorithm", std::move(fields)));
  } else if (kw == "algorithm") {
    PLUGRT_ASSIGN_OR_RETURN(std::string v, enum_word("an RNG algorithm"));
    SetAttr(op, "rng_algorithm", Attribute::Enum("stablehlo.rng_algorithm", v));
  } else if (kw == "distribution") {
    PLUGRT_ASSIGN_OR_RETURN(std::string v, enum_word("an RNG distribution"));
    SetAttr(op, "rng_distribution", Attribute::Enum("stablehlo.rng_distribution", v));
  } else if (kw == "format" && name == "stablehlo.reduce_precision") {
    lex_.Peek();
    size_t fpos = lex_.pos();
    std::string_view word = lex_.LexBareId();
    int64_t e = 0, m = 0;
    size_t mpos = word.find('m');
    auto number = [](std::string_view digits, int64_t* out) {
      if (digits.empty() || digits.size() > 9) return false;
      *out = 0;
      for (char c : digits) {
        if (c < '0' || c > '9') return false;
        *out = *out * 10 + (c - '0');
      }
      return true;
    };
    if (word.size() < 4 || word[0] != 'e' || mpos == std::string_view::npos ||
        !number(word.substr(1, mpos - 1), &e) || !number(word.substr(mpos + 1), &m)) {
      return lex_.ErrorAt(fpos, "expected a format 'eXmY', found '", word, "'");
    }
    SetAttr(op, "exponent_bits", I32(e));
    SetAttr(op, "mantissa_bits", I32(m));
  } else if ((kw == "batching_dims" || kw == "contracting_dims") &&
             name == "stablehlo.dot_general") {
    PLUGRT_ASSIGN_OR_RETURN(auto lhs, ParseIntList());
    if (!lex_.ConsumeKeyword("x")) return lex_.Expected("'x' between lhs and rhs dimensions");
    PLUGRT_ASSIGN_OR_RETURN(auto rhs, ParseIntList());
    std::string stem = kw == "batching_dims" ? "batching_dimensions" : "contracting_dimensions";
    Attribute dims = Attribute::Struct("stablehlo.dot", {});
    if (const Attribute* existing = op->attribute("dot_dimension_numbers")) dims = *existing;
    if (!lhs.empty()) dims.fields.emplace_back("lhs_" + stem, Attribute::DenseI64Array(lhs));
    if (!rhs.empty()) dims.fields.emplace_back("rhs_" + stem, Attribute::DenseI64Array(rhs));
    SetAttr(op, "dot_dimension_numbers", std::move(dims));
  } else if (kw == "precision") {
    if (!lex_.ConsumeIf("[")) return lex_.Expected("'[' to open the precision list");
    std::vector<Attribute> list;
    if (!lex_.ConsumeIf("]")) {
      while (true) {
        PLUGRT_ASSIGN_OR_RETURN(std::string v, enum_word("a precision"));
        list.push_back(Attribute::Enum("stablehlo.precision", v));
        if (lex_.ConsumeIf("]")) break;
        if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or ']' in the precision list");
      }
    }
    SetAttr(op, "precision_config", Attribute::Array(std::move(list)));
  } else if (kw == "dim_numbers" && name == "stablehlo.convolution") {
    PLUGRT_ASSIGN_OR_RETURN(Attribute dims, ParseConvDimensionNumbers(lex_));
    SetAttr(op, "dimension_numbers", std::move(dims));
  } else if (kw == "window" && name == "stablehlo.convolution") {
    PLUGRT_RETURN_IF_ERROR(ParseConvWindow(op));
  } else {
    // Ops outside StableHLO (check.*, interpreter.*, chlo.*) keep the keyword.
    for (const auto& existing : op->attributes) {
      if (existing.first == kw) return lex_.ErrorAt(pos, "duplicate keyword '", kw, "'");
    }
    PLUGRT_ASSIGN_OR_RETURN(Attribute value, ParseAttribute());
    SetAttr(op, std::string(kw), std::move(value));
  }
  return OkStatus();
}

Status Parser::ParseConvWindow(Operation* op) {
  if (!lex_.ConsumeIf("{")) return lex_.Expected("'{' to open the convolution window");
  if (lex_.ConsumeIf("}")) return OkStatus();
  while (true) {
    lex_.Peek();
    size_t pos = lex_.pos();
    std::string_view key = lex_.LexBareId();
    if (key.empty()) return lex_.Expected("a window field (stride, pad, lhs_dilate, ...)");
    if (!lex_.ConsumeIf("=")) return lex_.Expected("'=' after the window field");
    if (key == "pad") {
      if (!lex_.ConsumeIf("[")) return lex_.Expected("'[' to open the padding");
      std::vector<int64_t> flat;
      if (!lex_.ConsumeIf("]")) {
        while (true) {
          lex_.Peek();
          size_t pair_pos = lex_.pos();
          PLUGRT_ASSIGN_OR_RETURN(auto pair, ParseIntList());
          if (pair.size() != 2) {
            return lex_.ErrorAt(pair_pos, "each padding entry is [low, high], found ",
                                pair.size(), " numbers");
          }
          flat.insert(flat.end(), pair.begin(), pair.end());
          if (lex_.ConsumeIf("]")) break;
          if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or ']' in the padding");
        }
      }
      SetAttr(op, "padding", PaddingAttr(flat));
    } else {
      PLUGRT_ASSIGN_OR_RETURN(auto list, ParseIntList());
      if (key == "stride") {
        SetAttr(op, "window_strides", Attribute::DenseI64Array(std::move(list)));
      } else if (key == "lhs_dilate") {
        SetAttr(op, "lhs_dilation", Attribute::DenseI64Array(std::move(list)));
      } else if (key == "rhs_dilate") {
        SetAttr(op, "rhs_dilation", Attribute::DenseI64Array(std::move(list)));
      } else if (key == "reverse") {
        Attribute reversal = Attribute::DenseI64Array(std::move(list));
        reversal.type = Type::Element(ElementType::kI1);
        for (int64_t& v : reversal.ints) v = v != 0;
        SetAttr(op, "window_reversal", std::move(reversal));
      } else {
        return lex_.ErrorAt(pos, "unknown convolution window field '", key, "'");
      }
    }
    if (lex_.ConsumeIf("}")) return OkStatus();
    if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or '}' in the convolution window");
  }
}

Status Parser::ParsePrettyDefault(Operation* op, size_t num_results,
                                  std::vector<Type>* result_types) {
  const std::string& name = op->name;
  bool is_compare = name == "stablehlo.compare";
  int enums_seen = 0;
  // Continuation without a comma is allowed after these items.
  enum class Last { kNone, kSeparator, kParen, kSymbol, kString, kOther };
  Last last = Last::kNone;
  std::function<Status(bool)> parse_item;
  parse_item = [&](bool in_parens) -> Status {
    char c = lex_.Peek();
    size_t pos = lex_.pos();
    if (c == '%') {
      PLUGRT_ASSIGN_OR_RETURN(Value * v, ParseOperand());
      op->operands.push_back(v);
      // `%tuple[0]` of get_tuple_element and `%x [0:2]` of slice.
      if (!in_parens && lex_.Peek() == '[') {
        if (name == "stablehlo.get_tuple_element") {
          lex_.ConsumeIf("[");
          PLUGRT_ASSIGN_OR_RETURN(int64_t index, ParseInt64());
          if (!lex_.ConsumeIf("]")) return lex_.Expected("']' after the tuple index");
          SetAttr(op, "index", I32(index));
        } else if (name == "stablehlo.slice") {
          lex_.ConsumeIf("[");
          std::vector<int64_t> starts, limits, strides;
          if (!lex_.ConsumeIf("]")) {
            while (true) {
              PLUGRT_ASSIGN_OR_RETURN(int64_t s, ParseInt64());
              if (!lex_.ConsumeIf(":")) return lex_.Expected("':' in the slice range");
              PLUGRT_ASSIGN_OR_RETURN(int64_t l, ParseInt64());
              int64_t st = 1;
              if (lex_.ConsumeIf(":")) {
                PLUGRT_ASSIGN_OR_RETURN(st, ParseInt64());
              }
              starts.push_back(s);
              limits.push_back(l);
              strides.push_back(st);
              if (lex_.ConsumeIf("]")) break;
              if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or ']' in the slice ranges");
            }
          }
          SetAttr(op, "start_indices", Attribute::DenseI64Array(std::move(starts)));
          SetAttr(op, "limit_indices", Attribute::DenseI64Array(std::move(limits)));
          SetAttr(op, "strides", Attribute::DenseI64Array(std::move(strides)));
        }
      }
      last = Last::kOther;
      return OkStatus();
    }
    if (c == '(' && !in_parens) {
      lex_.ConsumeIf("(");
      if (!lex_.ConsumeIf(")")) {
        while (true) {
          if (lex_.Peek() != '%' && !IsIdStart(lex_.Peek())) {
            return lex_.Expected("an operand or 'keyword = value'");
          }
          PLUGRT_RETURN_IF_ERROR(parse_item(true));
          if (lex_.ConsumeIf(")")) break;
          if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or ')'");
        }
      }
      last = Last::kParen;
      return OkStatus();
    }
    if (c == '@') {
      PLUGRT_ASSIGN_OR_RETURN(Attribute sym, ParseAttribute());
      if (name == "stablehlo.custom_call") {
        SetAttr(op, "call_target_name", Attribute::String(sym.str));
      } else {
        SetAttr(op, "callee", std::move(sym));
      }
      last = Last::kSymbol;
      return OkStatus();
    }
    if (c == '"' && name == "stablehlo.composite") {
      PLUGRT_ASSIGN_OR_RETURN(std::string text, lex_.LexString());
      SetAttr(op, "name", Attribute::String(std::move(text)));
      last = Last::kString;
      return OkStatus();
    }
    if (IsIdStart(c)) {
      size_t save = lex_.pos();
      std::string_view word = lex_.LexBareId();
      if (lex_.ConsumeIf("=")) {
        PLUGRT_RETURN_IF_ERROR(ParsePrettyKeywordValue(op, word, pos));
        last = Last::kOther;
        return OkStatus();
      }
      if (word == "attributes" && lex_.Peek() == '{') {
        PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
        last = Last::kOther;
        return OkStatus();
      }
      if (word != "dense" && word != "array" && word != "true" && word != "false") {
        if (is_compare) {
          if (enums_seen == 0 && op->operands.empty()) {
            SetAttr(op, "comparison_direction",
                    Attribute::Enum("stablehlo.comparison_direction", std::string(word)));
          } else {
            SetAttr(op, "compare_type",
                    Attribute::Enum("stablehlo.comparison_type", std::string(word)));
          }
          ++enums_seen;
          last = Last::kOther;
          return OkStatus();
        }
        lex_.set_pos(save);
        return lex_.Expected("an operand, 'keyword = value' or ':' in " + name);
      }
      lex_.set_pos(save);
    }
    // A positional attribute (the expected value of check.expect_*_const).
    PLUGRT_ASSIGN_OR_RETURN(Attribute value, ParseAttribute());
    SetAttr(op, "value", std::move(value));
    last = Last::kOther;
    return OkStatus();
  };

  while (true) {
    char c = lex_.Peek();
    if (c == ':' || c == '}' || c == '\0' || c == '^') break;
    if (c == '{') {
      PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
      last = Last::kOther;
      continue;
    }
    bool continues = last == Last::kNone || last == Last::kSeparator ||
                     (last == Last::kSymbol && c == '(') ||
                     (last == Last::kString && c == '%') ||
                     (last == Last::kParen && IsIdStart(c));
    if (!continues) break;
    PLUGRT_RETURN_IF_ERROR(parse_item(false));
    if (lex_.ConsumeIf(",")) {
      last = Last::kSeparator;
      if (lex_.Peek() == ':') return lex_.Expected("an operand after ','");
    }
  }
  std::vector<Type> sig, arrow;
  bool has_arrow = false;
  lex_.Peek();
  size_t sig_pos = lex_.pos();
  if (lex_.ConsumeIf(":")) {
    PLUGRT_RETURN_IF_ERROR(ParseSignature(&sig, &arrow, &has_arrow));
    if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
  } else if (num_results > 0) {
    return lex_.Expected("':' and the type of " + name);
  }
  if (has_arrow) {
    if (sig.size() != op->operands.size()) {
      return lex_.ErrorAt(sig_pos, name, " has ", op->operands.size(),
                          " operands but its type lists ", sig.size());
    }
    for (size_t i = 0; i < sig.size(); ++i) {
      if (sig[i] != op->operands[i]->type) {
        return lex_.ErrorAt(sig_pos, "operand #", i, " of ", name, " has type ",
                            op->operands[i]->type.ToString(), " but the op's type says ",
                            sig[i].ToString());
      }
    }
  }
  if (name == "stablehlo.dot_general" && op->attribute("dot_dimension_numbers") == nullptr) {
    SetAttr(op, "dot_dimension_numbers", Attribute::Struct("stablehlo.dot", {}));
  }
  return FinishPrettyResults(op, num_results, sig, arrow, has_arrow, result_types, sig_pos);
}

Status Parser::ParsePrettyReduce(Operation* op, size_t num_results,
                                 std::vector<Type>* result_types) {
  // (%x init: %c), (%y init: %d) applies OP across dimensions = [..] : sig
  // or ... across dimensions = [..] : sig reducer(%a: T, %b: T) (...) { body }
  std::vector<Value*> inputs, inits;
  while (true) {
    if (!lex_.ConsumeIf("(")) return lex_.Expected("'(' to open '(%input init: %init)'");
    PLUGRT_ASSIGN_OR_RETURN(Value * input, ParseOperand());
    if (!lex_.ConsumeKeyword("init") || !lex_.ConsumeIf(":")) return lex_.Expected("'init:'");
    PLUGRT_ASSIGN_OR_RETURN(Value * init, ParseOperand());
    if (!lex_.ConsumeIf(")")) return lex_.Expected("')' after the init value");
    inputs.push_back(input);
    inits.push_back(init);
    if (!lex_.ConsumeIf(",")) break;
  }
  op->operands = inputs;
  op->operands.insert(op->operands.end(), inits.begin(), inits.end());
  std::string applies;
  lex_.Peek();
  size_t applies_pos = lex_.pos();
  if (lex_.ConsumeKeyword("applies")) {
    lex_.Peek();
    applies_pos = lex_.pos();
    applies = std::string(lex_.LexBareId());
    if (applies.empty()) return lex_.Expected("the reduction op after 'applies'");
    // `applies mhlo.add` names the op by its mhlo name.
    Operation named;
    named.name = applies;
    PLUGRT_RETURN_IF_ERROR(TranslateOpName(&named, applies_pos));
    applies = named.name;
  }
  if (!lex_.ConsumeKeyword("across") || !lex_.ConsumeKeyword("dimensions") ||
      !lex_.ConsumeIf("=")) {
    return lex_.Expected("'across dimensions = [...]'");
  }
  PLUGRT_ASSIGN_OR_RETURN(auto dims, ParseIntList());
  SetAttr(op, "dimensions", Attribute::DenseI64Array(std::move(dims)));
  if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
  lex_.Peek();
  size_t sig_pos = lex_.pos();
  if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the type of stablehlo.reduce");
  std::vector<Type> sig, arrow;
  bool has_arrow = false;
  PLUGRT_RETURN_IF_ERROR(ParseSignature(&sig, &arrow, &has_arrow));
  PLUGRT_RETURN_IF_ERROR(
      FinishPrettyResults(op, num_results, sig, arrow, has_arrow, result_types, sig_pos));

  auto region = std::make_unique<Region>();
  region->parent_op = op;
  if (!applies.empty()) {
    // The body the pretty form abbreviates: one block (accumulators, then
    // elements), one `applies` op per input, and stablehlo.return.
    auto block = std::make_unique<Block>();
    block->parent = region.get();
    size_t n = inits.size();
    for (size_t i = 0; i < 2 * n; ++i) {
      auto arg = std::make_unique<Value>();
      arg->type = inits[i % n]->type;
      arg->owner_block = block.get();
      arg->index = static_cast<int>(i);
      arg->name = StrCat("arg", i);
      block->arguments.push_back(std::move(arg));
    }
    auto ret = std::make_unique<Operation>();
    ret->name = "stablehlo.return";
    ret->code = LookupOpCode(ret->name);
    ret->parent = block.get();
    ret->location = lex_.LocationAt(applies_pos);
    for (size_t i = 0; i < n; ++i) {
      auto body_op = std::make_unique<Operation>();
      body_op->name = applies;
      body_op->code = LookupOpCode(applies);
      body_op->parent = block.get();
      body_op->location = lex_.LocationAt(applies_pos);
      body_op->operands = {block->arguments[i].get(), block->arguments[i + n].get()};
      auto result = std::make_unique<Value>();
      result->type = inits[i]->type;
      result->defining_op = body_op.get();
      result->name = StrCat("r", i);
      ret->operands.push_back(result.get());
      body_op->results.push_back(std::move(result));
      block->operations.push_back(std::move(body_op));
    }
    block->operations.push_back(std::move(ret));
    region->blocks.push_back(std::move(block));
  } else {
    if (!lex_.ConsumeKeyword("reducer")) return lex_.Expected("'reducer' and the reduction body");
    std::vector<ArgDecl> firsts, seconds;
    while (lex_.Peek() == '(') {
      std::vector<ArgDecl> pair;
      size_t pos = lex_.pos();
      PLUGRT_RETURN_IF_ERROR(ParseArgDecls(&pair));
      if (pair.size() != 2) {
        return lex_.ErrorAt(pos, "each reducer argument group is (%accumulator, %element)");
      }
      firsts.push_back(std::move(pair[0]));
      seconds.push_back(std::move(pair[1]));
    }
    firsts.insert(firsts.end(), seconds.begin(), seconds.end());
    PLUGRT_RETURN_IF_ERROR(ParseRegion(region.get(), &firsts));
  }
  op->regions.push_back(std::move(region));
  return OkStatus();
}

Status Parser::ParsePrettyWhile(Operation* op, size_t num_results,
                                std::vector<Type>* result_types) {
  // (%iterArg = %init, ...) : types [attributes {...}] cond { } do { }
  if (!lex_.ConsumeIf("(")) return lex_.Expected("'(' to open the loop variables");
  std::vector<ArgDecl> args;
  if (!lex_.ConsumeIf(")")) {
    while (true) {
      lex_.Peek();
      ArgDecl arg;
      arg.pos = lex_.pos();
      if (lex_.Peek() != '%') return lex_.Expected("a loop variable '%name'");
      lex_.set_pos(lex_.pos() + 1);
      arg.name = std::string(lex_.LexSuffixId());
      if (arg.name.empty()) return lex_.Expected("a loop variable name");
      if (!lex_.ConsumeIf("=")) return lex_.Expected("'=' and the initial value");
      PLUGRT_ASSIGN_OR_RETURN(Value * init, ParseOperand());
      op->operands.push_back(init);
      args.push_back(std::move(arg));
      if (lex_.ConsumeIf(")")) break;
      if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or ')' in the loop variables");
    }
  }
  lex_.Peek();
  size_t sig_pos = lex_.pos();
  std::vector<Type> sig, arrow;
  bool has_arrow = false;
  if (lex_.ConsumeIf(":")) {
    PLUGRT_RETURN_IF_ERROR(ParseSignature(&sig, &arrow, &has_arrow));
  }
  if (has_arrow || sig.size() != args.size()) {
    return lex_.ErrorAt(sig_pos, "stablehlo.while lists ", sig.size(), " types for ",
                        args.size(), " loop variables");
  }
  for (size_t i = 0; i < args.size(); ++i) args[i].type = sig[i];
  if (lex_.ConsumeKeyword("attributes")) PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
  if (!lex_.ConsumeKeyword("cond")) return lex_.Expected("'cond' and the condition region");
  auto cond = std::make_unique<Region>();
  cond->parent_op = op;
  PLUGRT_RETURN_IF_ERROR(ParseRegion(cond.get(), &args));
  op->regions.push_back(std::move(cond));
  if (!lex_.ConsumeKeyword("do")) return lex_.Expected("'do' and the body region");
  auto body = std::make_unique<Region>();
  body->parent_op = op;
  PLUGRT_RETURN_IF_ERROR(ParseRegion(body.get(), &args));
  op->regions.push_back(std::move(body));
  (void)num_results;
  *result_types = sig;
  return OkStatus();
}

Status Parser::ParsePrettyScan(Operation* op, size_t num_results,
                               std::vector<Type>* result_types) {
  // (%inputs) inits(%inits) dimension=N [attributes {...}] { region } : sig
  auto paren_operands = [&](std::vector<Value*>* out) -> Status {
    if (!lex_.ConsumeIf("(")) return lex_.Expected("'('");
    PLUGRT_RETURN_IF_ERROR(ParseOperandList(out));
    if (!lex_.ConsumeIf(")")) return lex_.Expected("')'");
    return OkStatus();
  };
  std::vector<Value*> inputs, inits;
  PLUGRT_RETURN_IF_ERROR(paren_operands(&inputs));
  if (!lex_.ConsumeKeyword("inits")) return lex_.Expected("'inits(...)'");
  PLUGRT_RETURN_IF_ERROR(paren_operands(&inits));
  op->operands = inputs;
  op->operands.insert(op->operands.end(), inits.begin(), inits.end());
  if (!lex_.ConsumeKeyword("dimension") || !lex_.ConsumeIf("=")) {
    return lex_.Expected("'dimension = N'");
  }
  PLUGRT_ASSIGN_OR_RETURN(int64_t dim, ParseInt64());
  SetAttr(op, "dimension", I64(dim));
  Attribute segments = Attribute::DenseI64Array(
      {static_cast<int64_t>(inputs.size()), static_cast<int64_t>(inits.size())});
  segments.type = Type::Element(ElementType::kSI32);
  SetAttr(op, "operandSegmentSizes", std::move(segments));
  if (lex_.ConsumeKeyword("attributes")) PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
  auto region = std::make_unique<Region>();
  region->parent_op = op;
  PLUGRT_RETURN_IF_ERROR(ParseRegion(region.get(), nullptr));
  op->regions.push_back(std::move(region));
  lex_.Peek();
  size_t sig_pos = lex_.pos();
  if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the type of chlo.scan");
  std::vector<Type> sig, arrow;
  bool has_arrow = false;
  PLUGRT_RETURN_IF_ERROR(ParseSignature(&sig, &arrow, &has_arrow));
  return FinishPrettyResults(op, num_results, sig, arrow, has_arrow, result_types, sig_pos);
}

}  // namespace plugrt::shlo::internal
