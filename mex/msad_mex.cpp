// Implements msad_mex.h over the host's mex.h. C++ only to contain the host's C++ exceptions
// (an interrupt thrown inside a callback) before they reach Rust frames.

#include "msad_mex.h"

#include <cstring>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

namespace {

// An exception (Ctrl-C) caught in a callback, re-thrown once Rust has returned.
std::exception_ptr held_interrupt;
bool error_pending = false;
std::string error_identifier;
std::string error_message;

std::vector<mwSize> host_dims(size_t ndims, const size_t *dims) {
    return std::vector<mwSize>(dims, dims + ndims);
}

// Runs a constructor; null when it throws (std::bad_alloc, or the host's out-of-memory error), which
// must not reach a noexcept boundary: that would terminate the host.
template <typename Construct>
mxArray *constructed(Construct construct) noexcept {
    try {
        return construct();
    } catch (...) {
        return nullptr;
    }
}

}  // namespace

extern "C" {

msad_kind msad_kind_of(const mxArray *array) noexcept {
    // mxGetClassID, not mxIsFunctionHandle: MATLAB documents only the former.
    if (mxGetClassID(array) == mxFUNCTION_CLASS) return MSAD_FUNCTION_HANDLE;
    if (mxIsCell(array)) return MSAD_CELL;
    if (mxIsStruct(array)) return MSAD_STRUCT;
    if (mxIsChar(array)) return MSAD_CHAR;
    if (mxIsLogical(array)) return mxIsSparse(array) ? MSAD_SPARSE_LOGICAL : MSAD_LOGICAL;
    if (mxIsDouble(array)) {
        if (mxIsComplex(array)) return mxIsSparse(array) ? MSAD_SPARSE_COMPLEX : MSAD_COMPLEX;
        return mxIsSparse(array) ? MSAD_SPARSE : MSAD_DOUBLE;
    }
    return MSAD_OTHER;
}

const char *msad_class_name(const mxArray *array) noexcept { return mxGetClassName(array); }

#if defined(MSAD_OCTAVE_HANDLES)
extern "C" int msad_octave_value_dims(const mxArray *array, size_t *ndims, size_t *dims) noexcept;
#endif

size_t msad_ndims(const mxArray *array) noexcept {
#if defined(MSAD_OCTAVE_HANDLES)
    size_t ndims = 0;
    if (msad_octave_value_dims(array, &ndims, nullptr)) return ndims;
#endif
    return mxGetNumberOfDimensions(array);
}

void msad_dims(const mxArray *array, size_t *dims) noexcept {
#if defined(MSAD_OCTAVE_HANDLES)
    size_t ndims = 0;
    if (msad_octave_value_dims(array, &ndims, dims)) return;
#endif
    const mwSize *host = mxGetDimensions(array);
    size_t count = mxGetNumberOfDimensions(array);
    for (size_t k = 0; k < count; ++k) dims[k] = host[k];
}

size_t msad_numel(const mxArray *array) noexcept { return mxGetNumberOfElements(array); }

void msad_read_doubles(const mxArray *array, double *out) noexcept {
    size_t count = mxGetNumberOfElements(array);
    if (count > 0) std::memcpy(out, mxGetPr(array), count * sizeof(double));
}

void msad_read_logicals(const mxArray *array, uint8_t *out) noexcept {
    const mxLogical *data = mxGetLogicals(array);
    for (size_t k = 0; k < mxGetNumberOfElements(array); ++k) out[k] = data[k] ? 1 : 0;
}

void msad_read_chars(const mxArray *array, uint16_t *out) noexcept {
    using unit = std::make_unsigned<mxChar>::type;
    const mxChar *data = mxGetChars(array);
    size_t count = mxGetNumberOfElements(array);
    for (size_t k = 0; k < count; ++k) out[k] = static_cast<unit>(data[k]);
}

int msad_chars_are_utf8(void) noexcept { return sizeof(mxChar) == 1; }

size_t msad_sparse_nnz(const mxArray *array) noexcept { return mxGetJc(array)[mxGetN(array)]; }

void msad_read_sparse(const mxArray *array, size_t *column_starts, size_t *row_indices,
                      double *values) noexcept {
    const mwIndex *starts = mxGetJc(array);
    const mwIndex *rows = mxGetIr(array);
    const double *data = mxGetPr(array);
    size_t columns = mxGetN(array);
    for (size_t j = 0; j <= columns; ++j) column_starts[j] = starts[j];
    for (size_t k = 0; k < column_starts[columns]; ++k) {
        row_indices[k] = rows[k];
        values[k] = data[k];
    }
}

void msad_read_imag(const mxArray *array, double *out) noexcept {
    size_t count = mxIsSparse(array) ? msad_sparse_nnz(array) : mxGetNumberOfElements(array);
    const double *imag = mxGetPi(array);
    if (count == 0) return;
    if (imag == nullptr) {
        std::fill(out, out + count, 0.0);
    } else {
        std::memcpy(out, imag, count * sizeof(double));
    }
}

const mxArray *msad_cell(const mxArray *array, size_t index) noexcept {
    return mxGetCell(array, index);
}

int msad_field_count(const mxArray *array) noexcept { return mxGetNumberOfFields(array); }

const char *msad_field_name(const mxArray *array, int field) noexcept {
    return mxGetFieldNameByNumber(array, field);
}

const mxArray *msad_field(const mxArray *array, size_t index, int field) noexcept {
    return mxGetFieldByNumber(array, index, field);
}

mxArray *msad_new_doubles(size_t ndims, const size_t *dims, const double *data) noexcept {
    return constructed([&] {
        std::vector<mwSize> size = host_dims(ndims, dims);
        mxArray *array = mxCreateNumericArray(ndims, size.data(), mxDOUBLE_CLASS, mxREAL);
        size_t count = mxGetNumberOfElements(array);
        if (count > 0) std::memcpy(mxGetPr(array), data, count * sizeof(double));
        return array;
    });
}

mxArray *msad_new_logicals(size_t ndims, const size_t *dims, const uint8_t *data) noexcept {
    return constructed([&] {
        std::vector<mwSize> size = host_dims(ndims, dims);
        mxArray *array = mxCreateLogicalArray(ndims, size.data());
        mxLogical *target = mxGetLogicals(array);
        for (size_t k = 0; k < mxGetNumberOfElements(array); ++k) target[k] = data[k] != 0;
        return array;
    });
}

mxArray *msad_new_chars(size_t ndims, const size_t *dims, const uint16_t *data) noexcept {
    return constructed([&] {
        std::vector<mwSize> size = host_dims(ndims, dims);
        mxArray *array = mxCreateCharArray(ndims, size.data());
        mxChar *target = mxGetChars(array);
        for (size_t k = 0; k < mxGetNumberOfElements(array); ++k) target[k] = static_cast<mxChar>(data[k]);
        return array;
    });
}

mxArray *msad_new_sparse(size_t rows, size_t columns, size_t nnz, const size_t *column_starts,
                         const size_t *row_indices, const double *values) noexcept {
    // Room for one entry even when empty: some hosts reject nzmax == 0.
    mxArray *array = constructed([&] { return mxCreateSparse(rows, columns, nnz > 0 ? nnz : 1, mxREAL); });
    if (array == nullptr) return nullptr;
    mwIndex *starts = mxGetJc(array);
    mwIndex *row_targets = mxGetIr(array);
    double *value_targets = mxGetPr(array);
    for (size_t j = 0; j <= columns; ++j) starts[j] = column_starts[j];
    for (size_t k = 0; k < nnz; ++k) {
        row_targets[k] = row_indices[k];
        value_targets[k] = values[k];
    }
    return array;
}

#if !defined(MSAD_OCTAVE_HANDLES)
// Hosts without msad_octave.cpp: ordinary arrays, which the host frees after the call.
mxArray *msad_new_doubles_output(size_t ndims, const size_t *dims, const double *data) noexcept {
    return msad_new_doubles(ndims, dims, data);
}

mxArray *msad_new_sparse_output(size_t rows, size_t columns, size_t nnz, const size_t *column_starts,
                                const size_t *row_indices, const double *values) noexcept {
    return msad_new_sparse(rows, columns, nnz, column_starts, row_indices, values);
}

void msad_release_outputs(void) noexcept {}
#endif

mxArray *msad_new_cell(size_t ndims, const size_t *dims) noexcept {
    return constructed([&] {
        std::vector<mwSize> size = host_dims(ndims, dims);
        return mxCreateCellArray(ndims, size.data());
    });
}

void msad_set_cell(mxArray *cell, size_t index, mxArray *value) noexcept {
    mxSetCell(cell, index, value);
}

mxArray *msad_new_struct(size_t ndims, const size_t *dims, int field_count,
                         const char **field_names) noexcept {
    return constructed([&] {
        std::vector<mwSize> size = host_dims(ndims, dims);
        return mxCreateStructArray(ndims, size.data(), field_count, field_names);
    });
}

void msad_set_field(mxArray *array, size_t index, int field, mxArray *value) noexcept {
    mxSetFieldByNumber(array, index, field, value);
}

void msad_destroy(mxArray *array) noexcept { mxDestroyArray(array); }

int msad_call(const char *function, int output_count, mxArray **outputs, int input_count,
              mxArray **inputs) noexcept {
    if (held_interrupt) return 1;
    try {
        mxArray *exception =
            mexCallMATLABWithTrap(output_count, outputs, input_count, inputs, function);
        if (exception == nullptr) return 0;
        mxDestroyArray(exception);
    } catch (...) {
        held_interrupt = std::current_exception();
    }
    return 1;
}

#if !defined(MSAD_OCTAVE_HANDLES)
// Hosts without msad_octave.cpp: the caller falls back to "functions".
const char *msad_simple_handle_name(const mxArray *) noexcept { return nullptr; }
uint64_t msad_hold_anonymous_handle(const mxArray *) noexcept { return 0; }
void msad_release_handle(uint64_t) noexcept {}
const char *msad_nested_handle_file(const mxArray *) noexcept { return nullptr; }
uint64_t msad_nested_handle_frame(const mxArray *, const char **) noexcept { return 0; }
int msad_assign_in_frame(uint64_t, const char *, const mxArray *) noexcept { return 0; }
int msad_load_path_hash(uint64_t *) noexcept { return 0; }
int msad_path_generation(uint64_t *) noexcept { return 0; }
#endif

mxArray *msad_get_global(const char *name) noexcept {
    try {
        return mexGetVariable("global", name);
    } catch (...) {
        return nullptr;
    }
}

int msad_put_global(const char *name, const mxArray *value) noexcept {
    try {
        return mexPutVariable("global", name, value);
    } catch (...) {
        return 1;
    }
}

void msad_print(const char *text) noexcept { mexPrintf("%s", text); }

const char *msad_function_name(void) noexcept { return mexFunctionName(); }

void msad_at_exit(void (*release)(void)) noexcept { mexAtExit(release); }

void msad_fail(const char *identifier, const char *message) noexcept {
    error_pending = true;
    error_identifier = identifier;
    error_message = message;
}

#if !defined(MSAD_OCTAVE_HANDLES)
// Hosts without msad_octave.cpp: Ctrl-C is seen in host callbacks only.
int msad_interrupt_pending(void) noexcept { return 0; }

void msad_raise_pending_interrupt(void) {}
#endif

void msad_end_call(void) {
    std::exception_ptr interrupt = held_interrupt;
    bool failed = error_pending;
    held_interrupt = nullptr;
    error_pending = false;
    if (interrupt) std::rethrow_exception(interrupt);
    // Ctrl-C during the call, whether the engine stopped for it or finished first: the host's own
    // interrupt, which no try/catch in the user's code catches, as for the host's own functions.
    msad_raise_pending_interrupt();
    if (failed) mexErrMsgIdAndTxt(error_identifier.c_str(), "%s", error_message.c_str());
}

}  // extern "C"
