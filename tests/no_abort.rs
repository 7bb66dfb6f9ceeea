//! Every kernel given sizes beyond any memory (`zeros(1e7, 1e7)`, `repmat(x, 1e12, 1)`, `blanks(1e12)`,
//! ...) returns an error or stops with the `OutOfMemory` payload the gateway turns into
//! `Octave:out-of-memory`: a failed allocation in Rust aborts the process, and Octave with it.
//!
//! An abort cannot be caught in-process, so the probe runs the kernels in a child copy of this test
//! binary, one case after another; when the child dies, the case it was running is the culprit and a
//! new child goes on from the next case.

use msad::primitives;
use msad::value::memory::OutOfMemory;
use msad::value::{Array, SparseMatrix, Value};
use std::io::{BufRead, BufReader, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Set in the child: the index of the first case it runs.
const CHILD_START: &str = "MSAD_NO_ABORT_START";
/// Kernels whose work grows as the product of their operands' sizes, as Octave's do: they take as long
/// as Octave would on the outer combinations and ask about Ctrl-C between chunks (tests/interrupt.rs),
/// so the probe leaves them out.
const LONG_BY_DESIGN: [&str; 1] = ["polyval"];

/// A case that runs longer than this is a hang (a size loop without an allocation to refuse it).
const CASE_LIMIT: Duration = Duration::from_secs(30);

fn scalar(x: f64) -> Value {
    Value::Double(Array::scalar(x))
}

fn row(data: &[f64]) -> Value {
    Value::Double(Array::row(data.to_vec()))
}

/// Argument lists that ask for more memory than a machine has, in the places sizes go.
fn argument_lists() -> Vec<Vec<Value>> {
    let huge = 1e12;
    let side = 1e7;
    let small = Value::Double(Array::new(vec![2, 2], vec![1.0, 2.0, 3.0, 4.0]));
    // Operands whose outer combination (product, expansion, Kronecker, grid, diagonal) is beyond memory.
    let long = 1_000_000;
    let long_column = Value::Double(Array::column(vec![1.0; long]));
    let long_row = Value::Double(Array::row(vec![1.0; long]));
    let empty_sparse = Value::Sparse(SparseMatrix::empty(long, long));
    vec![
        vec![long_column.clone()],
        vec![long_column.clone(), long_row.clone()],
        vec![long_row, long_column],
        vec![empty_sparse],
        vec![Value::Double(Array::column(vec![huge, 1.0])), Value::Double(Array::column(vec![1.0, 2.0]))],
        vec![scalar(huge)],
        vec![scalar(side), scalar(side)],
        vec![row(&[side, side])],
        vec![scalar(side), scalar(side), scalar(side)],
        vec![small.clone(), scalar(huge)],
        vec![small.clone(), scalar(side), scalar(side)],
        vec![small.clone(), row(&[side, side])],
        vec![scalar(huge), small.clone()],
        vec![scalar(0.0), scalar(1.0), scalar(huge)],
        vec![Value::string("ab"), scalar(side), scalar(side)],
        vec![row(&[huge, 1.0]), row(&[1.0, 2.0])],
        vec![row(&[huge, 1.0]), row(&[1.0, 1.0]), row(&[1.0, 2.0])],
        vec![row(&[1.0, 1.0]), row(&[1.0, 1.0]), row(&[1.0, 2.0]), scalar(side), scalar(side)],
    ]
}

/// Every (primitive, argument list) pair, in a fixed order both processes agree on.
fn cases() -> Vec<(&'static str, &'static [Value])> {
    static LISTS: std::sync::OnceLock<Vec<Vec<Value>>> = std::sync::OnceLock::new();
    let lists = LISTS.get_or_init(argument_lists);
    primitives::names()
        .filter(|name| primitives::builtin(name).is_some() && !LONG_BY_DESIGN.contains(name))
        .flat_map(|name| lists.iter().map(move |args| (name, args.as_slice())))
        .collect()
}

/// Runs one case; a panic other than `OutOfMemory` is reported (the gateway would show it as an
/// internal error).
fn run_case(name: &str, args: &[Value]) -> Option<String> {
    let id = primitives::lookup(name).expect("listed");
    let refs: Vec<&Value> = args.iter().collect();
    match panic::catch_unwind(AssertUnwindSafe(|| primitives::eval(id, &refs, 1))) {
        Ok(_) => None,
        Err(payload) if payload.is::<OutOfMemory>() => None,
        Err(payload) => Some(
            payload.downcast_ref::<String>().cloned().or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default(),
        ),
    }
}

#[test]
fn child_runs_cases() {
    let Ok(start) = std::env::var(CHILD_START) else { return };
    let start: usize = start.parse().expect("a case index");
    panic::set_hook(Box::new(|_| {}));
    let mut out = std::io::stdout();
    for (index, (name, args)) in cases().into_iter().enumerate().skip(start) {
        writeln!(out, "case {index}").and_then(|()| out.flush()).expect("stdout");
        if let Some(message) = run_case(name, args) {
            writeln!(out, "panic {index} {message}").and_then(|()| out.flush()).expect("stdout");
        }
    }
    writeln!(out, "done").and_then(|()| out.flush()).expect("stdout");
}

/// What one child reported before it ended: the last case it started, panics, and whether it finished.
struct ChildRun {
    last_case: Option<usize>,
    panics: Vec<String>,
    finished: bool,
}

fn run_child(start: usize) -> ChildRun {
    let mut child = Command::new(std::env::current_exe().expect("test binary"))
        .args(["child_runs_cases", "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_START, start.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the probe");
    let lines = BufReader::new(child.stdout.take().expect("piped"));
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || lines.lines().map_while(|line| line.ok()).for_each(|line| drop(sender.send(line))));
    let mut run = ChildRun { last_case: None, panics: Vec::new(), finished: false };
    let mut case_started = Instant::now();
    loop {
        match receiver.recv_timeout(Duration::from_millis(100)) {
            Ok(line) if line == "done" => run.finished = true,
            Ok(line) if line.starts_with("case ") => {
                run.last_case = line[5..].parse().ok();
                case_started = Instant::now();
            }
            Ok(line) if line.starts_with("panic ") => run.panics.push(line),
            Ok(_) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) if case_started.elapsed() > CASE_LIMIT => {
                let _ = child.kill();
                break;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let _ = child.wait();
    run
}

#[test]
fn no_kernel_aborts_or_panics_on_sizes_beyond_memory() {
    if std::env::var(CHILD_START).is_ok() {
        return;
    }
    let cases = cases();
    let describe = |index: usize| {
        let (name, args) = &cases[index];
        let shapes: Vec<String> = args
            .iter()
            .map(|a| match a {
                Value::Double(d) if d.numel() <= 4 => format!("{:?}", d.data),
                _ => format!("{} {:?}", a.class_name(), a.dims()),
            })
            .collect();
        format!("{name}({})", shapes.join(", "))
    };
    let mut failures = Vec::new();
    let mut start = 0;
    while start < cases.len() {
        let run = run_child(start);
        failures.extend(run.panics.iter().map(|line| {
            let index: usize = line.split(' ').nth(1).and_then(|i| i.parse().ok()).unwrap_or(0);
            format!("panic in {}: {}", describe(index), line.splitn(3, ' ').nth(2).unwrap_or(""))
        }));
        if run.finished {
            break;
        }
        let last = run.last_case.unwrap_or(start);
        failures.push(format!("abort or hang in {}", describe(last)));
        start = last + 1;
    }
    assert!(failures.is_empty(), "{} kernels fail on huge sizes:\n{}", failures.len(), failures.join("\n"));
}
