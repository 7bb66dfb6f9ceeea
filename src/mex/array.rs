//! Safe handles on the host's arrays: `ArrayRef` borrows an array the host owns for the current
//! call, `OwnedArray` is one we created (destroyed on drop unless handed over). Plus calls back into
//! the host and host text.

use super::ffi;
pub use super::ffi::msad_kind as Kind;
use crate::value::SparseMatrix;
use crate::value::buffers;
use crate::value::memory::OutOfMemory;
use std::ffi::{CStr, CString, c_char, c_int};
use std::marker::PhantomData;
use std::panic::panic_any;
use std::ptr::NonNull;

/// An array the host owns, valid during the current MEX call.
#[derive(Clone, Copy)]
pub struct ArrayRef<'a> {
    ptr: NonNull<ffi::mxArray>,
    lifetime: PhantomData<&'a ffi::mxArray>,
}

impl<'a> ArrayRef<'a> {
    /// # Safety
    /// `ptr` is null or a valid array that outlives `'a`.
    pub unsafe fn from_raw(ptr: *const ffi::mxArray) -> Option<ArrayRef<'a>> {
        NonNull::new(ptr.cast_mut()).map(|ptr| ArrayRef { ptr, lifetime: PhantomData })
    }

    fn raw(self) -> *const ffi::mxArray {
        self.ptr.as_ptr()
    }

    pub fn kind(self) -> Kind {
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant).
        unsafe { ffi::msad_kind_of(self.raw()) }
    }

    pub fn class_name(self) -> String {
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant); the shim returns the host's NUL-terminated class name.
        unsafe { c_text(ffi::msad_class_name(self.raw())) }
    }

    pub fn dims(self) -> Vec<usize> {
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant).
        let mut dims = vec![0; unsafe { ffi::msad_ndims(self.raw()) }];
        // SAFETY: as above; `dims` has room for the msad_ndims sizes the shim writes.
        unsafe { ffi::msad_dims(self.raw(), dims.as_mut_ptr()) };
        dims
    }

    pub fn numel(self) -> usize {
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant).
        unsafe { ffi::msad_numel(self.raw()) }
    }

    /// Elements of a real full double array, in a kept buffer (no zero fill; see `buffers`).
    pub fn doubles(self) -> Vec<f64> {
        let count = self.numel();
        let mut data = buffers::take(count);
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant); the buffer has room for `count` elements, all written
        // by the shim before set_len.
        unsafe {
            ffi::msad_read_doubles(self.raw(), data.as_mut_ptr());
            data.set_len(count);
        }
        data
    }

    /// The imaginary parts of a complex array: every element's, or a sparse array's stored entries'.
    pub fn imag_parts(self) -> Vec<f64> {
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant).
        let count = if self.kind() == Kind::MSAD_SPARSE_COMPLEX { unsafe { ffi::msad_sparse_nnz(self.raw()) } } else { self.numel() };
        let mut data = vec![0.0; count];
        // SAFETY: `self` is a valid complex array; `data` has room for the count elements the shim writes.
        unsafe { ffi::msad_read_imag(self.raw(), data.as_mut_ptr()) };
        data
    }

    pub fn logicals(self) -> Vec<bool> {
        let mut data = vec![0u8; self.numel()];
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant); `data` has room for its numel elements.
        unsafe { ffi::msad_read_logicals(self.raw(), data.as_mut_ptr()) };
        data.into_iter().map(|b| b != 0).collect()
    }

    /// Character code units as the host stores them (see `host_text`).
    pub fn char_units(self) -> Vec<u16> {
        let mut data = vec![0u16; self.numel()];
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant); `data` has room for its numel code units.
        unsafe { ffi::msad_read_chars(self.raw(), data.as_mut_ptr()) };
        data
    }

    /// A real double sparse matrix.
    pub fn sparse(self) -> SparseMatrix {
        let dims = self.dims();
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant) (a sparse one: the caller checked its kind).
        let nnz = unsafe { ffi::msad_sparse_nnz(self.raw()) };
        let mut colptr = vec![0; dims[1] + 1];
        let mut rowind = vec![0; nnz];
        let mut values = vec![0.0; nnz];
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant); the three buffers have room for columns + 1 starts and
        // nnz entries.
        unsafe { ffi::msad_read_sparse(self.raw(), colptr.as_mut_ptr(), rowind.as_mut_ptr(), values.as_mut_ptr()) };
        SparseMatrix::new(dims[0], dims[1], colptr, rowind, values)
    }

    /// The function name of a simple handle (`@name`) where the host lets us read it directly; `None`
    /// otherwise (see `msad_simple_handle_name`).
    pub fn simple_handle_name(self) -> Option<String> {
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant).
        let name = unsafe { ffi::msad_simple_handle_name(self.raw()) };
        // SAFETY: a name that is not null is NUL-terminated and valid until the next host call.
        (!name.is_null()).then(|| unsafe { c_text(name) })
    }

    /// The file defining the nested function a handle names; `None` for other values or where the
    /// host cannot tell (see `msad_nested_handle_file`).
    pub fn nested_handle_file(self) -> Option<String> {
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant).
        let file = unsafe { ffi::msad_nested_handle_file(self.raw()) };
        // SAFETY: a text that is not null is NUL-terminated and valid until the next host call.
        (!file.is_null()).then(|| unsafe { c_text(file) })
    }

    /// The workspace a handle to a nested function holds, as an identity `assign_in_frame` takes, and
    /// the parent function's name; `None` for other values or where the host cannot tell (see
    /// `msad_nested_handle_frame`).
    pub fn nested_handle_frame(self) -> Option<(u64, String)> {
        let mut parent: *const c_char = std::ptr::null();
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant); `parent` is a valid place to write to.
        let frame = unsafe { ffi::msad_nested_handle_frame(self.raw(), &mut parent) };
        // SAFETY: with a frame, the shim set `parent` to a NUL-terminated text valid until the next host call.
        (frame != 0 && !parent.is_null()).then(|| (frame, unsafe { c_text(parent) }))
    }

    /// The identity of an anonymous function handle, held by the host until `release_handle`; `None`
    /// for other values or where the host cannot tell (see `msad_hold_anonymous_handle`).
    pub fn hold_anonymous_handle(self) -> Option<u64> {
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant).
        let identity = unsafe { ffi::msad_hold_anonymous_handle(self.raw()) };
        (identity != 0).then_some(identity)
    }

    /// Element `index` of a cell array; `None` for an unset element.
    pub fn cell(self, index: usize) -> Option<ArrayRef<'a>> {
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant) (a cell: the caller checked its kind); the element
        // lives as long as the cell.
        unsafe { ArrayRef::from_raw(ffi::msad_cell(self.raw(), index)) }
    }

    pub fn field_names(self) -> Vec<String> {
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant) (a struct).
        let count = unsafe { ffi::msad_field_count(self.raw()) };
        // SAFETY: as above, for a field number below the count; the names are NUL-terminated.
        (0..count).map(|field| unsafe { c_text(ffi::msad_field_name(self.raw(), field)) }).collect()
    }

    /// Field number `field` of struct element `index`; `None` for an unset value.
    pub fn field(self, index: usize, field: usize) -> Option<ArrayRef<'a>> {
        // SAFETY: `self` is a valid array (`ArrayRef`'s invariant) (a struct); the field's value lives as long as the
        // struct.
        unsafe { ArrayRef::from_raw(ffi::msad_field(self.raw(), index, field as c_int)) }
    }
}

