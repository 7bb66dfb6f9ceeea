//! The control record of a run: what decided the sparsity pattern the run found besides x's own
//! structure. A pattern detected on one call is reused on a later call only while the later call's
//! record says it took the same path (`ControlRecord::same_path`).

/// What the control path of a run tells about the sparsity pattern it found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ControlRecord {
    /// Nothing that may change between calls decided the pattern: it holds for every x.
    pub global: bool,
    /// Only the shapes (and sparse structures) of operands without derivative made the pattern local:
    /// the path digest holds all that decided it, so a later call on the same path needs no check.
    shapes_only: bool,
    /// A side of a two-sided `if` on x could not be explored (it failed at this x): the sides taken
    /// decide the pattern too.
    unexplored: bool,
    /// Digest of the decisions that make the pattern local: loop tests and branches on values that
    /// vary between calls, errors caught, and fingerprints of selections (subscripts, masks, sizes).
    path: Digest,
    /// Digest of the sides taken at two-sided `if`s on x, whose patterns detection unites.
    sides: Digest,
}

impl Default for ControlRecord {
    fn default() -> ControlRecord {
        ControlRecord { global: true, shapes_only: true, unexplored: false, path: Digest::default(), sides: Digest::default() }
    }
}

impl ControlRecord {
    /// Whether a run with record `later` took the path this record's pattern was detected on.
    pub fn same_path(&self, later: &ControlRecord) -> bool {
        self.global || (self.path == later.path && (!self.unexplored || self.sides == later.sides))
    }

    /// Whether a later call on the same path must check the pattern along one more direction: what
    /// made it local may have decided more than the digests hold (see `engine::jacobian`).
    pub fn needs_check(&self) -> bool {
        !self.global && !self.shapes_only
    }

    /// A decision that makes the pattern local.
    pub(super) fn branch(&mut self, taken: bool) {
        self.local();
        self.path.add(u64::from(taken));
    }

    /// The pattern is local, decided by more than shapes.
    pub(super) fn local(&mut self) {
        self.global = false;
        self.shapes_only = false;
    }

    /// The side taken at a two-sided `if` on x.
    pub(super) fn side(&mut self, taken: bool) {
        self.sides.add(u64::from(taken));
    }

    /// Detection could not explore the other side of the last two-sided `if`.
    pub(super) fn unexplored_side(&mut self) {
        self.local();
        self.unexplored = true;
    }

    /// An error caught at `place` (a function and block, hashed), or a selection's fingerprint.
    pub(super) fn decided(&mut self, fingerprint: u64) {
        self.local();
        self.path.add(fingerprint);
    }

    /// A fingerprint of the shapes of operands without derivative that decide a structural pattern.
    pub(super) fn shaped(&mut self, fingerprint: u64) {
        self.global = false;
        self.path.add(fingerprint);
    }

    /// Where the digests stand, to go back there (`rewind`) after exploring the other side of a branch.
    pub(super) fn mark(&self) -> (Digest, Digest) {
        (self.path, self.sides)
    }

    pub(super) fn rewind(&mut self, (path, sides): (Digest, Digest)) {
        (self.path, self.sides) = (path, sides);
    }
}

/// An order-sensitive digest of a sequence of 64-bit items, updated in place (a trace of a loop's
/// decisions costs no memory).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Digest {
    state: u64,
    count: u64,
}

impl Digest {
    fn add(&mut self, item: u64) {
        self.count += 1;
        self.state = mix(self.state ^ mix(item.wrapping_add(self.count)));
    }
}

/// SplitMix64's finaliser: every input bit affects every output bit.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_tell_orders_and_lengths_apart() {
        let digest = |items: &[u64]| {
            let mut d = Digest::default();
            items.iter().for_each(|&i| d.add(i));
            d
        };
        assert_ne!(digest(&[0, 1]), digest(&[1, 0]));
        assert_ne!(digest(&[1]), digest(&[1, 1]));
        assert_ne!(digest(&[0]), digest(&[]));
        assert_eq!(digest(&[3, 1, 4]), digest(&[3, 1, 4]));
    }

    #[test]
    fn only_a_local_pattern_compares_paths_and_sides_only_when_unexplored() {
        let (mut detected, mut later) = (ControlRecord::default(), ControlRecord::default());
        later.branch(true);
        assert!(detected.same_path(&later), "a global pattern holds on every path");
        detected.branch(false);
        assert!(!detected.same_path(&later));
        detected = later;
        later.side(true);
        assert!(detected.same_path(&later), "both sides were explored");
        detected.unexplored_side();
        assert!(!detected.same_path(&later));
    }
}
