//! The queens' side of model 3: each queen's decision from its danger and what it knows of
//! its two sides (the waves or the neighbours' dangers), its walks, patience and rest, the
//! random-cell schedule's update, and the queens' phase of a synchronous generation.

use rand_xoshiro::rand_core::Rng;

use super::board::RowBoard;
use super::layout::{
    EAST, EAST_P, FAR, LINE_DIRS, NORTH, PATIENCE_SHIFT, QUEEN, REST_SHIFT, SAFE, WALKING, WEST,
    danger_of_fields,
};
use super::rule::{Rand, draw};
use crate::automaton::dir::DIRECTIONS;

impl RowBoard {
    /// The queens of a synchronous generation, from the previous generation's dangers and
    /// waves (each row's queen cell in `queen_fields`), in row order: the only random draws.
    pub(super) fn queens_phase(&mut self) {
        for y in 0..self.n {
            let x = self.col[y] as usize;
            let f = self.queen_fields[y];
            let own = danger_of_fields(f);
            let (l, r) = if self.rule.wave {
                ((f >> WEST) as u8 & 15, (f >> EAST_P) as u8 & 15)
            } else {
                (self.neighbour_danger(x, y, false), self.neighbour_danger(x, y, true))
            };
            if let Some(east) = self.decide(y, f & NORTH != 0, own, l, r) {
                self.move_queen(x, y, east);
            }
        }
    }

    /// One synchronous generation whose fields another engine computed (the GPU's, which
    /// keeps the planes in its own memory): the queens' phase from `queen_fields`, the
    /// current field bits of each row's queen cell (plane `p`'s bit is bit `p`, as in
    /// [`RowBoard::word`]), counted as a step. The random draws are this board's, so a run
    /// whose fields are computed elsewhere follows the CPU's trajectory bit for bit. This
    /// board's planes are left as they are: the engine puts its planes back with
    /// [`RowBoard::set_planes`] when it needs a whole state. With [`Rule::wave`](super::Rule::wave) false the
    /// queens compare their neighbours' dangers, which are read from this board's planes:
    /// those must then be current.
    ///
    /// # Panics
    /// If `queen_fields` does not hold n words.
    pub fn queens_generation(&mut self, queen_fields: &[u32]) {
        assert_eq!(queen_fields.len(), self.n, "one queen cell per row");
        self.queen_fields.copy_from_slice(queen_fields);
        self.queens_phase();
        self.steps += 1;
    }

    /// The random-cell schedule: cell `(x, y)` recomputes its counts and waves in place from
    /// its neighbours, then its queen (if any) decides.
    pub(super) fn cell_update(&mut self, x: usize, y: usize) {
        let (n, cap) = (self.n, self.rule.cap);
        let mut dan = 0;
        for (k, &d) in LINE_DIRS.iter().enumerate() {
            let (dx, dy) = DIRECTIONS[d];
            let u = x.wrapping_add_signed(dx as isize);
            let v = y.wrapping_add_signed(dy as isize);
            let s =
                if u < n && v < n { (u8::from(self.seen(u, v)) + self.count(k, u, v)).min(cap) } else { 0 };
            self.set_count(k, x, y, s);
            dan += s;
        }
        let dw = self.neighbour_danger(x, y, false);
        let de = self.neighbour_danger(x, y, true);
        let west = if x > 0 { self.field(WEST, 4, x - 1, y) } else { FAR };
        let east = if x + 1 < n { self.field(EAST_P, 4, x + 1, y) } else { FAR };
        let (west, east) = (dw.min(west), de.min(east));
        self.set_field(WEST, 4, x, y, west);
        self.set_field(EAST_P, 4, x, y, east);
        if self.col[y] as usize != x {
            return;
        }
        let (l, r) = if self.rule.wave { (west, east) } else { (dw, de) };
        let north = [0, 1, 5].iter().any(|&k| self.count(k, x, y) > 0);
        if let Some(east) = self.decide(y, north, dan, l, r) {
            self.move_queen(x, y, east);
        }
    }

