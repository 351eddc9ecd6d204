//! The trainer end to end on the committed sample (`tests/data/cwda-sample.txt`, 2208
//! positions of CwDA self-play): it learns, it is deterministic, it resumes exactly, it refines
//! a network it starts from, and the quantised network computes what the float one does.

use super::checkpoint::Checkpoint;
use super::data::load;
use super::data::LoadError;
use super::network::Scratch;
use super::optimizer::Schedule;
use super::trainer::{train, Holdout, Report, Start, TrainSettings};
use crate::nnue::format;
use std::path::PathBuf;

fn sample() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/cwda-sample.txt"
    ))
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("panoply-train-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn settings(dir: &std::path::Path, epochs: usize) -> TrainSettings {
    TrainSettings {
        files: vec![sample()],
        out: dir.join("net.nnue"),
        hidden: 32,
        epochs,
        batch: 128,
        lr: 0.003,
        schedule: Schedule::Step {
            every: 4,
            gamma: 0.5,
        },
        weight_decay: 0.0,
        lambda: 0.7,
        k: None,
        scale: 400,
        seed: 11,
        threads: 1,
        holdout: Holdout::Share(0.2),
        checkpoint: dir.join("net.ckpt"),
        start: Start::Fresh,
        on_classical: false,
        mirror: false,
    }
}

fn run(s: &TrainSettings) -> (Report, Vec<u8>) {
    let report = train(s, &|_| {}).unwrap();
    let bytes = std::fs::read(&s.out).unwrap();
    (report, bytes)
}

