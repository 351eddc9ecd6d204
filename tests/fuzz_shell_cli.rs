//! Seeded fuzzing of the text shell (in-process) and of position strings given on the
//! command line (`perft`, `show`, `selfplay --fen`, through the binary): no panic, no abort,
//! one error line and exit code 2 for bad input. See `fuzz_protocols.rs` for the protocols
//! and for `PANOPLY_FUZZ_SESSIONS` / `PANOPLY_FUZZ_SEED`.

use crate::fuzz_input;

use fuzz_input::{mangle_position, random_line, shell_session, Rng, VARIANTS};
use panoply::search::multi_player::Method;
use panoply::shell::Shell;
use std::io::Cursor;
use std::process::Command;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs a shell session ending with `fen`; the answer to that must be a position string.
fn shell_answers(variant: &str, input: &[Vec<u8>]) -> Result<(), String> {
    let mut bytes = Vec::new();
    for l in input {
        bytes.extend_from_slice(l);
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(b"fen\n");
    let variant = variant.to_string();
    let run = std::thread::spawn(move || {
        let mut shell = Shell::new(&variant, None, Method::DEFAULT).map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        shell
            .run(Cursor::new(bytes), &mut out)
            .map_err(|e| e.to_string())?;
        Ok::<String, String>(String::from_utf8_lossy(&out).into_owned())
    });
    let text = run.join().map_err(|_| "the shell panicked".to_string())??;
    let last = text.lines().last().unwrap_or("");
    if last.starts_with("error:") || last.is_empty() {
        return Err(format!("no position string after the session:\n{text}"));
    }
    Ok(())
}

#[test]
fn hostile_shell_sessions() {
    let seed = setting("PANOPLY_FUZZ_SEED", 13) + 1;
    let sessions = setting("PANOPLY_FUZZ_SESSIONS", 2000) / 4;
    for i in 0..sessions {
        let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(i));
        let variant = *rng.pick(VARIANTS);
        let input = shell_session(&mut rng, variant);
        if let Err(e) = shell_answers(variant, &input) {
            let shown: Vec<String> = input
                .iter()
                .map(|l| String::from_utf8_lossy(&l[..l.len().min(200)]).into_owned())
                .collect();
            panic!(
                "shell session {i} (seed {seed}, {variant}) failed: {e}\ninput:\n{}",
                shown.join("\n")
            );
        }
    }
}

/// Runs the binary; it must exit with 0 (good input) or 2 (bad input, one line on stderr).
fn cli_survives(args: &[String]) -> Result<(), String> {
    let out = Command::new(env!("CARGO_BIN_EXE_panoply"))
        .args(args)
        .output()
        .map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => Ok(()),
        Some(2) if stderr.lines().filter(|l| !l.trim().is_empty()).count() == 1 => Ok(()),
        _ => Err(format!("{:?}, stderr:\n{stderr}", out.status)),
    }
}

#[test]
fn hostile_position_strings_on_the_command_line() {
    let seed = setting("PANOPLY_FUZZ_SEED", 13) + 2;
    let runs = setting("PANOPLY_FUZZ_SESSIONS", 2000) / 25;
    for i in 0..runs {
        let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(i));
        let variant = *rng.pick(VARIANTS);
        let line = random_line(&mut rng, variant, 20);
        let fen = if rng.chance(80) {
            mangle_position(&mut rng, &line.after)
        } else {
            line.after.clone()
        };
        let s = |x: &str| x.to_string();
        // `--fen=...`: a string starting with `-` would otherwise be read as an option.
        let fen = format!("--fen={fen}");
        let args: Vec<String> = match rng.below(3) {
            0 => vec![s("perft"), s("1"), s("--variant"), s(variant), fen],
            1 => vec![s("show"), s("--variant"), s(variant), fen],
            _ => vec![
                s("selfplay"),
                s("--variant"),
                s(variant),
                fen,
                s("--games"),
                s("1"),
                s("--nodes"),
                s("30"),
                s("--max-plies"),
                s("4"),
            ],
        };
        if let Err(e) = cli_survives(&args) {
            panic!("run {i} (seed {seed}) failed: panoply {args:?}: {e}");
        }
    }
}
