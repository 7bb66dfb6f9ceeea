//! Inlining of small user functions: the calls disappear from the prepared code, and values,
//! derivatives and the error stack (callee in its own file, then the caller at the call) stay those
//! of the calls.

mod common;

use common::*;
use msad::analysis::inline_calls;
use msad::engine::{Engine, Options, Request};
use msad::ir::program::Loader;
use msad::ir::{FuncId, Op};

const X: [f64; 4] = [0.3, -1.2, 2.5, 0.7];

fn run(x: &[f64], unoptimized: bool) -> msad::diag::Result<msad::engine::Evaluation> {
    let options = Options { unoptimized, ..Options::default() };
    let request = Request { function: named("inline_calls"), args: vec![column(x.to_vec())], options, nargout: 2 };
    Engine::new().evaluate(&mut host(), &request)
}

#[test]
fn calls_of_a_subfunction_and_of_another_file_are_inlined() {
    let mut host = host();
    let mut program = Loader::new(&mut host).load_named("inline_calls").unwrap();
    let calls = |program: &msad::ir::Program| {
        program.functions[FuncId::ENTRY].blocks.iter().flat_map(|b| &b.insts).filter(|i| matches!(i.op, Op::Call(_))).count()
    };
    assert_eq!(calls(&program), 2);
    inline_calls(&mut program);
    assert_eq!(calls(&program), 0);
    let files: Vec<String> = program.functions[FuncId::ENTRY]
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter_map(|i| i.inlined.as_ref())
        .map(|from| format!("{}:{}", from.file.path.file_name().unwrap().to_string_lossy(), from.name))
        .collect();
    assert!(files.contains(&"inline_calls.m:scaled_square".to_string()), "{files:?}");
    assert!(files.contains(&"inline_shift.m:inline_shift".to_string()), "{files:?}");
}

#[test]
fn inlined_code_gives_the_values_and_derivatives_of_the_calls() {
    let inlined = check_against_fd(&named("inline_calls"), &X, &[], 1e-7);
    let called = run(&X, true).unwrap();
    assert_eq!(values(&inlined.value), values(&called.value));
    let (a, b) = (values(inlined.jacobian.as_ref().unwrap()), values(called.jacobian.as_ref().unwrap()));
    assert!(relative_error(&a, &b) < 1e-14, "Jacobians differ: {a:?} vs {b:?}");
}

#[test]
fn an_error_in_an_inlined_callee_names_the_callee_then_the_caller() {
    let mut x = X.to_vec();
    x[0] = 20.0;
    let inlined = run(&x, false).unwrap_err();
    let called = run(&x, true).unwrap_err();
    assert_eq!(inlined.to_string(), called.to_string());
    let frames = |d: &msad::diag::Diagnostic| -> Vec<(String, String, usize, usize)> {
        let file = |f: &str| std::path::Path::new(f).file_name().unwrap().to_string_lossy().to_string();
        d.stack.iter().map(|f| (file(&f.file), f.name.clone(), f.line, f.column)).collect()
    };
    assert_eq!(frames(&inlined), frames(&called));
    let names: Vec<(String, usize)> = frames(&inlined).into_iter().map(|(file, _, line, _)| (file, line)).collect();
    assert_eq!(names, vec![("inline_shift.m".to_string(), 4), ("inline_calls.m".to_string(), 8)]);
}

/// `@(y) inner(y) * 2` with `inner` captured, and `@(y) prob.RHS.F(y) - y` with the handle in a
/// captured struct: the host's handle is known when the code is lowered, so the call through it is a
/// direct call, inlined like a call by name (a closure over a closure costs what one level costs).
#[test]
fn calls_through_captured_handles_are_direct_and_inlined() {
    use msad::ir::lower::Captures;
    use msad::value::{FunctionHandle, StructArray, Value};
    let inner = Value::Handle(std::sync::Arc::new(anonymous("@(y) y .^ 2 + sin(y)", vec![])));
    let field =
        |name: &str, value: Value| Value::Struct(StructArray { dims: vec![1, 1], fields: vec![name.into()], elements: vec![vec![value]] });
    let prob = field("RHS", field("F", inner.clone()));
    let count = |program: &msad::ir::Program, call: fn(&Op) -> bool| {
        program.functions[FuncId::ENTRY].blocks.iter().flat_map(|b| &b.insts).filter(|i| call(&i.op)).count()
    };
    for (text, captured) in [("@(y) inner(y) * 2", vec![("inner", inner.clone())]), ("@(y) prob.RHS.F(y) - y", vec![("prob", prob)])] {
        let FunctionHandle::Anonymous { captured: values, .. } = anonymous(text, captured.clone()) else { unreachable!() };
        let captures = Captures::Values { values: &values, as_inputs: &[], unmodelled: &[] };
        let mut program = Loader::new(&mut host()).load_anonymous(text, captures).unwrap();
        assert_eq!(count(&program, |op| matches!(op, Op::Index)), 0, "{text}: no call through a handle value");
        assert_eq!(count(&program, |op| matches!(op, Op::Call(_))), 1, "{text}: a direct call");
        inline_calls(&mut program);
        assert_eq!(count(&program, |op| matches!(op, Op::Call(_))), 0, "{text}: inlined");
        check_against_fd(&anonymous(text, captured), &X, &[], 1e-7);
    }
}
