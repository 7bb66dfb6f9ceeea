// Octave only: reads a function handle and the load path, and builds the call's outputs through
// Octave's C++ classes.
// Calling "functions" from the MEX costs a symbol-table lookup and a struct built and converted on
// every msad_eval(@f, x) call, several times the rest of a small call. A separate file because
// Octave's mex.h declares mxArray as void, while here it is Octave's own class (the object the host
// passes to mexFunction).

#include <octave/oct.h>
#include <octave/ov-fcn-handle.h>
#include <octave/ov-usr-fcn.h>
#include <octave/mxarray.h>
#include <octave/quit.h>
#include <octave/interpreter.h>
#include <octave/load-path.h>
#include <octave/input.h>
#include <octave/stack-frame.h>
#include <octave/version.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <atomic>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

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

extern "C" const char *msad_nested_handle_file(const mxArray *handle) noexcept {
    static std::string file;
    try {
        octave_value value = handle->as_octave_value();
        if (!value.is_function_handle()) return nullptr;
        octave_fcn_handle *fcn = value.fcn_handle_value();
        if (fcn == nullptr || !fcn->is_nested()) return nullptr;
        octave_user_function *function = fcn->user_function_value();
        if (function == nullptr) return nullptr;
        file = function->fcn_file_name();
        return file.c_str();
    } catch (...) {
        return nullptr;
    }
}

// An anonymous function's captured values never change: a handle Octave passes again (the same
// octave_fcn_handle object, shared by every copy of the value) has the captured values msad read
// before. The object's address names it while msad holds a copy, which keeps the address from being
// reused by another handle; msad releases the copy when it forgets the handle.
namespace {
std::unordered_map<uint64_t, octave_value> &held_handles() {
    // Never destroyed: Octave may be gone when the library's static destructors run.
    static auto *held = new std::unordered_map<uint64_t, octave_value>();
    return *held;
}
}  // namespace

extern "C" uint64_t msad_hold_anonymous_handle(const mxArray *handle) noexcept {
    try {
        octave_value value = handle->as_octave_value();
        if (!value.is_function_handle()) return 0;
        const octave_fcn_handle *fcn = value.fcn_handle_value();
        if (fcn == nullptr || !fcn->is_anonymous()) return 0;
        auto identity = reinterpret_cast<uint64_t>(value.internal_rep());
        held_handles().emplace(identity, value);
        return identity;
    } catch (...) {
        return 0;
    }
}

extern "C" void msad_release_handle(uint64_t identity) noexcept {
    try {
        held_handles().erase(identity);
    } catch (...) {
    }
}

// The frame a handle to a nested function holds: its parent's workspace, where Octave keeps what the
// nested function assigns. Octave 7 offers no accessor for it: the handle's representation (a private
// member) is a nested_fcn_handle, declared in ov-fcn-handle.cc only, which keeps the frame in a
// shared_ptr right after its function value. The one public use of it, is_nested(frame), compares a
// frame with it by address without touching either's count: the candidate read at that place is
// copied only once it compared equal, so a different layout yields no frame rather than a crash.
namespace {

struct handle_rep_member {
    using type = std::shared_ptr<octave::base_fcn_handle> octave_fcn_handle::*;
};

handle_rep_member::type member_of(handle_rep_member);

// Access checks do not apply to the names in an explicit instantiation: the member's address is
// taken here, and member_of returns it.
template <typename Member, typename Member::type pointer>
struct expose_member {
    friend typename Member::type member_of(Member) { return pointer; }
};

template struct expose_member<handle_rep_member, &octave_fcn_handle::m_rep>;

std::shared_ptr<octave::stack_frame> nested_frame(const octave_fcn_handle &fcn) {
#if OCTAVE_MAJOR_VERSION == 7
    if (!fcn.is_nested() || fcn.is_weak_nested()) return nullptr;
    const octave::base_fcn_handle *rep = (fcn.*member_of(handle_rep_member{})).get();
    if (rep == nullptr) return nullptr;
    const std::size_t offset = sizeof(octave::base_fcn_handle) + sizeof(octave_value);
    static_assert(offset % alignof(std::shared_ptr<octave::stack_frame>) == 0, "the frame follows the function value");
    const auto &candidate = *reinterpret_cast<const std::shared_ptr<octave::stack_frame> *>(
        reinterpret_cast<const char *>(rep) + offset);
    if (!fcn.is_nested(candidate)) return nullptr;
    return candidate;
#else
    (void)fcn;
    return nullptr;
#endif
}

// The frames of the handles read, by address: not kept alive (the handle does that); at most
// max_frames are remembered once those whose workspace is gone were dropped.
std::unordered_map<uint64_t, std::weak_ptr<octave::stack_frame>> &seen_frames() {
    // Never destroyed: Octave may be gone when the library's static destructors run.
    static auto *frames = new std::unordered_map<uint64_t, std::weak_ptr<octave::stack_frame>>();
    return *frames;
}

constexpr std::size_t max_frames = 256;

void remember_frame(uint64_t identity, const std::shared_ptr<octave::stack_frame> &frame) {
    auto &frames = seen_frames();
    if (frames.size() >= max_frames) {
        for (auto it = frames.begin(); it != frames.end();) it = it->second.expired() ? frames.erase(it) : std::next(it);
        if (frames.size() >= max_frames) frames.clear();
    }
    frames[identity] = frame;
}

}  // namespace