#[test]
fn training_lowers_the_validation_loss_of_held_out_games() {
    let dir = scratch_dir("learns");
    let (report, _) = run(&settings(&dir, 6));
    eprintln!("{} {:?}", report.initial_validation, report.history);
    let last = report.history.last().unwrap();
    assert!(
        last.validation < 0.95 * report.initial_validation,
        "validation {} after training, {} before",
        last.validation,
        report.initial_validation
    );
    assert!(last.train < report.history[0].train, "{:?}", report.history);
    // Panoply's scores: a pawn is about 100, so K lands in the hundreds.
    assert!((50.0..2000.0).contains(&report.k), "K = {}", report.k);
    assert_eq!(report.network.header.family, "cwda");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn mirroring_doubles_the_training_positions_and_leaves_validation_alone() {
    let dir = scratch_dir("mirror");
    let s = settings(&dir, 1);
    let plain = load(&s.files, &s.holdout, s.seed, false).unwrap();
    let mirrored = load(&s.files, &s.holdout, s.seed, true).unwrap();
    assert_eq!(mirrored.train.len(), 2 * plain.train.len());
    assert_eq!(mirrored.validation.entries, plain.validation.entries);
    // Entry 2i + 1 is entry 2i's mirror image: same labels, other inputs.
    let (a, b) = (&mirrored.train.entries[0], &mirrored.train.entries[1]);
    assert_eq!((a.score, a.result, a.game), (b.score, b.result, b.game));
    assert_ne!(mirrored.train.features(0), mirrored.train.features(1));
    std::fs::remove_dir_all(dir).unwrap();
}

/// The sample's first and second halves, written to `dir`.
fn halves(dir: &std::path::Path) -> (PathBuf, PathBuf) {
    let text = std::fs::read_to_string(sample()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let (first, second) = lines.split_at(lines.len() / 2);
    let files = (dir.join("first.txt"), dir.join("second.txt"));
    std::fs::write(&files.0, first.join("\n") + "\n").unwrap();
    std::fs::write(&files.1, second.join("\n") + "\n").unwrap();
    files
}

#[test]
fn a_validation_file_holds_out_its_games_and_the_training_files_all_train() {
    let dir = scratch_dir("holdout-file");
    let (first, second) = halves(&dir);
    let seed = 11;
    let both = |train: &PathBuf, held: &PathBuf| {
        load(
            std::slice::from_ref(train),
            &Holdout::Files(vec![held.clone()]),
            seed,
            false,
        )
        .unwrap()
    };
    let (a, b) = (both(&first, &second), both(&second, &first));
    assert_eq!(a.train.len(), b.validation.len());
    assert_eq!(a.validation.len(), b.train.len());
    let whole = load(&[sample()], &Holdout::Share(0.2), seed, false).unwrap();
    assert_eq!(
        a.train.len() + a.validation.len(),
        whole.train.len() + whole.validation.len()
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn networks_trained_on_different_data_are_measured_on_the_same_validation_file() {
    let dir = scratch_dir("holdout-yardstick");
    let (first, second) = halves(&dir);
    let text = std::fs::read_to_string(&first).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let quarter = dir.join("quarter.txt");
    std::fs::write(&quarter, lines[..lines.len() / 2].join("\n") + "\n").unwrap();
    // K given, so the labels do not depend on the training data; the seed gives both runs the
    // same starting weights.
    let on = |file: &PathBuf, out: &str| TrainSettings {
        files: vec![file.clone()],
        out: dir.join(out),
        checkpoint: dir.join(out).with_extension("ckpt"),
        holdout: Holdout::Files(vec![second.clone()]),
        k: Some(250.0),
        ..settings(&dir, 1)
    };
    let (half, _) = run(&on(&first, "half.nnue"));
    let (less, _) = run(&on(&quarter, "quarter.nnue"));
    assert_eq!(half.initial_validation, less.initial_validation);
    assert_ne!(half.history[0].validation, less.history[0].validation);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_file_named_to_train_and_to_validate_is_refused() {
    let dir = scratch_dir("holdout-twice");
    let (first, second) = halves(&dir);
    let same = dir.join(".").join("first.txt");
    let held = Holdout::Files(vec![second, same]);
    match load(&[first], &held, 11, false) {
        Err(e @ LoadError::TrainsAndValidates(_)) => assert!(
            e.to_string()
                .contains("first.txt is both a training and a validation file"),
            "{e}"
        ),
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a file trained on was accepted to validate with"),
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn one_thread_and_one_seed_give_the_same_bytes() {
    let dir = scratch_dir("deterministic");
    let s = settings(&dir, 2);
    let (_, first) = run(&s);
    let (_, second) = run(&s);
    assert!(first == second, "two runs with the same seed differ");
    let (_, other) = run(&TrainSettings { seed: 12, ..s });
    assert!(first != other, "another seed gave the same network");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_resumed_run_ends_where_an_uninterrupted_one_does() {
    let dir = scratch_dir("resume");
    let whole = settings(&dir, 3);
    let (_, straight) = run(&whole);
    let (_, _) = run(&TrainSettings {
        epochs: 1,
        ..whole.clone()
    });
    let (report, resumed) = run(&TrainSettings {
        start: Start::Resume(whole.checkpoint.clone()),
        ..whole
    });
    assert_eq!(report.history.len(), 3);
    assert!(straight == resumed, "the resumed run ended elsewhere");
    std::fs::remove_dir_all(dir).unwrap();
}

/// The engine's integer forward pass, written out from `nnue::format`'s documentation.
fn integer_forward(net: &format::Network, own: &[u16], other: &[u16]) -> i64 {
    let h = net.header.hidden;
    let qa = net.header.qa as i64;
    let accumulate = |features: &[u16]| -> Vec<i64> {
        let mut acc: Vec<i64> = net.feature_bias.iter().map(|&b| b as i64).collect();
        for &f in features {
            for (a, &w) in acc.iter_mut().zip(&net.feature_weights[f as usize * h..]) {
                *a += w as i64;
            }
        }
        acc
    };
    let mut sum = 0i64;
    for (acc, weights) in [accumulate(own), accumulate(other)]
        .iter()
        .zip(net.output_weights.chunks(h))
    {
        for (&a, &w) in acc.iter().zip(weights) {
            let c = a.clamp(0, qa);
            sum += c * c * w as i64;
        }
    }
    (sum / qa + net.output_bias as i64) * net.header.scale as i64 / (qa * net.header.qb as i64)
}

#[test]
fn the_quantised_network_computes_what_the_float_one_does() {
    let dir = scratch_dir("quantise");
    let s = settings(&dir, 3);
    let (report, bytes) = run(&s);
    assert!(bytes == report.network.to_bytes());
    let stored = format::Network::from_bytes(&bytes).unwrap();
    assert_eq!(stored.feature_weights, report.network.feature_weights);
    let float = Checkpoint::load(&s.checkpoint).unwrap().net;
    let data = load(&s.files, &s.holdout, s.seed, s.mirror).unwrap();
    let mut scratch = Scratch::new(float.hidden);
    let (mut worst, mut spread, mut total, mut n) = (0f64, 0f64, 0f64, 0);
    for i in (0..data.validation.len()).step_by(3) {
        let (own, other) = data.validation.features(i);
        let cp = float.forward(own, other, &mut scratch) as f64 * s.scale as f64;
        let int = integer_forward(&report.network, own, other) as f64;
        worst = worst.max((cp - int).abs());
        total += (cp - int).abs();
        n += 1;
        spread = spread.max(cp.abs());
    }
    // Rounding each weight to 1/255 leaves a few centipawns at most, about one on average.
    let mean = total / n as f64;
    eprintln!("worst {worst} mean {mean} over {n}");
    assert!(
        worst <= 5.0,
        "integer and float forward differ by up to {worst} cp"
    );
    assert!(
        mean <= 1.5,
        "integer and float forward differ by {mean} cp on average"
    );
    // Not a network that says zero everywhere.
    assert!(spread > 20.0, "largest score {spread} cp");
    std::fs::remove_dir_all(dir).unwrap();
}

/// The two halves meet: a network the trainer wrote scores positions in the engine
/// ([`crate::nnue::Nnue`], accumulators and all) as the trainer's float network does. Each
/// half is also tested against the format's formula; this checks they read it alike.
#[test]
fn the_engine_scores_positions_as_the_trainer_does() {
    use crate::nnue::features::KindMap;
    use crate::nnue::Nnue;
    use crate::piece::Player;
    let dir = scratch_dir("engine");
    let s = settings(&dir, 3);
    let (report, _) = run(&s);
    let float = Checkpoint::load(&s.checkpoint).unwrap().net;
    let net = std::sync::Arc::new(report.network.clone());
    let mut scratch = Scratch::new(float.hidden);
    let (mut worst, mut n, mut spread) = (0f64, 0, 0f64);
    super::source::read_positions(&s.files, |p| {
        let engine = Nnue::new(net.clone(), &p.tables).unwrap();
        let map = KindMap::new(&*p.tables, &net.header.catalog, net.header.cells).unwrap();
        let features = |perspective: Player| {
            let mut v = Vec::new();
            map.active(&p.position, perspective, &mut v);
            v.into_iter().map(|i| i as u16).collect::<Vec<u16>>()
        };
        let (own, other) = (
            features(p.position.side),
            features(Player(1 - p.position.side.0)),
        );
        let cp = float.forward(&own, &other, &mut scratch) as f64 * s.scale as f64;
        let int = engine.evaluate_full(&p.position) as f64;
        worst = worst.max((cp - int).abs());
        spread = spread.max(cp.abs());
        n += 1;
    })
    .unwrap();
    std::fs::remove_dir_all(dir).unwrap();
    assert!(n > 1000, "{n} positions");
    assert!(spread > 20.0, "largest score {spread} cp");
    // Rounding to 1/255 and the engine's integer divisions: about 5 cp at worst.
    assert!(
        worst <= 8.0,
        "engine and trainer differ by up to {worst} cp"
    );
}

/// A correction network (`--on-classical`) starts as the classical evaluation, learns on top
/// of it, says so in its file, and the engine adds it to the classical evaluation.
#[test]
fn a_correction_network_is_added_to_the_classical_evaluation() {
    use crate::eval::Evaluator;
    use crate::game::Game;
    use crate::nnue::{EvalSettings, Nnue};
    use crate::search::{SearchOptions, Searcher};
    let dir = scratch_dir("correction");
    let s = TrainSettings {
        on_classical: true,
        lambda: 1.0,
        lr: 0.0005,
        hidden: 8,
        ..settings(&dir, 3)
    };
    let (report, bytes) = run(&s);
    let last = report.history.last().unwrap().validation;
    eprintln!("{} {:?}", report.initial_validation, report.history);
    assert!(
        last < report.initial_validation,
        "validation {} → {last}",
        report.initial_validation
    );
    let net = std::sync::Arc::new(format::Network::from_bytes(&bytes).unwrap());
    assert_eq!(net.header.base, format::Base::Classical);
    let (mut n, mut corrected) = (0, 0);
    super::source::read_positions(&s.files, |p| {
        if n >= 300 {
            return;
        }
        let t = p.tables.clone();
        let mut searcher = Searcher::new(t.clone(), SearchOptions::default());
        searcher.set_eval(EvalSettings {
            use_nnue: true,
            file: Some((dir.join("net.nnue"), net.clone())),
        });
        let mut game = Game::new(t.clone());
        game.pos = p.position;
        let own = Nnue::new(net.clone(), &t)
            .unwrap()
            .evaluate_full(&p.position);
        let classical = Evaluator::new(&*t).evaluate(&t, &p.position);
        assert_eq!(searcher.evaluate(&game), classical + own);
        corrected += (own != 0) as usize;
        n += 1;
    })
    .unwrap();
    std::fs::remove_dir_all(dir).unwrap();
    assert!(
        corrected > n / 2,
        "only {corrected} of {n} positions corrected"
    );
}

/// A run that starts from a network and trains no epoch writes the same weights again
/// (quantising undoes dequantising exactly); with epochs it starts at that network's
/// validation loss and lowers it.
#[test]
fn a_run_started_from_a_network_starts_where_it_ended() {
    let dir = scratch_dir("init");
    let first = settings(&dir, 2);
    let (first_report, _) = run(&first);
    let before = format::Network::load(&first.out).unwrap();
    let start = dir.join("start.nnue");
    std::fs::rename(&first.out, &start).unwrap();
    let again = TrainSettings {
        epochs: 0,
        start: Start::Network(start.clone()),
        ..first.clone()
    };
    let (report, _) = run(&again);
    assert_eq!(
        report.network.weights_sha256(),
        before.weights_sha256(),
        "a run of no epochs changed the starting network"
    );
    let last = first_report.history.last().unwrap().validation;
    assert!(
        (report.initial_validation - last).abs() < 1e-3,
        "the starting network's validation loss {} is not the one it was trained to, {last}",
        report.initial_validation
    );
    let (refined, _) = run(&TrainSettings { epochs: 2, ..again });
    assert!(refined.history.last().unwrap().validation < report.initial_validation);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A starting network that does not fit the run is refused with a reason, before training.
#[test]
fn a_starting_network_of_another_width_is_refused() {
    let dir = scratch_dir("init-width");
    let first = settings(&dir, 1);
    run(&first);
    let wider = TrainSettings {
        hidden: 16,
        start: Start::Network(first.out.clone()),
        out: dir.join("wider.nnue"),
        ..first
    };
    let error = train(&wider, &|_| {}).err().expect("refused").to_string();
    assert_eq!(
        error,
        "the starting network does not fit: its hidden layer has 32 units, --hidden says 16"
    );
    assert!(!wider.out.exists());
    std::fs::remove_dir_all(dir).unwrap();
}
