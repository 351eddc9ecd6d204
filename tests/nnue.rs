//! The network evaluation through the built binary: `UseNNUE` and `EvalFile` in UCI and
//! XBoard, and `--eval-file` / `--no-nnue` on the command line. A good file is used (in the
//! protocols a file for another variant is kept until that variant is chosen), a damaged one
//! is refused with one line and the evaluation stays what it was.

use crate::protocol_common::{legal_moves, uci_say as say, Engine};
use panoply::game::AnyTables;
use panoply::games;
use panoply::nnue::features::Catalog;
use panoply::nnue::random;
use std::path::PathBuf;
use std::process::Command;

/// Writes a seeded random network knowing the pieces of `variants` (8x8) to a file unique to
/// this test and returns its path.
fn network_file(user: &str, variants: &[&str], seed: u64) -> PathBuf {
    let tables: Vec<_> = variants
        .iter()
        .map(|v| match games::tables(v).unwrap() {
            AnyTables::Narrow(t) => t,
            AnyTables::Wide(_) => panic!("{v} is not 8x8"),
        })
        .collect();
    let catalog = Catalog::of(tables.iter().map(|t| &**t));
    let net = random::network("cwda", catalog, 64, 32, seed);
    let path = std::env::temp_dir().join(format!("panoply-{}-{user}.nnue", std::process::id()));
    net.save(&path).unwrap();
    path
}

