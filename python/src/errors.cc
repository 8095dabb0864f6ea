#include "errors.h"

#include <string>

namespace plugrt::python {

namespace py = pybind11;

void RegisterErrors(py::module_& m) {
  py::enum_<StatusCode> codes(m, "ErrorCode",
                              "PJRT_Error_Code: the code every plugrt.Error carries.");
  for (int c = static_cast<int>(StatusCode::kCancelled);
       c <= static_cast<int>(StatusCode::kUnauthenticated); ++c) {
    const auto code = static_cast<StatusCode>(c);
    codes.value(std::string(StatusCodeName(code)).c_str(), code);
  }

  // A plain Exception subclass; the translator sets `code` (an ErrorCode)
  // and `message` on each instance so callers can branch on the code.
  // Leaked on purpose: a static py::object would be released after the
  // interpreter has finalized.
  static py::exception<StatusError>* error = nullptr;
  error = new py::exception<StatusError>(m, "Error", PyExc_RuntimeError);
  error->doc() =
      "An error reported by plugrt or a PJRT plugin. `code` is the plugrt.ErrorCode "
      "(PJRT_Error_Code), `message` the plugin's text.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const StatusError& e) {
      const Status& s = e.status();
      py::object instance = py::handle(error->ptr())(py::str(s.ToString()));
      instance.attr("code") = py::cast(s.code());
      instance.attr("message") = py::str(s.message());
      PyErr_SetObject(error->ptr(), instance.ptr());
    }
  });
}

}  // namespace plugrt::python