    /// The choice of the queen of row `y` from its own danger, whether one of its conflicts
    /// lies north, and what it knows of the west and east sides (wave values, or the
    /// neighbours' dangers): `Some(true)` east, `Some(false)` west. With
    /// [`Rule::hide_walkers`](super::Rule::hide_walkers) it also starts and ends walks.
    #[inline(always)]
    fn decide(&mut self, y: usize, north: bool, own: u8, l: u8, r: u8) -> Option<bool> {
        if !self.rule.hide_walkers {
            if own == 0 || !draw(&mut self.rng, self.activity_t) {
                return None;
            }
            return self.choose(own, l, r);
        }
        let mut state = self.qs[y];
        // With backoff the rest bits hold the queen's level, on a walk as when settled (0 in
        // every other rule here: a resting queen has returned below).
        let backoff = self.rule.backoff > 0;
        let mut level = if backoff { state >> REST_SHIFT & 15 } else { 0 };
        if state & WALKING != 0 {
            // A walk goes on while a better cell lies further on its side, then settles.
            let east = state & EAST != 0;
            if (if east { r } else { l }) < own {
                return Some(east);
            }
            // A queen that settles in danger (no better cell on its side) rests, or with
            // backoff goes one level up; one that settles out of danger clears its level.
            // Backoff by hits: a walk leaves the level as it is.
            let after = match (backoff, own > 0) {
                _ if self.rule.backoff_hits => level,
                (_, false) => 0,
                (false, true) => u16::from(self.rule.rest.min(15)),
                (true, true) => (level + 1).min(u16::from(self.rule.backoff.min(15))),
            };
            self.qs[y] = QUEEN | after << REST_SHIFT;
            return None;
        }
        let rest = state >> REST_SHIFT & 15;
        if rest > 0 && !backoff {
            // Resting after a walk: no action until the count runs out.
            if draw(&mut self.rng, self.rest_t) {
                self.qs[y] = state & !(15 << REST_SHIFT) | (rest - 1) << REST_SHIFT;
            }
            return None;
        }
        if self.rule.backoff_hits {
            // A safe queen's level goes down now and then; a hit (in danger after a safe
            // generation) raises it.
            if own == 0 {
                if level > 0 && draw(&mut self.rng, self.backoff_t) {
                    level -= 1;
                }
                state |= SAFE;
            } else if state & SAFE != 0 {
                level = (level + 1).min(u16::from(self.rule.backoff.min(15)));
                state &= !SAFE;
            }
            state = state & !(15 << REST_SHIFT) | level << REST_SHIFT;
            self.qs[y] = state;
        }
        // The bits a settled queen keeps through its patience: its level and safe bit.
        let kept = level << REST_SHIFT | state & SAFE;
        if self.rule.patience > 0 {
            // A queen out of danger, or with a conflict north, starts its patience afresh; one
            // whose conflicts all lie south waits until its count is full.
            let count = state >> PATIENCE_SHIFT & 15;
            if own == 0 || north {
                if !self.rule.patience_keeps {
                    self.qs[y] = QUEEN | kept;
                }
            } else if count < u16::from(self.rule.patience.min(15)) {
                if draw(&mut self.rng, self.patience_t) {
                    self.qs[y] = QUEEN | kept | (count + 1) << PATIENCE_SHIFT;
                }
                return None;
            }
        }
        // PERF: the backoff divides the activity by 2^level as a shift of its threshold.
        let t = if north { self.activity_t } else { self.south_t } >> level;
        if own == 0 || !draw(&mut self.rng, t) {
            return None;
        }
        // Noise, as min-conflicts' random walk: with probability ε one step to a uniform side,
        // whatever the waves say (so no set of plateaus can hold the queens forever).
        if draw(&mut self.rng, self.eps_t) {
            return self.side_step(l, r);
        }
        let best = l.min(r);
        let walk = best < own || best == own && draw(&mut self.rng, self.plateau_t);
        if walk {
            let east = if l == r { self.rng.next_u64() >> 63 == 1 } else { r < l };
            self.qs[y] = QUEEN | WALKING | if east { EAST } else { 0 } | level << REST_SHIFT;
            return Some(east);
        }
        if best == own {
            return None;
        }
        self.uphill(l, r)
    }

    /// The step of an acting queen: towards a lower side, a plateau step with probability
    /// [`Rule::plateau`](super::Rule::plateau), else an uphill step with probability ε.
    #[inline(always)]
    fn choose(&mut self, own: u8, l: u8, r: u8) -> Option<bool> {
        let best = l.min(r);
        let pick = |rng: &mut Rand| if l == r { rng.next_u64() >> 63 == 1 } else { r < l };
        if best < own {
            return Some(pick(&mut self.rng));
        }
        if own == 0 {
            return None;
        }
        if best == own {
            return draw(&mut self.rng, self.plateau_t).then(|| pick(&mut self.rng));
        }
        self.uphill(l, r)
    }

    /// With probability ε, a [`RowBoard::side_step`].
    #[inline(always)]
    fn uphill(&mut self, l: u8, r: u8) -> Option<bool> {
        if !draw(&mut self.rng, self.eps_t) {
            return None;
        }
        self.side_step(l, r)
    }

    /// One step to a uniform side on the board (`l`, `r`: the sides' values, [`FAR`] where
    /// the board ends).
    #[inline(always)]
    fn side_step(&mut self, l: u8, r: u8) -> Option<bool> {
        match (l < FAR, r < FAR) {
            (true, true) => Some(self.rng.next_u64() >> 63 == 1),
            (false, true) => Some(true),
            (true, false) => Some(false),
            (false, false) => None,
        }
    }

    pub(super) fn move_queen(&mut self, x: usize, y: usize, east: bool) {
        let to = if east { x + 1 } else { x - 1 };
        debug_assert!(to < self.n);
        self.col[y] = to as u32;
        self.add_lines(x, y, -1);
        self.add_lines(to, y, 1);
        self.moves += 1;
    }
}
