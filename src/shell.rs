//! `panoply shell`: a line-by-line text interface for humans, for the games no GUI can show
//! (the 3D Missionary boards and four-player Armies of Faith). Each input line is a command
//! or a move string; every answer is plain text, every error one line starting `error:`,
//! and an error leaves the game as it was.

use crate::bitboard::BitSet;
use crate::game::{AnyTables, Outcome};
use crate::games;
use crate::games::VariantError;
use crate::movegen::notation::MoveError;
use crate::movegen::perft::perft_parallel;
use crate::piece::Player;
use crate::position::display::diagram;
use crate::position::fen::PositionError;
use crate::protocol::MAX_LINE_BYTES;
use crate::search::multi_player::Method;
use crate::search::{Limits, Score, SearchOptions};
use crate::session::board::{with_board, AnyBoard, Board};
use std::fmt;
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Deeper perft would keep the shell busy for hours on the 3D boards.
const MAX_PERFT_DEPTH: u32 = 8;
/// What `go` without a limit spends on a move.
const DEFAULT_MOVETIME: Duration = Duration::from_millis(1000);
/// A small table: the shell searches one move at a time, for a human.
const SHELL_OPTIONS: SearchOptions = SearchOptions {
    hash_mb: 16,
    threads: 1,
    multi_pv: 1,
};

pub const HELP: &str = "\
commands:
  <move>                      play a move for the side/army to move (e.g. e2e4, wd2wd3, gt1ft1, pass)
  show                        the board (levels side by side), holdings, armies still playing
  moves                       the legal moves
  eval                        the static evaluation, the network's where the variant has one,
                              with the classical figure (four-player games: each army's
                              score and its utility, its score less the mean of the others)
  undo                        take back the last move
  go [depth N|nodes N|movetime MS]
                              the engine chooses and plays a move (default: movetime 1000)
  set method paranoid|brs     the search method for four-player games
  fen                         the position string
  new [VARIANT]               a new game (of this variant, or another)
  perft N                     count the move tree to depth N (at most 8)
  help                        this list
  quit                        leave the shell";

/// Why a command did nothing.
#[derive(Debug)]
pub enum ShellError {
    /// The word is neither a command nor a move string of this game.
    Unknown(String),
    /// A command with wrong arguments: the usage line.
    Usage(&'static str),
    Move(MoveError),
    Position(PositionError),
    Variant(VariantError),
    Method(String),
    GameOver(String),
    NothingToUndo,
}

impl fmt::Display for ShellError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ShellError::Unknown(w) => write!(
                f,
                "'{w}' is neither a command nor a move string (type 'help')"
            ),
            ShellError::Usage(u) => write!(f, "usage: {u}"),
            ShellError::Move(e) => write!(f, "{e}"),
            ShellError::Position(e) => write!(f, "bad position string: {e}"),
            ShellError::Variant(e) => write!(f, "{e}"),
            ShellError::Method(m) => {
                write!(f, "unknown search method '{m}' (paranoid or brs)")
            }
            ShellError::GameOver(result) => write!(f, "the game is over: {result}"),
            ShellError::NothingToUndo => write!(f, "there is no move to take back"),
        }
    }
}

impl std::error::Error for ShellError {}

pub struct Shell {
    board: AnyBoard,
    method: Method,
}

/// What the caller should do after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    /// Print this text (possibly empty) and read on.
    Print(String),
    Quit,
}

impl Shell {
    /// A shell on `variant`, from `fen` or the start position.
    pub fn new(variant: &str, fen: Option<&str>, method: Method) -> Result<Shell, ShellError> {
        let tables = games::tables(variant).map_err(ShellError::Variant)?;
        Ok(Shell {
            board: new_board(tables, fen)?,
            method,
        })
    }

    /// Reads commands until `quit` or the end of the input; answers go to `out`.
    pub fn run(&mut self, input: impl BufRead, mut out: impl Write) -> std::io::Result<()> {
        let variant = with_board!(&self.board, b => b.game.tables.variant.name.clone());
        writeln!(
            out,
            "panoply shell: {variant} (type 'help' for the commands)"
        )?;
        out.flush()?;
        let mut input = input;
        while let Some(line) = crate::protocol::read_line(&mut input) {
            let Some(line) = line else {
                writeln!(
                    out,
                    "error: line longer than {MAX_LINE_BYTES} bytes ignored"
                )?;
                continue;
            };
            match self.execute(&line) {
                Ok(Next::Quit) => break,
                Ok(Next::Print(text)) if text.is_empty() => {}
                Ok(Next::Print(text)) => writeln!(out, "{}", text.trim_end())?,
                Err(e) => writeln!(out, "error: {e}")?,
            }
            out.flush()?;
        }
        Ok(())
    }

