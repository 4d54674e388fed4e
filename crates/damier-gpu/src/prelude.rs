//! The WGSL preludes: the constants that several kernels share with each other and with the
//! host, each written once. WGSL has no imports, so the host puts a prelude before each
//! module that uses it: `src/prelude.wgsl` before the join's passes (the join kernel and its
//! reduce, the seal, unpack and pairs passes), `src/row_prelude.wgsl` before model 3's two
//! kernels. The tests hold every constant of a prelude equal to the host's own, and no
//! module declaring one of them again.

/// The join passes' prelude (`src/prelude.wgsl`), for sources assembled at run time
/// (`device::join_source`).
pub(crate) const JOIN_PRELUDE: &str = include_str!("prelude.wgsl");

/// The join passes' prelude, then the WGSL files named, in that order: one `&'static str`
/// (`concat!`, as a literal must be).
macro_rules! join_module {
    ($($file:literal),+) => {
        concat!(include_str!("prelude.wgsl") $(, "\n", include_str!($file))+)
    };
}

/// Model 3's prelude, then the WGSL file named: one `&'static str`.
macro_rules! row_module {
    ($file:literal) => {
        concat!(include_str!("row_prelude.wgsl"), "\n", include_str!($file))
    };
}

pub(crate) use {join_module, row_module};

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    /// The `const NAME: u32 = VALUE;` declarations of a WGSL source in order, a value a
    /// literal (decimal or hex, `u` suffix) or the name of a constant declared before it.
    /// Declarations of another form (expressions, other types) are not listed.
    fn constants(source: &str) -> Vec<(String, u32)> {
        let mut found: Vec<(String, u32)> = Vec::new();
        for line in source.lines() {
            let Some(rest) = line.trim().strip_prefix("const ") else { continue };
            let Some((name, value)) = rest.split_once(": u32 = ") else { continue };
            let value = value.trim_end_matches(';').trim();
            let literal = value.strip_suffix('u').and_then(|v| match v.strip_prefix("0x") {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => v.parse().ok(),
            });
            let value = literal.or_else(|| found.iter().find(|(n, _)| n == value).map(|&(_, v)| v));
            if let Some(v) = value {
                found.push((name.to_string(), v));
            }
        }
        found
    }

    /// The names a WGSL source declares as constants, of any form.
    fn declared(source: &str) -> Vec<&str> {
        source
            .lines()
            .filter_map(|l| l.trim().strip_prefix("const "))
            .filter_map(|rest| rest.split_once(':').map(|(name, _)| name.trim()))
            .collect()
    }

    /// Every constant of each prelude, in order, is the host's constant of the same meaning
    /// (a constant added to a prelude without its host counterpart fails here too).
    #[test]
    fn the_preludes_constants_are_the_hosts() {
        use damier::queens::count::join::{BLOCK, CHUNK, ROWS_PER_CHUNK, WEIGHT_AT};
        let join = [
            ("FAULT_CUT", crate::device::FAULT_CUT),
            ("FAULT_OVERFLOW", crate::device::FAULT_OVERFLOW),
            ("SUM_SLOTS", crate::pipeline::SUM_SLOTS as u32),
            ("BLOCK", BLOCK as u32),
            ("MAX_TAIL", BLOCK as u32),
            ("CHUNK_BITS", CHUNK),
            ("CHUNK_ROWS", ROWS_PER_CHUNK as u32),
            ("MAX_CHUNKS", crate::pipeline::MAX_CHUNKS as u32),
            ("WEIGHT_AT", WEIGHT_AT),
            ("TILE_QUERIES", crate::join::TILE_QUERIES as u32),
            ("UNPACK_ENTRY", crate::packing::ENTRY as u32),
            ("PAIR_ENTRY", crate::pairs::PAIR_ENTRY as u32),
            ("MERGED", crate::pipeline::MERGED),
        ];
        let row = [
            ("HIDDEN", crate::row::HIDDEN),
            ("PLANES", damier::automaton::row::PLANES as u32),
            ("WAVES", crate::row::WAVES as u32),
            ("STATUS_WORDS", crate::row::STATUS as u32),
        ];
        for (prelude, host) in
            [(super::JOIN_PRELUDE, &join[..]), (include_str!("row_prelude.wgsl"), &row[..])]
        {
            let wgsl = constants(prelude);
            let host: Vec<(String, u32)> = host.iter().map(|&(n, v)| (n.to_string(), v)).collect();
            assert_eq!(wgsl, host);
            // Every declaration of the prelude is one the test reads.
            assert_eq!(declared(prelude).len(), wgsl.len(), "{:?}", declared(prelude));
        }
    }

    /// No module that gets a prelude declares one of its constants again, nor the join's
    /// partial sum `Control`: a value has one place.
    #[test]
    fn no_module_declares_a_prelude_constant_again() {
        let join: HashMap<&str, &str> = HashMap::from([
            ("join.wgsl", include_str!("join.wgsl")),
            ("join_key32.wgsl", include_str!("join_key32.wgsl")),
            ("join_key64.wgsl", include_str!("join_key64.wgsl")),
            ("join_sum_atomic.wgsl", include_str!("join_sum_atomic.wgsl")),
            ("join_sum_subgroup.wgsl", include_str!("join_sum_subgroup.wgsl")),
            ("join_out_tile.wgsl", include_str!("join_out_tile.wgsl")),
            ("join_out_shared.wgsl", include_str!("join_out_shared.wgsl")),
            ("join_reduce.wgsl", include_str!("join_reduce.wgsl")),
            ("seal.wgsl", include_str!("seal.wgsl")),
            ("unpack.wgsl", include_str!("unpack.wgsl")),
            ("pairs.wgsl", include_str!("pairs.wgsl")),
        ]);
        let row = HashMap::from([
            ("row.wgsl", include_str!("row.wgsl")),
            ("row_queens.wgsl", include_str!("row_queens.wgsl")),
        ]);
        for (prelude, modules) in [(super::JOIN_PRELUDE, join), (include_str!("row_prelude.wgsl"), row)] {
            let shared = declared(prelude);
            for (file, source) in modules {
                for name in declared(source) {
                    assert!(!shared.contains(&name), "{file} declares {name}, which its prelude has");
                }
                assert!(
                    !source.contains("struct Control "),
                    "{file} declares Control, which its prelude has"
                );
            }
        }
    }

    /// The reader of declarations: literals, hex, names of earlier constants; other forms
    /// left out.
    #[test]
    fn constants_are_read_as_declared() {
        let src = "const A: u32 = 12u;\n  const B: u32 = 0x10000u;\nconst C: u32 = A;\nconst D: u32 = A + 1u;\nconst E: u64 = 1lu;\n";
        let want = [("A", 12), ("B", 0x10000), ("C", 12)].map(|(n, v)| (n.to_string(), v));
        assert_eq!(constants(src), want);
        assert_eq!(declared(src), ["A", "B", "C", "D", "E"]);
    }
}
