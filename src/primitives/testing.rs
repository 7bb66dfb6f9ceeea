//! Test support for the forward rules: a rule's Jacobian with a dense identity seed against central
//! differences of the primitive's own kernel, and the same rule run on a sparse identity seed (the
//! sparsity-detection path), whose values must equal the dense ones.

use super::{Forward, eval, forward, lookup};
use crate::value::deriv::{DenseDeriv, Deriv, SparseDeriv};
use crate::value::{Array, Value};

/// Deterministic pseudo-random numbers in [-1, 1) (xorshift), so failures reproduce.
pub struct Random(u64);

impl Random {
    pub fn new(seed: u64) -> Random {
        Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
    pub fn matrix(&mut self, rows: usize, cols: usize) -> Value {
        Value::Double(Array::new(vec![rows, cols], (0..rows * cols).map(|_| self.next()).collect()))
    }
}

/// The shapes every rule is tried on: scalar, row, column, matrix.
pub const SHAPES: [(usize, usize); 4] = [(1, 1), (1, 5), (4, 1), (3, 4)];

pub fn matrix(rows: usize, cols: usize, data: &[f64]) -> Value {
    Value::Double(Array::new(vec![rows, cols], data.to_vec()))
}

fn data(v: &Value) -> Vec<f64> {
    v.numeric().expect("numeric").data.clone()
}

/// Identity seeds for the active arguments: argument `i` gets directions `offset_i ..`.
fn seeds(args: &[Value], active: &[usize], sparse: bool) -> (Vec<Deriv>, usize) {
    let nd: usize = active.iter().map(|&i| args[i].numel()).sum();
    let mut offset = 0;
    let derivs = (0..args.len())
        .map(|i| {
            if !active.contains(&i) {
                return Deriv::Zero;
            }
            let n = args[i].numel();
            let d = if sparse {
                Deriv::Sparse(SparseDeriv::from_csr(n, nd, (0..=n).collect(), (offset..offset + n).collect(), vec![1.0; n]))
            } else {
                let mut d = DenseDeriv::zeros(n, nd);
                (0..n).for_each(|r| d.data[(offset + r) * n + r] = 1.0);
                Deriv::Dense(d)
            };
            offset += n;
            d
        })
        .collect();
    (derivs, nd)
}

/// The rule's Jacobian (result elements x active input elements, column-major) for one seed kind.
fn rule_jacobian(name: &str, args: &[Value], active: &[usize], sparse: bool) -> Vec<f64> {
    let id = lookup(name).expect("primitive");
    let refs: Vec<&Value> = args.iter().collect();
    let output = eval(id, &refs, 1).unwrap_or_else(|e| panic!("{name}: {e}")).remove(0);
    let (derivs, nd) = seeds(args, active, sparse);
    let deriv_refs: Vec<&Deriv> = derivs.iter().collect();
    let d = forward(id, &Forward { inputs: &refs, derivs: &deriv_refs, output: &output }).unwrap_or_else(|e| panic!("{name}: {e}"));
    match (&d, sparse) {
        (Deriv::Dense(_), true) => panic!("{name}: a sparse seed gave a dense block"),
        (Deriv::Sparse(_), false) => panic!("{name}: a dense seed gave a sparse block"),
        _ => d.to_dense(output.numel(), nd).data,
    }
}

/// Central differences of the kernel with respect to the active arguments.
fn fd_jacobian(name: &str, args: &[Value], active: &[usize]) -> Vec<f64> {
    let id = lookup(name).expect("primitive");
    let mut jac = Vec::new();
    for &i in active {
        for e in 0..args[i].numel() {
            let x = data(&args[i]);
            let h = 1e-6 * x[e].abs().max(1.0);
            let at = |delta: f64| {
                let mut moved = args.to_vec();
                let mut xs = x.clone();
                xs[e] += delta;
                moved[i] = Value::Double(Array::new(args[i].dims(), xs));
                let refs: Vec<&Value> = moved.iter().collect();
                data(&eval(id, &refs, 1).expect("evaluation").remove(0))
            };
            let (plus, minus) = (at(h), at(-h));
            jac.extend(plus.iter().zip(&minus).map(|(p, m)| (p - m) / (2.0 * h)));
        }
    }
    jac
}

/// Max |a - b| relative to max(1, max |b|); entries where the reference b is NaN (differences of a NaN
/// value) are skipped, a NaN in a alone counts as infinitely wrong.
fn relative_error(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len(), "sizes differ");
    let scale = b.iter().fold(1.0f64, |s, x| s.max(x.abs()));
    let difference = |(x, y): (&f64, &f64)| match (x.is_nan(), y.is_nan()) {
        (_, true) => 0.0,
        (true, false) => f64::INFINITY,
        _ => (x - y).abs(),
    };
    a.iter().zip(b).map(difference).fold(0.0, f64::max) / scale
}

/// Checks `name(args...)`'s rule for the arguments `active`: dense seed against central differences,
/// sparse seed against the dense seed.
pub fn check(name: &str, args: &[Value], active: &[usize]) {
    let dense = rule_jacobian(name, args, active, false);
    let fd = fd_jacobian(name, args, active);
    let err = relative_error(&dense, &fd);
    assert!(err < 1e-6, "{name}: rule differs from central differences by {err:e}\nrule {dense:?}\nfd   {fd:?}");
    let sparse = rule_jacobian(name, args, active, true);
    let err = relative_error(&sparse, &dense);
    assert!(err < 1e-13, "{name}: sparse seed differs from dense seed by {err:e}");
}

/// The rule's Jacobian with respect to the active arguments (dense seed).
pub fn jacobian(name: &str, args: &[Value], active: &[usize]) -> Vec<f64> {
    rule_jacobian(name, args, active, false)
}

/// The primitive's value.
pub fn value(name: &str, args: &[Value], nargout: usize) -> Vec<Value> {
    let refs: Vec<&Value> = args.iter().collect();
    eval(lookup(name).expect("primitive"), &refs, nargout).unwrap_or_else(|e| panic!("{name}: {e}"))
}