    /// Carries out one input line.
    pub fn execute(&mut self, line: &str) -> Result<Next, ShellError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&first, args)) = words.split_first() else {
            return Ok(Next::Print(String::new()));
        };
        let text = match first {
            "quit" | "exit" => return Ok(Next::Quit),
            "help" => HELP.to_string(),
            "show" => with_board!(&self.board, b => b.show()),
            "moves" => with_board!(&self.board, b => b.moves())?,
            "fen" => with_board!(&self.board, b => b.game.position_string()),
            "eval" => with_board!(&self.board, b => b.eval()),
            "undo" => with_board!(&mut self.board, b => b.undo())?,
            "go" => {
                let limits = parse_limits(args)?;
                let method = self.method;
                with_board!(&mut self.board, b => b.go(&limits, method))?
            }
            "perft" => {
                let depth = match args {
                    [n] => n.parse::<u32>().ok(),
                    _ => None,
                }
                .filter(|&d| d <= MAX_PERFT_DEPTH)
                .ok_or(ShellError::Usage("perft N (N from 0 to 8)"))?;
                with_board!(&self.board, b => b.perft(depth))
            }
            "set" => self.set(args)?,
            "new" => self.new_game(args)?,
            _ if args.is_empty() => with_board!(&mut self.board, b => b.play(first))?,
            _ => return Err(ShellError::Unknown(line.trim().to_string())),
        };
        Ok(Next::Print(text))
    }

    fn set(&mut self, args: &[&str]) -> Result<String, ShellError> {
        const USAGE: &str = "set method paranoid|brs";
        match args {
            ["method", name] => {
                self.method =
                    Method::from_name(name).ok_or_else(|| ShellError::Method(name.to_string()))?;
                Ok(format!("search method: {}", self.method.name()))
            }
            _ => Err(ShellError::Usage(USAGE)),
        }
    }

    fn new_game(&mut self, args: &[&str]) -> Result<String, ShellError> {
        let tables = match args {
            [] => with_board!(&self.board, b => games::tables(&b.game.tables.variant.name)),
            [name] => games::tables(name),
            _ => return Err(ShellError::Usage("new [VARIANT]")),
        }
        .map_err(ShellError::Variant)?;
        let name = tables.variant().name.clone();
        self.board = new_board(tables, None)?;
        Ok(format!("new game: {name}"))
    }
}

fn new_board(tables: AnyTables, fen: Option<&str>) -> Result<AnyBoard, ShellError> {
    let start = fen.unwrap_or(&tables.variant().start_position);
    AnyBoard::new(&tables, start, SHELL_OPTIONS).map_err(ShellError::Position)
}

/// `go` arguments: any of `depth N`, `nodes N`, `movetime MS`; none means one second.
fn parse_limits(args: &[&str]) -> Result<Limits, ShellError> {
    const USAGE: &str = "go [depth N] [nodes N] [movetime MS]";
    let mut limits = Limits::default();
    for pair in args.chunks(2) {
        let [key, value] = pair else {
            return Err(ShellError::Usage(USAGE));
        };
        let n: u64 = value.parse().map_err(|_| ShellError::Usage(USAGE))?;
        match *key {
            "depth" => limits.depth = Some(n.clamp(1, 64) as u32),
            "nodes" => limits.nodes = Some(n.max(1)),
            "movetime" => limits.movetime = Some(Duration::from_millis(n.max(1))),
            _ => return Err(ShellError::Usage(USAGE)),
        }
    }
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        limits.movetime = Some(DEFAULT_MOVETIME);
    }
    Ok(limits)
}

/// The shell's commands on the engine bundle of one width.
impl<B: BitSet> Board<B> {
    fn player_name(&self, p: Player) -> String {
        let t = &self.game.tables;
        if t.players() > 2 {
            t.variant.armies[p.index()].clone()
        } else if p == Player::WHITE {
            "white".into()
        } else {
            "black".into()
        }
    }

    fn describe(&self, o: &Outcome) -> String {
        match o {
            Outcome::Win { winner, reason } => {
                format!("{} wins ({reason})", self.player_name(*winner))
            }
            Outcome::Draw { reason } => format!("draw ({reason})"),
        }
    }

