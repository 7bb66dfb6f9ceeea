//! Selections and assignments through a range read only as a subscript (`y(1:2:end)`,
//! `d(1:2:end) = u`) or through `(:)` run without an index list (src/primitives/index.rs `stride_within`),
//! and an assignment into a base without derivative (`d = zeros(size(y))`) zeroes each column of its
//! block just before writing into it (src/value/deriv.rs `assign_at`). Each function's f and J must equal,
//! bit for bit, those of the same code with every range also read as a value (so it is built as an
//! index list and takes the general path), on repeated calls, and J must match central differences.
//! Errors keep their message and identifier.

mod common;

use common::*;
use msad::ad::pattern::Pattern;
use msad::engine::{Engine, Evaluation, JacobianStorage, Mode, Options, PathHost, Request, Sparsity};
use msad::value::Value;
use msad::value::deriv::{DenseDeriv, Deriv, Stride};
use std::path::PathBuf;

/// A function body computing `y` from `x` (8 elements), and the ranges the list variant reads as values.
struct Case {
    name: &'static str,
    body: &'static str,
    ranges: &'static str,
}

const CASES: [Case; 10] = [
    Case {
        name: "covering_interleaved",
        body: "i = 1:2:numel(x);\nj = 2:2:numel(x);\nu = sin(x(i)) .* x(j);\nv = x(j).^2 - 3 * x(i);\n\
               y = zeros(size(x));\ny(i) = u;\ny(j) = v;",
        ranges: "i, j",
    },
    Case {
        name: "covering_halves",
        body: "a = 1:4;\nb = 5:8;\nu = exp(x(a)) - x(b);\nv = x(b) .* x(a);\ny = zeros(size(x));\ny(a) = u;\ny(b) = v;",
        ranges: "a, b",
    },
    Case {
        name: "not_covering",
        body: "i = 2:3:8;\nj = 8:-3:1;\ny = zeros(10, 1);\ny(i) = cos(x(i)) .* x(1);\ny(j) = y(j) + x(j).^3;",
        ranges: "i, j",
    },
    Case {
        name: "overlapping",
        body: "i = 1:2:7;\nh = 2:2:8;\nj = 1:3:8;\ny = zeros(size(x));\ny(i) = x(i) .* x(h);\ny(j) = tanh(x(j));",
        ranges: "i, h, j",
    },
    Case {
        name: "read_between",
        body: "i = 1:2:8;\nj = 2:2:8;\ny = zeros(size(x));\ny(i) = x(j) .^ 2;\ns = sum(y);\nz = y;\ny(j) = s * x(i);\ny = y + z;",
        ranges: "i, j",
    },
    Case {
        name: "grows",
        body: "i = 1:3;\ny = x(i) .* 2;\ny(end+1) = x(4)^2;\nk = 6:7;\ny(k) = x(k);\ny = y';\ny(end+1:end+2) = x(7:8);\ny = y';",
        ranges: "i, k",
    },
    Case {
        name: "base_with_derivative",
        body: "i = 2:2:8;\nj = 7:-2:1;\ny = x .* x;\ny(i) = sin(x(j));\ny(j) = 5;\ny(3:4) = x(1);",
        ranges: "i, j",
    },
    Case {
        name: "row_and_matrix",
        body: "r = x';\ni = 1:2:8;\nh = 2:2:8;\nq = r(i);\nr(i) = q .* r(h);\nm = reshape(x, 2, 4);\nk = 2:3:8;\n\
               p = m(k);\nm(k) = p .^ 2;\ny = [r'; reshape(m, [], 1); p'];",
        ranges: "i, h, k",
    },
    Case { name: "in_a_loop", body: "y = zeros(size(x));\nfor t = 1:2\n  i = t:2:8;\n  y(i) = y(i) + x(i) .* t;\nend", ranges: "i" },
    Case {
        name: "colon",
        body: "a = sin(x) .* x;\nb = a(:);\nc = b(2:7);\ny = x .^ 2;\ny(:) = b - 3 * x;\nz = y(:) .* c(1);\n\
               w = zeros(size(x));\nw(:) = c(2) * x;\ny = [z; c; w];",
        ranges: "every",
    },
];

