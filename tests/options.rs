//! The option table (protocol/options.rs) through the binary: what UCI and XBoard list, bad
//! values refused with one line and the old value kept, and what the new options do.

use crate::protocol_common;
use protocol_common::{start_uci, uci_say as say, Engine, XB};

/// The `option name <name> ...` line of the answer to `uci`.
fn uci_option(e: &mut Engine, name: &str) -> String {
    e.send("uci");
    let lines = e.expect("uciok");
    let prefix = format!("option name {name} type ");
    lines
        .into_iter()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no option {name}"))
}

#[test]
fn uci_lists_the_new_options_with_their_ranges() {
    let mut e = Engine::start();
    for expected in [
        "option name Move Overhead type spin default 50 min 0 max 5000",
        "option name Ponder type check default false",
        "option name Clear Hash type button",
        "option name UCI_ShowWDL type check default false",
        "option name UCI_AnalyseMode type check default false",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 2370 min 940 max 2370",
        "option name Skill Level type spin default 20 min 0 max 20",
    ] {
        let name = expected["option name ".len()..]
            .split(" type ")
            .next()
            .unwrap();
        assert_eq!(uci_option(&mut e, name), expected);
    }
}

#[test]
fn bad_values_get_one_line_and_keep_the_old_value() {
    let mut e = start_uci();
    let cases = [
        (
            "Move Overhead",
            "120",
            "-5",
            "'-5' is not a number from 0 to 5000",
        ),
        (
            "Skill Level",
            "7",
            "21",
            "'21' is not a number from 0 to 20",
        ),
        (
            "UCI_Elo",
            "1500",
            "700",
            "'700' is not a number from 940 to 2370",
        ),
        (
            "UCI_ShowWDL",
            "true",
            "perhaps",
            "'perhaps' is not true or false",
        ),
        ("UCI_AnalyseMode", "true", "2", "'2' is not true or false"),
        (
            "UCI_LimitStrength",
            "true",
            "yes please",
            "'yes please' is not true or false",
        ),
        ("Ponder", "true", "x", "'x' is not true or false"),
    ];
    for (name, good, bad, why) in cases {
        assert!(say(&mut e, &format!("setoption name {name} value {good}")).is_empty());
        assert_eq!(
            say(&mut e, &format!("setoption name {name} value {bad}")),
            [format!("info string option {name}: {why}")]
        );
        let line = uci_option(&mut e, name);
        assert!(line.contains(&format!(" default {good}")), "{line}");
    }
    // A button takes no value and answers nothing; the engine goes on.
    assert!(say(&mut e, "setoption name Clear Hash").is_empty());
}

/// The last `info ... score` line and the `bestmove` of a `go`.
fn search(e: &mut Engine, go: &str) -> (Vec<String>, String) {
    e.send(go);
    let (best, before) = e.read_until("bestmove", |l| l.starts_with("bestmove"));
    let infos = before
        .into_iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    (infos, best)
}

#[test]
fn show_wdl_adds_win_draw_loss_per_mille() {
    let mut e = start_uci();
    let (infos, _) = search(&mut e, "go depth 4");
    assert!(infos.iter().all(|l| !l.contains(" wdl ")));
    say(&mut e, "setoption name UCI_ShowWDL value true");
    // A queen up: the side to move is far more likely to win than to lose.
    say(&mut e, "position fen 4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1");
    let (infos, _) = search(&mut e, "go depth 4");
    assert!(!infos.is_empty());
    for line in &infos {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "wdl").expect(line);
        let wdl: Vec<u32> = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
        assert!(wdl[0] > 800 && wdl[2] < 50, "{line}");
    }
}

/// The nodes of the last info line of a search.
fn last_nodes(infos: &[String]) -> u64 {
    let words: Vec<&str> = infos.last().unwrap().split_whitespace().collect();
    let at = words.iter().position(|&w| w == "nodes").unwrap();
    words[at + 1].parse().unwrap()
}

#[test]
fn a_low_level_searches_little_unless_analysing() {
    let mut e = start_uci();
    say(&mut e, "setoption name Skill Level value 0");
    say(&mut e, "position startpos moves e2e4 e7e5");
    // Level 0 stops at 400 nodes (one iteration may overshoot a little).
    let (infos, best) = search(&mut e, "go depth 12");
    assert!(last_nodes(&infos) < 2000, "{infos:?}");
    assert!(best.starts_with("bestmove "));
    // The same through UCI_LimitStrength at the lowest UCI_Elo.
    say(&mut e, "setoption name Skill Level value 20");
    say(&mut e, "setoption name UCI_LimitStrength value true");
    say(&mut e, "setoption name UCI_Elo value 940");
    let (infos, _) = search(&mut e, "go depth 12");
    assert!(last_nodes(&infos) < 2000, "{infos:?}");
    // Analysis is at full strength: the whole depth is searched.
    say(&mut e, "setoption name UCI_AnalyseMode value true");
    let (infos, _) = search(&mut e, "go depth 7");
    assert!(
        infos.last().unwrap().starts_with("info depth 7 "),
        "{infos:?}"
    );
    assert!(last_nodes(&infos) > 2000, "{infos:?}");
}

#[test]
fn xboard_offers_the_level_and_answers_hint_and_bk() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.expect("feature done=1");
    for expected in [
        "feature option=\"Skill Level -spin 20 0 20\"",
        "feature option=\"Move Overhead -spin 50 0 5000\"",
        "feature option=\"Clear Hash -button\"",
    ] {
        assert!(features.iter().any(|l| l == expected), "{features:?}");
    }
    drop(e);
    let mut x = XB::start();
    assert_eq!(
        x.reply("option Skill Level=30"),
        "Error (option Skill Level: '30' is not a number from 0 to 20): option Skill Level=30"
    );
    x.silent("option Skill Level=3");
    x.silent("option Clear Hash");
    x.silent("easy");
    x.silent("hard");
    // No book loaded: `bk` says so, indented, and ends with an empty line.
    assert_eq!(x.say("bk"), [" no book moves", ""]);
    // After the engine's move, `hint` names a legal reply.
    x.silent("option Skill Level=20");
    x.silent("new");
    x.silent("sd 3");
    // Pondering (`hard`) goes on after the move: no thinking output to read past.
    x.silent("nopost");
    x.e.send("e2e4");
    let reply = x.e.expect_prefix("move ");
    let ours = &reply["move ".len()..];
    let hint = x.reply("hint");
    let hinted = hint.strip_prefix("Hint: ").expect(&hint);
    let legal = protocol_common::legal_moves("chess", None, &["e2e4", ours]);
    assert!(
        legal.iter().any(|m| m == hinted),
        "{hint} after e2e4 {ours}"
    );
}
