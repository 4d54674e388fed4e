//! Checkpoints: the whole state of a run (board, signals, counters and the generator's state)
//! as bytes, so a run of hours can stop and resume bit-exactly.
//!
//! Format (version 3; versions 1 and 2 have the same layout without the rule byte), all
//! integers little-endian:
//!
//! | bytes | content |
//! | --- | --- |
//! | 8 | magic `DMRAUTO\0` |
//! | 4 | format version (3: the rule byte below; 2: no rule byte, a model 3 state is under the kept rule of issue 40, `kept`; 1: read for models 1 and 2 only) |
//! | 1 | model: 0 = pair, 1 = cell, 2 = row |
//! | 4 | n |
//! | 8 + 8 | ε and η as IEEE-754 bits (exact) |
//! | 8 + 8 + 8 | seed, steps, moves (each at most [`MAX_COUNTER`] = 2^63) |
//! | 32 | the generator's state (4 words of xoshiro256++, not all zero) |
//! | 4 n² | each cell row-major: signal bits 0..8, queen count above (models 1 and 2); model 3: [`RowBoard::word`](super::row::RowBoard::word) |
//! | 1 | version 3 only: model 3's rule, [`RuleName::code`] (0, the kept rule, for models 1 and 2) |
//! | 8 | FNV-1a 64 of every byte before it |
//!
//! [`decode`] checks everything a foreign or damaged file could break (magic, version, length,
//! checksum, parameters, counters, the generator's state, queen total, signal bits) and
//! answers with a [`CheckpointError`]. The checksum only catches accidents: a file altered on
//! purpose can carry a correct one, so every field is also checked against what a run can
//! reach. A model 3 state resumes under the rule that wrote it. A generator state of all zeros (xoshiro256++ draws only zeros from it, forever) and
//! step or move counts above [`MAX_COUNTER`] (2^63, so that a resumed run's counters have
//! 2^63 updates of room before they could wrap) are refused.
//!
//! ```
//! use damier::automaton::{Automaton, Model, Params, checkpoint};
//!
//! let mut a = Automaton::from_seed(&Params::new(Model::Cell, 8).unwrap(), 5).unwrap();
//! a.run_steps(1_000);
//! let mut b = checkpoint::decode(&checkpoint::encode(&a)).unwrap();
//! a.run_steps(1_000_000);
//! b.run_steps(1_000_000); // the restored run goes on step for step
//! assert_eq!((a.steps(), a.moves(), a.counts()), (b.steps(), b.moves(), b.counts()));
//! ```

use rand_xoshiro::Xoshiro256PlusPlus;

pub(super) mod format;

pub use format::{CheckpointError, MAGIC, MAX_COUNTER, OLDEST_VERSION, VERSION};

use super::row::RuleName;
use super::{Automaton, AutomatonError, Model, Params, ROW_MAX_N};
use crate::util::fnv1a;

/// Bytes before the cells.
const HEADER: usize = 8 + 4 + 1 + 4 + 8 + 8 + 8 + 8 + 8 + 32;
/// The length of the largest checkpoint (n = `ROW_MAX_N`, model 3's largest side): a reader
/// never needs more bytes to decode or refuse a file (a device such as `/dev/zero` never
/// ends).
pub const MAX_LEN: u64 = (HEADER + 4 * ROW_MAX_N as usize * ROW_MAX_N as usize + 1 + 8) as u64;

/// Bytes after the cells and before the checksum in format `version`: the rule byte from
/// version 3.
fn rule_bytes(version: u32) -> usize {
    usize::from(version >= 3)
}

/// The generator's four state words (xoshiro256++'s `s`), read through its serde form: what
/// a checkpoint stores, and what an engine that draws elsewhere (the GPU's) starts from.
pub fn generator_words(rng: &Xoshiro256PlusPlus) -> [u64; 4] {
    let v = serde_json::to_value(rng).expect("the generator serialises");
    let s = v.get("s").and_then(|s| s.as_array()).expect("xoshiro256++ state is `s: [u64; 4]`");
    std::array::from_fn(|i| s[i].as_u64().expect("state word"))
}

