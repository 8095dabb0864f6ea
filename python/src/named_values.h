// plugrt Python bindings: NamedValue lists (plugin attributes, create
// options, cost analysis) <-> Python dicts.
#ifndef PLUGRT_PYTHON_NAMED_VALUES_H_
#define PLUGRT_PYTHON_NAMED_VALUES_H_

#include <pybind11/pybind11.h>

#include <vector>

#include "common/named_value.h"

namespace plugrt::python {

// {name: value}: ints, floats, bools, strings and lists of ints.
pybind11::dict ToDict(const std::vector<NamedValue>& values);

// Keyword arguments -> NamedValues: bool, int, float, str, or a sequence of
// ints; anything else is an INVALID_ARGUMENT error naming the key.
std::vector<NamedValue> FromKwargs(const pybind11::kwargs& kwargs);

}  // namespace plugrt::python

#endif  // PLUGRT_PYTHON_NAMED_VALUES_H_
