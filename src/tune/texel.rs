//! Texel tuning: fit the evaluation's weights so that a logistic of the static score predicts
//! the results (or the deeper search's scores) of recorded positions. Every position is
//! traced once ([`crate::eval::trace`]): its score is then a sum of weights times counts, so
//! the mean squared error and its exact gradient are cheap, and Adam descends on all the
//! weights at once. Weights are named, so one run fits every variant of a family.

use super::data::Sample;
use crate::datagen::reader::is_game_record;
use crate::datagen::{read_positions, Filter};
use crate::eval::params::{family_weights, names_in, Tapered, Weights};
use crate::eval::Evaluator;
use crate::games;
use crate::piece::Player;
use crate::position::fen;
use crate::variant::Family;
use crate::with_tables;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// What to tune and how.
#[derive(Clone, Debug)]
pub struct TuneSettings {
    pub files: Vec<PathBuf>,
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub rate: f64,
    /// Weight of the game result in the target; the rest is the recorded search score.
    pub lambda: f64,
    /// Tune only weights whose name starts with one of these (all when empty).
    pub only: Vec<String>,
    /// Never change weights whose name starts with one of these.
    pub freeze: Vec<String>,
    /// Pull towards the starting weights, per centipawn squared (keeps rare terms sane).
    pub regularisation: f64,
    /// Tune a weight only if this many positions have a count for it: rarer terms cannot be
    /// fitted, only overfitted.
    pub min_positions: usize,
}

/// One traced position: counts per tuned weight, as the optimiser needs them.
struct Point {
    counts: Vec<(u32, i32)>,
    phase: f64,
    /// Score from the weights that are not tuned, plus the fixed part (White's view).
    constant: f64,
    divisor: f64,
    target: f64,
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct Report {
    pub family: Family,
    pub positions: usize,
    pub k: f64,
    pub error_before: f64,
    pub error_after: f64,
    /// The tuned weights by name, in a weight file's form.
    pub weights: Vec<(String, Tapered)>,
}

impl Report {
    /// The tuned weights as a weight file.
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::from(header);
        for (name, w) in &self.weights {
            out.push_str(&format!("{name}: {} {}\n", w.mg, w.eg));
        }
        out
    }
}

#[derive(Debug)]
pub enum TuneError {
    Read {
        file: PathBuf,
        reason: String,
    },
    Line {
        file: PathBuf,
        line: usize,
        reason: String,
    },
    MixedFamilies(Family, Family),
    NoPositions,
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TuneError::Read { file, reason } => write!(f, "{}: {reason}", file.display()),
            TuneError::Line { file, line, reason } => {
                write!(f, "{}:{line}: {reason}", file.display())
            }
            TuneError::MixedFamilies(a, b) => write!(
                f,
                "positions of two game families ({a} and {b}): tune one family per run"
            ),
            TuneError::NoPositions => write!(f, "no positions to tune on"),
        }
    }
}

impl std::error::Error for TuneError {}

/// The tuned weights by global index: names and values shared by all variants of the family.
struct Space {
    names: Vec<String>,
    start: Vec<Tapered>,
    index: HashMap<String, u32>,
}

impl Space {
    fn id(&mut self, name: &str, value: Tapered) -> u32 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(name.to_string());
        self.start.push(value);
        self.index.insert(name.to_string(), i);
        i
    }
}

/// Runs a tuning session; `progress` receives a line now and then.
pub fn tune(s: &TuneSettings, progress: &dyn Fn(&str)) -> Result<Report, TuneError> {
    let samples = read_samples(&s.files)?;
    if samples.is_empty() {
        return Err(TuneError::NoPositions);
    }
    progress(&format!("{} positions read", samples.len()));
    let (family, space, raw) = trace_all(&samples, s)?;
    let mut seen = vec![0usize; space.names.len()];
    for p in &raw {
        for &(i, _) in &p.counts {
            seen[i as usize] += 1;
        }
    }
    let tuned: Vec<bool> = space
        .names
        .iter()
        .zip(&seen)
        .map(|(n, &seen)| seen >= s.min_positions && s.tunes(n))
        .collect();
    progress(&format!(
        "{} weights seen, {} tuned",
        space.names.len(),
        tuned.iter().filter(|&&t| t).count()
    ));
    let k = fit_k(&raw, &space.start);
    progress(&format!("K = {k:.5}"));
    let points = to_points(&raw, &space.start, &tuned, k, s.lambda);
    let mut weights: Vec<[f64; 2]> = space
        .start
        .iter()
        .map(|w| [w.mg as f64, w.eg as f64])
        .collect();
    let error_before = error(&points, &weights, k);
    adam(&points, &mut weights, &space.start, &tuned, k, s, progress);
    let error_after = error(&points, &weights, k);
    // The output replaces the family's weight file, so the weights that file sets and this
    // run did not tune are written as they stand.
    let in_file: HashSet<&str> = names_in(family_weights(family)).collect();
    let mut named: Vec<(String, Tapered)> = space
        .names
        .iter()
        .zip(&weights)
        .zip(&tuned)
        .filter(|((name, _), &t)| t || in_file.contains(name.as_str()))
        .map(|((n, w), _)| {
            (
                n.clone(),
                Tapered::new(w[0].round() as i32, w[1].round() as i32),
            )
        })
        .collect();
    named.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Report {
        family,
        positions: points.len(),
        k,
        error_before,
        error_after,
        weights: named,
    })
}