/// The generator whose state words are `words` ([`generator_words`]).
pub fn generator_from_words(words: [u64; 4]) -> Result<Xoshiro256PlusPlus, CheckpointError> {
    serde_json::from_value(serde_json::json!({ "s": words }))
        .map_err(|e| CheckpointError::State(format!("generator state: {e}")))
}

/// The checkpoint of `a`.
pub fn encode(a: &Automaton) -> Vec<u8> {
    let n = a.n() as usize;
    let mut out = Vec::with_capacity(HEADER + 4 * n * n + 8);
    encode_to(a, &mut out).expect("a Vec takes every write");
    out
}

/// The checkpoint of `a` written to `w` as it is made: [`encode`] without holding it (a board
/// of 16 384 x 16 384 is a gigabyte of cells; `encode` held it twice over, on top of the run).
pub fn encode_to(a: &Automaton, w: &mut dyn std::io::Write) -> std::io::Result<()> {
    /// The writer and the running checksum of what went through it.
    struct Summed<'a> {
        w: &'a mut dyn std::io::Write,
        sum: crate::util::Fnv1a,
    }
    impl Summed<'_> {
        fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
            self.sum.write(bytes);
            self.w.write_all(bytes)
        }
    }
    let p = a.params();
    let n = a.n() as usize;
    let mut out = Summed { w, sum: crate::util::Fnv1a::new() };
    out.put(MAGIC)?;
    out.put(&VERSION.to_le_bytes())?;
    out.put(&[match p.model {
        Model::Pair => 0,
        Model::Cell => 1,
        Model::Row => 2,
    }])?;
    out.put(&a.n().to_le_bytes())?;
    for v in [p.eps.to_bits(), p.eta.to_bits(), a.seed(), a.steps(), a.moves()] {
        out.put(&v.to_le_bytes())?;
    }
    for word in generator_words(a.generator()) {
        out.put(&word.to_le_bytes())?;
    }
    // A row at a time (64 KiB at n = 16 384).
    let mut row = vec![0u8; 4 * n];
    for y in 0..n {
        a.row_bytes(y, &mut row);
        out.put(&row)?;
    }
    out.put(&[a.row_rule().unwrap_or(RuleName::Kept).code()])?;
    let sum = out.sum.finish();
    out.w.write_all(&sum.to_le_bytes())
}

/// Reads little-endian fields in order.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const K: usize>(&mut self) -> [u8; K] {
        let v: [u8; K] = self.bytes[self.at..self.at + K].try_into().expect("length checked");
        self.at += K;
        v
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
}

/// Bytes a reader takes first to learn, by [`declared_len`], how long the whole file must be.
pub const HEADER_LEN: usize = HEADER;

/// The length of the checkpoint whose first bytes are `head` (at least [`HEADER_LEN`] of
/// them, or the whole file if shorter), checked against its model's largest side: a reader
/// reads that many bytes and no more, so a foreign or endless input (`/dev/zero`) is refused
/// after [`HEADER_LEN`] bytes instead of after [`MAX_LEN`].
pub fn declared_len(head: &[u8]) -> Result<u64, CheckpointError> {
    if head.len() < 12 || &head[..8] != MAGIC {
        return Err(CheckpointError::Foreign);
    }
    let mut r = Reader { bytes: head, at: 8 };
    let version = r.u32();
    if !(OLDEST_VERSION..=VERSION).contains(&version) {
        return Err(CheckpointError::Version(version));
    }
    if head.len() < HEADER {
        return Err(CheckpointError::Length { expected: HEADER as u64 + 8, got: head.len() as u64 });
    }
    let max = match r.take::<1>()[0] {
        0 | 1 => Model::Pair.max_n(),
        _ => ROW_MAX_N, // an unknown model code is refused by `decode`
    };
    let n = r.u32();
    if n == 0 || n > max {
        return Err(AutomatonError::Size { n, max }.into());
    }
    Ok((HEADER + 4 * n as usize * n as usize + rule_bytes(version) + 8) as u64)
}