/// A scratch directory holding the generated `.m` files, removed on drop.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(tag: &str, files: &[(String, String)]) -> Scratch {
    let dir = std::env::temp_dir().join(format!("msad-ranges-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(format!("{name}.m")), text).unwrap();
    }
    Scratch(dir)
}

/// The case as written, and its list variant: the ranges also read as values (returned in a cell),
/// and `(:)` (of column vectors) as `(every)`, `every = 1:numel(x)`.
fn case_files(case: &Case) -> Vec<(String, String)> {
    let lists = match case.body.contains("(:)") {
        true => format!("every = 1:numel(x);\n{}", case.body.replace("(:)", "(every)")),
        false => case.body.to_string(),
    };
    vec![
        (case.name.to_string(), format!("function y = {}(x)\n{}\nend\n", case.name, case.body)),
        (
            format!("{}_lists", case.name),
            format!("function [y, kept] = {}_lists(x)\n{}\nkept = {{{}}};\nend\n", case.name, lists, case.ranges),
        ),
    ]
}

fn evaluations(host: &mut PathHost, name: &str, x: &[f64], mode: Mode, calls: usize) -> Vec<Evaluation> {
    let options = Options { mode, ..Options::default() };
    let request = Request { function: named(name), args: vec![column(x.to_vec())], options, nargout: 2 };
    let mut engine = Engine::new();
    (0..calls).map(|_| engine.evaluate(host, &request).unwrap_or_else(|d| panic!("{name}: {d}"))).collect()
}

fn bits(v: &Value) -> (Vec<usize>, Vec<u64>) {
    (v.shape().to_vec(), values(v).iter().map(|x| x.to_bits()).collect())
}

/// Central differences of `name` at `x` (m x n, column-major), called with `args(x)`.
fn fd_of(host: &mut PathHost, name: &str, x: &[f64], args: impl Fn(Vec<f64>) -> Vec<Value>) -> Vec<f64> {
    let mut engine = Engine::new();
    central_differences(x, |x| {
        let request = Request { function: named(name), args: args(x), options: Options::default(), nargout: 1 };
        values(&engine.evaluate(host, &request).unwrap_or_else(|d| panic!("{d}")).value)
    })
}

const X: [f64; 8] = [0.3, -0.7, 1.1, 0.45, -1.3, 0.9, 0.2, -0.55];

#[test]
fn range_subscripts_give_the_results_of_index_lists_bit_for_bit() {
    for case in &CASES {
        let dir = scratch(case.name, &case_files(case));
        let mut host = PathHost { dirs: vec![dir.0.clone()] };
        for mode in [Mode::Forward, Mode::Auto] {
            // Call by call: the first detects the pattern, the next ones run compressed (where J may
            // hold signed zeros that detection leaves out).
            let references = evaluations(&mut host, &format!("{}_lists", case.name), &X, mode, 3);
            for (k, (e, reference)) in evaluations(&mut host, case.name, &X, mode, 3).iter().zip(&references).enumerate() {
                assert_eq!(bits(&e.value), bits(&reference.value), "{} ({mode:?}): f of call {}", case.name, k + 1);
                let (jacobian, expected) = (e.jacobian.as_ref().expect("J"), reference.jacobian.as_ref().expect("J"));
                assert_eq!(bits(jacobian), bits(expected), "{} ({mode:?}): J of call {}", case.name, k + 1);
            }
        }
        let jacobian = evaluations(&mut host, case.name, &X, Mode::Forward, 1).remove(0).jacobian.expect("J");
        let err = relative_error(&values(&jacobian), &fd_of(&mut host, case.name, &X, |x| vec![column(x)]));
        assert!(err < 1e-7, "{}: J differs from central differences by {err:e}", case.name);
    }
}

