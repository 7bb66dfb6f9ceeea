//! Sparsity detection's two sides of an x-dependent branch, run one after the other on one frame.
//!
//! Copying the frame for the second side cost the size of every array the sides read, and uniting the
//! sides' whole patterns at the join the size of every array they leave: an `if` on x inside a loop
//! over the elements (`if y(k) > 0, f(k) = ... else f(k) = ... end`) made detection quadratic in n.
//! Here the other side runs first with a journal: the registers the taken side reads (its live-ins)
//! are guarded, so the side copies rather than moves them, except that an element assignment into
//! one (`f(k) = s`) writes in place and the journal keeps the element it overwrote. Undoing those edits
//! gives the taken side the state the branch left; its own edits are journaled the same way, and the
//! join unites the two sides' patterns only in the rows either side assigned.

use super::{Exit, Frame, Interpreter, Reg, Regs, element_position, phi_input};
use crate::ad::slot::Slot;
use crate::analysis::Activity;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::ir::{BlockId, FuncId, Function, Inst, Op, Phi, ValueId};
use crate::value::Value;
use crate::value::deriv::Deriv;

/// What a side may not consume of its frame, and the element assignments it made in place.
pub(super) struct Journal {
    /// Per register: read after this side (by the other side or at the join), so kept as it is.
    guarded: Vec<bool>,
    chains: Vec<Chain>,
}

/// A guarded register's array edited in place by a run of element assignments: the array is now in
/// register `tip` (guarded in turn), `edits` in order.
struct Chain {
    origin: ValueId,
    tip: ValueId,
    edits: Vec<Edit>,
}

/// An element an assignment overwrote: its value and derivative row before.
struct Edit {
    position: usize,
    value: f64,
    cols: Vec<usize>,
    vals: Vec<f64>,
}

/// What the other side leaves in a join variable, for the union with the taken side's pattern.
enum Arrival {
    /// Nothing to unite: the side failed, or left the variable undefined.
    Nothing,
    /// A value the side built.
    Whole(Box<Slot>),
    /// The guarded register `origin`'s array, with these rows assigned (row, its directions).
    Edited { origin: ValueId, rows: Vec<(usize, Vec<usize>)> },
}

impl Journal {
    fn new(size: usize, guarded: impl Iterator<Item = ValueId>) -> Journal {
        let mut flags = vec![false; size];
        guarded.for_each(|v| flags[v.index()] = true);
        Journal { guarded: flags, chains: Vec::new() }
    }

    /// Whether register `v` must stay in place: guarded, or holding an edited array.
    pub(super) fn holds(&self, v: ValueId) -> bool {
        self.guarded[v.index()] || self.chain_ending_at(v).is_some()
    }

    fn chain_ending_at(&self, v: ValueId) -> Option<&Chain> {
        self.chains.iter().find(|c| c.tip == v)
    }

    /// Records the element `inst` overwrites when it is an element assignment `a(i) = s` or
    /// `a(i, j) = s` of a real scalar inside a real double array with a sparse derivative, read for the
    /// last time (`last_use`) from a register this journal holds; the array then moves into the
    /// result, which the journal holds from now on. False: `inst` is no such assignment.
    pub(super) fn record(&mut self, inst: &Inst, last_use: bool, activity: &Activity, regs: &Regs) -> bool {
        let (Op::IndexAssign, [base, rhs, subs @ ..], [dest]) = (&inst.op, &inst.args[..], &inst.dests[..]) else { return false };
        if !last_use || !self.holds(*base) || self.holds(*dest) || !activity.is_active(*dest) {
            return false;
        }
        let (Reg::Val(Slot { value: Value::Double(a), deriv: Deriv::Sparse(rows), tape: None }), Reg::Val(r)) = (&regs[base], &regs[rhs])
        else {
            return false;
        };
        let Some(position) = element_position(regs, base, subs).filter(|_| scalar_double(r)) else { return false };
        let (cols, vals) = rows.row(position);
        let edit = Edit { position, value: a.data[position], cols: cols.to_vec(), vals: vals.to_vec() };
        match self.chains.iter_mut().find(|c| c.tip == *base) {
            Some(chain) => {
                chain.tip = *dest;
                chain.edits.push(edit);
            }
            None => self.chains.push(Chain { origin: *base, tip: *dest, edits: vec![edit] }),
        }
        true
    }