extern "C" uint64_t msad_nested_handle_frame(const mxArray *handle, const char **parent) noexcept {
    static std::string parent_name;
    try {
        octave_value value = handle->as_octave_value();
        if (!value.is_function_handle()) return 0;
        octave_fcn_handle *fcn = value.fcn_handle_value();
        if (fcn == nullptr) return 0;
        octave_user_function *function = fcn->user_function_value();
        std::shared_ptr<octave::stack_frame> frame = nested_frame(*fcn);
        if (function == nullptr || frame == nullptr) return 0;
        parent_name = function->parent_fcn_name();
        auto identity = reinterpret_cast<uint64_t>(frame.get());
        remember_frame(identity, frame);
        *parent = parent_name.c_str();
        return identity;
    } catch (...) {
        return 0;
    }
}

extern "C" int msad_assign_in_frame(uint64_t identity, const char *name, const mxArray *value) noexcept {
    try {
        auto found = seen_frames().find(identity);
        if (found == seen_frames().end()) return 0;
        std::shared_ptr<octave::stack_frame> frame = found->second.lock();
        if (frame == nullptr) return 0;
        frame->assign(name, value->as_octave_value());
        return 1;
    } catch (...) {
        return 0;
    }
}

// Octave's SIGINT handler counts presses in octave_interrupt_state (> 0: one is pending), a plain
// read from any thread; octave_quit() handles pending signals and throws Octave's interrupt.
extern "C" int msad_interrupt_pending(void) noexcept { return octave_interrupt_state > 0; }

extern "C" void msad_raise_pending_interrupt(void) { octave_quit(); }

// Calling "path" from the MEX costs ~40 us, twice a small call, where reading it here costs little.
extern "C" int msad_load_path_hash(uint64_t *hash) noexcept {
    try {
        octave::interpreter *interpreter = octave::interpreter::the_interpreter();
        if (interpreter == nullptr) return 0;
        *hash = std::hash<std::string>{}(interpreter->get_load_path().path());
        return 1;
    } catch (...) {
        return 0;
    }
}

// Counts the directories Octave's load path (re)adds, calling the hook that was there before: path(p)
// and restoredefaultpath re-add every directory through it.
namespace {

std::atomic<uint64_t> directories_added{0};

struct CountingAddHook {
    std::function<void(const std::string &)> previous;
    void operator()(const std::string &dir) const {
        ++directories_added;
        if (previous) previous(dir);
    }
};

}  // namespace

// Reading the path costs ~20 us (Octave builds it as one string), most of a small call. These stamps
// move whenever a lookup may change: Octave stamps Vlast_prompt_time at each prompt and in addpath,
// rmpath, path(p) and rehash ("this will force updated functions to be found"), Vlast_chdir_time in
// cd; restoredefaultpath stamps neither but re-adds every directory (counted by CountingAddHook,
// installed again, and counted as a change, should anything have replaced it).
extern "C" int msad_path_generation(uint64_t *generation) noexcept {
    try {
        octave::interpreter *interpreter = octave::interpreter::the_interpreter();
        if (interpreter == nullptr) return 0;
        octave::load_path &load_path = interpreter->get_load_path();
        if (load_path.get_add_hook().target<CountingAddHook>() == nullptr) {
            load_path.set_add_hook(CountingAddHook{load_path.get_add_hook()});
            ++directories_added;
        }
        generation[0] = static_cast<uint64_t>(Vlast_prompt_time.unix_time());
        generation[1] = static_cast<uint64_t>(Vlast_prompt_time.usec());
        generation[2] = static_cast<uint64_t>(octave::Vlast_chdir_time.unix_time());
        generation[3] = static_cast<uint64_t>(octave::Vlast_chdir_time.usec());
        generation[4] = directories_added;
        return 1;
    } catch (...) {
        return 0;
    }
}

