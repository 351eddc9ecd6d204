//! Training data (`panoply::datagen`): games written by the generator read back as the games
//! played, files concatenate, a truncated file reads its complete games and says where it was
//! cut, garbage is refused with the file and offset, and the filter drops what it says.

use panoply::datagen::generate::{self, DatagenSettings, Job, Opening};
use panoply::datagen::reader::{read_records, Truncation};
use panoply::datagen::record::{
    tokens, GameResult, Origin, PgdRecord, Ply, StoredMove, StoredScore,
};
use panoply::datagen::{read_positions, DataError, Filter, ReadSummary, TrainingPosition};
use panoply::game::{AnyTables, Game};
use panoply::games;
use panoply::movegen::tables::Tables;
use panoply::position::Position;
use panoply::search::{SearchOptions, Searcher};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

fn narrow(name: &str) -> Arc<Tables<u64>> {
    match games::tables(name).unwrap() {
        AnyTables::Narrow(t) => t,
        AnyTables::Wide(_) => panic!("{name} is not a 2D variant"),
    }
}

/// A file name of its own for each test, in the temporary directory.
fn temp_file(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("panoply-datagen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Small, quick games from the start position of two CwDA pairings.
fn small_job(out: PathBuf, games: u64, shard: u64) -> Job {
    let openings = ["cwda-fide-nutty", "cwda-rookies-clobberers"]
        .iter()
        .map(|name| {
            let tables = narrow(name);
            let positions = vec![tables.variant.start_position.clone()];
            Opening { tables, positions }
        })
        .collect();
    Job {
        openings,
        settings: DatagenSettings {
            soft_nodes: 300,
            hard_nodes: 1200,
            max_plies: 40,
            hash_mb: 1,
            ..DatagenSettings::default()
        },
        seed: 5,
        shard,
        threads: 2,
        games: Some(games),
        positions: None,
        out,
    }
}

/// One file as a list of files.
fn only(path: &PathBuf) -> &[PathBuf] {
    std::slice::from_ref(path)
}

fn records(paths: &[PathBuf]) -> (Vec<PgdRecord>, ReadSummary) {
    let mut out = Vec::new();
    let summary = read_records(paths, |_, r, _| {
        out.push(r.clone());
        Ok(())
    })
    .unwrap();
    (out, summary)
}

fn positions(paths: &[PathBuf], filter: &Filter) -> (Vec<TrainingPosition>, ReadSummary) {
    let mut out = Vec::new();
    let summary = read_positions(paths, filter, |p| out.push(p)).unwrap();
    (out, summary)
}

/// The positions before each ply of a record and the moves, replayed through the game's own
/// legal move list (not the reader's decoding).
fn replay(record: &PgdRecord) -> Vec<Position<u64>> {
    let mut game = Game::from_position_string(narrow(&record.variant), &record.start).unwrap();
    let mut out = Vec::new();
    for ply in &record.plies {
        out.push(game.pos);
        let mv = game
            .legal_moves()
            .into_iter()
            .find(|&m| StoredMove::from_move(m) == ply.mv)
            .expect("a recorded move is legal");
        game.play(mv);
    }
    out
}

#[test]
fn generated_games_read_back_as_played() {
    let out = temp_file("played.pgd");
    let job = small_job(out.clone(), 4, 0);
    let done = generate::run(&job, Duration::from_secs(60), |_| {}).unwrap();
    assert_eq!(done.games, 4);
    let (mut written, summary) = records(only(&out));
    assert_eq!(summary.games, 4);
    assert!(summary.truncated.is_empty());
    // The same games, played one by one from the same (seed, shard, game number).
    let options = SearchOptions {
        hash_mb: 1,
        ..SearchOptions::default()
    };
    let mut searcher = Searcher::new(job.openings[0].tables.clone(), options);
    let mut played: Vec<PgdRecord> = (0..4u64)
        .map(|i| {
            let mut rec = PgdRecord::default();
            let mut rng = generate::game_rng(5, 0, i);
            let opening = &job.openings[i as usize % 2];
            generate::play_game(&mut searcher, opening, &job.settings, &mut rng, &mut rec);
            // The writer adds where the game comes from.
            rec.origin = Some(Origin {
                seed: 5,
                shard: 0,
                game: i,
            });
            rec
        })
        .collect();
    let key = |r: &PgdRecord| (r.variant.clone(), r.start.clone(), r.plies.len());
    written.sort_by_key(key);
    played.sort_by_key(key);
    assert_eq!(written, played);
    assert!(played.iter().all(|r| !r.plies.is_empty()));
    // Every ply comes back as a position with its score and the result for the side to move.
    let (got, summary) = positions(only(&out), &Filter::none());
    let finished: Vec<&PgdRecord> = written.iter().filter(|r| r.result.is_some()).collect();
    assert_eq!(
        summary.positions,
        finished.iter().map(|r| r.plies.len() as u64).sum::<u64>()
    );
    assert_eq!(summary.kept, summary.positions);
    assert_eq!(got.len() as u64, summary.positions);
    let (written_in_order, _) = records(only(&out));
    let mut at = 0;
    for r in written_in_order.iter().filter(|r| r.result.is_some()) {
        let white = r.result.unwrap().for_white().unwrap();
        for (pos, ply) in replay(r).iter().zip(&r.plies) {
            let p = &got[at];
            assert_eq!(p.position, *pos);
            assert_eq!(p.score, ply.score.0);
            let expected = if pos.side.0 == 0 { white } else { 1.0 - white };
            assert_eq!(p.result, expected);
            assert_eq!(p.tables.variant.name, r.variant);
            at += 1;
        }
    }
    std::fs::remove_file(out).unwrap();
}

#[test]
fn shards_play_different_games_and_a_rerun_appends_new_ones() {
    let a = temp_file("shard0.pgd");
    let b = temp_file("shard1.pgd");
    generate::run(&small_job(a.clone(), 2, 0), Duration::from_secs(60), |_| {}).unwrap();
    generate::run(&small_job(b.clone(), 2, 1), Duration::from_secs(60), |_| {}).unwrap();
    // Compared without their origins, which differ anyway.
    let games = |path: &PathBuf| -> Vec<PgdRecord> {
        records(only(path)).0.iter().map(game_only).collect()
    };
    let (ra, rb) = (games(&a), games(&b));
    assert!(ra.iter().all(|r| !rb.contains(r)));
    let again = generate::run(&small_job(a.clone(), 2, 0), Duration::from_secs(60), |_| {});
    assert_eq!(again.unwrap().resumed_from, 2);
    let ra2 = games(&a);
    assert_eq!(ra2.len(), 4);
    assert!(ra2[2..].iter().all(|r| !ra.contains(r)));
    std::fs::remove_file(a).unwrap();
    std::fs::remove_file(b).unwrap();
}

/// The game of a record without where it comes from.
fn game_only(r: &PgdRecord) -> PgdRecord {
    PgdRecord {
        origin: None,
        ..r.clone()
    }
}

/// `panoply datagen --stats` on the files: (exit code, stdout, stderr).
fn stats(paths: &[&PathBuf]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_panoply"))
        .arg("datagen")
        .arg("--stats")
        .args(paths)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn records_say_where_they_come_from_and_stats_find_games_played_twice() {
    let (a, b) = (temp_file("origin0.pgd"), temp_file("origin1.pgd"));
    generate::run(&small_job(a.clone(), 2, 0), Duration::from_secs(60), |_| {}).unwrap();
    generate::run(&small_job(b.clone(), 3, 1), Duration::from_secs(60), |_| {}).unwrap();
    let mut origins: Vec<Origin> = records(only(&b))
        .0
        .iter()
        .map(|r| r.origin.unwrap())
        .collect();
    origins.sort();
    let at = |game| Origin {
        seed: 5,
        shard: 1,
        game,
    };
    assert_eq!(origins, vec![at(0), at(1), at(2)]);
    assert_eq!(std::fs::read(&a).unwrap()[..4], *b"PGD\x02");
    let sample = PathBuf::from("tests/data/cwda-sample.pgd");
    let (code, out, err) = stats(&[&a, &b, &sample]);
    assert_eq!(code, 0, "{err}");
    let (_, summary) = records(&[a.clone(), b.clone(), sample.clone()]);
    assert!(
        out.contains(&format!(
            "runs: 2 (seed and shard), {} games of format version 1 without an origin\n",
            summary.games - 5
        )),
        "{out}"
    );
    assert!(
        out.contains("run: seed 5 shard 0: 2 games (game 0 to 1)\n"),
        "{out}"
    );
    assert!(
        out.contains("run: seed 5 shard 1: 3 games (game 0 to 2)\n"),
        "{out}"
    );
    assert!(!out.contains("overlap"), "{out}");
    // The same shard twice: each of its games is reported, and the command fails.
    let (code, out, err) = stats(&[&a, &b, &a]);
    assert_eq!(code, 2);
    assert!(
        out.contains("run: seed 5 shard 0: 4 games (game 0 to 1)\n"),
        "{out}"
    );
    assert!(
        out.contains("overlap: seed 5 shard 0 game 0 is in the files 2 times\n"),
        "{out}"
    );
    assert!(
        out.contains("overlap: seed 5 shard 0 game 1 is in the files 2 times\n"),
        "{out}"
    );
    assert_eq!(
        err,
        "panoply: 2 games are in the files more than once: the same --seed and --shard ran twice, or a file was given twice\n"
    );
    std::fs::remove_file(a).unwrap();
    std::fs::remove_file(b).unwrap();
}

#[test]
fn version_1_records_read_and_write_the_same_bytes() {
    let sample = PathBuf::from("tests/data/cwda-sample.pgd");
    let bytes = std::fs::read(&sample).unwrap();
    assert_eq!(bytes[3], 1, "the committed sample is of the first version");
    let (all, summary) = records(only(&sample));
    assert!(all.iter().all(|r| r.origin.is_none()));
    let mut again = Vec::new();
    for r in &all {
        r.encode(&mut again);
    }
    assert_eq!(again, bytes);
    assert_eq!(summary.bytes, bytes.len() as u64);
}

/// A CwDA FIDE-FIDE game by hand: each ply's move and score, White won.
fn hand_game() -> PgdRecord {
    let t = narrow("cwda-fide-fide");
    let mut game = Game::new(t.clone());
    let start = game.position_string();
    let moves = [
        ("e2e4", StoredScore(20)),   // 0: kept
        ("d7d5", StoredScore::NONE), // 1: no score
        ("e4d5", StoredScore(30)),   // 2: capture
        ("d8d5", StoredScore(25)),   // 3: capture
        ("b1c3", StoredScore(2100)), // 4: decided
        ("d5e5", StoredScore(-15)),  // 5: kept
        ("f1e2", StoredScore(10)),   // 6: in check
        ("g8f6", StoredScore(0)),    // 7: kept
    ];
    let plies = moves
        .iter()
        .map(|&(m, score)| Ply {
            mv: StoredMove::from_move(game.play_str(m).unwrap()),
            score,
        })
        .collect();
    PgdRecord {
        origin: None,
        variant: t.variant.name.clone(),
        tokens: tokens(&t),
        start,
        result: Some(GameResult::WhiteWin),
        plies,
    }
}

fn write_records(path: &PathBuf, records: &[PgdRecord]) {
    let mut bytes = Vec::new();
    for r in records {
        r.encode(&mut bytes);
    }
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn the_filter_drops_what_it_says() {
    let path = temp_file("filter.pgd");
    write_records(&path, &[hand_game()]);
    let kept_plies = |filter: &Filter| -> Vec<(i16, f32)> {
        positions(only(&path), filter)
            .0
            .iter()
            .map(|p| (p.score, p.result))
            .collect()
    };
    // Plies 0, 5 and 7: White to move (a win), Black to move (a loss), Black to move.
    assert_eq!(
        kept_plies(&Filter::default()),
        vec![(20, 1.0), (-15, 0.0), (0, 0.0)]
    );
    let skip_first = Filter {
        skip_plies: 1,
        ..Filter::default()
    };
    assert_eq!(kept_plies(&skip_first), vec![(-15, 0.0), (0, 0.0)]);
    let wider = Filter {
        score_bound: Some(3000),
        skip_in_check: false,
        ..Filter::default()
    };
    assert_eq!(
        kept_plies(&wider).iter().map(|p| p.0).collect::<Vec<_>>(),
        vec![20, 2100, -15, 10, 0]
    );
    assert_eq!(kept_plies(&Filter::none()).len(), 8);
    std::fs::remove_file(path).unwrap();
}

#[test]
fn concatenated_files_read_as_the_sum() {
    let one = temp_file("one.pgd");
    let two = temp_file("two.pgd");
    write_records(&one, &[hand_game()]);
    let bytes = std::fs::read(&one).unwrap();
    std::fs::write(&two, [bytes.clone(), bytes.clone(), bytes].concat()).unwrap();
    let (p1, s1) = positions(only(&one), &Filter::default());
    let (p3, s3) = positions(only(&two), &Filter::default());
    assert_eq!(
        (s3.games, s3.kept, s3.bytes),
        (3 * s1.games, 3 * s1.kept, 3 * s1.bytes)
    );
    assert_eq!(p3.len(), 3 * p1.len());
    let games: Vec<u64> = p3.iter().map(|p| p.game).collect();
    assert_eq!(games, vec![0, 0, 0, 1, 1, 1, 2, 2, 2]);
    let (_, both) = positions(&[one.clone(), two.clone()], &Filter::default());
    assert_eq!(both.games, 4);
    std::fs::remove_file(one).unwrap();
    std::fs::remove_file(two).unwrap();
}

#[test]
fn a_truncated_file_reads_its_complete_games_and_says_where_it_was_cut() {
    let cut = temp_file("cut.pgd");
    let whole = temp_file("whole.pgd");
    write_records(&whole, &[hand_game()]);
    let record = std::fs::read(&whole).unwrap();
    let mut bytes = [record.clone(), record.clone()].concat();
    bytes.truncate(2 * record.len() - 7);
    std::fs::write(&cut, &bytes).unwrap();
    let (_, s) = positions(&[cut.clone(), whole.clone()], &Filter::default());
    assert_eq!(s.games, 2);
    assert_eq!(
        s.truncated,
        vec![Truncation {
            file: cut.clone(),
            offset: record.len() as u64,
            bytes: record.len() as u64 - 7,
        }]
    );
    // A run resuming on the file cuts the truncated record off before appending.
    let job = small_job(cut.clone(), 1, 0);
    let done = generate::run(&job, Duration::from_secs(60), |_| {}).unwrap();
    assert_eq!(done.resumed_from, 1);
    let (_, s) = records(only(&cut));
    assert_eq!((s.games, s.truncated.len()), (2, 0));
    std::fs::remove_file(cut).unwrap();
    std::fs::remove_file(whole).unwrap();
}

#[test]
fn garbage_is_refused_with_file_and_offset() {
    let path = temp_file("garbage.pgd");
    std::fs::write(
        &path,
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
    )
    .unwrap();
    let e = read_positions(only(&path), &Filter::default(), |_| {}).unwrap_err();
    assert!(matches!(e, DataError::Record { offset: 0, .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        format!(
            "{} at byte 0: not a game record (no 'PGD' magic)",
            path.display()
        )
    );
    // A good record followed by garbage: the error is at the garbage.
    write_records(&path, &[hand_game()]);
    let good = std::fs::read(&path).unwrap();
    std::fs::write(&path, [good.clone(), b"PGD\x07junk".to_vec()].concat()).unwrap();
    let e = read_positions(only(&path), &Filter::default(), |_| {}).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{} at byte {}: record format version 7, this build reads versions 1 to 2",
            path.display(),
            good.len()
        )
    );
    // A record whose move is not legal from its start.
    let mut bad = hand_game();
    bad.plies.swap(0, 1);
    write_records(&path, &[bad]);
    let e = read_positions(only(&path), &Filter::default(), |_| {}).unwrap_err();
    assert!(matches!(e, DataError::Move { ply: 0, .. }), "{e:?}");
    std::fs::remove_file(path).unwrap();
}

#[test]
fn the_committed_sample_reads_cleanly() {
    let sample = PathBuf::from("tests/data/cwda-sample.pgd");
    let (_, s) = positions(&[sample], &Filter::default());
    assert!(s.games >= 50, "{s:?}");
    assert!(s.kept >= 2000, "{s:?}");
    assert!(s.truncated.is_empty() && s.wide == 0);
}
