//! Bit tricks more than one engine uses.

/// `SPREAD[b]`: byte `b`'s bits spread one per byte (bit `j` to the low bit of byte `j`): a
/// table lookup turns 8 one-bit lanes into 8 byte lanes (the sealer's per-bit counters, the
/// automaton checkpoint's cell bytes).
pub(crate) const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            t[b] |= ((b as u64 >> j) & 1) << (8 * j);
            j += 1;
        }
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    #[test]
    fn spread_moves_each_bit_to_its_byte() {
        for b in 0..256usize {
            let bytes = super::SPREAD[b].to_le_bytes();
            for (j, &byte) in bytes.iter().enumerate() {
                assert_eq!(byte, ((b >> j) & 1) as u8, "byte {b:#x}, bit {j}");
            }
        }
    }
}