#[test]
fn range_subscripts_raise_the_errors_of_index_lists() {
    let bodies = [
        ("beyond", "i = 1:2:11;\ny = x(i);"),
        ("assign_count", "i = 1:2:8;\ny = zeros(size(x));\ny(i) = x(1:3);"),
        ("matrix_growth", "m = reshape(x, 2, 4);\ni = 7:11;\nm(i) = 1;\ny = m(:);"),
    ];
    for (name, body) in bodies {
        let (header, list_header) = (format!("function y = {name}(x)\n"), format!("function [y, kept] = {name}_lists(x)\n"));
        let files = vec![
            (name.to_string(), format!("{header}{body}\nend\n")),
            (format!("{name}_lists"), format!("{list_header}{body}\nkept = i;\nend\n")),
        ];
        let dir = scratch(name, &files);
        let mut host = PathHost { dirs: vec![dir.0.clone()] };
        let mut error = |name: &str| {
            let request = Request { function: named(name), args: vec![column(X.to_vec())], options: Options::default(), nargout: 1 };
            Engine::new().evaluate(&mut host, &request).expect_err("an error")
        };
        let (range, list) = (error(name), error(&format!("{name}_lists")));
        assert_eq!(range.message, list.message, "{name}");
        assert_eq!(range.caught_identifier(), list.caught_identifier(), "{name}");
        let shift = (list_header.len() - header.len()) as u32;
        let span = |e: &msad::diag::Diagnostic, shift: u32| e.location.as_ref().map(|l| (l.1.lo - shift, l.1.hi - shift));
        assert_eq!(span(&range, 0), span(&list, shift), "{name}");
    }
}

/// Assignment into a dense zero base (a zero fill of the whole block, then the targets) and into a
/// base without derivative (each column zeroed just before its targets) give the same bits, through
/// a range and through the same positions as a list; a gather through a range picks the rows back.
#[test]
fn assignment_into_a_base_without_derivative_equals_the_zero_filled_block() {
    let (rows, nd) = (11, 3);
    let rhs_rows = 4;
    let data: Vec<f64> = (0..rhs_rows * nd).map(|k| if k % 5 == 0 { -0.0 } else { 1.0 / (k as f64 - 6.5) }).collect();
    let rhs = Deriv::Dense(DenseDeriv::from_seed(rhs_rows, nd, data));
    let strides = [
        Stride { first: 0, step: 3, count: 4 },   // gaps between, none after
        Stride { first: 1, step: 2, count: 4 },   // gaps at both ends
        Stride { first: 7, step: 1, count: 4 },   // consecutive, at the end
        Stride { first: 10, step: -3, count: 4 }, // decreasing
        Stride { first: 2, step: 1, count: 1 },   // one row from a scalar
    ];
    let bits = |d: Deriv| match d {
        Deriv::Dense(d) => d.data.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        other => panic!("a dense block, not {other:?}"),
    };
    for stride in strides {
        let scalar = stride.count == 1;
        let source = |k: usize| if scalar { 0 } else { k };
        let list: Vec<usize> = stride.positions().collect();
        let zero_filled = bits(Deriv::Dense(DenseDeriv::zeros(rows, nd)).assign_rows(rows, &list, &rhs, source));
        let mut expected = vec![0.0; rows * nd];
        for j in 0..nd {
            let Deriv::Dense(r) = &rhs else { unreachable!() };
            list.iter().enumerate().for_each(|(k, &t)| expected[j * rows + t] = r.get(source(k), j));
        }
        assert_eq!(zero_filled, expected.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), "{stride:?}");
        assert_eq!(bits(Deriv::Zero.assign_stride(rows, stride, &rhs, source)), zero_filled, "{stride:?}");
        assert_eq!(bits(Deriv::Zero.assign_rows(rows, &list, &rhs, source)), zero_filled, "{stride:?}");
        let dense_base = Deriv::Dense(DenseDeriv::zeros(rows, nd));
        assert_eq!(bits(dense_base.assign_stride(rows, stride, &rhs, source)), zero_filled, "{stride:?}");
        let gathered = Deriv::Dense(DenseDeriv::from_seed(rows, nd, expected.clone())).gather_stride(stride).expect("dense");
        let Deriv::Dense(r) = &rhs else { unreachable!() };
        let picked: Vec<f64> = (0..nd).flat_map(|j| (0..stride.count).map(move |k| (j, k))).map(|(j, k)| r.get(source(k), j)).collect();
        assert_eq!(bits(gathered), picked.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), "{stride:?}");
    }
}

