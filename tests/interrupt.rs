//! An interrupt (Ctrl-C, reported by the host's poll) stops a run that would never end with Octave's
//! identifier, and the next call works from the same cache. Alone in its test binary: the interrupt
//! state belongs to the process, and other tests running meanwhile would stop too.

mod common;

use common::*;
use msad::engine::Engine;
use msad::primitives;
use msad::value::interrupt;
use msad::value::{Array, Value};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The host's answer to "has the user pressed Ctrl-C?".
static CTRL_C: AtomicBool = AtomicBool::new(false);

/// The tests take turns: the interrupt state belongs to the process.
static TURN: Mutex<()> = Mutex::new(());

fn ctrl_c_pressed() -> bool {
    CTRL_C.load(Ordering::Relaxed)
}

/// Presses Ctrl-C after `delay`, from another thread.
fn press_after(delay: Duration) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        std::thread::sleep(delay);
        CTRL_C.store(true, Ordering::Relaxed);
    })
}

fn release() {
    CTRL_C.store(false, Ordering::Relaxed);
    interrupt::clear();
}

/// A kernel that takes seconds (a product of two 3000 x 3000 matrices, a polynomial of degree 10^5
/// at 10^5 points, the LU factorization of a 4000 x 4000 matrix) stops soon after Ctrl-C with the payload the gateway reports as `Octave:interrupt`.
#[test]
fn long_kernels_stop_between_chunks() {
    let _turn = TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    interrupt::install(Some(ctrl_c_pressed));
    let matrix = |n: usize| Value::Double(Array::new(vec![n, n], (0..n * n).map(|k| (k % 7) as f64).collect()));
    let row = |n: usize| Value::Double(Array::row(vec![0.5; n]));
    let diagonally_dominant = |n: usize| {
        let mut a = vec![1.0; n * n];
        (0..n).for_each(|i| a[i + n * i] = 2.0 * n as f64);
        Value::Double(Array::new(vec![n, n], a))
    };
    let cases = [
        ("mtimes", matrix(3000), matrix(3000)),
        ("polyval", row(100_000), row(100_000)),
        ("mldivide", diagonally_dominant(4000), Value::Double(Array::column(vec![1.0; 4000]))),
    ];
    for (name, a, b) in cases {
        let press = press_after(Duration::from_millis(200));
        let started = Instant::now();
        let id = primitives::lookup(name).expect("a primitive");
        let outcome = std::panic::catch_unwind(|| primitives::eval(id, &[&a, &b], 1));
        press.join().expect("the presser thread");
        let payload = outcome.expect_err("the kernel stops");
        assert!(payload.is::<interrupt::Interrupted>(), "{name} stops with the Interrupted payload");
        assert!(started.elapsed() < Duration::from_secs(3), "{name} stopped after {:?}", started.elapsed());
        release();
    }
    interrupt::install(None);
}

#[test]
fn an_interrupt_stops_an_endless_loop_and_the_next_call_works() {
    let _turn = TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    interrupt::install(Some(ctrl_c_pressed));
    let mut engine = Engine::new();
    let press = std::thread::spawn(|| {
        std::thread::sleep(Duration::from_millis(300));
        CTRL_C.store(true, Ordering::Relaxed);
    });
    let started = Instant::now();
    let endless = evaluate(&mut engine, &named("spin"), vec![column(vec![1.0, 2.0]), column(vec![f64::INFINITY])], 2);
    press.join().expect("the presser thread");
    let error = endless.expect_err("the endless loop ends with an error");
    assert_eq!(error.identifier(), "Octave:interrupt", "{}", error.message);
    assert!(started.elapsed() < Duration::from_secs(20), "stopped after {:?}", started.elapsed());
    CTRL_C.store(false, Ordering::Relaxed);
    interrupt::clear();
    // A loop with an empty body (run as a register program when only f is asked for) stops too.
    let press = std::thread::spawn(|| {
        std::thread::sleep(Duration::from_millis(300));
        CTRL_C.store(true, Ordering::Relaxed);
    });
    let empty = evaluate(&mut engine, &named("spin_forever"), vec![column(vec![1.0, 2.0])], 1);
    press.join().expect("the presser thread");
    assert_eq!(empty.expect_err("the empty loop ends with an error").identifier(), "Octave:interrupt");

    CTRL_C.store(false, Ordering::Relaxed);
    interrupt::clear();
    let done =
        evaluate(&mut engine, &named("spin"), vec![column(vec![1.0, 2.0]), column(vec![3.0])], 2).expect("a call after the interrupt");
    assert_eq!(values(&done.value), [4.0, 5.0]);
    assert_eq!(values(done.jacobian.as_ref().expect("J")), [1.0, 0.0, 0.0, 1.0]);
    interrupt::install(None);
}