/// An array created here; the host takes it over through `into_raw`.
pub struct OwnedArray(NonNull<ffi::mxArray>);

impl OwnedArray {
    /// # Safety
    /// `ptr` is null or an array we own.
    unsafe fn from_raw(ptr: *mut ffi::mxArray) -> Option<OwnedArray> {
        NonNull::new(ptr).map(OwnedArray)
    }

    /// A null array from the shim's constructors: the host is out of memory (see `memory::OutOfMemory`).
    fn created(ptr: *mut ffi::mxArray) -> OwnedArray {
        // SAFETY: the shim's constructors return a new array that nothing else owns, or null.
        unsafe { OwnedArray::from_raw(ptr) }.unwrap_or_else(|| panic_any(OutOfMemory))
    }

    pub fn doubles(dims: &[usize], data: &[f64]) -> OwnedArray {
        // SAFETY: the slices outlive the call and hold the numel elements the dims describe.
        OwnedArray::created(unsafe { ffi::msad_new_doubles(dims.len(), dims.as_ptr(), data.as_ptr()) })
    }

    pub fn logicals(dims: &[usize], data: &[bool]) -> OwnedArray {
        let bytes: Vec<u8> = data.iter().map(|&b| b as u8).collect();
        // SAFETY: the slices outlive the call and hold the numel elements the dims describe.
        OwnedArray::created(unsafe { ffi::msad_new_logicals(dims.len(), dims.as_ptr(), bytes.as_ptr()) })
    }

