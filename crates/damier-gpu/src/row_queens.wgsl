// Model 3's queens' phase, one synchronous generation (crates/damier-gpu/src/row.rs): the
// CPU's `RowBoard::queens_phase` (crates/damier/src/automaton/row/queens.rs), row after row with the
// run's one xoshiro256++ generator, so that the draws are the CPU's, bit for bit. The
// generator is one stream whose draws a row makes depend on the rows before it: one
// invocation runs the whole phase (the fields, n^2 cells, are the parallel part).
//
// It reads each row's queen-cell fields (the fields kernel's output for this generation),
// decides as `RowBoard::decide` does, moves the queen, keeps the line counts and the
// conflict count, and writes the queens' columns (HIDDEN for an unseen walker) that the
// next generation's fields kernel reads. A generation that starts on a solution does
// nothing (and the fields kernel copies its planes): a submission of many generations
// stops where the CPU's run stops.

struct Rule {
    n: u32,
    // Walking queens are unseen and walks committed (`Rule::hide_walkers`).
    hide: u32,
    patience: u32,
    // `Rule::patience_keeps`.
    keeps: u32,
    rest: u32,
    // `Rule::backoff`: the top level (its level in the rest bits); 0 none.
    back: u32,
    // `Rule::backoff_hits`.
    hits: u32,
    pad2: u32,
    // The thresholds on 53 random bits (`threshold` in row/rule.rs), low word then high word:
    // eps, plateau, activity, south, patience rate, rest rate, backoff rate.
    t: array<vec2<u32>, 7>,
}

@group(0) @binding(0) var<storage, read> rule: Rule;
@group(0) @binding(1) var<storage, read> queen_fields: array<u32>;
// Per row: its queen's column, HIDDEN when the counts do not see it.
@group(0) @binding(2) var<storage, read_write> queens: array<u32>;
// Per row: the queen's state (QUEEN, WALKING, EAST, patience and rest counts), bits as in
// `RowBoard::word` shifted down by 20.
@group(0) @binding(3) var<storage, read_write> qs: array<u32>;
// Queens per column, then per diagonal x - y + n - 1 (from n), then per anti-diagonal x + y
// (from 3 n - 1).
@group(0) @binding(4) var<storage, read_write> lines: array<u32>;
// crowded lines, steps (low, high), moves (low, high), the generator's 4 words (low, high).
@group(0) @binding(5) var<storage, read_write> status: array<u32, STATUS_WORDS>;

// HIDDEN, STATUS_WORDS: row_prelude.wgsl, which the host puts first.
const QUEEN: u32 = 1u;
const WALKING: u32 = 2u;
const EAST: u32 = 4u;
const PATIENCE_SHIFT: u32 = 3u;
const REST_SHIFT: u32 = 7u;
// A settled queen that was out of danger (`SAFE` in row/layout.rs).
const SAFE: u32 = 2048u;
const FAR: u32 = 15u;
// Field bits of the counts towards the north (N, NE, NW).
const NORTH: u32 = 0xc0fu;
const EPS: u32 = 0u;
const PLATEAU: u32 = 1u;
const ACTIVITY: u32 = 2u;
const SOUTH: u32 = 3u;
const PATIENCE_RATE: u32 = 4u;
const REST_RATE: u32 = 5u;
const BACKOFF_RATE: u32 = 6u;
// No move (`None`); else 0 west, 1 east.
const STAY: i32 = -1;

// The generator's state: 4 64-bit words as (low, high).
var<private> s0: vec2<u32>;
var<private> s1: vec2<u32>;
var<private> s2: vec2<u32>;
var<private> s3: vec2<u32>;
var<private> crowded: u32;
// The queen state of the row deciding.
var<private> state_of: u32;

// Rows a workgroup loads at a time: their fields, columns and states go to workgroup memory
// in one coalesced load (every invocation one row), then the first invocation decides them
// in order from there, then every invocation writes its row back.
const CHUNK: u32 = 256u;
var<workgroup> fields_sh: array<u32, 256>;
var<workgroup> queens_sh: array<u32, 256>;
var<workgroup> states_sh: array<u32, 256>;
var<workgroup> live: u32;
var<private> moves: vec2<u32>;

fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = a.x + b.x;
    return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

// Rotation left by k in 1..=31.
fn rotl64(a: vec2<u32>, k: u32) -> vec2<u32> {
    return vec2<u32>((a.x << k) | (a.y >> (32u - k)), (a.y << k) | (a.x >> (32u - k)));
}

