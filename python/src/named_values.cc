#include "named_values.h"

#include <pybind11/stl.h>

#include <string>
#include <variant>

#include "errors.h"

namespace plugrt::python {

namespace py = pybind11;

py::dict ToDict(const std::vector<NamedValue>& values) {
  py::dict dict;
  for (const NamedValue& value : values) {
    dict[py::str(value.name)] =
        std::visit([](const auto& v) -> py::object { return py::cast(v); }, value.value);
  }
  return dict;
}

std::vector<NamedValue> FromKwargs(const py::kwargs& kwargs) {
  std::vector<NamedValue> values;
  for (auto [key, value] : kwargs) {
    NamedValue named;
    named.name = py::str(key);
    // bool before int: Python's bool is an int.
    if (py::isinstance<py::bool_>(value)) {
      named.value = value.cast<bool>();
    } else if (py::isinstance<py::int_>(value)) {
      named.value = value.cast<int64_t>();
    } else if (py::isinstance<py::float_>(value)) {
      named.value = value.cast<float>();
    } else if (py::isinstance<py::str>(value)) {
      named.value = value.cast<std::string>();
    } else if (py::isinstance<py::sequence>(value)) {
      try {
        named.value = value.cast<std::vector<int64_t>>();
      } catch (const py::cast_error&) {
        throw StatusError(Status(StatusCode::kInvalidArgument,
                                 StrCat("option ", named.name, ": a list must hold ints")));
      }
    } else {
      throw StatusError(Status(
          StatusCode::kInvalidArgument,
          StrCat("option ", named.name, ": expected bool, int, float, str or a list of ints, got ",
                 std::string(py::str(value.get_type().attr("__name__"))))));
    }
    values.push_back(std::move(named));
  }
  return values;
}

}  // namespace plugrt::python
