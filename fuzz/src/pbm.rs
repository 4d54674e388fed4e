//! PBM (P1/P4): any input is refused or read; a board read writes back, in both encodings,
//! to a file that reads back to the same board.

use damier::board::Board;
use damier::board::pbm::PbmKind;

/// The check on one input: panics on a fault.
pub fn check(data: &[u8]) {
    let Ok(board) = Board::read_pbm(data) else { return };
    assert!(board.width() > 0 && board.height() > 0);
    for kind in [PbmKind::Plain, PbmKind::Raw] {
        let mut out = Vec::new();
        board.write_pbm(&mut out, kind).expect("writing to memory");
        let back = Board::read_pbm(out.as_slice()).expect("a written PBM reads back");
        assert_eq!(back, board, "{kind:?} round trip");
    }
}
