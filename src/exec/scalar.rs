//! The fast path of loop code: operations on real scalars (elementwise kernels, `x(i)`, `a(i) = s`).
//!
//! The general path builds operand vectors, expands 1x1 operands through the broadcasting machinery
//! and allocates every result; on scalars that costs far more than the arithmetic. Here the primitive
//! table's own scalar kernels (`f`, `df`, `partials`) run on f64 operands, and results are written
//! into the buffers the destination register already holds: a loop body runs the same instruction on
//! every iteration, so after the first one a scalar operation allocates nothing. Anything else (sparse
//! derivative blocks, containers, complex results, errors) returns `None` and takes the general path,
//! which stays the reference semantics.
//!
//! Gradient tapes record these operations compactly: the partials computed here, and the position
//! an element read takes (see `Tape::record_scalar`).

use crate::ad::reverse::tape::{Tape, TapeVar};
use crate::ad::slot::Slot;
use crate::primitives::{self, Kernel, Prim, PrimId};
use crate::value::deriv::{DenseDeriv, Deriv};
use crate::value::{Array, Value};

/// What a fast-path operation did with its result: None, written into the destination's buffers;
/// else a new slot for the destination (boxed: the in-place case, taken on every loop iteration after
/// the first, then moves one word instead of a whole slot).
pub(super) type Written = Option<Box<Slot>>;

/// A real scalar operand: its value and its derivative row (None: zero derivative).
pub(super) struct Operand<'a> {
    pub x: f64,
    pub dx: Option<&'a [f64]>,
}

pub(super) fn operand(slot: &Slot) -> Option<Operand<'_>> {
    let Value::Double(a) = &slot.value else { return None };
    if a.data.len() != 1 || a.dims.len() != 2 {
        return None;
    }
    let dx = match &slot.deriv {
        Deriv::Zero => None,
        Deriv::Dense(d) if d.rows == 1 => Some(&d.data[..]),
        _ => return None,
    };
    Some(Operand { x: a.data[0], dx })
}

/// The elementwise primitive a matrix operation is on scalars (`*` is `.*`, ...).
fn elementwise_equivalent(id: PrimId) -> PrimId {
    primitives::get(id).elementwise_twin.map_or(id, |twin| twin.prim)
}

/// The kernel `id` runs on real scalars (a matrix operation's elementwise equivalent).
pub(super) fn scalar_kernel(id: PrimId) -> &'static Kernel {
    &primitives::get(elementwise_equivalent(id)).kernel
}

/// Whether `id` is the condition primitive `truth` (see `truth`), or a `for` loop's `for_item`.
pub(super) fn is_truth(id: PrimId) -> bool {
    id == Prim::Truth
}
pub(super) fn is_for_item(id: PrimId) -> bool {
    id == Prim::ForItem
}

/// A branch condition on a real or logical scalar (NaN: the general path raises the error).
fn truth(slot: &Slot) -> Option<bool> {
    match &slot.value {
        Value::Logical(a) if a.data.len() == 1 => Some(a.data[0]),
        Value::Double(a) if a.data.len() == 1 && !a.data[0].is_nan() => Some(a.data[0] != 0.0),
        _ => None,
    }
}

/// A scalar result and the partials of its derivative with respect to each operand.
pub(super) enum Outcome {
    Number { y: f64, partials: [f64; 2], differentiable: bool },
    Logical(bool),
}

/// `kernel` (see `scalar_kernel`) on the operand values `a` and `b`; None where its result is not a
/// real scalar (a complex result, a wrong operand count).
pub(super) fn apply(kernel: &Kernel, a: f64, b: Option<f64>) -> Option<Outcome> {
    match (kernel, b) {
        (Kernel::Unary { f, df, domain, .. }, None) => {
            if domain.is_some_and(|inside| !inside(a)) {
                return None;
            }
            let y = f(a);
            Some(Outcome::Number { y, partials: [df.map_or(0.0, |df| df(a, y)), 0.0], differentiable: df.is_some() })
        }
        (Kernel::Binary { f, partials, complex_result, .. }, Some(b)) => {
            if complex_result.is_some_and(|complex| complex(a, b)) {
                return None;
            }
            let y = f(a, b);
            let (da, db) = partials(a, b, y);
            Some(Outcome::Number { y, partials: [da, db], differentiable: true })
        }
        (Kernel::Predicate(f), Some(b)) => Some(Outcome::Logical(f(a, b))),
        _ => None,
    }
}

