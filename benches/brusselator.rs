//! Brusselator: a hand-written Rust right-hand side and sparse Jacobian (the memory-bound limit for
//! any tool) against the engine's `Engine::evaluate` on `brusselator_rhs.m` (scalar loops) and
//! `brusselator_rhs_vec.m` (vectorised). Run: `cargo bench --bench brusselator`; prints Markdown.
//! Each time is the median of several samples; the engine's Jacobian is checked against the Rust one.
//! Sizes where the engine's call is predicted to exceed `CAP` are skipped (its Jacobian is dense today).
//! Profiling: `MSAD_PROFILE=brusselator_rhs_vec,640,10 target/release/deps/brusselator-*` only repeats the
//! engine's J+f of that function at that n for 10 s (for `perf record` or `valgrind --tool=callgrind`);
//! a fourth field `,1` repeats f alone (nargout = 1); a fifth field `,dense` propagates all n directions
//! (`sparsity = 'none'`, the full-mode path).

#[path = "../tests/common/mod.rs"]
mod common;

use msad::engine::{Engine, Options, Request};
use msad::value::{Array, Value};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Unknowns n = 2N (u1 v1 u2 v2 ...), as in benches/octave.
const SIZES: [usize; 6] = [40, 160, 640, 2560, 10240, 40960];
const CAP: Duration = Duration::from_secs(20);
const SLOW_CALL: Duration = Duration::from_secs(2);
const MIN_SAMPLE: Duration = Duration::from_millis(5);
const MIN_TOTAL: Duration = Duration::from_millis(200);
const MIN_SAMPLES: usize = 5;
const MAX_SAMPLES: usize = 25;

/// For each of `count` candidates (`call(k)` runs candidate k): the time of its first call (for the engine:
/// preparation and sparsity detection) and the median time of later calls, sampled in interleaved rounds
/// so that a burst of load from other processes hits all candidates alike. Every candidate takes at least
/// `MIN_SAMPLES` samples and `MIN_TOTAL` of them; a sample repeats fast calls until it lasts `MIN_SAMPLE`.
/// A call slower than `SLOW_CALL` gets two samples.
fn median_times(count: usize, mut call: impl FnMut(usize)) -> Vec<(Duration, Duration)> {
    let mut once = |k: usize, repeats: u32| {
        let start = Instant::now();
        (0..repeats).for_each(|_| call(k));
        start.elapsed()
    };
    let first: Vec<Duration> = (0..count).map(|k| once(k, 1)).collect();
    let mut samples: Vec<Vec<Duration>> = vec![Vec::new(); count];
    let (mut wanted, mut min_total, mut repeats) = (vec![MIN_SAMPLES; count], vec![MIN_TOTAL; count], vec![1; count]);
    for k in 0..count {
        let second = once(k, 1);
        if second > SLOW_CALL {
            (samples[k], wanted[k], min_total[k]) = (vec![second], 2, Duration::ZERO);
        } else {
            repeats[k] = (MIN_SAMPLE.as_secs_f64() / second.as_secs_f64().max(1e-9)).ceil() as u32;
        }
    }
    let needs = |k: usize, samples: &[Vec<Duration>]| {
        let total: Duration = samples[k].iter().map(|t| *t * repeats[k]).sum();
        samples[k].len() < MAX_SAMPLES && (samples[k].len() < wanted[k] || total < min_total[k])
    };
    while (0..count).any(|k| needs(k, &samples)) {
        for k in 0..count {
            if needs(k, &samples) {
                let elapsed = once(k, repeats[k]);
                samples[k].push(elapsed / repeats[k]);
            }
        }
    }
    first
        .into_iter()
        .zip(samples)
        .map(|(first, mut s)| {
            s.sort();
            (first, s[s.len() / 2])
        })
        .collect()
}

/// `u_i = 1 + sin(2 pi x_i)`, `v_i = 3`, `x_i = i/(N+1)`, interleaved.
fn initial_state(unknowns: usize) -> Vec<f64> {
    let points = unknowns / 2;
    let mut y = vec![3.0; unknowns];
    for i in 0..points {
        y[2 * i] = 1.0 + (2.0 * std::f64::consts::PI * (i + 1) as f64 / (points + 1) as f64).sin();
    }
    y
}

const ALPHA: f64 = 1.0 / 50.0;
const U_BOUNDARY: f64 = 1.0;
const V_BOUNDARY: f64 = 3.0;

fn diffusion(points: usize) -> f64 {
    ALPHA * ((points + 1) * (points + 1)) as f64
}