// xoshiro256++'s next output (rand_xoshiro's `Xoshiro256PlusPlus::next_u64`).
fn next_u64() -> vec2<u32> {
    let result = add64(rotl64(add64(s0, s3), 23u), s0);
    // t = s1 << 17
    let t = vec2<u32>(s1.x << 17u, (s1.y << 17u) | (s1.x >> 15u));
    s2 = s2 ^ s0;
    s3 = s3 ^ s1;
    s1 = s1 ^ s2;
    s0 = s0 ^ s3;
    s2 = s2 ^ t;
    // rotate left by 45: swap the halves (32), then 13
    s3 = rotl64(s3.yx, 13u);
    return result;
}

// One Bernoulli draw against threshold i (`draw` in row/rule.rs): no draw at all for probability 1
// (a threshold of 2^53 or more).
fn draw(i: u32) -> bool {
    return draw_t(rule.t[i]);
}

// A threshold shifted right by k in 0..=15 (the backoff's division by 2^k).
fn shr64(t: vec2<u32>, k: u32) -> vec2<u32> {
    if (k == 0u) {
        return t;
    }
    return vec2<u32>((t.x >> k) | (t.y << (32u - k)), t.y >> k);
}

// One Bernoulli draw against threshold t.
fn draw_t(t: vec2<u32>) -> bool {
    if (t.y >= (1u << 21u)) {
        return true;
    }
    let r = next_u64();
    // the top 53 bits: (high >> 11, (high << 21) | (low >> 11))
    let hi = r.y >> 11u;
    let lo = (r.y << 21u) | (r.x >> 11u);
    return hi < t.y || (hi == t.y && lo < t.x);
}

// A fair coin: the top bit of the next output.
fn coin() -> bool {
    return (next_u64().y >> 31u) == 1u;
}

fn side_step(l: u32, r: u32) -> i32 {
    if (l < FAR && r < FAR) {
        return select(0, 1, coin());
    }
    if (r < FAR) {
        return 1;
    }
    if (l < FAR) {
        return 0;
    }
    return STAY;
}

fn uphill(l: u32, r: u32) -> i32 {
    if (!draw(EPS)) {
        return STAY;
    }
    return side_step(l, r);
}

// Towards the lower side, a coin between equal ones.
fn pick(l: u32, r: u32) -> i32 {
    if (l == r) {
        return select(0, 1, coin());
    }
    return select(0, 1, r < l);
}

// `RowBoard::choose`: walkers seen.
fn choose(own: u32, l: u32, r: u32) -> i32 {
    let best = min(l, r);
    if (best < own) {
        return pick(l, r);
    }
    if (own == 0u) {
        return STAY;
    }
    if (best == own) {
        if (draw(PLATEAU)) {
            return pick(l, r);
        }
        return STAY;
    }
    return uphill(l, r);
}

// `RowBoard::decide`, on the row's queen state `state_of`.
fn decide(north: bool, own: u32, l: u32, r: u32) -> i32 {
    if (rule.hide == 0u) {
        if (own == 0u || !draw(ACTIVITY)) {
            return STAY;
        }
        return choose(own, l, r);
    }
    var state = state_of;
    // With backoff the rest bits hold the queen's level, walking or settled.
    let backoff = rule.back > 0u;
    var level = select(0u, (state >> REST_SHIFT) & 15u, backoff);
    if ((state & WALKING) != 0u) {
        let east = (state & EAST) != 0u;
        if (select(l, r, east) < own) {
            return select(0, 1, east);
        }
        var after = 0u;
        if (rule.hits != 0u) {
            after = level;
        } else if (own > 0u) {
            after = select(min(rule.rest, 15u), min(level + 1u, min(rule.back, 15u)), backoff);
        }
        state_of = QUEEN | (after << REST_SHIFT);
        return STAY;
    }
    let rest = (state >> REST_SHIFT) & 15u;
    if (rest > 0u && !backoff) {
        if (draw(REST_RATE)) {
            state_of = (state & ~(15u << REST_SHIFT)) | ((rest - 1u) << REST_SHIFT);
        }
        return STAY;
    }
    if (rule.hits != 0u) {
        if (own == 0u) {
            if (level > 0u && draw(BACKOFF_RATE)) {
                level -= 1u;
            }
            state |= SAFE;
        } else if ((state & SAFE) != 0u) {
            level = min(level + 1u, min(rule.back, 15u));
            state &= ~SAFE;
        }
        state = (state & ~(15u << REST_SHIFT)) | (level << REST_SHIFT);
        state_of = state;
    }
    let kept = (level << REST_SHIFT) | (state & SAFE);
    if (rule.patience > 0u) {
        let count = (state >> PATIENCE_SHIFT) & 15u;
        if (own == 0u || north) {
            if (rule.keeps == 0u) {
                state_of = QUEEN | kept;
            }
        } else if (count < min(rule.patience, 15u)) {
            if (draw(PATIENCE_RATE)) {
                state_of = QUEEN | kept | ((count + 1u) << PATIENCE_SHIFT);
            }
            return STAY;
        }
    }
    if (own == 0u || !draw_t(shr64(rule.t[select(SOUTH, ACTIVITY, north)], level))) {
        return STAY;
    }
    if (draw(EPS)) {
        return side_step(l, r);
    }
    let best = min(l, r);
    var walk = best < own;
    if (!walk && best == own) {
        walk = draw(PLATEAU);
    }
    if (walk) {
        var east = r < l;
        if (l == r) {
            east = coin();
        }
        state_of = QUEEN | WALKING | select(0u, EAST, east) | (level << REST_SHIFT);
        return select(0, 1, east);
    }
    if (best == own) {
        return STAY;
    }
    return uphill(l, r);
}