/// `id(operands...)` when every operand is a real scalar; `None`: take the general path. The result is
/// written into `dest` (the destination register's old slot) when its buffers fit (see `Written`).
/// `active`: whether the result carries a derivative (activity analysis). `tape`: a gradient tape
/// recording the run.
pub(super) fn primitive(
    id: PrimId,
    operands: &[&Slot],
    active: bool,
    mut dest: Option<&mut Slot>,
    tape: Option<&mut Tape>,
) -> Option<Written> {
    if is_truth(id) {
        return Some(write_logical(dest, truth(operands.first()?)?));
    }
    if is_for_item(id) {
        return loop_item(operands, dest, tape);
    }
    let (a, b) = match operands {
        [a] => (operand(a)?, None),
        [a, b] => (operand(a)?, Some(operand(b)?)),
        _ => return None,
    };
    Some(match apply(scalar_kernel(id), a.x, b.as_ref().map(|b| b.x))? {
        Outcome::Logical(t) => write_logical(dest, t),
        Outcome::Number { y, partials, differentiable } => {
            let active = active && differentiable;
            let terms = [(partials[0], a.dx), (partials[1], b.as_ref().and_then(|b| b.dx))];
            let taped = |k: usize| Some((operands.get(k)?.tape?, partials[k]));
            let var = tape.filter(|_| active).and_then(|tape| tape.record_scalar([taped(0), taped(1)]));
            let written = store(dest.as_deref_mut(), y, if active { terms } else { [(0.0, None); 2] });
            set_tape(written, dest, var)
        }
    })
}

/// Item `counter` (0-based) of a loop over a real row vector: its element, as `element` writes it.
fn loop_item(operands: &[&Slot], dest: Option<&mut Slot>, tape: Option<&mut Tape>) -> Option<Written> {
    let [collection, counter] = operands else { return None };
    element(collection, item_position(collection, operand(counter)?.x)?, dest, tape)
}

/// The position of item `counter` of a loop over `collection`, when that is a real row vector.
pub(super) fn item_position(collection: &Slot, counter: f64) -> Option<usize> {
    let Value::Double(a) = &collection.value else { return None };
    let row = a.dims.len() == 2 && a.dims[0] == 1;
    (row && counter >= 0.0 && counter.fract() == 0.0).then_some(counter as usize)
}

/// `base(k)` for a scalar linear position `k` (0-based) into a real double array, written as by
/// `primitive`; `None` for anything else (the general path raises the errors).
pub(super) fn element(base: &Slot, k: usize, mut dest: Option<&mut Slot>, tape: Option<&mut Tape>) -> Option<Written> {
    let (y, block) = element_of(base, k)?;
    let written = match block {
        None => write_value(dest.as_deref_mut(), y, Deriv::Zero),
        Some(d) => {
            let mut row = d.data.iter().skip(k).step_by(d.rows);
            write(dest.as_deref_mut(), y, d.nd, |out| out.iter_mut().for_each(|o| *o = *row.next().expect("nd entries")))
        }
    };
    let var = tape.zip(base.tape).map(|(tape, base)| tape.record_element(base, k));
    Some(set_tape(written, dest, var))
}

/// `base(k)` and the dense derivative block its row is read from (entries `k`, `k + rows`, ...; None:
/// zero derivative); None where `element` takes the general path.
pub(super) fn element_of(base: &Slot, k: usize) -> Option<(f64, Option<&DenseDeriv>)> {
    let Value::Double(a) = &base.value else { return None };
    let y = *a.data.get(k)?;
    match &base.deriv {
        Deriv::Zero => Some((y, None)),
        Deriv::Dense(d) => Some((y, Some(d))),
        _ => None,
    }
}