impl TuneSettings {
    fn tunes(&self, name: &str) -> bool {
        let only = self.only.is_empty() || self.only.iter().any(|p| name.starts_with(p));
        only && !self.freeze.iter().any(|p| name.starts_with(p))
    }
}

/// Every sample of the training files, with the index of its file and its line number (for
/// game records of `panoply datagen`, told by their first bytes, the game's number).
pub fn read_samples(files: &[PathBuf]) -> Result<Vec<(Sample, usize, usize)>, TuneError> {
    let mut out = Vec::new();
    for (f, file) in files.iter().enumerate() {
        let unreadable = |e: std::io::Error| TuneError::Read {
            file: file.clone(),
            reason: e.to_string(),
        };
        if is_game_record(file).map_err(unreadable)? {
            read_game_records(file, f, &mut out)?;
            continue;
        }
        let text = std::fs::read_to_string(file).map_err(unreadable)?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let sample = Sample::parse(line).map_err(|e| TuneError::Line {
                file: file.clone(),
                line: n + 1,
                reason: e.to_string(),
            })?;
            out.push((sample, f, n + 1));
        }
    }
    Ok(out)
}

/// The positions of a `panoply datagen` file that the training filter keeps (quiet, scored,
/// undecided: [`Filter::default`]), as samples from White's view.
fn read_game_records(
    file: &Path,
    f: usize,
    out: &mut Vec<(Sample, usize, usize)>,
) -> Result<(), TuneError> {
    read_positions(&[file.to_path_buf()], &Filter::default(), |p| {
        let white = p.position.side == Player::WHITE;
        let sample = Sample {
            variant: p.tables.variant.name.clone(),
            position: fen::format(&p.tables, &p.position),
            result: f64::from(if white { p.result } else { 1.0 - p.result }),
            score: i32::from(if white { p.score } else { -p.score }),
        };
        out.push((sample, f, p.game as usize + 1));
    })
    .map_err(|e| TuneError::Read {
        file: file.to_path_buf(),
        reason: e.to_string(),
    })?;
    Ok(())
}

/// A traced position with global weight ids; the target is set once K is known.
struct RawPoint {
    counts: Vec<(u32, i32)>,
    phase: i32,
    fixed: i32,
    divisor: i32,
    result: f64,
    score: i32,
}

type Traced = (Family, Space, Vec<RawPoint>);

/// Traces every sample with its variant's evaluator (the compiled-in weights).
fn trace_all(samples: &[(Sample, usize, usize)], s: &TuneSettings) -> Result<Traced, TuneError> {
    let mut by_variant: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, (sample, _, _)) in samples.iter().enumerate() {
        by_variant.entry(&sample.variant).or_default().push(i);
    }
    let mut names: Vec<&str> = by_variant.keys().copied().collect();
    names.sort();
    let mut family = None;
    let mut space = Space {
        names: Vec::new(),
        start: Vec::new(),
        index: HashMap::new(),
    };
    let mut points = Vec::with_capacity(samples.len());
    for name in names {
        let line_error = |i: usize, reason: String| {
            let (_, f, line) = &samples[i];
            TuneError::Line {
                file: s.files[*f].clone(),
                line: *line,
                reason,
            }
        };
        let rows = &by_variant[name];
        let tables = games::tables(name).map_err(|e| line_error(rows[0], e.to_string()))?;
        let fam = tables.variant().family;
        match family {
            Some(f) if f != fam => return Err(TuneError::MixedFamilies(f, fam)),
            _ => family = Some(fam),
        }
        let traces = with_tables!(&tables, t => {
            let ev = Evaluator::new(t);
            let w = ev.weights();
            let ids: Vec<u32> = (0..w.len())
                .map(|i| {
                    let p = crate::eval::params::Param(i as u16);
                    space.id(w.name(p), w.get(p))
                })
                .collect();
            rows.par_iter()
                .map(|&i| {
                    let sample = &samples[i].0;
                    let pos = crate::position::fen::parse(t, &sample.position)
                        .map_err(|e| line_error(i, format!("bad position string: {e}")))?;
                    let trace = ev
                        .trace(t, &pos)
                        .ok_or_else(|| line_error(i, "not a two-player game".into()))?;
                    Ok(RawPoint {
                        counts: trace.counts.iter().map(|&(p, n)| (ids[p.index()], n)).collect(),
                        phase: trace.phase,
                        fixed: trace.fixed,
                        divisor: trace.divisor,
                        result: sample.result,
                        score: sample.score,
                    })
                })
                .collect::<Result<Vec<_>, TuneError>>()
        })?;
        points.extend(traces);
    }
    Ok((family.expect("at least one variant"), space, points))
}

