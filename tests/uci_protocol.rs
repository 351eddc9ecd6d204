//! UCI protocol, driven through the built binary.

use crate::protocol_common;
use protocol_common::{legal_moves, start_uci as start, uci_say as say, Engine};
use std::time::Duration;

fn perft_total(e: &mut Engine, depth: u32) -> u64 {
    e.send(&format!("go perft {depth}"));
    let line = e.expect_prefix("Nodes searched: ");
    line["Nodes searched: ".len()..].parse().unwrap()
}

#[test]
fn uci_lists_every_variant_and_the_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect("uciok");
    assert!(lines[0].starts_with("id name Panoply"));
    let variant = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo default chess"))
        .expect("UCI_Variant option");
    let vars: Vec<&str> = variant.split(" var ").skip(1).collect();
    assert_eq!(
        vars,
        panoply::games::names(),
        "every registry name, in order"
    );
    for opt in [
        "option name Hash type spin",
        "option name Threads type spin",
        "option name MultiPV type spin",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(opt)), "missing {opt}");
    }
}

#[test]
fn go_perft_prints_a_divide() {
    let mut e = start();
    say(&mut e, "position startpos");
    e.send("go perft 2");
    let rows = e.expect("Nodes searched: 400");
    let rows: Vec<&String> = rows.iter().filter(|l| l.contains(": ")).collect();
    assert_eq!(rows.len(), 20);
    assert!(rows.contains(&&"e2e4: 20".to_string()));
    say(
        &mut e,
        "setoption name UCI_Variant value cwda-nutty-rookies",
    );
    say(&mut e, "position startpos moves e2e4 e7e5");
    let expected = legal_moves("cwda-nutty-rookies", None, &["e2e4", "e7e5"]).len() as u64;
    assert_eq!(perft_total(&mut e, 1), expected);
}

#[test]
fn go_reports_info_and_a_legal_bestmove() {
    let mut e = start();
    say(&mut e, "ucinewgame");
    say(&mut e, "position startpos moves e2e4 c7c5");
    e.send("go movetime 300");
    let (best, infos) = e.read_until("bestmove", |l| l.starts_with("bestmove "));
    let mv = best.split_whitespace().nth(1).unwrap().to_string();
    assert!(
        legal_moves("chess", None, &["e2e4", "c7c5"]).contains(&mv),
        "{best}"
    );
    let info = infos
        .iter()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    for field in [
        " seldepth ",
        " score ",
        " nodes ",
        " nps ",
        " time ",
        " pv ",
        " hashfull ",
    ] {
        assert!(info.contains(field), "'{field}' missing in {info}");
    }
    assert!(info.contains(" score cp ") || info.contains(" score mate "));
}

#[test]
fn clock_limits_and_stop() {
    let mut e = start();
    say(&mut e, "position startpos");
    e.send("go wtime 2000 btime 2000 winc 20 binc 20");
    e.expect_prefix("bestmove ");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    e.expect("readyok");
    e.send("stop");
    e.expect_prefix("bestmove ");
    e.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(100));
    e.send("ponderhit");
    e.expect_prefix("bestmove ");
}

#[test]
fn mate_is_found_in_a_fen_position() {
    let mut e = start();
    say(&mut e, "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    e.send("go depth 4");
    let (best, infos) = e.read_until("bestmove", |l| l.starts_with("bestmove "));
    assert_eq!(best.split_whitespace().nth(1), Some("a1a8"));
    assert!(
        infos.iter().any(|l| l.contains(" score mate 1 ")),
        "{infos:?}"
    );
}

#[test]
fn bad_input_gets_info_string_and_leaves_the_state_alone() {
    let mut e = start();
    say(&mut e, "position startpos moves e2e4");
    let before = perft_total(&mut e, 2);
    let cases: &[(&str, &str)] = &[
        ("frobnicate", "info string unknown command 'frobnicate'"),
        ("position fen 8/8/8 w - - 0 1", "info string bad position: "),
        (
            "position startpos moves e2e4 e7e5 e4e5",
            "info string bad move list: ",
        ),
        (
            "position startpos moves e2e4 zz",
            "info string bad move list: ",
        ),
        (
            "position sideways",
            "info string expected: position startpos | fen",
        ),
        (
            "setoption name UCI_Variant value atlantis",
            "info string unknown variant 'atlantis'",
        ),
        (
            "setoption name Hash value -5",
            "info string option Hash: '-5' is not a number",
        ),
        (
            "setoption name Threads value many",
            "info string option Threads: 'many'",
        ),
        (
            "setoption name MultiPV value 0",
            "info string option MultiPV: '0'",
        ),
        (
            "setoption name Colour value blue",
            "info string unknown option 'Colour'",
        ),
        ("setoption Hash 5", "info string expected: setoption name"),
        ("go perft", "info string expected: go perft <depth>"),
        ("go depth", "info string go: 'depth' needs a number"),
        (
            "go sideways 3",
            "info string go: unknown parameter 'sideways'",
        ),
    ];
    for (cmd, reply) in cases {
        let out = say(&mut e, cmd);
        assert_eq!(out.len(), 1, "{cmd}: {out:?}");
        assert!(out[0].starts_with(reply), "{cmd}: got {}", out[0]);
    }
    assert_eq!(
        perft_total(&mut e, 2),
        before,
        "position unchanged by the bad commands"
    );
}

#[test]
fn quit_ends_the_engine_while_searching() {
    let mut e = start();
    say(&mut e, "position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(5)));
}