// Octave 7's mxGetDimensions (and mxGetNumberOfDimensions) on an array wrapping an Octave value
// (mexCallMATLAB's outputs, such as the struct "functions" describes an anonymous function with)
// caches the dims in a buffer that is never freed: ~50 bytes lost per array read, on every call. Such
// an array's dims are read from its value; 0 for any other array.
extern "C" int msad_octave_value_dims(const mxArray *array, size_t *ndims, size_t *dims) noexcept {
    try {
        if (!array->is_octave_value()) return 0;
        const dim_vector size = array->as_octave_value().dims();
        *ndims = size.ndims();
        if (dims != nullptr) {
            for (int k = 0; k < size.ndims(); ++k) dims[k] = size(k);
        }
        return 1;
    } catch (...) {
        return 0;
    }
}

// Outputs as arrays wrapping Octave values: Octave reads such an array's value as it is, where it
// copies an ordinary mxArray's data into a new value (for J, after the shim had copied it in once
// already). Octave does not free these arrays (its MEX context frees only those mxCreate* made), so
// they are kept here and freed on the next call, when Octave has read them.
namespace {

std::vector<mxArray *> returned_outputs;

mxArray *output_of(const octave_value &value) {
    returned_outputs.push_back(nullptr);  // room first: once the array exists, keeping it cannot fail
    mxArray *array = new mxArray(false, value);
    returned_outputs.back() = array;
    return array;
}

}  // namespace

extern "C" void msad_release_outputs(void) noexcept {
    for (mxArray *array : returned_outputs) delete array;
    returned_outputs.clear();
}

extern "C" mxArray *msad_new_doubles_output(size_t ndims, const size_t *dims,
                                            const double *data) noexcept {
    try {
        dim_vector size = dim_vector::alloc(ndims < 2 ? 2 : ndims);
        for (int k = 0; k < size.ndims(); ++k) size(k) = k < static_cast<int>(ndims) ? dims[k] : 1;
        NDArray array(size);
        std::copy_n(data, array.numel(), array.fortran_vec());
        return output_of(octave_value(array));
    } catch (...) {
        return nullptr;
    }
}

extern "C" mxArray *msad_new_sparse_output(size_t rows, size_t columns, size_t nnz,
                                           const size_t *column_starts, const size_t *row_indices,
                                           const double *values) noexcept {
    // Arrays handed to the matrix as they are: its own constructor would zero-fill them first.
    // Octave's matrices keep room for one entry even when empty.
    size_t room = nnz > 0 ? nnz : 1;
    std::allocator<double> value_allocator;
    std::allocator<octave_idx_type> index_allocator;
    double *value_targets = nullptr;
    octave_idx_type *row_targets = nullptr;
    octave_idx_type *start_targets = nullptr;
    try {
        value_targets = value_allocator.allocate(room);
        row_targets = index_allocator.allocate(room);
        start_targets = index_allocator.allocate(columns + 1);
    } catch (...) {
        if (value_targets != nullptr) value_allocator.deallocate(value_targets, room);
        if (row_targets != nullptr) index_allocator.deallocate(row_targets, room);
        return nullptr;
    }
    std::copy_n(column_starts, columns + 1, start_targets);
    std::copy_n(row_indices, nnz, row_targets);
    std::copy_n(values, nnz, value_targets);
    if (nnz == 0) {
        row_targets[0] = 0;
        value_targets[0] = 0;
    }
    try {
        // The matrix owns the arrays from here on.
        SparseMatrix matrix(Sparse<double>(dim_vector(rows, columns), room, value_targets,
                                           row_targets, start_targets));
        return output_of(octave_value(matrix));
    } catch (...) {
        return nullptr;
    }
}