fn sigmoid(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + (-k * score / 100.0).exp())
}

fn raw_score(p: &RawPoint, w: &[Tapered]) -> f64 {
    let mut sum = Tapered::ZERO;
    for &(i, n) in &p.counts {
        sum += w[i as usize] * n;
    }
    let blended = (sum.mg as f64 * p.phase as f64 + sum.eg as f64 * (256 - p.phase) as f64) / 256.0;
    (blended + p.fixed as f64) / p.divisor as f64
}

/// The scale of the logistic that best maps today's scores to the results.
fn fit_k(points: &[RawPoint], w: &[Tapered]) -> f64 {
    let scores: Vec<(f64, f64)> = points
        .par_iter()
        .map(|p| (raw_score(p, w), p.result))
        .collect();
    let err = |k: f64| -> f64 {
        scores
            .par_iter()
            .map(|&(s, r)| (sigmoid(k, s) - r).powi(2))
            .sum::<f64>()
            / scores.len() as f64
    };
    // A bracket wide enough for any centipawn scale.
    super::golden::minimise(err, (0.01, 5.0), 60)
}

/// Moves the weights that are not tuned into each point's constant.
fn to_points(
    raw: &[RawPoint],
    start: &[Tapered],
    tuned: &[bool],
    k: f64,
    lambda: f64,
) -> Vec<Point> {
    raw.par_iter()
        .map(|p| {
            let mut fixed = Tapered::ZERO;
            let mut counts = Vec::with_capacity(p.counts.len());
            for &(i, n) in &p.counts {
                if tuned[i as usize] {
                    counts.push((i, n));
                } else {
                    fixed += start[i as usize] * n;
                }
            }
            let phase = p.phase as f64 / 256.0;
            let constant =
                fixed.mg as f64 * phase + fixed.eg as f64 * (1.0 - phase) + p.fixed as f64;
            Point {
                counts,
                phase,
                constant,
                divisor: p.divisor as f64,
                target: lambda * p.result + (1.0 - lambda) * sigmoid(k, p.score as f64),
            }
        })
        .collect()
}

fn score(p: &Point, w: &[[f64; 2]]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, n) in &p.counts {
        let x = w[i as usize];
        mg += x[0] * n as f64;
        eg += x[1] * n as f64;
    }
    (mg * p.phase + eg * (1.0 - p.phase) + p.constant) / p.divisor
}

fn error(points: &[Point], w: &[[f64; 2]], k: f64) -> f64 {
    points
        .par_iter()
        .map(|p| (sigmoid(k, score(p, w)) - p.target).powi(2))
        .sum::<f64>()
        / points.len() as f64
}

/// The gradient of the mean squared error with respect to every weight.
fn gradient(points: &[Point], w: &[[f64; 2]], k: f64) -> Vec<[f64; 2]> {
    let n = points.len() as f64;
    points
        .par_chunks(4096)
        .map(|chunk| {
            let mut g = vec![[0.0; 2]; w.len()];
            for p in chunk {
                let s = sigmoid(k, score(p, w));
                let d = 2.0 * (s - p.target) * s * (1.0 - s) * k / 100.0 / p.divisor / n;
                for &(i, c) in &p.counts {
                    let gi = &mut g[i as usize];
                    gi[0] += d * c as f64 * p.phase;
                    gi[1] += d * c as f64 * (1.0 - p.phase);
                }
            }
            g
        })
        .reduce(
            || vec![[0.0; 2]; w.len()],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(&b) {
                    x[0] += y[0];
                    x[1] += y[1];
                }
                a
            },
        )
}

fn adam(
    points: &[Point],
    w: &mut [[f64; 2]],
    start: &[Tapered],
    tuned: &[bool],
    k: f64,
    s: &TuneSettings,
    progress: &dyn Fn(&str),
) {
    let (b1, b2, eps) = (0.9, 0.999, 1e-12);
    let mut m = vec![[0.0; 2]; w.len()];
    let mut v = vec![[0.0; 2]; w.len()];
    for epoch in 1..=s.epochs {
        let g = gradient(points, w, k);
        for i in (0..w.len()).filter(|&i| tuned[i]) {
            for j in 0..2 {
                let origin = if j == 0 { start[i].mg } else { start[i].eg } as f64;
                let gij = g[i][j] + 2.0 * s.regularisation * (w[i][j] - origin);
                m[i][j] = b1 * m[i][j] + (1.0 - b1) * gij;
                v[i][j] = b2 * v[i][j] + (1.0 - b2) * gij * gij;
                let mh = m[i][j] / (1.0 - b1.powi(epoch as i32));
                let vh = v[i][j] / (1.0 - b2.powi(epoch as i32));
                w[i][j] -= s.rate * mh / (vh.sqrt() + eps);
            }
        }
        if epoch % 100 == 0 || epoch == s.epochs {
            progress(&format!("epoch {epoch}: error {:.6}", error(points, w, k)));
        }
    }
}