/// The right-hand side of brusselator_rhs.m, written for speed.
fn rhs(y: &[f64]) -> Vec<f64> {
    let points = y.len() / 2;
    let d = diffusion(points);
    let mut dydt = vec![0.0; y.len()];
    for i in 0..points {
        let (u, v) = (y[2 * i], y[2 * i + 1]);
        let (u_left, v_left) = if i == 0 { (U_BOUNDARY, V_BOUNDARY) } else { (y[2 * i - 2], y[2 * i - 1]) };
        let (u_right, v_right) = if i + 1 == points { (U_BOUNDARY, V_BOUNDARY) } else { (y[2 * i + 2], y[2 * i + 3]) };
        let reaction = u * u * v;
        dydt[2 * i] = 1.0 + reaction - 4.0 * u + d * (u_left - 2.0 * u + u_right);
        dydt[2 * i + 1] = 3.0 * u - reaction + d * (v_left - 2.0 * v + v_right);
    }
    dydt
}

/// Compressed sparse columns, rows sorted within a column.
struct Csc {
    col_ptr: Vec<usize>,
    row: Vec<usize>,
    value: Vec<f64>,
}

/// The Jacobian of `rhs` in CSC (nnz 8N - 4), built from scratch on every call as a tool must.
/// Column of u_i: rows u_{i-1}' (d), u_i' (2uv - 4 - 2d), v_i' (3 - 2uv), u_{i+1}' (d);
/// column of v_i: rows v_{i-1}' (d), u_i' (u^2), v_i' (-u^2 - 2d), v_{i+1}' (d).
fn jacobian(y: &[f64]) -> Csc {
    let points = y.len() / 2;
    let d = diffusion(points);
    let nnz = 8 * points - 4;
    let mut j = Csc { col_ptr: Vec::with_capacity(y.len() + 1), row: Vec::with_capacity(nnz), value: Vec::with_capacity(nnz) };
    j.col_ptr.push(0);
    let push = |j: &mut Csc, row: usize, value: f64| {
        j.row.push(row);
        j.value.push(value);
    };
    for i in 0..points {
        let (u, v) = (y[2 * i], y[2 * i + 1]);
        let (first, last) = (i == 0, i + 1 == points);
        if !first {
            push(&mut j, 2 * i - 2, d);
        }
        push(&mut j, 2 * i, 2.0 * u * v - 4.0 - 2.0 * d);
        push(&mut j, 2 * i + 1, 3.0 - 2.0 * u * v);
        if !last {
            push(&mut j, 2 * i + 2, d);
        }
        j.col_ptr.push(j.row.len());
        if !first {
            push(&mut j, 2 * i - 1, d);
        }
        push(&mut j, 2 * i, u * u);
        push(&mut j, 2 * i + 1, -u * u - 2.0 * d);
        if !last {
            push(&mut j, 2 * i + 3, d);
        }
        j.col_ptr.push(j.row.len());
    }
    j
}

fn engine_request(function: &str, y: &[f64], nargout: usize) -> Request {
    Request {
        function: common::named(function),
        args: vec![Value::Double(Array::column(y.to_vec()))],
        options: Options::default(),
        nargout,
    }
}

/// Largest |J_engine - J_rust| relative to the largest |J_rust|. The engine's J may be dense or sparse:
/// each column is accumulated into a scratch column (engine minus Rust), touching only its entries.
fn jacobian_difference(engine_jacobian: &Value, reference: &Csc, n: usize) -> f64 {
    let mut scratch = vec![0.0; n];
    let mut touched = Vec::new();
    let mut worst = 0.0_f64;
    for col in 0..n {
        let mut add = |row: usize, value: f64| {
            scratch[row] += value;
            touched.push(row);
        };
        match engine_jacobian {
            Value::Double(dense) => dense.data[col * n..(col + 1) * n].iter().enumerate().for_each(|(row, &v)| add(row, v)),
            Value::Sparse(sparse) => {
                (sparse.colptr()[col]..sparse.colptr()[col + 1]).for_each(|k| add(sparse.rowind()[k], sparse.values()[k]))
            }
            other => panic!("the Jacobian is a {}", other.class_name()),
        }
        (reference.col_ptr[col]..reference.col_ptr[col + 1]).for_each(|k| add(reference.row[k], -reference.value[k]));
        for row in touched.drain(..) {
            worst = worst.max(scratch[row].abs());
            scratch[row] = 0.0;
        }
    }
    worst / reference.value.iter().fold(0.0_f64, |m, v| m.max(v.abs()))
}

fn micros(t: Duration) -> String {
    significant(t.as_secs_f64() * 1e6)
}