// `RowBoard::add_lines`.
fn add_lines(x: u32, y: u32, add: bool) {
    let n = rule.n;
    let ls = array<u32, 3>(x, n + x + n - 1u - y, 3u * n - 1u + x + y);
    for (var i = 0u; i < 3u; i++) {
        let before = lines[ls[i]];
        let after = select(before - 1u, before + 1u, add);
        lines[ls[i]] = after;
        if (before == 1u && after == 2u) {
            crowded += 1u;
        } else if (before == 2u && after == 1u) {
            crowded -= 1u;
        }
    }
}

// PERF: the rows' words come to workgroup memory CHUNK at a time, loaded by CHUNK invocations
// at once, so the one invocation that decides reads them at workgroup-memory latency instead of
// three dependent global loads a row.
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32) {
    if (lid == 0u) {
        live = status[0];
    }
    if (workgroupUniformLoad(&live) == 0u) {
        return;
    }
    if (lid == 0u) {
        crowded = status[0];
        moves = vec2<u32>(status[3], status[4]);
        s0 = vec2<u32>(status[5], status[6]);
        s1 = vec2<u32>(status[7], status[8]);
        s2 = vec2<u32>(status[9], status[10]);
        s3 = vec2<u32>(status[11], status[12]);
    }
    let n = rule.n;
    for (var base = 0u; base < n; base += CHUNK) {
        let mine = base + lid;
        if (mine < n) {
            fields_sh[lid] = queen_fields[mine];
            queens_sh[lid] = queens[mine];
            states_sh[lid] = qs[mine];
        }
        workgroupBarrier();
        if (lid == 0u) {
            for (var i = 0u; i < min(CHUNK, n - base); i++) {
                let y = base + i;
                let x = queens_sh[i] & ~HIDDEN;
                let f = fields_sh[i];
                var own = 0u;
                for (var k = 0u; k < 6u; k++) {
                    own += (f >> (2u * k)) & 3u;
                }
                state_of = states_sh[i];
                let go = decide((f & NORTH) != 0u, own, (f >> 12u) & 15u, (f >> 16u) & 15u);
                var to = x;
                if (go != STAY) {
                    to = select(x - 1u, x + 1u, go == 1);
                    add_lines(x, y, false);
                    add_lines(to, y, true);
                    moves = add64(moves, vec2<u32>(1u, 0u));
                }
                states_sh[i] = state_of;
                let hidden = rule.hide != 0u && (state_of & WALKING) != 0u;
                queens_sh[i] = to | select(0u, HIDDEN, hidden);
            }
        }
        workgroupBarrier();
        if (mine < n) {
            queens[mine] = queens_sh[lid];
            qs[mine] = states_sh[lid];
        }
    }
    if (lid == 0u) {
        let steps = add64(vec2<u32>(status[1], status[2]), vec2<u32>(1u, 0u));
        let words = array<u32, STATUS_WORDS>(
            crowded, steps.x, steps.y, moves.x, moves.y, s0.x, s0.y, s1.x, s1.y, s2.x, s2.y, s3.x, s3.y
        );
        for (var i = 0u; i < STATUS_WORDS; i++) {
            status[i] = words[i];
        }
    }
}