/// The header of a tuned weight file: how it was made, so that it can be made again.
pub fn header(s: &TuneSettings, r: &Report, command: &str) -> String {
    format!(
        "# Tuned evaluation weights ({:?} family): `name: middlegame endgame` in centipawns.\n\
         # Made by `{command}`\n\
         # from {} positions; K = {:.4}; mean squared error {:.6} -> {:.6}.\n\
         # lambda {}, {} epochs, rate {}. Weights not named here keep their defaults.\n",
        r.family, r.positions, r.k, r.error_before, r.error_after, s.lambda, s.epochs, s.rate
    )
}

/// Weights of a variant after a run, for checks: the defaults with the report applied.
pub fn apply(report: &Report, weights: &mut Weights) {
    for (name, w) in &report.weights {
        if let Some(p) = weights.find(name) {
            weights.set(p, *w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed `datagen` sample read as tuning samples: every position the training
    /// filter keeps, in White's view (the scores of White's wins above those of its losses),
    /// each a position string of its variant.
    #[test]
    fn datagen_files_give_samples_from_whites_view() {
        let file = PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/cwda-sample.pgd"
        ));
        let samples = read_samples(std::slice::from_ref(&file)).unwrap();
        let kept = read_positions(&[file], &Filter::default(), |_| {})
            .unwrap()
            .kept;
        assert_eq!(samples.len() as u64, kept);
        let mean = |r: f64| {
            let s: Vec<i32> = samples
                .iter()
                .filter(|(x, _, _)| x.result == r)
                .map(|(x, _, _)| x.score)
                .collect();
            assert!(s.len() > 20, "{r}: {} positions", s.len());
            s.iter().sum::<i32>() as f64 / s.len() as f64
        };
        let (won, lost) = (mean(1.0), mean(0.0));
        assert!(won > 50.0 && lost < -50.0, "White won: {won}, lost: {lost}");
        for (x, _, _) in &samples {
            let t = games::tables(&x.variant).unwrap();
            let parsed = with_tables!(&t, t => fen::parse(t, &x.position).is_ok());
            assert!(parsed, "{}: {}", x.variant, x.position);
        }
    }

    /// A few CwDA positions in a training file of their own, whose scores make a Pawn worth
    /// about four times its tuned value.
    fn training_file() -> PathBuf {
        let lines = [
            "cwda-fide-fide\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t0.5\t10",
            "cwda-fide-fide\trnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t1\t400",
            "cwda-fide-fide\trnbqkbnr/pppppppp/8/8/8/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\t0\t-400",
        ];
        let p = std::env::temp_dir().join(format!("panoply-texel-{}.data", std::process::id()));
        std::fs::write(&p, lines.join("\n")).unwrap();
        p
    }

    #[test]
    fn the_output_keeps_what_the_family_file_sets_and_the_run_did_not_tune() {
        let file = training_file();
        let settings = TuneSettings {
            files: vec![file.clone()],
            epochs: 200,
            rate: 1.0,
            lambda: 0.0,
            only: vec!["value.Pawn".into()],
            freeze: Vec::new(),
            regularisation: 0.0,
            min_positions: 1,
        };
        let report = tune(&settings, &|_| {}).unwrap();
        std::fs::remove_file(file).unwrap();
        let text = family_weights(crate::games::cwda::FAMILY);
        let in_file: Vec<&str> = names_in(text).collect();
        assert!(in_file.len() > 50, "the CwDA file sets its weights");
        let out: HashMap<&str, Tapered> = report
            .weights
            .iter()
            .map(|(n, w)| (n.as_str(), *w))
            .collect();
        for name in &in_file {
            assert!(out.contains_key(name), "{name} is written back");
        }
        // An untuned weight is written as the file has it.
        let line = text
            .lines()
            .find(|l| l.starts_with("value.Knight:"))
            .unwrap();
        let w = out["value.Knight"];
        assert_eq!(line, format!("value.Knight: {} {}", w.mg, w.eg));
        // The tuned one moved.
        let pawn = text.lines().find(|l| l.starts_with("value.Pawn:")).unwrap();
        let p = out["value.Pawn"];
        assert_ne!(pawn, format!("value.Pawn: {} {}", p.mg, p.eg));
    }
}