/// The compressed runs build selections from the seeded argument (`x(1:2:end)`, `x(k)`, `x(5)`) from
/// the colouring (src/value/deriv.rs `SeedColours`), and when nothing else reads the argument they get
/// no seed block at all. With many colours split into chunks over two threads, the argument
/// differentiated being the second, and a subfunction selecting from its own parameter (which reads
/// its block), f and J equal those of the same code with the argument also read as a value (kept, so
/// there is a seed block) and those of a run with the detected pattern given as the user's (whose
/// seed, with its check direction, is always read as a block); a sparse J is asked for, so that the
/// compression runs although every column has its own colour.
#[test]
fn selections_from_the_seeded_argument_equal_those_from_its_block() {
    let pick = "function z = pick(t)\nk = 3:3:40;\nz = t(k) .* t(k);\nend\n";
    // Each body ends in `cumsum(x(:))`: its triangle of rows makes column colouring (40 colours) beat
    // any bidirectional partition, so that the colour path is the one that runs.
    let bodies = [
        // The argument read otherwise too (`x .^ 2`): a seed block, ranges from the colours.
        (
            "with_block",
            "i = 1:2:40;\nj = 2:2:40;\ns = sum(x .^ 2) + a;\ny = [x(i) * s; sin(x(j)) .* x(40:-1:21); pick(x); x(:) - a; cumsum(x(:))];",
        ),
        // Read only by selections (ranges, `:`, a constant list, scalars, `end`) and for its size: no
        // seed block.
        (
            "selections",
            "n = numel(x);\ni = 1:2:n;\nj = 2:2:size(x, 1);\nk = [3 7 11];\n\
                        y = [x(i) .* x(j); x(k) * a; x(5) * x(end); x(:) .^ 2; x(40:-3:1); sum(x(:)); pick(x(40:-1:1)); cumsum(x(:))];",
        ),
    ];
    let x: Vec<f64> = (0..40).map(|k| ((k * 7 % 11) as f64 - 5.0) / 3.0).collect();
    let run_with = |host: &mut PathHost, name: &str, threads: Option<usize>, sparsity: Sparsity| {
        let options = Options { wrt: 1, threads, jacobian: JacobianStorage::Sparse, sparsity, verbose: true, ..Options::default() };
        let request = Request { function: named(name), args: vec![Value::scalar(0.5), column(x.clone())], options, nargout: 2 };
        let mut engine = Engine::new();
        (0..3).map(|_| engine.evaluate(host, &request).unwrap_or_else(|d| panic!("{name}: {d}"))).collect::<Vec<_>>()
    };
    let run = |host: &mut PathHost, name: &str, threads: Option<usize>| run_with(host, name, threads, Sparsity::Auto);
    for (name, body) in bodies {
        let files = vec![
            (name.to_string(), format!("function y = {name}(a, x)\n{body}\nend\n{pick}")),
            (format!("{name}_block"), format!("function [y, kept] = {name}_block(a, x)\n{body}\nkept = {{x, i, j}};\nend\n{pick}")),
        ];
        let dir = scratch(name, &files);
        let mut host = PathHost { dirs: vec![dir.0.clone()] };
        // A user pattern's runs read the seed block (with one more direction, the check).
        let detected = run(&mut host, name, Some(1)).pop().expect("a call").jacobian.expect("J");
        let Value::Sparse(detected) = detected else { panic!("a sparse J") };
        let user = Sparsity::Pattern(Pattern::from_sparse(&detected));
        for threads in [Some(1), Some(2)] {
            let with_block = run(&mut host, &format!("{name}_block"), threads);
            let from_block = run_with(&mut host, name, threads, user.clone());
            for (k, e) in run(&mut host, name, threads).iter().enumerate() {
                for (reference, what) in [(&with_block[k], "kept"), (&from_block[k], "user pattern")] {
                    let at = format!("{name}: call {} ({threads:?} threads) against the {what} run", k + 1);
                    assert_eq!(bits(&e.value), bits(&reference.value), "f of {at}");
                    let (jacobian, expected) = (e.jacobian.as_ref().expect("J"), reference.jacobian.as_ref().expect("J"));
                    assert_eq!(bits(jacobian), bits(expected), "J of {at}");
                }
            }
        }
        let log = run(&mut host, name, Some(2)).pop().expect("a call").log;
        assert!(log.iter().any(|l| l.contains("compressed evaluation with 40 directions")), "{name}: {log:?}");
        let jacobian = run(&mut host, name, Some(1)).pop().expect("a call").jacobian.expect("J");
        let fd = fd_of(&mut host, name, &x, |x| vec![Value::scalar(0.5), column(x)]);
        let err = relative_error(&values(&jacobian), &fd);
        assert!(err < 1e-7, "{name}: J differs from central differences by {err:e}");
    }
}