/// Gives the result written by `write` and friends (returned, or in `dest` when None) its tape variable.
fn set_tape(written: Written, dest: Option<&mut Slot>, var: Option<TapeVar>) -> Written {
    match written {
        Some(mut slot) => {
            slot.tape = var;
            Some(slot)
        }
        None => {
            dest.expect("written into dest").tape = var;
            None
        }
    }
}

/// Whether `id` joins its operands in brackets (see `concatenate`).
pub(super) fn is_concatenation(id: PrimId) -> bool {
    matches!(id, Prim::Vertcat | Prim::Horzcat)
}

/// `[a; b; ...]` or `[a, b, ...]` (`id` as for `is_concatenation`) of `count` real scalars, read with
/// `operand_at`, written into `dest`'s buffers when they have the result's shape, else returned as a new
/// slot; `None`: take the general path. A residual `f = [r1; r2; r3]` is the typical case.
pub(super) fn concatenate<'a>(
    id: PrimId,
    count: usize,
    operand_at: impl Fn(usize) -> Option<&'a Slot>,
    active: bool,
    dest: Option<&mut Slot>,
) -> Option<Written> {
    let dims = if id == Prim::Vertcat { [count, 1] } else { [1, count] };
    let mut nd = None;
    for k in 0..count {
        let dx = operand(operand_at(k)?)?.dx;
        match (nd, dx) {
            (_, None) => {}
            (None, Some(dx)) => nd = Some(dx.len()),
            (Some(n), Some(dx)) if n == dx.len() => {}
            _ => return None,
        }
    }
    let nd = nd.filter(|_| active);
    let fill = |values: &mut [f64], mut derivative: Option<&mut [f64]>| {
        for k in 0..count {
            let a = operand(operand_at(k).expect("checked above")).expect("checked above");
            values[k] = a.x;
            if let Some(derivative) = derivative.as_deref_mut() {
                for (j, d) in a.dx.map_or(&[][..], |dx| dx).iter().enumerate() {
                    derivative[j * count + k] = *d;
                }
            }
        }
    };
    if let Some(Slot { value: Value::Double(a), deriv, tape }) = dest {
        let deriv_fits = match (nd, &mut *deriv) {
            (None, _) => true,
            (Some(nd), Deriv::Dense(d)) => d.rows == count && d.nd == nd,
            (Some(_), _) => false,
        };
        if a.dims == dims && deriv_fits {
            *tape = None;
            match (nd, deriv) {
                (Some(_), Deriv::Dense(d)) => {
                    d.data.iter_mut().for_each(|d| *d = 0.0);
                    fill(&mut a.data, Some(&mut d.data));
                }
                (_, deriv) => {
                    *deriv = Deriv::Zero;
                    fill(&mut a.data, None);
                }
            }
            return Some(None);
        }
    }
    let mut values = vec![0.0; count];
    let mut derivative = nd.map(|nd| DenseDeriv::zeros(count, nd));
    fill(&mut values, derivative.as_mut().map(|d| &mut d.data[..]));
    let deriv = derivative.map_or(Deriv::Zero, Deriv::Dense);
    Some(Some(Box::new(Slot::new(Value::Double(Array::new(dims.to_vec(), values)), deriv))))
}

/// `base(k) = rhs` in place, for a scalar `rhs` and a position inside a real double array; `false`:
/// take the general path (`base` is untouched then).
pub(super) fn assign_element(base: &mut Slot, k: usize, rhs: &Slot) -> bool {
    operand(rhs).is_some_and(|r| assign_operand(base, k, &r))
}

