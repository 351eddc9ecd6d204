//! The engine's own book (`OwnBook`, `BookFile`) through the built binary, in UCI and XBoard.

use crate::protocol_common;
use protocol_common::{uci_say as say, Engine};
use std::path::PathBuf;
use std::time::Duration;

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const NUTTY_ROOKIES_START: &str = "smfekfms/pppppppp/8/8/8/8/PPPPPPPP/GIHOKHIG w KQkq - 0 1";

/// Writes a book file unique to this test and returns its path.
fn book_file(name: &str, text: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("panoply-{}-{name}.book", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

/// A book whose only moves at the start are ones a search would never choose first
/// (a rook pawn, or a knight to the rim), so seeing them proves the book answered.
/// `user` names the test: tests run in parallel and each removes its file at the end.
fn chess_book(user: &str) -> PathBuf {
    book_file(
        &format!("chess-{user}"),
        &format!(
            "# test book\nvariant chess\n{CHESS_START} ; h2h3 ; 3\n{CHESS_START} ; g1h3 ; 1\n\
             rnbqkbnr/pppppppp/8/8/8/7P/PPPPPPP1/RNBQKBNR b KQkq - 0 1 ; a7a6 ; 5\n"
        ),
    )
}

fn uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect("uciok");
    assert!(lines
        .iter()
        .any(|l| l == "option name OwnBook type check default false"));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name BookFile type string")));
    e
}

/// `go` with a deep search that would take far longer than the test waits.
fn bestmove(e: &mut Engine) -> (String, Vec<String>) {
    e.send("go depth 60");
    let (best, before) = e.read_until("bestmove", |l| l.starts_with("bestmove "));
    (best["bestmove ".len()..].to_string(), before)
}

/// `go` and the engine searches: `info depth` lines come before its `bestmove`.
fn assert_searches(e: &mut Engine, go: &str) {
    e.send(go);
    let (best, before) = e.read_until("bestmove", |l| l.starts_with("bestmove "));
    assert!(
        before.iter().any(|l| l.starts_with("info depth")),
        "{best} without a search: {before:?}"
    );
}

#[test]
fn uci_plays_book_moves_without_searching() {
    let book = chess_book("uci");
    let mut e = uci();
    assert!(say(
        &mut e,
        &format!("setoption name BookFile value {}", book.display())
    )
    .is_empty());
    assert!(say(&mut e, "setoption name OwnBook value true").is_empty());
    for _ in 0..12 {
        say(&mut e, "position startpos");
        let (mv, before) = bestmove(&mut e);
        assert!(mv == "h2h3" || mv == "g1h3", "{mv}");
        assert!(
            !before.iter().any(|l| l.starts_with("info depth")),
            "a book move needs no search: {before:?}"
        );
        assert!(before.contains(&format!("info string book move {mv}")));
    }
    // The reply in the book, from a position reached by moves.
    say(&mut e, "position startpos moves h2h3");
    assert_eq!(bestmove(&mut e).0, "a7a6");
    // Out of the book: a normal search.
    say(&mut e, "position startpos moves e2e4");
    assert_searches(&mut e, "go depth 3");
    // Off again: the search answers at the start too.
    say(&mut e, "setoption name OwnBook value false");
    say(&mut e, "position startpos");
    assert_searches(&mut e, "go depth 3");
    let _ = std::fs::remove_file(book);
}

#[test]
fn uci_book_follows_the_variant() {
    let book = book_file(
        "nutty",
        &format!("variant cwda-nutty-rookies\n{NUTTY_ROOKIES_START} ; a2a3 ; 1\n"),
    );
    let mut e = uci();
    say(
        &mut e,
        &format!("setoption name BookFile value {}", book.display()),
    );
    say(&mut e, "setoption name OwnBook value true");
    say(
        &mut e,
        "setoption name UCI_Variant value cwda-nutty-rookies",
    );
    say(&mut e, "position startpos");
    assert_eq!(bestmove(&mut e).0, "a2a3");
    // The same book has nothing for chess: the engine searches.
    say(&mut e, "setoption name UCI_Variant value chess");
    say(&mut e, "position startpos");
    assert_searches(&mut e, "go depth 2");
    let _ = std::fs::remove_file(book);
}

#[test]
fn uci_missing_or_malformed_books_are_clear_errors() {
    let mut e = uci();
    let missing = std::env::temp_dir().join("panoply-no-such-dir/none.book");
    let out = say(
        &mut e,
        &format!("setoption name BookFile value {}", missing.display()),
    );
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("info string BookFile: ") && out[0].contains("cannot read"),
        "{out:?}"
    );
    let bad = book_file("bad", &format!("variant chess\n{CHESS_START} ; e2e4\n"));
    let out = say(
        &mut e,
        &format!("setoption name BookFile value {}", bad.display()),
    );
    assert_eq!(
        out,
        vec![format!(
            "info string BookFile: {}:2: expected `position ; move ; weight`",
            bad.display()
        )]
    );
    let out = say(&mut e, "setoption name OwnBook value maybe");
    assert_eq!(
        out,
        vec!["info string option OwnBook: 'maybe' is not true or false"]
    );
    // The engine still works, and searches: no book was loaded.
    say(&mut e, "setoption name OwnBook value true");
    say(&mut e, "position startpos");
    assert_searches(&mut e, "go depth 2");
    let _ = std::fs::remove_file(bad);
}

#[test]
fn xboard_plays_book_moves_and_reports_bad_books() {
    let book = chess_book("xboard");
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.expect("feature done=1");
    assert!(features.contains(&"feature option=\"OwnBook -check 0\"".to_string()));
    assert!(features
        .iter()
        .any(|l| l.starts_with("feature option=\"BookFile -file")));
    let mut ping = 0;
    let mut say = |e: &mut Engine, line: &str| {
        ping += 1;
        e.exchange(line, &format!("ping {ping}"), &format!("pong {ping}"))
    };
    say(&mut e, "new");
    let out = say(&mut e, "option BookFile=/nonexistent/panoply.book");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("Error (BookFile: /nonexistent/panoply.book: cannot read"),
        "{out:?}"
    );
    assert!(say(&mut e, &format!("option BookFile={}", book.display())).is_empty());
    assert!(say(&mut e, "option OwnBook=1").is_empty());
    say(&mut e, "st 30");
    // The engine plays White from the book at once (a 30 s search would not be this quick).
    e.send("go");
    let mv = e
        .next_line(Duration::from_secs(5))
        .expect("a book move at once");
    assert!(mv == "move h2h3" || mv == "move g1h3", "{mv}");
    // And Black's reply after the user's book move.
    say(&mut e, "new");
    say(&mut e, "force");
    say(&mut e, "usermove h2h3");
    e.send("go");
    let mv = e.next_line(Duration::from_secs(5)).expect("a book move");
    assert_eq!(mv, "move a7a6");
    let _ = std::fs::remove_file(book);
}
