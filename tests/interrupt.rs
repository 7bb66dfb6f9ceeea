//! An interrupt (Ctrl-C, reported by the host's poll) stops a run that would never end with Octave's
//! identifier, and the next call works from the same cache. Alone in its test binary: the interrupt
//! state belongs to the process, and other tests running meanwhile would stop too.

mod common;

use common::*;
use msad::engine::Engine;
use msad::exec::interrupt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The host's answer to "has the user pressed Ctrl-C?".
static CTRL_C: AtomicBool = AtomicBool::new(false);

fn ctrl_c_pressed() -> bool {
    CTRL_C.load(Ordering::Relaxed)
}

#[test]
fn an_interrupt_stops_an_endless_loop_and_the_next_call_works() {
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
    let done = evaluate(&mut engine, &named("spin"), vec![column(vec![1.0, 2.0]), column(vec![3.0])], 2).expect("a call after the interrupt");
    assert_eq!(values(&done.value), [4.0, 5.0]);
    assert_eq!(values(done.jacobian.as_ref().expect("J")), [1.0, 0.0, 0.0, 1.0]);
    interrupt::install(None);
}

