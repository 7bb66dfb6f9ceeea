/*
 * The boundary between msad's Rust code and the host's MEX API (Octave or MATLAB).
 *
 * mex.h renames many mx* functions with macros (per API version, interleaved or separate complex
 * storage) and its element types differ between hosts (mxChar is 8-bit UTF-8 in Octave, UTF-16 in
 * MATLAB; mwSize is signed in Octave). These wrappers have stable names and plain C types, so the
 * Rust side (bindings generated from this file) is the same for every host.
 *
 * Every function but msad_end_call and msad_raise_pending_interrupt is noexcept: no C++ exception
 * from the host crosses into Rust.
 */
#ifndef MSAD_MEX_H
#define MSAD_MEX_H

#include "mex.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define MSAD_NOEXCEPT noexcept
extern "C" {
#else
#define MSAD_NOEXCEPT
#endif

typedef enum msad_kind {
    MSAD_DOUBLE,
    MSAD_SPARSE,
    MSAD_LOGICAL,
    MSAD_CHAR,
    MSAD_CELL,
    MSAD_STRUCT,
    MSAD_FUNCTION_HANDLE,
    MSAD_COMPLEX,
    MSAD_SPARSE_LOGICAL,
    MSAD_SPARSE_COMPLEX,
    /* integer, single, objects: reported with msad_class_name */
    MSAD_OTHER
} msad_kind;

msad_kind msad_kind_of(const mxArray *array) MSAD_NOEXCEPT;
const char *msad_class_name(const mxArray *array) MSAD_NOEXCEPT;
size_t msad_ndims(const mxArray *array) MSAD_NOEXCEPT;
/* Writes msad_ndims(array) sizes. */
void msad_dims(const mxArray *array, size_t *dims) MSAD_NOEXCEPT;
size_t msad_numel(const mxArray *array) MSAD_NOEXCEPT;

/* Element readers copy numel elements (nnz for sparse parts). */
void msad_read_doubles(const mxArray *array, double *out) MSAD_NOEXCEPT;
void msad_read_logicals(const mxArray *array, uint8_t *out) MSAD_NOEXCEPT;
/* Character code units: UTF-8 bytes when msad_chars_are_utf8(), UTF-16 otherwise. */
void msad_read_chars(const mxArray *array, uint16_t *out) MSAD_NOEXCEPT;
int msad_chars_are_utf8(void) MSAD_NOEXCEPT;
/* The imaginary parts of a complex double array: numel elements, or a sparse array's nnz stored
   entries (msad_read_doubles and msad_read_sparse read the real parts). */
void msad_read_imag(const mxArray *array, double *out) MSAD_NOEXCEPT;
size_t msad_sparse_nnz(const mxArray *array) MSAD_NOEXCEPT;
void msad_read_sparse(const mxArray *array, size_t *column_starts, size_t *row_indices,
                      double *values) MSAD_NOEXCEPT;

/* Elements of cells and structs; NULL stands for an unset element ([]). */
const mxArray *msad_cell(const mxArray *array, size_t index) MSAD_NOEXCEPT;
int msad_field_count(const mxArray *array) MSAD_NOEXCEPT;
const char *msad_field_name(const mxArray *array, int field) MSAD_NOEXCEPT;
const mxArray *msad_field(const mxArray *array, size_t index, int field) MSAD_NOEXCEPT;

/* Constructors copy their data; NULL when the host is out of memory. Setters take ownership of
   value. */
mxArray *msad_new_doubles(size_t ndims, const size_t *dims, const double *data) MSAD_NOEXCEPT;
mxArray *msad_new_logicals(size_t ndims, const size_t *dims, const uint8_t *data) MSAD_NOEXCEPT;
mxArray *msad_new_chars(size_t ndims, const size_t *dims, const uint16_t *data) MSAD_NOEXCEPT;
mxArray *msad_new_sparse(size_t rows, size_t columns, size_t nnz, const size_t *column_starts,
                         const size_t *row_indices, const double *values) MSAD_NOEXCEPT;
/* The call's outputs (plhs), built where the host can take them over without another copy (Octave:
   an array wrapping the host's own value). Only for plhs: not destroyed and not set into containers;
   one not returned is freed on the next call or by msad_release_outputs. */
mxArray *msad_new_doubles_output(size_t ndims, const size_t *dims, const double *data) MSAD_NOEXCEPT;
mxArray *msad_new_sparse_output(size_t rows, size_t columns, size_t nnz, const size_t *column_starts,
                                const size_t *row_indices, const double *values) MSAD_NOEXCEPT;
/* Frees the outputs handed to the host by earlier calls (it has read them by now). */
void msad_release_outputs(void) MSAD_NOEXCEPT;
mxArray *msad_new_cell(size_t ndims, const size_t *dims) MSAD_NOEXCEPT;
void msad_set_cell(mxArray *cell, size_t index, mxArray *value) MSAD_NOEXCEPT;
mxArray *msad_new_struct(size_t ndims, const size_t *dims, int field_count,
                         const char **field_names) MSAD_NOEXCEPT;
void msad_set_field(mxArray *array, size_t index, int field, mxArray *value) MSAD_NOEXCEPT;
void msad_destroy(mxArray *array) MSAD_NOEXCEPT;

/* Calls an Octave/MATLAB function; 0 on success. Errors are trapped, never raised. An interrupt
   (Ctrl-C) is held back and re-raised by msad_end_call; later calls fail at once. */
int msad_call(const char *function, int output_count, mxArray **outputs, int input_count,
              mxArray **inputs) MSAD_NOEXCEPT;

/* A copy of the host's global variable `name` (the caller destroys it); NULL when it does not exist. */
mxArray *msad_get_global(const char *name) MSAD_NOEXCEPT;
/* Sets the host's global variable `name` to a copy of `value`; 0 on success. */
int msad_put_global(const char *name, const mxArray *value) MSAD_NOEXCEPT;

/* The function name of a simple handle (@name), read without calling into the interpreter; NULL for
   any other handle, or where the host offers no such access (then call "functions"). The text stays
   valid until the next call. */
const char *msad_simple_handle_name(const mxArray *handle) MSAD_NOEXCEPT;

/* An anonymous function handle's identity (0 for other values, or where the host offers none): the
   same for every copy of the handle, different for any other, while held; the shim holds a copy of the
   handle until msad_release_handle. */
uint64_t msad_hold_anonymous_handle(const mxArray *handle) MSAD_NOEXCEPT;
void msad_release_handle(uint64_t identity) MSAD_NOEXCEPT;

/* The file defining a handle's nested function (Octave's "functions" leaves it empty); NULL for any
   other handle, or where the host offers no such access. The text stays valid until the next call. */
const char *msad_nested_handle_file(const mxArray *handle) MSAD_NOEXCEPT;

/* The workspace a handle to a nested function holds (its parent's frame): an identity (0 for other
   values, or where the host offers no access to it) that msad_assign_in_frame takes while the frame
   exists, and the parent function's name in *parent (valid until the next call). */
uint64_t msad_nested_handle_frame(const mxArray *handle, const char **parent) MSAD_NOEXCEPT;
/* Sets variable `name` of that workspace to a copy of `value`, as an assignment in the parent would;
   0 when the frame is gone or the host refused. */
int msad_assign_in_frame(uint64_t frame, const char *name, const mxArray *value) MSAD_NOEXCEPT;

/* Whether the user has pressed Ctrl-C since the host last handled it; any thread may ask. Always 0
   where the host offers no such check. */
int msad_interrupt_pending(void) MSAD_NOEXCEPT;
/* Raises the host's pending interrupt as the host itself would (C++ exception); returns when none is
   pending. For msad_end_call only. */
void msad_raise_pending_interrupt(void);

/* Writes a hash of the host's search path (its `path`) read without calling into the interpreter and
   returns 1; 0 where the host offers no such access (then call "path"). */
int msad_load_path_hash(uint64_t *hash) MSAD_NOEXCEPT;
/* Writes 5 numbers that change whenever the host's function lookup may
   have changed (search path, current folder, rehash) and returns 1; 0 where the host offers no such
   signal (then read the path on every call). */
int msad_path_generation(uint64_t *generation) MSAD_NOEXCEPT;

void msad_print(const char *text) MSAD_NOEXCEPT;
/* The name the host called this MEX file by (msad_eval, msad_apply: copies of one library). */
const char *msad_function_name(void) MSAD_NOEXCEPT;
void msad_at_exit(void (*release)(void)) MSAD_NOEXCEPT;

/* Records the error msad_end_call will raise (copies both strings). */
void msad_fail(const char *identifier, const char *message) MSAD_NOEXCEPT;
/* Ends a mexFunction call: re-raises a held or pending interrupt, else raises the recorded error,
   else returns.
   Raising unwinds (C++ exception) or jumps: call it with no live Rust destructors. */
void msad_end_call(void);

#ifdef __cplusplus
}
#endif

#endif
