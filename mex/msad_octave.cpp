// Octave only: reads a function handle through Octave's C++ classes. Calling "functions" from the
// MEX costs a symbol-table lookup and a struct built and converted on every msad_eval(@f, x) call,
// several times the rest of a small call. A separate file because Octave's mex.h declares mxArray
// as void, while here it is Octave's own class (the object the host passes to mexFunction).

#include <octave/oct.h>
#include <octave/ov-fcn-handle.h>
#include <octave/mxarray.h>

#include <string>

extern "C" const char *msad_simple_handle_name(const mxArray *handle) noexcept {
    static std::string name;
    try {
        octave_value value = handle->as_octave_value();
        if (!value.is_function_handle()) return nullptr;
        const octave_fcn_handle *fcn = value.fcn_handle_value();
        if (fcn == nullptr || !fcn->is_simple()) return nullptr;
        name = fcn->fcn_name();
        return name.c_str();
    } catch (...) {
        return nullptr;
    }
}