    pub fn chars(dims: &[usize], units: &[u16]) -> OwnedArray {
        // SAFETY: the slices outlive the call and hold the numel elements the dims describe.
        OwnedArray::created(unsafe { ffi::msad_new_chars(dims.len(), dims.as_ptr(), units.as_ptr()) })
    }

    pub fn text(text: &str) -> OwnedArray {
        let units = host_units(text);
        OwnedArray::chars(&[1, units.len()], &units)
    }

    pub fn sparse(matrix: &SparseMatrix) -> OwnedArray {
        let (nrows, ncols, colptr, rowind, values) = (&matrix.nrows(), &matrix.ncols(), matrix.colptr(), matrix.rowind(), matrix.values());
        // SAFETY: a valid compressed-column matrix: ncols + 1 starts, nnz rows and values.
        OwnedArray::created(unsafe {
            ffi::msad_new_sparse(*nrows, *ncols, values.len(), colptr.as_ptr(), rowind.as_ptr(), values.as_ptr())
        })
    }

    /// A cell array holding `elements` (column-major).
    pub fn cell(dims: &[usize], elements: Vec<OwnedArray>) -> OwnedArray {
        // SAFETY: `dims` outlives the call.
        let cell = OwnedArray::created(unsafe { ffi::msad_new_cell(dims.len(), dims.as_ptr()) });
        for (index, element) in elements.into_iter().enumerate() {
            // SAFETY: `cell` is a cell we own with room for every element; the cell takes the element over.
            unsafe { ffi::msad_set_cell(cell.0.as_ptr(), index, element.into_raw()) };
        }
        cell
    }

    /// A struct array; `elements[k][f]` is field `f` of element `k`.
    pub fn structure(dims: &[usize], fields: &[String], elements: Vec<Vec<OwnedArray>>) -> OwnedArray {
        let names: Vec<CString> = fields.iter().map(|name| c_string(name)).collect();
        let name_ptrs: Vec<*const c_char> = names.iter().map(|name| name.as_ptr()).collect();
        // SAFETY: the name pointers point into `names`, alive for the call; the host copies the names.
        let array = OwnedArray::created(unsafe {
            ffi::msad_new_struct(dims.len(), dims.as_ptr(), name_ptrs.len() as c_int, name_ptrs.as_ptr().cast_mut())
        });
        for (index, values) in elements.into_iter().enumerate() {
            for (field, value) in values.into_iter().enumerate() {
                // SAFETY: `array` is a struct we own with these fields and elements; it takes the value over.
                unsafe { ffi::msad_set_field(array.0.as_ptr(), index, field as c_int, value.into_raw()) };
            }
        }
        array
    }

    pub fn as_ref(&self) -> ArrayRef<'_> {
        ArrayRef { ptr: self.0, lifetime: PhantomData }
    }

    /// Hands the array over to the host (an output, or an element of a container).
    pub fn into_raw(self) -> *mut ffi::mxArray {
        let ptr = self.0.as_ptr();
        std::mem::forget(self);
        ptr
    }
}

impl Drop for OwnedArray {
    fn drop(&mut self) {
        // SAFETY: we own the array and nothing else refers to it.
        unsafe { ffi::msad_destroy(self.0.as_ptr()) }
    }
}

