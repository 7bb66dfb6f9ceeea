//! What reaches the boundary with the host must not take Octave down: user recursion stops at Octave's
//! limit with Octave's identifier, sizes beyond memory are Octave's out-of-memory error (interrupts:
//! tests/interrupt.rs, alone in its process as the interrupt state is the process's).

mod common;

use common::*;
use msad::engine::Engine;
use msad::value::memory::OutOfMemory;
use std::panic::{self, AssertUnwindSafe};

/// The engine runs on the stack the MEX gives it (`mex::stack`, 1 GiB); 256 levels of user recursion
/// need more than a test thread's default 2 MiB.
#[test]
fn recursion_beyond_octaves_limit_has_octaves_identifier() {
    let run = || evaluate(&mut Engine::new(), &named("endless"), vec![column(vec![1.0])], 2).map(|_| ());
    let outcome = std::thread::Builder::new().stack_size(256 << 20).spawn(run).expect("a thread").join();
    let error = outcome.expect("no panic").expect_err("an error");
    assert_eq!(error.identifier(), "Octave:recursion-depth");
    assert!(error.message.contains("max_recursion_depth exceeded"), "{}", error.message);
}

#[test]
fn arrays_larger_than_memory_are_octaves_out_of_memory_error() {
    let mut engine = Engine::new();
    for text in ["@(x) x + numel(ones(1e13, 1))", "@(x) x + numel(zeros(1e10, 1e10))", "@(x) x + sum(sum(eye(1e7)))"] {
        let error = evaluate(&mut engine, &anonymous(text, Vec::new()), vec![column(vec![1.0, 2.0])], 2).expect_err(text);
        assert_eq!(error.identifier(), "Octave:out-of-memory", "{text}: {}", error.message);
        assert_eq!(error.message, "out of memory or dimension too large for Octave's index type");
    }
}

#[test]
fn dense_jacobians_larger_than_memory_stop_the_run_as_out_of_memory() {
    // For x of 1e6 elements: x * x' is 8 TB, the sparsity pattern of x * sum(x) (found on the first
    // call) 1e12 entries. Where no error can be returned, the OutOfMemory panic stops the run; the MEX
    // gateway turns it into Octave's error.
    for text in ["@(x) x * x'", "@(x) x * sum(x)"] {
        let x = column(vec![1.0; 1_000_000]);
        let outcome =
            panic::catch_unwind(AssertUnwindSafe(|| evaluate(&mut Engine::new(), &anonymous(text, Vec::new()), vec![x], 2).map(|_| ())));
        match outcome {
            Ok(result) => assert_eq!(result.expect_err(text).identifier(), "Octave:out-of-memory", "{text}"),
            Err(payload) => assert!(payload.is::<OutOfMemory>(), "{text}: a panic other than OutOfMemory"),
        }
    }
}

/// A host that keeps the writes into nested functions' workspaces.
struct WorkspaceHost {
    path: msad::engine::PathHost,
    writes: Vec<(u64, String, Vec<f64>)>,
}

impl msad::engine::Host for WorkspaceHost {
    fn which(&mut self, name: &str) -> Option<std::path::PathBuf> {
        self.path.which(name)
    }

    fn set_workspace_variable(&mut self, frame: u64, name: &str, value: &msad::value::Value) -> msad::diag::Result<()> {
        self.writes.push((frame, name.to_string(), values(value)));
        Ok(())
    }
}

/// `step` of tests/octave/fixtures/make_nested_step.m (`n = n + 1; y = n * x`) through a handle whose
/// workspace holds `n`.
fn step_handle(n: f64, frame: Option<msad::value::HostFrame>) -> msad::value::FunctionHandle {
    msad::value::FunctionHandle::Nested {
        name: "step".into(),
        file: repo_path("tests/octave/fixtures/make_nested_step.m"),
        captured: std::sync::Arc::from(vec![("n".to_string(), column(vec![n]))]),
        unmodelled: vec![],
        frame,
    }
}

#[test]
fn a_parent_variable_a_nested_function_assigns_is_written_back_once_per_call() {
    let frame = msad::value::HostFrame { parent: "make_nested_step".into(), id: 7 };
    let mut host = WorkspaceHost { path: host(), writes: vec![] };
    let mut engine = Engine::new();
    let x = column(vec![1.0, -2.0]);
    // The first Jacobian call also detects the sparsity pattern (more runs of the code), the second
    // reuses it; a value-only call runs it once.
    for (n, nargout) in [(0.0, 2), (1.0, 2), (2.0, 1)] {
        let request = msad::engine::Request {
            function: step_handle(n, Some(frame.clone())),
            args: vec![x.clone()],
            options: msad::engine::Options::default(),
            nargout,
        };
        let evaluation = engine.evaluate(&mut host, &request).expect("evaluation");
        assert_eq!(values(&evaluation.value), [n + 1.0, -2.0 * (n + 1.0)]);
        if let Some(jacobian) = evaluation.jacobian {
            assert_eq!(values(&jacobian), [n + 1.0, 0.0, 0.0, n + 1.0]);
        }
        assert_eq!(host.writes, [(7, "n".to_string(), vec![n + 1.0])], "one write per call");
        host.writes.clear();
    }
    // Without a workspace msad can write, the write is refused rather than lost.
    let request =
        msad::engine::Request { function: step_handle(0.0, None), args: vec![x], options: msad::engine::Options::default(), nargout: 1 };
    let error = engine.evaluate(&mut host, &request).expect_err("no workspace to write");
    assert_eq!(error.identifier(), "msad:unsupported", "{}", error.message);
    assert!(host.writes.is_empty());
}