    fn ensure_not_over(&self) -> Result<(), ShellError> {
        match self.game.outcome() {
            Some(o) => Err(ShellError::GameOver(self.describe(&o))),
            None => Ok(()),
        }
    }

    fn show(&self) -> String {
        let t = &self.game.tables;
        let mut text = diagram(t, &self.game.pos);
        if t.players() == 2 {
            text += &format!("{} to move\n", self.player_name(self.game.pos.side));
        }
        if let Some(o) = self.game.outcome() {
            text += &format!("game over: {}\n", self.describe(&o));
        }
        text
    }

    /// The legal moves, sorted; none once the game is over (a game ended by a rule such as
    /// repetition still has moves on the board, but no one may play them).
    fn moves(&self) -> Result<String, ShellError> {
        self.ensure_not_over()?;
        let mut moves: Vec<String> = self
            .game
            .legal_moves()
            .into_iter()
            .map(|m| self.game.format_move(m))
            .collect();
        moves.sort();
        Ok(format!("{} legal moves: {}", moves.len(), moves.join(" ")))
    }

    fn undo(&mut self) -> Result<String, ShellError> {
        let Some((_, mv)) = self.game.history.last().copied() else {
            return Err(ShellError::NothingToUndo);
        };
        self.game.undo();
        Ok(format!("took back {}", self.game.format_move(mv)))
    }

    fn play(&mut self, text: &str) -> Result<String, ShellError> {
        self.ensure_not_over()?;
        let mover = self.player_name(self.game.pos.side);
        match self.game.play_str(text) {
            Ok(mv) => Ok(self.after_move(&mover, mv, None)),
            Err(MoveError::Malformed(_)) => Err(ShellError::Unknown(text.to_string())),
            Err(e) => Err(ShellError::Move(e)),
        }
    }

    fn go(&mut self, limits: &Limits, method: Method) -> Result<String, ShellError> {
        self.ensure_not_over()?;
        let searcher = self
            .searcher
            .as_mut()
            .expect("the shell searches on its own thread, so its searcher stays");
        searcher.set_multi_player_method(method);
        let stop = AtomicBool::new(false);
        let result = searcher.search(&self.game, limits, &stop, &mut |_| {});
        let Some(mv) = result.best else {
            return Err(ShellError::GameOver("no legal move".into()));
        };
        let mover = self.player_name(self.game.pos.side);
        self.game.play(mv);
        Ok(self.after_move(&mover, mv, Some(result.score)))
    }

    /// What a played move did: the move, checkmates between moves, the end of the game.
    fn after_move(&self, mover: &str, mv: crate::moves::Move, score: Option<Score>) -> String {
        let score = match score {
            Some(Score::Cp(c)) => format!(" (score cp {c})"),
            Some(Score::Mate(m)) => format!(" (score mate {m})"),
            None => String::new(),
        };
        let mut text = format!("{mover} plays {}{score}", self.game.format_move(mv));
        let before = self.game.history.last().map_or(0, |(p, _)| p.alive);
        let after = self.game.pos.alive;
        if self.game.tables.players() > 2 {
            // The checkmater moves next, under either checkmate rule.
            let by = self.player_name(self.game.pos.side);
            for victim in (0..4u8).filter(|&v| before >> v & 1 != 0 && after >> v & 1 == 0) {
                text += &format!("\n{by} checkmates {}", self.player_name(Player(victim)));
            }
        }
        if let Some(o) = self.game.outcome() {
            text += &format!("\ngame over: {}", self.describe(&o));
        }
        text
    }