/// The same file with one weight byte flipped.
fn damaged_copy(good: &PathBuf) -> PathBuf {
    let mut bytes = std::fs::read(good).unwrap();
    let i = bytes.len() / 2;
    bytes[i] ^= 0x10;
    let path = good.with_extension("damaged");
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The score and best move of a fresh fixed-depth search of the start position.
fn search(e: &mut Engine) -> (String, String) {
    say(e, "ucinewgame");
    say(e, "position startpos");
    e.send("go depth 4");
    let (best, before) = e.read_until("bestmove", |l| l.starts_with("bestmove "));
    let last = before
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 4 "))
        .expect("a depth-4 line")
        .clone();
    let score = last.split(" score ").nth(1).unwrap().split(" nodes").next();
    let best = best.split_whitespace().nth(1).unwrap();
    (score.unwrap().to_string(), best.to_string())
}

#[test]
fn uci_loads_a_network_refuses_bad_files_and_keeps_the_evaluation() {
    let good = network_file("uci-good", &["chess", "cwda-nutty-rookies"], 7);
    let damaged = damaged_copy(&good);
    let shatranj = network_file("uci-shatranj", &["shatranj"], 8);
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect("uciok");
    assert!(lines.contains(&"option name UseNNUE type check default true".to_string()));
    assert!(lines.contains(&"option name EvalFile type string default <empty>".to_string()));

    // The classical evaluation, whether or not a network is built in for the family.
    say(&mut e, "setoption name UseNNUE value false");
    let classical = search(&mut e);
    say(&mut e, "setoption name UseNNUE value true");
    let reply = say(
        &mut e,
        &format!("setoption name EvalFile value {}", good.display()),
    );
    assert_eq!(reply.len(), 1, "{reply:?}");
    assert!(
        reply[0].starts_with("info string chess: network ("),
        "{reply:?}"
    );
    let with_net = search(&mut e);
    assert_ne!(
        with_net.0, classical.0,
        "a random network scores unlike the classical one"
    );
    assert!(
        legal_moves("chess", None, &[]).contains(&with_net.1),
        "{with_net:?}"
    );

    for (bad, why) in [
        (damaged.clone(), "damaged (checksum mismatch)"),
        (PathBuf::from("/no/such/net.nnue"), "No such file"),
    ] {
        let reply = say(
            &mut e,
            &format!("setoption name EvalFile value {}", bad.display()),
        );
        assert_eq!(reply.len(), 1, "{reply:?}");
        assert!(
            reply[0].starts_with("info string EvalFile") && reply[0].contains(why),
            "{reply:?}"
        );
        assert_eq!(
            search(&mut e),
            with_net,
            "the network stays after {}",
            bad.display()
        );
    }

    let reply = say(&mut e, "setoption name UseNNUE value false");
    assert_eq!(
        reply,
        vec!["info string chess: classical evaluation".to_string()]
    );
    assert_eq!(search(&mut e), classical);
    say(&mut e, "setoption name UseNNUE value true");
    assert_eq!(search(&mut e), with_net);

    // GUIs send options before the variant: a shatranj network loaded while the variant is
    // still chess is kept for shatranj, and chess goes back to its built-in evaluation.
    let reply = say(
        &mut e,
        &format!("setoption name EvalFile value {}", shatranj.display()),
    );
    assert_eq!(reply.len(), 1, "{reply:?}");
    assert!(
        reply[0].starts_with("info string chess: network (built in;")
            && reply[0].contains("is kept for other variants")
            && reply[0].contains("does not know the piece"),
        "{reply:?}"
    );
    assert_ne!(search(&mut e), with_net, "the chess file was replaced");
    let reply = say(&mut e, "setoption name UCI_Variant value shatranj");
    assert_eq!(
        reply,
        vec![format!(
            "info string shatranj: network ({}; cwda family, 32 hidden, 6 pieces)",
            shatranj.display()
        )]
    );
    for p in [good, damaged, shatranj] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn xboard_offers_the_options_and_refuses_a_damaged_file_with_one_error() {
    let good = network_file("xb-good", &["chess"], 9);
    let damaged = damaged_copy(&good);
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let lines = e.expect("feature done=1");
    assert!(lines.contains(&"feature option=\"UseNNUE -check 1\"".to_string()));
    assert!(lines.contains(&"feature option=\"EvalFile -file \"".to_string()));
    let mut say = |line: &str| e.exchange(line, "ping 1", "pong 1");
    assert!(say(&format!("option EvalFile={}", good.display())).is_empty());
    let error = say(&format!("option EvalFile={}", damaged.display()));
    assert_eq!(error.len(), 1, "{error:?}");
    assert!(
        error[0].starts_with("Error (EvalFile") && error[0].contains("damaged"),
        "{error:?}"
    );
    assert!(say("option UseNNUE=0").is_empty());
    let error = say("option UseNNUE=maybe");
    assert_eq!(error.len(), 1, "{error:?}");
    assert!(error[0].starts_with("Error (option UseNNUE"), "{error:?}");
    for p in [good, damaged] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn the_command_line_takes_a_network_and_refuses_a_bad_one() {
    let good = network_file("cli-good", &["cwda-fide-nutty"], 10);
    let damaged = damaged_copy(&good);
    let run = |extra: &[&str]| {
        let mut args = vec!["search", "--variant", "cwda-fide-nutty", "--depth", "3"];
        args.extend_from_slice(extra);
        Command::new(env!("CARGO_BIN_EXE_panoply"))
            .args(&args)
            .output()
            .unwrap()
    };
    let good_path = good.display().to_string();
    let out = run(&["--eval-file", &good_path]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cwda-fide-nutty: network ("), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let best = stdout.lines().last().unwrap().split(' ').nth(1).unwrap();
    assert!(legal_moves("cwda-fide-nutty", None, &[]).contains(&best.to_string()));

    let out = run(&["--eval-file", &damaged.display().to_string()]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("damaged"), "{stderr}");

    // On the command line the variant is known: a file that cannot evaluate it is refused.
    let shatranj = network_file("cli-shatranj", &["shatranj"], 11);
    let out = run(&["--eval-file", &shatranj.display().to_string()]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("does not know the piece"), "{stderr}");

    let out = run(&["--no-nnue", "--eval-file", &good_path]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("classical evaluation"), "{stderr}");
    for p in [good, damaged, shatranj] {
        let _ = std::fs::remove_file(p);
    }
}

/// `panoply bench --eval-file` times a network on the start positions of the variants it
/// evaluates: on the CwDA bench positions a shatranj file would not be used at all, and the
/// built-in CwDA network would be timed in its place.
#[test]
fn bench_times_a_network_file_on_the_variants_it_evaluates() {
    let path = network_file("bench-shatranj", &["shatranj"], 12);
    let net = std::sync::Arc::new(panoply::nnue::format::Network::load(&path).unwrap());
    let variants = panoply::search::bench::network_variants(&net);
    assert!(variants.contains(&"shatranj".to_string()), "{variants:?}");
    assert!(
        !variants.iter().any(|v| v.starts_with("cwda")),
        "{variants:?}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_panoply"))
        .args([
            "bench",
            "--depth",
            "1",
            "--aof-depth",
            "1",
            "--missionary-depth",
            "1",
        ])
        .args(["--search-depth", "0", "--nnue-depth", "3", "--eval-file"])
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("eval speed"))
        .unwrap_or_else(|| panic!("no eval speed line: {stdout}"));
    let expected = format!("start positions of {} variants", variants.len());
    assert!(line.contains(&expected), "{line}");
    let _ = std::fs::remove_file(path);
}