/// One of the call's outputs (`plhs`), built where the host takes it over without copying it again
/// (see `msad_new_doubles_output`). Nothing frees it here: one not handed over is freed by the host
/// or on the next call.
pub struct CallOutput(NonNull<ffi::mxArray>);

impl CallOutput {
    fn created(ptr: *mut ffi::mxArray) -> CallOutput {
        CallOutput(NonNull::new(ptr).unwrap_or_else(|| panic_any(OutOfMemory)))
    }

    pub fn doubles(dims: &[usize], data: &[f64]) -> CallOutput {
        // SAFETY: the slices outlive the call and hold the numel elements the dims describe.
        CallOutput::created(unsafe { ffi::msad_new_doubles_output(dims.len(), dims.as_ptr(), data.as_ptr()) })
    }

    pub fn sparse(matrix: &SparseMatrix) -> CallOutput {
        let (nrows, ncols, colptr, rowind, values) = (&matrix.nrows(), &matrix.ncols(), matrix.colptr(), matrix.rowind(), matrix.values());
        // SAFETY: a valid compressed-column matrix: ncols + 1 starts, nnz rows and values.
        CallOutput::created(unsafe {
            ffi::msad_new_sparse_output(*nrows, *ncols, values.len(), colptr.as_ptr(), rowind.as_ptr(), values.as_ptr())
        })
    }

    /// Any other array: an ordinary one, which the host frees after the call if it is not returned.
    pub fn of(array: OwnedArray) -> CallOutput {
        CallOutput(NonNull::new(array.into_raw()).expect("owned arrays are not null"))
    }

    pub fn into_raw(self) -> *mut ffi::mxArray {
        self.0.as_ptr()
    }
}

/// Frees the outputs of earlier calls, which the host has read by now.
pub fn release_outputs() {
    // SAFETY: no Rust value refers to the outputs of earlier calls.
    unsafe { ffi::msad_release_outputs() }
}

/// Calls the host function `function` with `inputs`; `None` if it raised an error (trapped: the
/// host does not unwind through us).
pub fn call(function: &str, inputs: &[ArrayRef], output_count: usize) -> Option<Vec<OwnedArray>> {
    let name = c_string(function);
    // The host takes non-const pointers but does not modify its inputs.
    let mut input_ptrs: Vec<*mut ffi::mxArray> = inputs.iter().map(|input| input.raw().cast_mut()).collect();
    let mut output_ptrs = vec![std::ptr::null_mut(); output_count];
    // SAFETY: the name is NUL-terminated; the pointer arrays have the lengths passed and outlive the call.
    let status = unsafe {
        ffi::msad_call(name.as_ptr(), output_count as c_int, output_ptrs.as_mut_ptr(), input_ptrs.len() as c_int, input_ptrs.as_mut_ptr())
    };
    let outputs: Vec<OwnedArray> =
        // SAFETY: the outputs of a call are new arrays we own (or null).
        output_ptrs.into_iter().filter_map(|ptr| unsafe { OwnedArray::from_raw(ptr) }).collect();
    (status == 0 && outputs.len() == output_count).then_some(outputs)
}

/// Lets the host free a handle held by `ArrayRef::hold_anonymous_handle`.
pub fn release_handle(identity: u64) {
    // SAFETY: no precondition: an identity the shim does not hold is ignored.
    unsafe { ffi::msad_release_handle(identity) }
}

/// The host's global variable `name`, when it exists.
pub fn global(name: &str) -> Option<OwnedArray> {
    let name = c_string(name);
    // SAFETY: the name is NUL-terminated; the result is a new array we own (or null).
    unsafe { OwnedArray::from_raw(ffi::msad_get_global(name.as_ptr())) }
}

/// Sets the host's global variable `name` to (a copy of) `value`; false when the host refused.
pub fn set_global(name: &str, value: ArrayRef) -> bool {
    let name = c_string(name);
    // SAFETY: the name is NUL-terminated; the host copies the array, which outlives the call.
    unsafe { ffi::msad_put_global(name.as_ptr(), value.raw()) == 0 }
}

