//! Sharded matches (`panoply match --shard K/N`) merged by `panoply results`: at fixed nodes
//! the shards' games are the single run's game for game and the merged report is its final
//! lines, for two and four seats; a timed run's shards play the same openings, colours and
//! seatings; `results` reproduces a single run's SPRT, stopped or not, and sums the sittings
//! of one test; a stopped match resumed from its PGN ends as the whole run; every merge error
//! is a clear one-line message.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("panoply-shard-{}-{name}", std::process::id()))
}

/// Removes this test's files: those whose names `temp` gave with this prefix.
fn remove_temps(prefix: &str) {
    let start = temp(prefix)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    for entry in std::fs::read_dir(std::env::temp_dir()).unwrap().flatten() {
        if entry.file_name().to_string_lossy().starts_with(&start) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// An engine file for this build of Panoply at a strength level (20 is full strength).
fn panoply_engine(name: &str, level: u32) -> String {
    let p = temp(&format!("{}.engine", name.replace(' ', "_")));
    let text = format!(
        "name = {name}\ncommand = \"{}\"\nprotocol = uci\noption.Hash = 16\n\
         option.Skill Level = {level}\n",
        env!("CARGO_BIN_EXE_panoply")
    );
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

fn repo_file(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

/// Runs panoply in tests/engines (where the scripted engines live).
fn panoply(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_panoply"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines"))
        .env("PANOPLY_BIN", env!("CARGO_BIN_EXE_panoply"))
        .output()
        .expect("panoply runs");
    Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `panoply match` with `args` and `extra`, its games appended to a fresh `pgn`.
fn play(args: &[String], extra: &[&str], pgn: &Path) -> Run {
    let _ = std::fs::remove_file(pgn);
    let mut all: Vec<&str> = vec!["match"];
    all.extend(args.iter().map(String::as_str));
    all.extend(extra);
    let pgn_text = pgn.display().to_string();
    all.extend(["--pgn", &pgn_text, "--quiet"]);
    let run = panoply(&all);
    assert_eq!(run.status, 0, "{:?}: {}", all, run.stderr);
    run
}

/// `panoply results` on the files.
fn results(files: &[&Path], extra: &[&str]) -> Run {
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let mut all: Vec<&str> = vec!["results"];
    all.extend(names.iter().map(String::as_str));
    all.extend(extra);
    panoply(&all)
}

/// What `panoply match` prints at its end: everything after the last blank line.
fn final_lines(stdout: &str) -> &str {
    stdout.rsplit_once("\n\n").map_or(stdout, |(_, end)| end)
}

/// The games of PGN files by round: tags but the date and shard, and the movetext with the
/// move times (which vary between runs) taken out of the comments.
fn games_by_round(files: &[&Path]) -> BTreeMap<usize, String> {
    let mut games = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        for chunk in text.split("[Event ").skip(1) {
            let (tags, movetext) = chunk.split_once("\n\n").unwrap();
            let round = tags
                .lines()
                .find_map(|l| l.strip_prefix("[Round \""))
                .and_then(|r| r.trim_end_matches("\"]").parse::<usize>().ok())
                .unwrap();
            let kept: Vec<&str> = tags
                .lines()
                .filter(|l| !l.starts_with("[Date ") && !l.starts_with("[PanoplyShard "))
                .collect();
            let game = format!("{}\n{}", kept.join("\n"), without_times(movetext));
            assert!(
                games.insert(round, game).is_none(),
                "game {round} twice in {files:?}"
            );
        }
    }
    games
}

fn without_times(movetext: &str) -> String {
    let joined = movetext.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::new();
    let mut rest = joined.as_str();
    while let Some(open) = rest.find('{') {
        let close = open + rest[open..].find('}').unwrap();
        out.push_str(&rest[..=open]);
        let words: Vec<&str> = rest[open + 1..close]
            .split(' ')
            .filter(|w| !(w.ends_with('s') && w[..w.len() - 1].parse::<f64>().is_ok()))
            .collect();
        out.push_str(&words.join(" "));
        rest = &rest[close..];
    }
    out + rest
}

/// Plays the match whole and in `shards` shards; checks that the shards' games are the whole
/// run's game for game and that `results` on the shards prints the whole run's final lines.
fn shards_equal_the_single_run(name: &str, args: &[String], shards: usize) {
    let single = temp(&format!("{name}-single.pgn"));
    let whole = play(args, &[], &single);
    let files: Vec<PathBuf> = (0..shards)
        .map(|k| {
            let pgn = temp(&format!("{name}-{k}.pgn"));
            let run = play(args, &["--shard", &format!("{k}/{shards}")], &pgn);
            assert!(
                run.stdout.contains(&format!("Shard {k}/{shards}: ")),
                "{}",
                run.stdout
            );
            pgn
        })
        .collect();
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let merged_games = games_by_round(&refs);
    let single_games = games_by_round(&[&single]);
    assert!(!single_games.is_empty());
    assert_eq!(merged_games.len(), single_games.len());
    for (round, game) in &single_games {
        assert_eq!(&merged_games[round], game, "game {round}");
    }
    // Reversed order: a merge does not depend on the order of its files.
    let reversed: Vec<&Path> = refs.iter().rev().copied().collect();
    let merged = results(&reversed, &[]);
    assert_eq!(merged.status, 0, "{}", merged.stderr);
    assert_eq!(merged.stdout, final_lines(&whole.stdout));
    let again = results(&[&single], &[]);
    assert_eq!(again.stdout, final_lines(&whole.stdout));
    remove_temps(&format!("{name}-"));
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// Full strength against level 15 at 100 nodes a move, openings from the CwDA book.
fn levels_args(games: &str, sprt: &str) -> Vec<String> {
    // At 100 nodes a move the levels' games depend on the evaluation: with the 128-unit CwDA
    // network Level 20 leads Level 4 by about 56 Elo (Level 10 not at all, Level 0 by 87),
    // enough for the wide test to stop early and too little for the narrow one to decide in
    // 200 pairs.
    let (strong, weak) = (panoply_engine("Level 20", 20), panoply_engine("Level 4", 4));
    let book = repo_file("book/cwda.book");
    strings(&[
        &strong,
        &weak,
        "--variant",
        "cwda-fide-nutty",
        "--book",
        &book,
        "--nodes",
        "100",
        "--games",
        games,
        "--sprt",
        "elo0=0",
        sprt,
    ])
}

#[test]
fn two_player_shards_merge_into_the_single_run() {
    shards_equal_the_single_run("two", &levels_args("16", "elo1=5"), 3);
}

#[test]
fn four_seat_gauntlet_shards_merge_into_the_single_run() {
    let (a, b) = (panoply_engine("Four A", 20), panoply_engine("Four B", 20));
    let args = strings(&[
        &a,
        &b,
        "--variant",
        "aof5",
        "--mode",
        "gauntlet",
        "--openings",
        &repo_file("book/suites/aof5.epd"),
        "--nodes",
        "200",
        "--games",
        "8",
        "--max-plies",
        "16",
    ]);
    shards_equal_the_single_run("four", &args, 2);
}

/// The tags that fix what a game is: its opening, colours or seats, and its place.
fn game_setup(files: &[&Path]) -> BTreeMap<usize, Vec<String>> {
    let mut setups = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        for chunk in text.split("[Event ").skip(1) {
            let (tags, movetext) = chunk.split_once("\n\n").unwrap();
            let get = |name: &str| {
                tags.lines()
                    .find_map(|l| l.strip_prefix(&format!("[{name} \"")))
                    .map(|v| v.trim_end_matches("\"]").to_string())
                    .unwrap_or_default()
            };
            let movetext = movetext.split_whitespace().collect::<Vec<_>>().join(" ");
            let book: Vec<&str> = movetext
                .split(" {book}")
                .map(|before| before.rsplit(' ').next().unwrap_or(""))
                .collect();
            let mut setup: Vec<String> = [
                "Variant",
                "FEN",
                "White",
                "Black",
                "Catholic",
                "Protestant",
                "Islamic",
                "Byzantine",
                "PanoplyUnit",
                "PanoplyOpening",
            ]
            .iter()
            .map(|n| get(n))
            .collect();
            setup.push(book[..book.len() - 1].join(" "));
            setups.insert(get("Round").parse::<usize>().unwrap(), setup);
        }
    }
    setups
}

#[test]
fn timed_shards_play_the_single_runs_openings_colours_and_seatings() {
    // Random movers on a clock: the moves differ from run to run, the set-up may not.
    let args = strings(&[
        "random.engine",
        "random.engine",
        "--mode",
        "gauntlet",
        "--variant",
        "cwda-fide-nutty",
        "--variant",
        "aof5",
        "--book",
        &repo_file("book/cwda.book"),
        "--games",
        "8",
        "--tc",
        "10+0.1",
        "--max-plies",
        "10",
    ]);
    let single = temp("timed-single.pgn");
    play(&args, &[], &single);
    let files: Vec<PathBuf> = (0..3)
        .map(|k| {
            let pgn = temp(&format!("timed-{k}.pgn"));
            play(&args, &["--shard", &format!("{k}/3")], &pgn);
            pgn
        })
        .collect();
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let whole = game_setup(&[&single]);
    assert_eq!(whole.len(), 16);
    assert_eq!(game_setup(&refs), whole);
    // The book lines and four-seat rotations are really there to compare.
    assert!(
        whole.values().any(|s| s[10].split(' ').count() >= 4),
        "{whole:?}"
    );
    let rotated: Vec<&String> = whole
        .values()
        .map(|s| &s[4])
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(rotated.len(), 8);
    remove_temps("timed-");
}

#[test]
fn results_reproduces_a_fixed_node_sprt_of_200_pairs_and_one_that_stopped() {
    // 400 games, two at a time: the test does not decide.
    let pgn = temp("sprt-200.pgn");
    let run = play(&levels_args("400", "elo1=5"), &["--concurrency", "2"], &pgn);
    let end = final_lines(&run.stdout);
    assert!(end.contains(", 200 pairs: no decision yet"), "{end}");
    assert_eq!(results(&[&pgn], &[]).stdout, end);
    // The same games with wider hypotheses stop early; games under way finish after it.
    let stopped = temp("sprt-stopped.pgn");
    let run = play(
        &levels_args("400", "elo1=20"),
        &["--concurrency", "2"],
        &stopped,
    );
    let end = final_lines(&run.stdout);
    assert!(end.contains(": H1 accepted\n"), "{end}");
    assert_eq!(results(&[&stopped], &[]).stdout, end);
    // Shards play to their end; the merge stops where one game at a time would have.
    let args = levels_args("400", "elo1=20");
    let single = temp("sprt-single.pgn");
    let end = play(&args, &[], &single).stdout;
    let files: Vec<PathBuf> = (0..2)
        .map(|k| {
            let pgn = temp(&format!("sprt-shard-{k}.pgn"));
            play(&args, &["--shard", &format!("{k}/2")], &pgn);
            pgn
        })
        .collect();
    let merged = results(&[&files[0], &files[1]], &[]);
    assert_eq!(merged.stdout, final_lines(&end));
    assert!(
        merged.stderr.contains("games are left out"),
        "{}",
        merged.stderr
    );
    // Another test on the same games: given on the command line, it replaces the match's.
    let other = results(&[&pgn], &["--sprt", "elo0=-10", "elo1=0"]);
    assert!(
        other
            .stdout
            .contains("SPRT (elo0=-10 elo1=0 alpha=0.05 beta=0.05 model=logistic): llr"),
        "{}",
        other.stdout
    );
    remove_temps("sprt-");
}

#[test]
fn results_of_a_run_stopped_by_hand_count_its_complete_units() {
    let pgn = temp("hand-full.pgn");
    assert_eq!(play(&levels_args("8", "elo1=5"), &[], &pgn).status, 0);
    let games = split_games(&pgn);
    assert_eq!(games.len(), 8);
    // Stopped in the third pair's second game: two whole pairs, one game of the third.
    let whole = write("hand-whole.pgn", &games[..4]);
    let cut = write("hand-cut.pgn", &games[..5]);
    let whole_run = results(&[&whole], &[]);
    assert_eq!(whole_run.status, 0, "{}", whole_run.stderr);
    assert!(
        whole_run.stdout.contains(", 2 pairs: "),
        "{}",
        whole_run.stdout
    );
    assert!(
        whole_run
            .stderr
            .contains("0 games of 0 unfinished units left out, 2 units not started"),
        "{}",
        whole_run.stderr
    );
    let cut_run = results(&[&cut], &[]);
    assert_eq!(cut_run.status, 0, "{}", cut_run.stderr);
    assert_eq!(cut_run.stdout, whole_run.stdout);
    assert!(
        cut_run
            .stderr
            .contains("1 game of 1 unfinished unit left out, 1 unit not started"),
        "{}",
        cut_run.stderr
    );
    // The whole run: nothing left out, nothing said.
    let full = results(&[&pgn], &[]);
    assert_eq!(full.status, 0);
    assert!(full.stderr.is_empty(), "{}", full.stderr);
    remove_temps("hand-");
}

/// The pentanomial line's five counts.
fn pentanomial(stdout: &str) -> [u32; 5] {
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Pentanomial [LL, LD, DD+WL, WD, WW]: ["))
        .unwrap_or_else(|| panic!("no pentanomial in {stdout}"));
    let counts: Vec<u32> = line
        .trim_end_matches(']')
        .split(", ")
        .map(|n| n.parse().unwrap())
        .collect();
    counts.try_into().unwrap()
}

#[test]
fn results_sum_the_sittings_of_one_test_played_with_other_seeds() {
    let args = levels_args("8", "elo1=5");
    let sitting = |seed: &str, extra: &[&str]| {
        let pgn = temp(&format!("sit-{seed}.pgn"));
        let mut all = vec!["--seed", seed];
        all.extend(extra);
        play(&args, &all, &pgn);
        pgn
    };
    let (a, b) = (sitting("1", &[]), sitting("2", &[]));
    // Without --sittings two seeds are two matches: one line says how to sum them.
    merge_fails(&[&a, &b], "another seed: ");
    let run = results(&[&a, &b], &[]);
    assert!(run.stderr.contains("add --sittings"), "{}", run.stderr);
    let sum = results(&[&a, &b], &["--sittings"]);
    assert_eq!(sum.status, 0, "{}", sum.stderr);
    assert!(
        sum.stdout
            .starts_with("Sittings: 2 (seeds 1, 2), their pairs summed\n"),
        "{}",
        sum.stdout
    );
    assert!(sum.stdout.contains("Games: 16, pairs: 8"), "{}", sum.stdout);
    let (one, two) = (results(&[&a], &[]).stdout, results(&[&b], &[]).stdout);
    let summed: Vec<u32> = (0..5)
        .map(|i| pentanomial(&one)[i] + pentanomial(&two)[i])
        .collect();
    assert_eq!(pentanomial(&sum.stdout).to_vec(), summed);
    // A sitting of other settings is not the same test: the line names the difference.
    let other = sitting("3", &["--max-plies", "30"]);
    let run = results(&[&a, &other], &["--sittings"]);
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert!(
        run.stderr.starts_with("panoply: mixed settings: ")
            && run.stderr.contains("max-plies=-, but ")
            && run.stderr.contains("max-plies=30"),
        "{}",
        run.stderr
    );
    remove_temps("sit-");
}

#[test]
fn a_stopped_match_resumed_from_its_pgn_ends_as_the_whole_run() {
    let args = levels_args("8", "elo1=5");
    let full = temp("resume-full.pgn");
    let whole = play(&args, &[], &full);
    // Stopped in the third pair's second game: five games written.
    let cut = write("resume-cut.pgn", &split_games(&full)[..5]);
    let resume = |pgn: &Path, extra: &[&str]| {
        let mut all: Vec<&str> = vec!["match"];
        all.extend(args.iter().map(String::as_str));
        all.extend(extra);
        let pgn_text = pgn.display().to_string();
        all.extend(["--pgn", &pgn_text, "--resume", "--quiet"]);
        panoply(&all)
    };
    let resumed = resume(&cut, &[]);
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert!(
        resumed
            .stdout
            .starts_with("Resuming: 5 games in the PGN file, 3 to play\n"),
        "{}",
        resumed.stdout
    );
    assert_eq!(final_lines(&resumed.stdout), final_lines(&whole.stdout));
    assert_eq!(games_by_round(&[&cut]), games_by_round(&[&full]));
    // A finished match plays nothing more and reports the same.
    let again = resume(&full, &[]);
    assert!(
        again
            .stdout
            .starts_with("Resuming: 8 games in the PGN file, 0 to play\n"),
        "{}",
        again.stdout
    );
    assert_eq!(final_lines(&again.stdout), final_lines(&whole.stdout));
    // Another match's file: one line naming the difference, and the file untouched.
    let before = std::fs::read_to_string(&cut).unwrap();
    let other = resume(&cut, &["--max-plies", "30"]);
    assert_eq!(other.status, 2);
    assert_eq!(
        other.stderr,
        format!(
            "panoply: {}: game 1 was played with max-plies=-, but this match has \
             max-plies=30; --resume goes on with the match that wrote the file, given the same \
             engines and settings\n",
            cut.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), before);
    // A shard's file resumed as the other shard.
    let first_shard = temp("resume-shard-0.pgn");
    play(&args, &["--shard", "0/2"], &first_shard);
    let wrong = resume(&first_shard, &["--shard", "1/2"]);
    assert_eq!(wrong.status, 2);
    assert!(
        wrong.stderr.starts_with(&format!(
            "panoply: {}: game 1 is of shard 0/2, not 1/2; ",
            first_shard.display()
        )),
        "{}",
        wrong.stderr
    );
    remove_temps("resume-");
}

/// The games of a PGN file as separate texts.
fn split_games(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    text.split("[Event ")
        .skip(1)
        .map(|g| format!("[Event {g}"))
        .collect()
}

fn write(name: &str, games: &[String]) -> PathBuf {
    let p = temp(name);
    std::fs::write(&p, games.concat()).unwrap();
    p
}

/// The one line `results` prints on stderr, which must start with `want`.
#[track_caller]
fn merge_fails(files: &[&Path], want: &str) {
    let run = results(files, &[]);
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.starts_with(&format!("panoply: {want}")),
        "{}",
        run.stderr
    );
}

#[test]
fn merge_errors_are_one_clear_line() {
    let args = levels_args("8", "elo1=5");
    let shard = |k: usize, extra: &[&str], name: &str| {
        let pgn = temp(name);
        let mut all = vec!["--shard"];
        let text = format!("{k}/2");
        all.push(&text);
        all.extend(extra);
        play(&args, &all, &pgn);
        pgn
    };
    let (s0, s1) = (shard(0, &[], "err-0.pgn"), shard(1, &[], "err-1.pgn"));
    assert_eq!(results(&[&s0, &s1], &[]).status, 0);
    // The same shard twice.
    merge_fails(&[&s0, &s1, &s0], "overlapping shards: game 1 is in ");
    // A shard forgotten: its units are missing.
    merge_fails(
        &[&s0],
        "unit 1 of 4 is missing: no game of it in the files (shard 1/2",
    );
    // A shard cut short: its last game is missing.
    let mut games = split_games(&s1);
    games.pop();
    let cut = write("err-cut.pgn", &games);
    merge_fails(
        &[&s0, &cut],
        "incomplete unit 3 (shard 1/2): 1 of its 2 games (game 7); did the shard finish?",
    );
    // A shard played with other settings.
    let other = shard(1, &["--max-plies", "30"], "err-other.pgn");
    merge_fails(&[&s0, &other], "mixed settings: ");
    let run = results(&[&s0, &other], &[]);
    assert!(
        run.stderr.contains("max-plies=-, but ") && run.stderr.contains("max-plies=30"),
        "{}",
        run.stderr
    );
    // A shard of a split into three.
    let thirds = play(&args, &["--shard", "1/3"], &temp("err-third.pgn"));
    assert_eq!(thirds.status, 0);
    merge_fails(&[&s0, &temp("err-third.pgn")], "mixed settings: ");
    // A game without the merge tags.
    let bare: Vec<String> = split_games(&s1)
        .iter()
        .map(|g| {
            g.lines()
                .filter(|l| !l.starts_with("[Panoply"))
                .map(|l| format!("{l}\n"))
                .collect()
        })
        .collect();
    let bare = write("err-bare.pgn", &bare);
    merge_fails(
        &[&s0, &bare],
        &format!("{}: game 3: no PanoplyUnit tag", bare.display()),
    );
    // A damaged file names the file, the game and the line.
    let damaged = write(
        "err-damaged.pgn",
        &[split_games(&s1)[0].replace("[Result ", "[Result")],
    );
    merge_fails(
        &[&damaged],
        &format!("{}: game 1 (line 1): bad tag line", damaged.display()),
    );
    // Bad settings on the command lines.
    let run = panoply(&[
        "results",
        &s0.display().to_string(),
        "--sprt",
        "elo0=5",
        "elo1=0",
    ]);
    assert_eq!(run.stderr, "panoply: --sprt: elo1=0 must be above elo0=5\n");
    let mut no_pgn: Vec<&str> = vec!["match"];
    no_pgn.extend(args.iter().map(String::as_str));
    no_pgn.extend(["--shard", "0/2"]);
    let run = panoply(&no_pgn);
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stderr,
        "panoply: --shard needs --pgn: a shard's games are merged from its PGN file\n"
    );
    let last = no_pgn.len() - 1;
    no_pgn[last] = "2/2";
    let run = panoply(&no_pgn);
    assert!(
        run.stderr.starts_with("panoply: --shard: bad shard '2/2'"),
        "{}",
        run.stderr
    );
    remove_temps("err-");
}
