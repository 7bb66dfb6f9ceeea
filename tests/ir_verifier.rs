//! The IR verifier: every fixture and reference problem keeps a valid IR through lowering and each
//! pass (as the engine checks in debug builds and after `check_always`), and broken IR is caught.

mod common;

use common::*;
use msad::analysis::verify::{check_always, verify};
use msad::analysis::{eliminate_common_subexpressions, fold_constants, inline_calls, propagate};
use msad::engine::Engine;
use msad::ir::program::Loader;
use msad::ir::{BlockId, FuncId, Function, Op, Program, Terminator};

fn verify_all(program: &Program, pass: &str) {
    for func in &program.functions {
        if let Err(problem) = verify(func) {
            panic!("'{}' after {pass}: {problem}", func.name);
        }
    }
}

#[test]
fn every_fixture_keeps_a_valid_ir_through_the_passes() {
    let mut checked = 0;
    for dir in ["tests/octave/fixtures", "tests/octave/problems"] {
        let mut names: Vec<String> = std::fs::read_dir(repo_path(dir))
            .expect("fixture folder")
            .filter_map(|e| e.ok()?.path().file_stem().map(|s| s.to_string_lossy().into_owned()))
            .collect();
        names.sort();
        for name in names {
            // Fixtures of load-time errors (broken syntax, unsupported calls) have no IR.
            let Ok(mut program) = Loader::new(&mut host()).load_named(&name) else { continue };
            verify_all(&program, "lowering");
            inline_calls(&mut program);
            verify_all(&program, "inlining");
            for func in &mut program.functions {
                let lattice = propagate(func, &[]);
                fold_constants(func, &lattice);
                eliminate_common_subexpressions(func);
            }
            verify_all(&program, "folding and common subexpressions");
            checked += 1;
        }
    }
    assert!(checked >= 80, "only {checked} programs loaded");
}

#[test]
fn the_engine_checks_its_ir_when_asked() {
    check_always();
    let result = evaluate(&mut Engine::new(), &named("loop_while"), vec![column(vec![0.3, 1.7, 2.5])], 2);
    assert!(result.is_ok(), "{:?}", result.err());
}

/// A function with a loop (phis, two predecessors at the header) from the fixtures.
fn looping() -> Function {
    let program = Loader::new(&mut host()).load_named("loop_while").expect("fixture loads");
    let func = program.functions[FuncId::ENTRY].clone();
    verify(&func).expect("valid as lowered");
    func
}

fn broken(change: impl FnOnce(&mut Function)) -> String {
    let mut func = looping();
    change(&mut func);
    verify(&func).expect_err("the verifier catches it")
}

#[test]
fn broken_ir_is_caught() {
    let joins = |f: &Function| f.blocks.iter_ids().find(|(_, b)| !b.phis.is_empty()).expect("a loop header").0;
    let message = broken(|f| {
        let b = joins(f);
        f.blocks[b].preds.pop();
    });
    assert!(message.contains("lists predecessors"), "{message}");
    let message = broken(|f| {
        let b = joins(f);
        f.blocks[b].phis[0].incoming.pop();
    });
    assert!(message.contains("has inputs from"), "{message}");
    // The function returns a value defined after the entry block: used in the entry, it comes too early.
    let message = broken(|f| {
        let Terminator::Return(values) =
            f.blocks.iter().find(|b| matches!(&b.term, Terminator::Return(v) if !v.is_empty())).unwrap().term.clone()
        else {
            unreachable!()
        };
        let first = f.blocks[BlockId::ENTRY].insts.iter_mut().find(|i| !i.args.is_empty()).expect("an instruction with operands");
        first.args[0] = values[0];
    });
    assert!(message.contains("does not dominate") || message.contains("never defined"), "{message}");
    let message = broken(|f| {
        let constant = f.blocks[BlockId::ENTRY].insts.iter_mut().find(|i| matches!(i.op, Op::Const(_))).expect("a constant");
        constant.args.push(constant.dests[0]);
    });
    assert!(message.contains("operands"), "{message}");
}