    /// The static evaluation: per army in four-player games (what the multi-player search
    /// sees at its leaves), else the score for the side to move.
    fn eval(&self) -> String {
        let t = &self.game.tables;
        let pos = &self.game.pos;
        if t.players() == 2 {
            let classical = crate::eval::Evaluator::new(t).evaluate(t, pos);
            let side = self.player_name(pos.side);
            // The search's own evaluation: the built-in network where the variant has one.
            return match crate::nnue::EvalSettings::default().network_for(t) {
                Some(net) => {
                    let score = net.evaluate_position(pos, || classical);
                    format!("eval {score} for {side} (network; classical {classical})")
                }
                None => format!("eval {classical} for {side} (classical)"),
            };
        }
        let eval = crate::games::aof5::eval::Eval::new(t);
        let scores = eval.army_scores(t, pos);
        (0..t.players() as u8)
            .map(Player)
            .filter(|&p| pos.is_alive(p))
            .map(|p| {
                format!(
                    "{}: score {} utility {}",
                    self.player_name(p),
                    scores[p.index()],
                    eval.utility(t, pos, p)
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn perft(&self, depth: u32) -> String {
        let start = Instant::now();
        let nodes = perft_parallel(&self.game.tables, &self.game.pos, depth);
        format!(
            "perft {depth}: {nodes} nodes ({:.3} s)",
            start.elapsed().as_secs_f64()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(shell: &mut Shell, line: &str) -> String {
        match shell.execute(line) {
            Ok(Next::Print(t)) => t,
            Ok(Next::Quit) => "<quit>".into(),
            Err(e) => format!("error: {e}"),
        }
    }

    #[test]
    fn moves_undo_and_errors_in_chess() {
        let mut s = Shell::new("chess", None, Method::DEFAULT).unwrap();
        let start = run(&mut s, "fen");
        assert_eq!(run(&mut s, "e2e4"), "white plays e2e4");
        assert_eq!(
            run(&mut s, "e2e4"),
            "error: 'e2e4' is not a legal move in this position"
        );
        assert!(run(&mut s, "xyzzy").starts_with("error: 'xyzzy' is neither"));
        assert!(run(&mut s, "go depth x").starts_with("error: usage: go"));
        assert!(run(&mut s, "perft 99").starts_with("error: usage: perft"));
        assert!(run(&mut s, "new nochess").starts_with("error: unknown variant"));
        assert!(run(&mut s, "set method minimax").contains("unknown search method"));
        assert_eq!(run(&mut s, "undo"), "took back e2e4");
        assert_eq!(run(&mut s, "fen"), start);
        assert_eq!(run(&mut s, "undo"), "error: there is no move to take back");
        assert!(run(&mut s, "perft 2").starts_with("perft 2: 400 nodes"));
        assert_eq!(run(&mut s, "quit"), "<quit>");
    }

    #[test]
    fn eval_gives_every_army_its_score_and_a_level_start() {
        let mut s = Shell::new("aof5", None, Method::DEFAULT).unwrap();
        let text = run(&mut s, "eval");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        for (line, army) in lines
            .iter()
            .zip(["Catholic", "Protestant", "Islamic", "Byzantine"])
        {
            assert!(line.starts_with(&format!("{army}: score ")), "{line}");
            let utility: i32 = line.rsplit(' ').next().unwrap().parse().unwrap();
            assert!(utility.abs() <= 60, "{line}");
        }
        let chess = run(
            &mut Shell::new("chess", None, Method::DEFAULT).unwrap(),
            "eval",
        );
        assert!(chess.contains(" for white (network; classical "), "{chess}");
        let shatranj = run(
            &mut Shell::new("shatranj", None, Method::DEFAULT).unwrap(),
            "eval",
        );
        assert!(
            shatranj.contains(" for white (network; classical "),
            "{shatranj}"
        );
        let cyclical = run(
            &mut Shell::new("cyclical", None, Method::DEFAULT).unwrap(),
            "eval",
        );
        assert!(cyclical.ends_with(" for white (classical)"), "{cyclical}");
    }

    #[test]
    fn moves_lists_nothing_after_a_draw_by_repetition() {
        let mut s = Shell::new("chess", None, Method::DEFAULT).unwrap();
        assert!(run(&mut s, "moves").starts_with("20 legal moves: "));
        for _ in 0..2 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                run(&mut s, m);
            }
        }
        assert_eq!(
            run(&mut s, "moves"),
            "error: the game is over: draw (threefold repetition)"
        );
    }

    #[test]
    fn input_that_is_not_utf8_is_an_error_line_not_the_end() {
        let mut s = Shell::new("chess", None, Method::DEFAULT).unwrap();
        let mut out = Vec::new();
        s.run(&b"e2\xffe4\ne2e4\n"[..], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[1].starts_with("error: "), "{text}");
        assert_eq!(lines[2], "white plays e2e4");
    }

    #[test]
    fn go_refuses_a_finished_game() {
        let mut s = Shell::new("chess", None, Method::DEFAULT).unwrap();
        for m in ["f2f3", "e7e5", "g2g4"] {
            run(&mut s, m);
        }
        assert_eq!(
            run(&mut s, "d8h4"),
            "black plays d8h4\ngame over: black wins (checkmate)"
        );
        assert_eq!(
            run(&mut s, "go depth 1"),
            "error: the game is over: black wins (checkmate)"
        );
        assert!(run(&mut s, "a2a3").starts_with("error: the game is over"));
        assert!(run(&mut s, "show").ends_with("game over: black wins (checkmate)\n"));
    }
}