    /// Puts every edited array back, as it was, into its guarded register.
    fn undo(self, regs: &mut Regs) -> Result<()> {
        for chain in self.chains {
            let Reg::Val(mut slot) = std::mem::replace(&mut regs[chain.tip], Reg::Unset) else {
                return Err(lost_array());
            };
            let (Value::Double(a), Deriv::Sparse(rows)) = (&mut slot.value, &mut slot.deriv) else { return Err(lost_array()) };
            for edit in chain.edits.iter().rev() {
                a.data[edit.position] = edit.value;
                rows.replace_row(edit.position, &edit.cols, &edit.vals);
            }
            regs[chain.origin] = Reg::Val(slot);
        }
        Ok(())
    }

    /// The other side's value of a join variable, read from register `v` where it arrived.
    fn arrival(&self, v: ValueId, regs: &Regs) -> Arrival {
        match (&regs[v], self.chain_ending_at(v)) {
            (Reg::Val(Slot { deriv: Deriv::Sparse(block), .. }), Some(chain)) => {
                let mut positions: Vec<usize> = chain.edits.iter().map(|e| e.position).collect();
                positions.sort_unstable();
                positions.dedup();
                let rows = positions.into_iter().map(|p| (p, block.row(p).0.to_vec())).collect();
                Arrival::Edited { origin: chain.origin, rows }
            }
            (Reg::Val(_), None) if self.guarded[v.index()] => Arrival::Edited { origin: v, rows: Vec::new() },
            (Reg::Val(slot), _) => Arrival::Whole(Box::new(slot.clone())),
            _ => Arrival::Nothing,
        }
    }

    /// The rows the taken side's array arriving in `v` had before the side assigned them (the first
    /// edit of each row), when that array is `origin`'s: None for another array.
    fn original_rows(&self, v: ValueId, origin: ValueId) -> Option<Vec<(usize, &[usize])>> {
        if v == origin {
            return Some(Vec::new());
        }
        let chain = self.chain_ending_at(v).filter(|c| c.origin == origin)?;
        let mut rows: Vec<(usize, &[usize])> = chain.edits.iter().map(|e| (e.position, &e.cols[..])).collect();
        // A stable sort keeps each row's first edit first.
        rows.sort_by_key(|r| r.0);
        rows.dedup_by_key(|r| r.0);
        Some(rows)
    }
}

fn scalar_double(slot: &Slot) -> bool {
    matches!(&slot.value, Value::Double(r) if r.data.len() == 1) && slot.tape.is_none()
}

fn lost_array() -> Diagnostic {
    Diagnostic::new(ErrorKind::Internal, "sparsity detection lost an array it had assigned in place on one side of a branch")
}

/// A side's value of a join variable: its phi's input from the side's last block, or the phi itself
/// where a nested branch of the side set it (with the union of its own sides).
pub(super) fn arriving(phi: &Phi, (from, phis_set): (BlockId, bool)) -> ValueId {
    if phis_set { phi.dest } else { phi_input(phi, from) }
}

