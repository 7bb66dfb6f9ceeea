//! Elementwise operations write their derivative block into the block of an operand read for the last
//! time (`a + b` with `a` dead afterwards takes over `a`'s value and block), and selections of consecutive
//! elements of such an operand (`a(:)`, `a(2:end)`) keep its buffers. These cases would catch that block
//! still being needed elsewhere: an operand read after the operation, one register as both operands,
//! a value captured in a cell, struct or function handle, loop-carried values, both sides of a branch
//! explored on copies of the frame. Each function's f and J must equal, bit for bit, those of the same
//! code with every named value kept alive to the end (so no named operand dies and no block is taken
//! over), on the first call and on repeated calls (derivative cache, kept frames), and J must match
//! central differences.

mod common;

use common::*;
use msad::engine::{Engine, Evaluation, Mode, Options, PathHost, Request};
use msad::value::Value;
use std::path::PathBuf;

/// A function body computing `y` from `x`, and the names the kept variant holds until its end.
struct Case {
    name: &'static str,
    body: &'static str,
    kept: &'static str,
}

const CASES: [Case; 8] = [
    Case {
        name: "read_after",
        body: "a = sin(x);\nb = a .* x;\nc = b + a;\nd = c - 2 * a;\ny = d .* c + exp(c) ./ (1 + a.^2);",
        kept: "a, b, c, d",
    },
    Case { name: "same_register", body: "s = cos(x) + x;\nt = s .* s;\nu = t + t;\ny = u .* u;", kept: "s, t, u" },
    Case {
        name: "captured",
        body: "a = x .^ 2;\nc = {a};\nst.f = a;\ng = @(t) t .* a;\nb = 3 * a;\nb = b + x;\ny = b + c{1} .* st.f + g(x);",
        kept: "a, b, c",
    },
    Case {
        name: "loop_carried",
        body: "z = x;\nacc = zeros(size(x));\nfor k = 1:3\n  old = z;\n  z = sin(z) .* x + k;\n  acc = acc + old .* z;\nend\n\
               w = x;\nfor k = 1:2\n  w = w .* x - 1;\nend\ny = acc + z + w;",
        kept: "acc, z, w",
    },
    Case { name: "branch", body: "a = exp(x);\nif x(1) > 0\n  b = a + x;\nelse\n  b = a .* x;\nend\ny = b ./ (2 + x);", kept: "a, b" },
    Case {
        name: "expansion",
        body: "a = tanh(x);\nm = a .* x';\nr = m + 1;\nq = r - a;\ny = sum(q .* r, 2) + a * sum(x);",
        kept: "a, m, r, q",
    },
    Case {
        name: "selection",
        body: "a = sin(x) .* x;\nb = a(:);\nc = b(2:end) - x(1:end-1);\np = [c; 1] .* b;\nr = p(1:2);\nq = p(3:6);\ny = [q; r .* q(1:2); c(end)];",
        kept: "a, b, c, p, q, r",
    },
    Case {
        name: "second_operand",
        body: "w = 2 - sin(x);\nk = (1:7)';\nm = 10 - k;\nr = 3 ./ m;\nv = 3 ./ (1 + x.^2);\ny = w .* v + r .* x - (1 - w);",
        kept: "w, k, m, r, v",
    },
];

/// A scratch directory holding the generated `.m` files, removed on drop.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(case: &Case) -> Scratch {
    let dir = std::env::temp_dir().join(format!("msad-in-place-{}-{}", case.name, std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: String, text: String| std::fs::write(dir.join(format!("{name}.m")), text).unwrap();
    write(case.name.to_string(), format!("function y = {}(x)\n{}\nend\n", case.name, case.body));
    let kept = format!("function [y, kept] = {}_kept(x)\n{}\nkept = {{{}}};\nend\n", case.name, case.body, case.kept);
    write(format!("{}_kept", case.name), kept);
    Scratch(dir)
}

fn evaluations(host: &mut PathHost, name: &str, x: &[f64], calls: usize) -> Vec<Evaluation> {
    let options = Options { mode: Mode::Forward, ..Options::default() };
    let request = Request { function: named(name), args: vec![column(x.to_vec())], options, nargout: 2 };
    let mut engine = Engine::new();
    (0..calls).map(|_| engine.evaluate(host, &request).unwrap_or_else(|d| panic!("{name}: {d}"))).collect()
}

fn bits(v: &Value) -> Vec<u64> {
    values(v).iter().map(|x| x.to_bits()).collect()
}

fn check(case: &Case, x: &[f64]) {
    let dir = scratch(case);
    let mut host = PathHost { dirs: vec![dir.0.clone()] };
    let reference = evaluations(&mut host, &format!("{}_kept", case.name), x, 1).remove(0);
    let reference_jacobian = bits(reference.jacobian.as_ref().expect("J"));
    for (k, e) in evaluations(&mut host, case.name, x, 3).iter().enumerate() {
        assert_eq!(bits(&e.value), bits(&reference.value), "{}: f of call {}", case.name, k + 1);
        assert_eq!(bits(e.jacobian.as_ref().expect("J")), reference_jacobian, "{}: J of call {}", case.name, k + 1);
    }
    let fd = fd_of(&mut Engine::new(), &mut host, case.name, x);
    let err = relative_error(&values(reference.jacobian.as_ref().expect("J")), &fd);
    assert!(err < 1e-7, "{}: J differs from central differences by {err:e}", case.name);
}

/// Central differences of `name` at `x` (m x n, column-major).
fn fd_of(engine: &mut Engine, host: &mut PathHost, name: &str, x: &[f64]) -> Vec<f64> {
    central_differences(x, |x| {
        let request = Request { function: named(name), args: vec![column(x)], options: Options::default(), nargout: 1 };
        values(&engine.evaluate(host, &request).unwrap_or_else(|d| panic!("{d}")).value)
    })
}

const X: [f64; 7] = [0.3, -0.7, 1.1, 0.45, -1.3, 0.9, 0.2];

#[test]
fn results_of_operations_on_dying_operands_equal_those_with_every_operand_kept() {
    for case in &CASES {
        check(case, &X);
    }
}

#[test]
fn both_sides_of_an_x_dependent_branch_see_their_own_blocks() {
    let branch = CASES.iter().find(|c| c.name == "branch").expect("branch case");
    let negative: Vec<f64> = X.iter().map(|v| -v).collect();
    check(branch, &negative);
}
