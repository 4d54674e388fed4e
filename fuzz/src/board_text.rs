//! Board text format: any input either fails with an error or parses to a board that prints
//! and parses back to itself; `read_board` agrees with `Board::parse` on text input.

use damier::board::{Board, read_board};

/// The check on one input: panics on a fault.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        // Not UTF-8: the reader must refuse it (unless it is a PBM file, another target).
        if data.first() != Some(&b'P') {
            assert!(read_board(data).is_err());
        }
        return;
    };
    let parsed = Board::parse(text);
    if data.first() != Some(&b'P') {
        let read = read_board(data);
        assert_eq!(parsed.is_ok(), read.is_ok(), "read_board and Board::parse disagree");
        if let (Ok(a), Ok(b)) = (&parsed, &read) {
            assert_eq!(a, b);
        }
    }
    let Ok(board) = parsed else { return };
    assert!(board.width() > 0 && board.height() > 0);
    // Every cell symbol counted: the lit cells are the '1' and '#' characters.
    let lit = text.chars().filter(|&c| c == '1' || c == '#').count() as u64;
    assert_eq!(board.count_ones(), lit);
    let printed = board.to_string();
    let again = Board::parse(&printed).expect("a printed board parses");
    assert_eq!(again, board);
    // The other symbol sets print the same board.
    let alt = board.to_rows('#', '.').join("\n");
    assert_eq!(Board::parse(&alt).expect("'#'/'.' rows parse"), board);
}