/// `base(k) = r` in place, as `assign_element`.
pub(super) fn assign_operand(base: &mut Slot, k: usize, r: &Operand) -> bool {
    let Value::Double(a) = &mut base.value else { return false };
    if k >= a.data.len() || base.tape.is_some() {
        return false;
    }
    let rows = a.data.len();
    match (&mut base.deriv, r.dx) {
        (Deriv::Zero, None) => {}
        (Deriv::Dense(d), dx) if d.rows == rows => {
            for j in 0..d.nd {
                d.data[j * rows + k] = dx.map_or(0.0, |dx| dx[j]);
            }
        }
        (Deriv::Zero, Some(dx)) => {
            let mut d = DenseDeriv::zeros(rows, dx.len());
            (0..dx.len()).for_each(|j| d.data[j * rows + k] = dx[j]);
            base.deriv = Deriv::Dense(d);
        }
        _ => return false,
    }
    a.data[k] = r.x;
    true
}

/// A scalar subscript's 0-based position: a positive integer-valued real scalar.
pub(super) fn position(slot: &Slot) -> Option<usize> {
    match &slot.value {
        Value::Double(a) if a.data.len() == 1 => position_of(a.data[0]),
        _ => None,
    }
}

/// The 0-based position a real subscript `x` names, when it is a positive integer.
pub(super) fn position_of(x: f64) -> Option<usize> {
    (x >= 1.0 && x.fract() == 0.0).then(|| x as usize - 1)
}

/// Stores the value `y` with derivative `sum_t c_t dx_t` over the terms `(c_t, dx_t)` whose row is
/// present (none: zero derivative) in `dest`, or returns a new slot. A fixed pair, not an iterator:
/// this runs once per scalar operation, and moving an iterator chain around costs more than the sum.
fn store(dest: Option<&mut Slot>, y: f64, terms: [(f64, Option<&[f64]>); 2]) -> Written {
    match terms {
        [(c, Some(dx)), (e, Some(dy))] => write(dest, y, dx.len(), |out| {
            out.iter_mut().zip(dx).for_each(|(o, d)| *o = c * d);
            out.iter_mut().zip(dy).for_each(|(o, d)| *o += e * d);
        }),
        [(c, Some(dx)), _] | [_, (c, Some(dx))] => write(dest, y, dx.len(), |out| out.iter_mut().zip(dx).for_each(|(o, d)| *o = c * d)),
        _ => write_value(dest, y, Deriv::Zero),
    }
}

/// Writes `y` and a 1 x nd derivative row filled by `fill`, into `dest`'s buffers when it holds a scalar
/// with a row of the same length (None), else into a new slot.
pub(super) fn write(dest: Option<&mut Slot>, y: f64, nd: usize, fill: impl FnOnce(&mut [f64])) -> Written {
    if let Some(Slot { value: Value::Double(a), deriv: Deriv::Dense(d), tape }) = dest
        && a.data.len() == 1
        && a.dims.len() == 2
        && d.rows == 1
        && d.nd == nd
    {
        *tape = None;
        a.data[0] = y;
        fill(&mut d.data);
        return None;
    }
    let mut row = vec![0.0; nd];
    fill(&mut row);
    Some(Box::new(Slot::new(Value::scalar(y), Deriv::Dense(DenseDeriv { rows: 1, nd, data: row }))))
}

pub(super) fn write_value(dest: Option<&mut Slot>, y: f64, deriv: Deriv) -> Written {
    match dest {
        Some(Slot { value: Value::Double(a), deriv: d, tape }) if a.data.len() == 1 && a.dims.len() == 2 => {
            *tape = None;
            a.data[0] = y;
            *d = deriv;
            None
        }
        _ => Some(Box::new(Slot::new(Value::scalar(y), deriv))),
    }
}

pub(super) fn write_logical(dest: Option<&mut Slot>, t: bool) -> Written {
    match dest {
        Some(Slot { value: Value::Logical(l), deriv: Deriv::Zero, tape }) if l.data.len() == 1 && l.dims.len() == 2 => {
            *tape = None;
            l.data[0] = t;
            None
        }
        _ => Some(Box::new(Slot::inactive(Value::Logical(Array::scalar(t))))),
    }
}