impl Interpreter<'_> {
    /// `run_both_sides` on one frame (see the module's comment): the other side first, its journal
    /// undone, then the taken side. Returns the taken side's block into the join.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run_sides_in_place(
        &mut self,
        id: FuncId,
        func: &Function,
        frame: &mut Frame,
        branch: BlockId,
        [taken, other]: [BlockId; 2],
        join: BlockId,
        nargout: usize,
    ) -> Result<BlockId> {
        let moves = &self.plan.moves[id];
        let taken_reads = moves.live_in(taken).iter().copied().chain(func.block(taken).phis.iter().map(|phi| phi_input(phi, branch)));
        frame.side = Some(Journal::new(frame.regs.len(), taken_reads));
        let caught = frame.caught.clone();
        let (trace_mark, calls_len, shared_mark) = (self.control.mark(), self.host_calls.len(), self.shared_mark());
        self.exploring.push((id, branch));
        let other_side = self.run_region(id, func, frame, other, Some(branch), Some(join), nargout);
        self.exploring.pop();
        self.control.rewind(trace_mark);
        self.host_calls.truncate(calls_len);
        self.rewind_shared(shared_mark);
        frame.caught = caught;
        let journal = frame.side.take().expect("set above");
        let phis = &func.block(join).phis;
        let arrivals: Vec<Arrival> = match other_side {
            Ok(Exit::Reached { from, phis_set }) => {
                phis.iter().map(|phi| journal.arrival(arriving(phi, (from, phis_set)), &frame.regs)).collect()
            }
            // The other side fails at this x (e.g. it indexes out of range): its pattern is unknown.
            _ => {
                self.control.unexplored_side();
                phis.iter().map(|_| Arrival::Nothing).collect()
            }
        };
        journal.undo(&mut frame.regs)?;
        let origins = arrivals.iter().filter_map(|a| match a {
            Arrival::Edited { origin, .. } => Some(*origin),
            _ => None,
        });
        frame.side = Some(Journal::new(frame.regs.len(), origins));
        let taken_side = self.run_region(id, func, frame, taken, Some(branch), Some(join), nargout);
        let journal = frame.side.take().expect("set above");
        let Exit::Reached { from, phis_set } = taken_side? else { unreachable!("the join post-dominates the branch") };
        for (k, (phi, arrival)) in phis.iter().zip(arrivals).enumerate() {
            let v = arriving(phi, (from, phis_set));
            // The taken side's array edited in place is read by this phi only: it moves in.
            let only_reader = phis.iter().enumerate().all(|(j, p)| j == k || arriving(p, (from, phis_set)) != v);
            let taken_input = match journal.chain_ending_at(v) {
                Some(_) if only_reader => std::mem::replace(&mut frame.regs[v], Reg::Unset),
                _ => frame.regs[v].clone(),
            };
            // A variable the taken side leaves undefined stays so (reading it later is an error).
            let Reg::Val(mut slot) = taken_input else {
                frame.regs[phi.dest] = taken_input;
                continue;
            };
            match arrival {
                Arrival::Nothing => {}
                // Neither side changed the variable.
                Arrival::Edited { origin, ref rows } if origin == v && rows.is_empty() => {}
                Arrival::Whole(alt) => self.unite_sides(&mut slot, &alt),
                Arrival::Edited { origin, rows } => match (journal.original_rows(v, origin), &mut slot.deriv) {
                    (Some(originals), Deriv::Sparse(block)) => {
                        rows.iter().for_each(|(r, cols)| block.unite_row(*r, cols));
                        let unassigned = originals.into_iter().filter(|(r, _)| rows.binary_search_by_key(r, |o| o.0).is_err());
                        unassigned.for_each(|(r, cols)| block.unite_row(r, cols));
                    }
                    _ => self.unite_with_edited(&mut slot, &frame.regs[origin], &rows),
                },
            }
            frame.regs[phi.dest] = Reg::Val(slot);
        }
        Ok(from)
    }

    /// The join's union where the other side's array is `origin`'s with `rows` assigned (their values
    /// unknown here: structural zeros) and the taken side's is another: from a copy of `origin`
    /// (unknown when the taken side consumed it).
    fn unite_with_edited(&mut self, slot: &mut Slot, origin: &Reg, rows: &[(usize, Vec<usize>)]) {
        let Reg::Val(alt) = origin else {
            self.control.unexplored_side();
            return;
        };
        let mut alt = alt.clone();
        if let Deriv::Sparse(block) = &mut alt.deriv {
            rows.iter().for_each(|(r, cols)| block.replace_row(*r, cols, &vec![0.0; cols.len()]));
        }
        self.unite_sides(slot, &alt);
    }

    /// Gives the taken side's `slot` of a join variable the structure of the other side's `alt` too.
    pub(super) fn unite_sides(&mut self, slot: &mut Slot, alt: &Slot) {
        // Sides that leave the variable with different sizes (or one complex) have no common
        // pattern: a zero block would take the other side's row count.
        let same_rows =
            alt.value.numel() == slot.value.numel() && matches!(alt.value, Value::Complex(_)) == matches!(slot.value, Value::Complex(_));
        if !same_rows {
            self.control.unexplored_side();
        } else if !slot.deriv.holds_structure_of(&alt.deriv) {
            match slot.deriv.with_structure_of(&alt.deriv) {
                Some(d) => slot.deriv = d,
                None => self.control.unexplored_side(),
            }
        }
    }
}