/// Refuses counters a run cannot have reached or could not go on from: steps or moves above
/// [`MAX_COUNTER`], or more moves than `steps` steps of `model` make.
fn check_counters(model: Model, n: u32, steps: u64, moves: u64) -> Result<(), CheckpointError> {
    for (what, value) in [("steps", steps), ("moves", moves)] {
        if value > MAX_COUNTER {
            return Err(CheckpointError::Counter { what, value });
        }
    }
    // A model 3 generation moves each row's queen once at most; a step of the others one queen.
    let per_step = if model == Model::Row { u64::from(n) } else { 1 };
    if u128::from(moves) > u128::from(steps) * u128::from(per_step) {
        return Err(CheckpointError::Moves { moves, steps, per_step });
    }
    Ok(())
}

/// The automaton a checkpoint holds, ready to continue its run.
pub fn decode(bytes: &[u8]) -> Result<Automaton, CheckpointError> {
    let expected = declared_len(bytes)?;
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("checked by declared_len"));
    let mut r = Reader { bytes, at: 12 };
    let model_code = r.take::<1>()[0];
    let n = r.u32();
    let cell_count = n as usize * n as usize;
    if bytes.len() as u64 != expected {
        return Err(CheckpointError::Length { expected, got: bytes.len() as u64 });
    }
    let body = bytes.len() - 8;
    let stored = u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes"));
    if fnv1a(&bytes[..body]) != stored {
        return Err(CheckpointError::Checksum);
    }
    let model = match model_code {
        0 => Model::Pair,
        1 => Model::Cell,
        2 => Model::Row,
        k => return Err(CheckpointError::State(format!("model code {k}"))),
    };
    if model == Model::Row && version < 2 {
        return Err(CheckpointError::RuleUnknown);
    }
    let eps = f64::from_bits(r.u64());
    let eta = f64::from_bits(r.u64());
    let (seed, steps, moves) = (r.u64(), r.u64(), r.u64());
    check_counters(model, n, steps, moves)?;
    let words = [r.u64(), r.u64(), r.u64(), r.u64()];
    if words == [0; 4] {
        return Err(CheckpointError::ZeroGenerator);
    }
    let rng = generator_from_words(words)?;
    let cells: Vec<u32> = (0..cell_count).map(|_| r.u32()).collect();
    // Version 2 knew one model 3 rule, the kept one.
    let rule = match rule_bytes(version) {
        0 => RuleName::Kept,
        _ => {
            let code = r.take::<1>()[0];
            match RuleName::from_code(code) {
                Some(rule) if model == Model::Row || rule == RuleName::Kept => rule,
                _ => return Err(CheckpointError::State(format!("rule code {code}"))),
            }
        }
    };
    let params = Params { model, n, eps, eta }.validated()?;
    Automaton::restore(&params, rule, seed, &cells, steps, moves, rng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::experiment::Stop;
    use crate::control::Control;

    /// `bytes` (the current version's) rewritten as format version `version`: relabelled, the
    /// rule byte dropped before version 3, the checksum redone.
    fn as_version(bytes: &[u8], version: u32) -> Vec<u8> {
        let mut v = bytes[..bytes.len() - 8 - rule_bytes(VERSION) + rule_bytes(version)].to_vec();
        v[8..12].copy_from_slice(&version.to_le_bytes());
        let sum = fnv1a(&v);
        v.extend_from_slice(&sum.to_le_bytes());
        v
    }

    /// Version 1 (before the rule of issue 40): models 1 and 2 resume as they were written; a
    /// model 3 state, whose rule it does not record, is refused rather than resumed under
    /// another rule.
    #[test]
    fn version_1_resumes_models_1_and_2_and_refuses_model_3() {
        for model in [Model::Pair, Model::Cell] {
            let mut a = Automaton::from_seed(&params(model, 8), 3).unwrap();
            a.run_steps(500);
            let b = decode(&as_version(&encode(&a), 1)).unwrap();
            assert_eq!((a.steps(), a.moves(), a.counts()), (b.steps(), b.moves(), b.counts()), "{model:?}");
        }
        let mut a = Automaton::from_seed(&params(Model::Row, 8), 3).unwrap();
        a.run_steps(50);
        let bytes = encode(&a);
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), VERSION);
        assert!(decode(&bytes).is_ok());
        assert_eq!(decode(&as_version(&bytes, 1)).unwrap_err(), CheckpointError::RuleUnknown);
        assert_eq!(decode(&as_version(&bytes, 4)).unwrap_err(), CheckpointError::Version(4));
    }

    /// Issue 53: a model 3 checkpoint records its rule, and resumes under it; a version 2
    /// file (no rule byte) resumes under the kept rule, the one rule version 2 wrote.
    #[test]
    fn model_3_checkpoints_record_their_rule_and_version_2_reads_as_the_kept_rule() {
        let stop_control = Control::new();
        let stop = Stop::new(&stop_control);
        for rule in RuleName::ALL {
            let mut a = Automaton::from_seed_under(&params(Model::Row, 10), rule, 6).unwrap();
            a.run_until(40, &stop).unwrap();
            let bytes = encode(&a);
            assert_eq!(bytes[bytes.len() - 9], rule.code(), "{rule}");
            let mut b = decode(&bytes).unwrap();
            assert_eq!(b.row_rule(), Some(rule));
            assert_eq!(b.model3().unwrap().rule(), a.model3().unwrap().rule());
            // The resumed run is the straight one.
            let (ra, rb) = (a.run_until(400, &stop).unwrap(), b.run_until(400, &stop).unwrap());
            assert_eq!((ra, a.cell_words()), (rb, b.cell_words()), "{rule}");
        }
        let mut a = Automaton::from_seed(&params(Model::Row, 9), 2).unwrap();
        a.run_steps(30);
        let old = as_version(&encode(&a), 2);
        assert_eq!(old.len() + 1, encode(&a).len());
        assert_eq!(declared_len(&old[..HEADER_LEN]).unwrap(), old.len() as u64);
        let mut b = decode(&old).unwrap();
        assert_eq!(b.row_rule(), Some(RuleName::Kept));
        a.run_steps(500);
        b.run_steps(500);
        assert_eq!((a.steps(), a.cell_words()), (b.steps(), b.cell_words()));
        // Models 1 and 2 record the kept rule's code; an unknown code is refused.
        let pair = encode(&Automaton::from_seed(&params(Model::Pair, 6), 1).unwrap());
        assert_eq!(pair[pair.len() - 9], 0);
        let at = pair.len() - 9;
        assert_eq!(
            decode(&forged(&pair, at, &[2])).unwrap_err(),
            CheckpointError::State("rule code 2".into())
        );
        let row = encode(&a);
        let at = row.len() - 9;
        assert_eq!(
            decode(&forged(&row, at, &[99])).unwrap_err(),
            CheckpointError::State("rule code 99".into())
        );
    }

    fn params(model: Model, n: u32) -> Params {
        Params { model, n, eps: 0.01, eta: 0.03 }.validated().unwrap()
    }

    #[test]
    fn round_trip_keeps_every_field() {
        for model in [Model::Pair, Model::Cell, Model::Row] {
            let mut a = Automaton::from_seed(&params(model, 9), 5).unwrap();
            a.run_steps(12_345);
            let b = decode(&encode(&a)).unwrap();
            assert_eq!(encode(&b), encode(&a));
            assert_eq!(
                (b.steps(), b.moves(), b.seed(), b.counts()),
                (a.steps(), a.moves(), a.seed(), a.counts())
            );
            assert_eq!(b.conflicts(), a.conflicts());
        }
    }

    #[test]
    fn resume_equals_an_uninterrupted_run() {
        let stop_control = Control::new();
        let stop = Stop::new(&stop_control);
        for (model, n, seed) in
            [(Model::Pair, 7, 1), (Model::Cell, 10, 2), (Model::Cell, 12, 3), (Model::Row, 20, 4)]
        {
            let mut whole = Automaton::from_seed(&params(model, n), seed).unwrap();
            let straight = whole.run_until(u64::MAX, &stop).unwrap();
            assert!(straight.solved);
            for cut in [1, 777, straight.steps / 2, straight.steps.saturating_sub(1)] {
                let mut first = Automaton::from_seed(&params(model, n), seed).unwrap();
                first.run_until(cut, &stop).unwrap();
                let mut resumed = decode(&encode(&first)).unwrap();
                let r = resumed.run_until(u64::MAX, &stop).unwrap();
                assert_eq!(r, straight, "{model:?} n = {n}, cut at {cut}");
            }
        }
    }

    #[test]
    fn the_header_declares_the_length_a_reader_takes() {
        for model in [Model::Pair, Model::Cell, Model::Row] {
            let bytes = encode(&Automaton::from_seed(&params(model, 9), 3).unwrap());
            assert_eq!(declared_len(&bytes[..HEADER_LEN]).unwrap(), bytes.len() as u64, "{model:?}");
        }
        assert!(matches!(declared_len(&[0; HEADER_LEN]), Err(CheckpointError::Foreign)));
        // A pair-model header claiming model 3's largest side: refused at the pair model's bound.
        let mut head = encode(&Automaton::from_seed(&params(Model::Pair, 9), 3).unwrap());
        head.truncate(HEADER_LEN);
        head[13..17].copy_from_slice(&ROW_MAX_N.to_le_bytes());
        assert!(matches!(
            declared_len(&head),
            Err(CheckpointError::Params(AutomatonError::Size { n: ROW_MAX_N, max: crate::automaton::MAX_N }))
        ));
    }

    /// Where the steps, the moves and the generator's state lie in a checkpoint.
    const STEPS_AT: usize = 41;
    const MOVES_AT: usize = 49;
    const RNG_AT: usize = 57;

    /// `bytes` with `field` written at `at` and the checksum redone: a forged file.
    fn forged(bytes: &[u8], at: usize, field: &[u8]) -> Vec<u8> {
        let mut v = bytes[..bytes.len() - 8].to_vec();
        v[at..at + field.len()].copy_from_slice(field);
        let sum = fnv1a(&v);
        v.extend_from_slice(&sum.to_le_bytes());
        v
    }

    #[test]
    fn the_fields_lie_where_the_forging_tests_write_them() {
        let mut a = Automaton::from_seed(&params(Model::Cell, 9), 3).unwrap();
        a.run_steps(5_000);
        let bytes = encode(&a);
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        assert_eq!((word(STEPS_AT), word(MOVES_AT)), (a.steps(), a.moves()));
        assert_eq!(word(RNG_AT), generator_words(a.generator())[0]);
        assert_eq!(RNG_AT + 32, HEADER);
    }

    /// Issue 49: a generator state of all zeros, checksum redone, made `automaton run` spin
    /// forever (every draw of `below` was rejected). Refused, for every model.
    #[test]
    fn an_all_zero_generator_state_is_refused() {
        for model in [Model::Pair, Model::Cell, Model::Row] {
            let mut a = Automaton::from_seed(&params(model, 9), 3).unwrap();
            a.run_steps(100);
            let v = forged(&encode(&a), RNG_AT, &[0; 32]);
            assert_eq!(decode(&v).unwrap_err(), CheckpointError::ZeroGenerator, "{model:?}");
            // One zero word among others is a state like any other.
            assert!(decode(&forged(&encode(&a), RNG_AT, &[0; 8])).is_ok(), "{model:?}");
        }
    }

    /// Whatever state the automaton is in, even one the reader refuses (a generator that only
    /// yields zeros), a run ends at its step cap and on its stop flag.
    #[test]
    fn a_generator_stuck_at_zero_still_stops_at_the_cap_and_on_the_flag() {
        let zero = generator_from_words([0; 4]).unwrap();
        for model in [Model::Pair, Model::Cell, Model::Row] {
            let a = Automaton::from_seed(&params(model, 9), 3).unwrap();
            let (steps, moves) = (a.steps(), a.moves());
            let mut b = Automaton::restore(
                a.params(),
                RuleName::Kept,
                3,
                &a.cell_words(),
                steps,
                moves,
                zero.clone(),
            )
            .unwrap();
            let control = Control::new();
            let r = b.run_until(steps + 1_000, &Stop::new(&control)).unwrap();
            if !r.solved {
                assert_eq!(b.steps(), steps + 1_000, "{model:?}");
            }
            control.cancel();
            if !b.is_solution() {
                assert!(b.run_until(u64::MAX, &Stop::new(&control)).is_err(), "{model:?}");
            }
        }
    }

    /// Issue 49: counters near 2^64 wrapped silently on the next step; counters above
    /// `MAX_COUNTER` and more moves than the steps can make are refused.
    #[test]
    fn counters_without_room_or_beyond_the_steps_are_refused() {
        let a = Automaton::from_seed(&params(Model::Pair, 8), 1).unwrap();
        let good = encode(&a);
        let near = (u64::MAX - 3).to_le_bytes();
        let v = forged(&forged(&good, STEPS_AT, &near), MOVES_AT, &0u64.to_le_bytes());
        assert_eq!(decode(&v).unwrap_err(), CheckpointError::Counter { what: "steps", value: u64::MAX - 3 });
        let v = forged(&forged(&good, STEPS_AT, &MAX_COUNTER.to_le_bytes()), MOVES_AT, &near);
        assert_eq!(decode(&v).unwrap_err(), CheckpointError::Counter { what: "moves", value: u64::MAX - 3 });
        // At the bound, with room: read, and a run goes on without wrapping.
        let v = forged(
            &forged(&good, STEPS_AT, &MAX_COUNTER.to_le_bytes()),
            MOVES_AT,
            &MAX_COUNTER.to_le_bytes(),
        );
        let mut b = decode(&v).unwrap();
        b.run_steps(10_000);
        assert!(b.steps() > MAX_COUNTER && b.moves() >= MAX_COUNTER);
        // More moves than steps: a model 1 or 2 step moves one queen at most.
        let v = forged(&forged(&good, STEPS_AT, &10u64.to_le_bytes()), MOVES_AT, &11u64.to_le_bytes());
        assert_eq!(decode(&v).unwrap_err(), CheckpointError::Moves { moves: 11, steps: 10, per_step: 1 });
        // Model 3: n moves a generation at most.
        let row = encode(&Automaton::from_seed(&params(Model::Row, 8), 1).unwrap());
        let v = forged(&forged(&row, STEPS_AT, &10u64.to_le_bytes()), MOVES_AT, &80u64.to_le_bytes());
        assert!(decode(&v).is_ok());
        let v = forged(&v, MOVES_AT, &81u64.to_le_bytes());
        assert_eq!(decode(&v).unwrap_err(), CheckpointError::Moves { moves: 81, steps: 10, per_step: 8 });
    }

    #[test]
    fn damaged_or_foreign_bytes_are_refused() {
        let a = Automaton::from_seed(&params(Model::Cell, 6), 1).unwrap();
        let good = encode(&a);
        assert_eq!(decode(b"hello, world").err(), Some(CheckpointError::Foreign));
        assert_eq!(decode(b"").err(), Some(CheckpointError::Foreign));
        let mut v = good.clone();
        v[8] = 9;
        assert_eq!(decode(&v).err(), Some(CheckpointError::Version(9)));
        assert!(matches!(decode(&good[..good.len() - 1]), Err(CheckpointError::Length { .. })));
        assert!(matches!(decode(&good[..20]), Err(CheckpointError::Length { .. })));
        for i in [12, 40, HEADER + 3, good.len() - 2] {
            let mut v = good.clone();
            v[i] ^= 0x10;
            assert!(decode(&v).is_err(), "flipped byte {i} accepted");
        }
        // A consistent checksum over an impossible state (a queen too many) is still refused.
        let mut v = good.clone();
        v[HEADER + 2] = v[HEADER + 2].wrapping_add(1);
        let body = v.len() - 8;
        let sum = fnv1a(&v[..body]).to_le_bytes();
        v[body..].copy_from_slice(&sum);
        assert!(matches!(decode(&v), Err(CheckpointError::Params(AutomatonError::QueenCount { .. }))));
    }
}