/// Sets variable `name` of the nested-function workspace `frame` (see `ArrayRef::nested_handle_frame`)
/// to (a copy of) `value`; false when the workspace is gone or the host refused.
pub fn assign_in_frame(frame: u64, name: &str, value: ArrayRef) -> bool {
    let name = c_string(name);
    // SAFETY: the name is NUL-terminated; the shim looks the frame up (an unknown one is refused) and
    // copies the array, which outlives the call.
    unsafe { ffi::msad_assign_in_frame(frame, name.as_ptr(), value.raw()) != 0 }
}

/// Whether the user has pressed Ctrl-C: the engine's interrupt poll (any thread).
pub fn interrupt_pending() -> bool {
    // SAFETY: reads a flag of the host's signal handler; no precondition.
    unsafe { ffi::msad_interrupt_pending() != 0 }
}

/// A hash of the host's search path, read without calling into its interpreter where it allows.
pub fn load_path_hash() -> Option<u64> {
    let mut hash = 0;
    // SAFETY: the shim writes one u64 through a pointer valid for the call.
    (unsafe { ffi::msad_load_path_hash(&mut hash) } != 0).then_some(hash)
}

/// Numbers that change whenever the host's function lookup may have changed (its search path, current
/// folder, a rehash), read without calling into its interpreter; `None` where the host has none.
pub fn path_generation() -> Option<[u64; 5]> {
    let mut generation = [0; 5];
    // SAFETY: the shim writes 5 u64s through a pointer to as many, valid for the call.
    (unsafe { ffi::msad_path_generation(generation.as_mut_ptr()) } != 0).then_some(generation)
}

/// Prints `text` in the host's command window.
pub fn print(text: &str) {
    let text = c_string(text);
    // SAFETY: `text` is NUL-terminated.
    unsafe { ffi::msad_print(text.as_ptr()) }
}

/// Records the error to raise once the MEX call ends.
pub fn fail(identifier: &str, message: &str) {
    let (identifier, message) = (c_string(identifier), c_string(message));
    // SAFETY: both strings are NUL-terminated; the shim copies them.
    unsafe { ffi::msad_fail(identifier.as_ptr(), message.as_ptr()) }
}

/// Registers the function the host calls before it unloads the MEX file (`clear msad_eval`).
pub fn at_exit(release: unsafe extern "C" fn()) {
    // SAFETY: `release` is a function the host may call at any time (it catches its own panics).
    unsafe { ffi::msad_at_exit(Some(release)) }
}

/// Ends the MEX call: raises a recorded error or held interrupt, else returns.
///
/// # Safety
/// Raising unwinds (a C++ exception) through the caller's frames: no value with a destructor may
/// be live in any Rust frame up to the host.
pub unsafe fn end_call() {
    // SAFETY: the caller guarantees no live destructors up to the host (this function's contract).
    unsafe { ffi::msad_end_call() }
}

fn chars_are_utf8() -> bool {
    // SAFETY: no precondition.
    unsafe { ffi::msad_chars_are_utf8() != 0 }
}

/// Text of host character code units: UTF-8 bytes in Octave, UTF-16 in MATLAB.
pub fn host_text(units: &[u16]) -> String {
    if chars_are_utf8() {
        let bytes: Vec<u8> = units.iter().map(|&unit| unit as u8).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    } else {
        String::from_utf16_lossy(units)
    }
}

/// Host character code units of `text`.
pub fn host_units(text: &str) -> Vec<u16> {
    if chars_are_utf8() { text.bytes().map(u16::from).collect() } else { text.encode_utf16().collect() }
}

/// Host strings never contain NUL; any that slips in is dropped rather than truncating the text.
fn c_string(text: &str) -> CString {
    CString::new(text.replace('\0', "")).expect("NUL bytes were removed")
}

/// # Safety
/// `text` is null or a NUL-terminated string.
unsafe fn c_text(text: *const c_char) -> String {
    // SAFETY: the caller passes a NUL-terminated string (this function's contract).
    if text.is_null() { String::new() } else { unsafe { CStr::from_ptr(text) }.to_string_lossy().into_owned() }
}