/// Three significant digits, without an exponent.
fn significant(x: f64) -> String {
    let decimals = (2 - x.abs().max(1e-300).log10().floor() as i32).max(0) as usize;
    format!("{x:.decimals$}")
}

/// `MSAD_PROFILE=function,n,seconds[,nargout[,dense]]`: repeat the engine's J+f (or f), nothing else.
fn profile(spec: &str) {
    let fields: Vec<&str> = spec.split(',').collect();
    let [function, n, seconds, ..] = fields[..] else {
        panic!("MSAD_PROFILE=function,n,seconds[,nargout[,dense]], not {spec}");
    };
    let nargout = fields.get(3).map_or(2, |k| k.parse().expect("nargout"));
    let dense = fields.get(4) == Some(&"dense");
    let y = initial_state(n.parse().expect("n"));
    let until = Instant::now() + Duration::from_secs_f64(seconds.parse().expect("seconds"));
    let (mut engine, mut host, mut calls) = (Engine::new(), common::host(), 0);
    while Instant::now() < until {
        let mut request = engine_request(function, &y, nargout);
        if dense {
            request.options.sparsity = msad::engine::Sparsity::None;
        }
        black_box(engine.evaluate(&mut host, &request).expect("engine"));
        calls += 1;
    }
    println!("{calls} calls of {function} (nargout {nargout}) at n = {n}");
}

fn main() {
    if let Ok(spec) = std::env::var("MSAD_PROFILE") {
        return profile(&spec);
    }
    println!(
        "| version | n | Rust f (us) | Rust J+f (us) | engine f (us) | engine J+f (us) | engine first J+f (us) \
              | engine f / Rust f | engine J+f / Rust J+f (target <= 3) | max rel. diff of J |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut host = common::host();
    for (version, function) in [("scalar loops", "brusselator_rhs"), ("vectorised", "brusselator_rhs_vec")] {
        let mut engine = Engine::new();
        let mut measured: Vec<(usize, Duration)> = Vec::new();
        for n in SIZES {
            let y = initial_state(n);
            // Candidates 0..3: Rust f, Rust J+f, engine f, and (when not predicted too slow) engine J+f.
            let mut call = |k: usize| match k {
                0 => drop(black_box(rhs(&y))),
                1 => drop(black_box((rhs(&y), jacobian(&y)))),
                _ => drop(black_box(engine.evaluate(&mut host, &engine_request(function, &y, k - 1)).expect("engine"))),
            };
            let predicted = match measured.as_slice() {
                [.., (n0, t0), (n1, t1)] => {
                    let exponent = (t1.as_secs_f64() / t0.as_secs_f64()).ln() / (*n1 as f64 / *n0 as f64).ln();
                    t1.as_secs_f64() * (n as f64 / *n1 as f64).powf(exponent.clamp(1.0, 3.0))
                }
                _ => 0.0,
            };
            if predicted > CAP.as_secs_f64() {
                let [(_, rust_f), (_, rust_jf), (_, engine_f)] = median_times(3, &mut call)[..] else { unreachable!() };
                println!(
                    "| {version} | {n} | {} | {} | {} | skipped: predicted {predicted:.0} s > {} s | | {} | | |",
                    micros(rust_f),
                    micros(rust_jf),
                    micros(engine_f),
                    CAP.as_secs(),
                    significant(engine_f.as_secs_f64() / rust_f.as_secs_f64())
                );
                continue;
            }
            let [(_, rust_f), (_, rust_jf), (_, engine_f), (engine_first, engine_jf)] = median_times(4, &mut call)[..] else {
                unreachable!()
            };
            // Predictions extrapolate the slowest call: the first, with sparsity detection, may be it.
            measured.push((n, engine_jf.max(engine_first)));
            let evaluation = engine.evaluate(&mut host, &engine_request(function, &y, 2)).expect("engine J+f");
            let difference = jacobian_difference(evaluation.jacobian.as_ref().expect("a Jacobian"), &jacobian(&y), n);
            let ratio = engine_jf.as_secs_f64() / rust_jf.as_secs_f64();
            let status = if ratio <= 3.0 { "met".to_string() } else { format!("gap x{}", significant(ratio / 3.0)) };
            println!(
                "| {version} | {n} | {} | {} | {} | {} | {} | {} | {} {status} | {difference:.1e} |",
                micros(rust_f),
                micros(rust_jf),
                micros(engine_f),
                micros(engine_jf),
                micros(engine_first),
                significant(engine_f.as_secs_f64() / rust_f.as_secs_f64()),
                significant(ratio)
            );
        }
    }
}
