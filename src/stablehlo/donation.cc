#include "stablehlo/donation.h"

namespace plugrt::shlo {

std::vector<int64_t> DonatableInputs(const Function& entry) {
  std::vector<int64_t> donation(entry.input_types.size(), kNotDonated);
  for (size_t i = 0; i < entry.arg_attributes.size() && i < donation.size(); ++i) {
    for (const NamedAttribute& attr : entry.arg_attributes[i]) {
      if (attr.first == "tf.aliasing_output" && attr.second.kind == Attribute::Kind::kInteger) {
        donation[i] = attr.second.int_value;
      } else if (attr.first == "jax.buffer_donor" && donation[i] == kNotDonated &&
                 ((attr.second.kind == Attribute::Kind::kBool && attr.second.bool_value) ||
                  attr.second.kind == Attribute::Kind::kUnit)) {
        donation[i] = kDonatedOnly;
      }
    }
  }
  return donation;
}

}  // namespace plugrt::shlo
