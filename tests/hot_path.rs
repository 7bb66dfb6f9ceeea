//! A repeated call of a prepared function allocates only at its boundary (the arguments' copies, the
//! results, the log line): the count does not grow with the number of statements or loop iterations,
//! because the plan keeps its register frames and scalar operations rewrite them in place.

mod common;

use common::*;
use msad::engine::{Engine, Evaluation, Options, PathHost, Request};
use msad::exec::value::Value;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::PathBuf;

/// Counts allocations per thread (the test harness runs tests on several threads; small problems run
/// on the calling thread).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// What one call of `[f, J] = msad_eval(...)` may allocate, whatever the function: buffers for the
/// arguments' copies, f, J and the log (12 when this was written).
const BOUNDARY_ALLOCATIONS: usize = 16;
/// Plus, once per call, a loop's range `1:iterations` and its count, built on the general path (27).
const LOOP_SETUP_ALLOCATIONS: usize = 32;

/// A scratch directory holding one generated `.m` file, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn with_file(name: &str, text: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("msad-hot-path-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.m")), text).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Prepares `name` and runs it until its frames are filled, then returns the allocations of one more
/// call and its result, checked against the first call's.
fn allocations_of_a_repeated_call(name: &str, text: &str, args: Vec<Value>) -> usize {
    let dir = Scratch::with_file(name, text);
    let mut host = PathHost { dirs: vec![dir.0.clone()] };
    let request = Request { function: named(name), args, options: Options::default(), nargout: 2 };
    let mut engine = Engine::new();
    let mut call = || engine.evaluate(&mut host, &request).unwrap_or_else(|d| panic!("{d}"));
    let first = call();
    call();
    let before = ALLOCATIONS.with(Cell::get);
    let repeated = call();
    let allocations = ALLOCATIONS.with(Cell::get) - before;
    assert_same_result(&first, &repeated);
    allocations
}

/// The repeated call, reusing the frames, gives the first (freshly allocated) call's f and J.
fn assert_same_result(first: &Evaluation, repeated: &Evaluation) {
    assert_eq!(values(&first.value), values(&repeated.value));
    let jacobian = |e: &Evaluation| values(e.jacobian.as_ref().expect("J was asked for"));
    assert!(relative_error(&jacobian(first), &jacobian(repeated)) < 1e-14);
}

/// Three scalar unknowns updated by `statements` lines of nonlinear scalar code.
fn scalar_chain(statements: usize) -> String {
    let mut text = String::from("function f = chain(x)\n  a = x(1); b = x(2); c = x(3);\n");
    for k in 1..=statements {
        text += &match k % 3 {
            0 => format!("  a = a + sin(b * c) / {k};\n"),
            1 => format!("  b = b - a^2 / {};\n", k + 10),
            _ => format!("  c = c * 0.99 + exp(-a * b) / {k};\n"),
        };
    }
    text + "  f = [a; b; c];\nend\n"
}

const SCALAR_LOOP: &str = "function f = loop(x, iterations)
  a = x(1); b = x(2); c = x(3);
  for k = 1:iterations
    a = a + 0.01 * sin(b * c);
    b = b - 0.01 * a^2;
    if b < 0
      b = -b;
    end
    c = c * 0.99 + 0.01 * cos(a);
  end
  f = [a; b; c];
end
";

#[test]
fn straight_line_scalar_code_allocates_the_same_for_ten_or_three_hundred_statements() {
    let x = || vec![column(vec![0.3, 0.7, 1.1])];
    let short = allocations_of_a_repeated_call("chain", &scalar_chain(10), x());
    let long = allocations_of_a_repeated_call("chain", &scalar_chain(300), x());
    assert_eq!(short, long, "allocations grow with the statements");
    assert!(long <= BOUNDARY_ALLOCATIONS, "{long} allocations in a repeated call");
}

#[test]
fn a_scalar_loop_allocates_the_same_for_ten_or_a_thousand_iterations() {
    let args = |iterations: f64| vec![column(vec![0.3, 0.7, 1.1]), Value::scalar(iterations)];
    let short = allocations_of_a_repeated_call("loop", SCALAR_LOOP, args(10.0));
    let long = allocations_of_a_repeated_call("loop", SCALAR_LOOP, args(1000.0));
    assert_eq!(short, long, "allocations grow with the iterations");
    assert!(long <= BOUNDARY_ALLOCATIONS + LOOP_SETUP_ALLOCATIONS, "{long} allocations in a repeated call");
}
