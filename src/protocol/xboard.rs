//! XBoard / WinBoard protocol (CECP version 2).
//!
//! Variants: `normal`, `cwda` (Chess with Different Armies with our letters, armies from the
//! `White Army` / `Black Army` options), `fairy` (the same with Fairy-Max's letters, so that
//! games against Fairy-Max work through promotions; `Variant fairy selects` sets both armies
//! by Fairy-Max's names) and every registry variant XBoard can show (the pairings of armies
//! files by name too; their armies also join the army options). For every non-normal
//! variant the engine sends `setup` and `piece` commands, so XBoard can keep legality
//! testing on. With `hard` the engine ponders: after its move it thinks on the reply it
//! expects, and a hit starts the real search from that work (as UCI's `ponderhit`).

use super::lag::LagMeter;
use super::options::{self, Choices};
use super::xboard_castling::xboard_may_see_castling;
use super::xboard_pieces::{check_showable, present_kinds, XBoardPieces};
use super::xboard_targets::{self, Targets};
use super::{search_done_to, Event, Inbox, Output, Protocol, Reply};
use crate::armies;
use crate::game::{AnyTables, Outcome};
use crate::games::{self, cwda::Army};
use crate::interop::fairymax;
use crate::piece::Player;
use crate::search::{Clock, Info, Limits, Score};
use crate::session::{default_options, Finished, Session, MAX_HASH_MB, MAX_THREADS};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const ARMY_CHOICES: [(&str, Army); 4] = [
    ("FIDE", Army::Fide),
    ("Clobberers", Army::Clobberers),
    ("Nutty Knights", Army::Nutty),
    ("Rookies", Army::Rookies),
];

/// Variants XBoard knows by these names (pieces, letters, moves): no `setup` for them.
const XBOARD_KNOWS: [&str; 2] = ["normal", "shatranj"];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Purpose {
    /// Thinking on the engine's own move: the result is played and sent as `move`.
    Move,
    Analyze,
    /// Thinking on the opponent's time (`hard`) in the position after the reply the last
    /// search expected; its result is never played.
    Ponder,
}

struct Running {
    stop: Arc<AtomicBool>,
    purpose: Purpose,
    last: Arc<Mutex<Option<Info<String>>>>,
    /// What a ponder search assumes the opponent plays (our notation). The session keeps
    /// the real game: the assumed move is played only in the copy the search runs on.
    pondered: Option<String>,
}

/// The reply our last search expected (for `hint` and pondering), valid in one position.
struct Hint {
    position: String,
    reply: String,
}

/// The clock settings XBoard sent.
struct XboardClock {
    moves_per_period: u32,
    base: Duration,
    increment: Duration,
    fixed_per_move: Option<Duration>,
    max_depth: Option<u32>,
    own_time: Option<Duration>,
    opponent_time: Option<Duration>,
}

impl Default for XboardClock {
    fn default() -> Self {
        XboardClock {
            moves_per_period: 40,
            base: Duration::from_secs(300),
            increment: Duration::ZERO,
            fixed_per_move: None,
            max_depth: None,
            own_time: None,
            opponent_time: None,
        }
    }
}

pub struct XBoard {
    tx: Sender<Event>,
    out: Output,
    inbox: Inbox,
    session: Session,
    /// What XBoard calls the current variant.
    variant_label: String,
    /// XBoard's letters for the current variant; `None` for `normal`.
    pieces: Option<XBoardPieces>,
    /// Where the piece the user last lifted may go (engine-defined variants only).
    targets: Option<Targets>,
    /// The codes of the armies `cwda` and `fairy` pair (built-in or from an armies file).
    armies: [String; 2],
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<Player>,
    analyzing: bool,
    post: Arc<AtomicBool>,
    clock: XboardClock,
    search: Option<Running>,
    /// `ping`s received while thinking on a move, answered after the move.
    pending_pongs: Vec<String>,
    /// The options' settings the session does not keep (book, pondering, strength).
    choices: Choices,
    /// The reply our last search expected, for `hint` and pondering.
    hint: Option<Hint>,
    lag: LagMeter,
}

/// The shared loop calls the inherent methods of the same names.
impl Protocol for XBoard {
    fn inbox(&mut self) -> &mut Inbox {
        &mut self.inbox
    }

    fn command(&mut self, line: &str) -> bool {
        XBoard::command(self, line)
    }

    fn search_done(&mut self, finished: Finished) {
        XBoard::search_done(self, finished)
    }

    fn shutdown(&mut self) {
        self.stop_on_quit();
    }
}

impl XBoard {
    /// `first`: a `protover` line (and its arrival) that chose this protocol.
    pub fn new(
        tx: Sender<Event>,
        rx: Receiver<Event>,
        first: Option<(String, Instant)>,
        out: Output,
    ) -> XBoard {
        let session = Session::new(
            games::tables("chess").expect("chess is built in"),
            default_options(),
        );
        XBoard {
            tx,
            out,
            inbox: Inbox::new(rx, first),
            session,
            variant_label: "normal".into(),
            pieces: None,
            targets: None,
            armies: ["fide".into(), "fide".into()],
            engine_side: Some(Player::BLACK),
            analyzing: false,
            post: Arc::new(AtomicBool::new(true)),
            clock: XboardClock::default(),
            search: None,
            pending_pongs: Vec::new(),
            choices: Choices::default(),
            hint: None,
            lag: LagMeter::default(),
        }
    }

    /// Handles one command; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        if cmd == "quit" {
            return false;
        }
        if let Err(reason) = self.game_command(cmd, arg) {
            self.out.send(&format!("Error ({reason}): {line}"));
        }
        self.ponder_if_wanted();
        true
    }

    /// The commands about the game: who plays which side, its variant, position and moves;
    /// the others go to [`Self::thinking_command`].
    fn game_command(&mut self, cmd: &str, arg: &str) -> Reply {
        match cmd {
            "" => Ok(()),
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "draw" | "egtpath" => Ok(()),
            "protover" => self.protover(arg),
            "new" => self.new_game(),
            "variant" => self.variant(arg),
            "force" => {
                self.stop_search();
                self.engine_side = None;
                Ok(())
            }
            "go" => {
                self.stop_search();
                self.engine_side = Some(self.session.side_to_move());
                self.think();
                Ok(())
            }
            "playother" => {
                self.stop_search();
                self.engine_side = Some(other(self.session.side_to_move()));
                Ok(())
            }
            "usermove" => self.user_move(arg),
            "lift" => self.on_board(arg).map(|()| self.lift(arg)),
            "put" => self.on_board(arg).map(|()| self.put(arg)),
            // Sent for squares marked red, which we never mark.
            "hover" => self.on_board(arg),
            "setboard" => self.setboard(arg),
            "undo" => self.take_back(1),
            "remove" => self.take_back(2),
            "result" => {
                self.stop_search();
                self.engine_side = None;
                Ok(())
            }
            _ => self.thinking_command(cmd, arg),
        }
    }

    /// The commands about the engine's thinking: pondering, hints, analysis, output, the
    /// clock, the resources and the options; a bare move is a `usermove`.
    fn thinking_command(&mut self, cmd: &str, arg: &str) -> Reply {
        match cmd {
            // Pondering on/off; `hard` starts at once if the opponent is to move.
            "hard" | "easy" => {
                self.choices.ponder = cmd == "hard";
                if cmd == "easy" {
                    self.stop_pondering();
                }
                Ok(())
            }
            "hint" => {
                self.send_hint();
                Ok(())
            }
            "bk" => {
                self.send_book_moves();
                Ok(())
            }
            "?" => {
                if let Some(run) = &self.search {
                    if run.purpose == Purpose::Move {
                        run.stop.store(true, Ordering::Relaxed);
                    }
                }
                Ok(())
            }
            "post" | "nopost" => {
                self.post.store(cmd == "post", Ordering::Relaxed);
                Ok(())
            }
            "analyze" => {
                self.stop_search();
                self.analyzing = true;
                self.restart_analysis();
                Ok(())
            }
            "exit" => {
                if self.analyzing {
                    self.stop_search();
                    self.analyzing = false;
                }
                Ok(())
            }
            "." => {
                self.analysis_status();
                Ok(())
            }
            "level" => self.level(arg),
            "st" => parse_seconds(arg).map(|d| self.clock.fixed_per_move = Some(d)),
            "sd" => parse_number::<u32>(arg)
                .filter(|&d| d > 0)
                .map(|d| self.clock.max_depth = Some(d))
                .ok_or_else(|| "depth must be a positive number".to_string()),
            "time" => parse_centiseconds(arg).map(|d| self.clock.own_time = Some(d)),
            "otim" => parse_centiseconds(arg).map(|d| self.clock.opponent_time = Some(d)),
            "memory" => self.memory(arg),
            "cores" => self.cores(arg),
            "ping" => {
                self.ping(arg);
                Ok(())
            }
            "option" => {
                // An option may change the level or the table: pondering starts afresh.
                self.stop_pondering();
                self.option(arg)
            }
            _ => {
                if looks_like_move(cmd) && arg.is_empty() {
                    self.user_move(cmd)
                } else {
                    Err("unknown command".into())
                }
            }
        }
    }

    fn protover(&mut self, _version: &str) -> Reply {
        let mut variants = vec!["normal".to_string(), "fairy".into(), "cwda".into()];
        let file_pairings = armies::file_pairings();
        for name in games::names() {
            // CwDA pairings are `cwda` with the army options; those of armies files are
            // listed too, so a GUI can start one by name.
            if name == "chess" || (name.starts_with("cwda-") && !file_pairings.contains(&name)) {
                continue;
            }
            if let Ok(v) = games::by_name(&name) {
                if check_showable(&v).is_ok() {
                    variants.push(name);
                }
            }
        }
        self.out.send("feature done=0");
        self.out.send(&format!(
            "feature ping=1 setboard=1 usermove=1 playother=1 analyze=1 memory=1 smp=1 colors=0 \
             sigint=0 sigterm=0 san=0 time=1 draw=0 reuse=1 highlight=1 myname=\"{}\"",
            crate::version::engine_name()
        ));
        self.out
            .send(&format!("feature variants=\"{}\"", variants.join(",")));
        let choices = army_choices();
        let armies = |default: &str| {
            choices
                .iter()
                .map(|(n, code)| {
                    if code == default {
                        format!("*{n}")
                    } else {
                        n.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" /// ")
        };
        self.out.send(&format!(
            "feature option=\"White Army -combo {}\"",
            armies(&self.armies[0])
        ));
        self.out.send(&format!(
            "feature option=\"Black Army -combo {}\"",
            armies(&self.armies[1])
        ));
        // Every pairing in Fairy-Max's spelling (Panoply also plays an army against itself).
        let pairs: Vec<String> = Army::ALL
            .into_iter()
            .flat_map(|w| Army::ALL.into_iter().map(move |b| (w, b)))
            .map(|(w, b)| format!("{}-{}", fairymax::army_name(w), fairymax::army_name(b)))
            .collect();
        self.out.send(&format!(
            "feature option=\"{} -combo {}\"",
            fairymax::SELECT_OPTION,
            pairs.join(" /// ")
        ));
        for line in options::xboard_lines(&self.session, &self.choices) {
            self.out.send(&line);
        }
        self.out.send("feature done=1");
        Ok(())
    }

    fn new_game(&mut self) -> Reply {
        self.stop_search();
        self.analyzing = false;
        self.select("normal").expect("normal is built in");
        self.session.new_game();
        self.engine_side = Some(Player::BLACK);
        self.clock.max_depth = None;
        self.clock.own_time = None;
        self.clock.opponent_time = None;
        self.lag.clear();
        Ok(())
    }

    fn variant(&mut self, name: &str) -> Reply {
        self.stop_search();
        self.select(name)?;
        self.announce();
        self.restart_analysis();
        Ok(())
    }

    /// Switches to the variant XBoard calls `name`; nothing changes on error.
    fn select(&mut self, name: &str) -> Reply {
        let (variant, fairy_max_letters) = match name {
            "normal" => (games::by_name("chess").map_err(|e| e.to_string())?, false),
            "cwda" | "fairy" => {
                let [white, black] = &self.armies;
                let chosen = format!("cwda-{white}-{black}");
                (
                    games::by_name(&chosen).map_err(|e| e.to_string())?,
                    name == "fairy",
                )
            }
            other => (games::by_name(other).map_err(|e| e.to_string())?, false),
        };
        check_showable(&variant).map_err(|e| format!("variant {name} cannot be shown: {e}"))?;
        let pieces = if XBOARD_KNOWS.contains(&name) {
            None
        } else if fairy_max_letters {
            Some(XBoardPieces::fairy_max(&variant).map_err(|e| e.to_string())?)
        } else {
            Some(
                XBoardPieces::native(&variant, present_kinds(&variant))
                    .map_err(|e| format!("variant {name} cannot be shown: {e}"))?,
            )
        };
        self.session.set_tables(AnyTables::new(variant));
        self.pieces = pieces;
        self.variant_label = name.to_string();
        Ok(())
    }

    /// Tells XBoard the board, the letters and how every piece moves.
    fn announce(&self) {
        let Some(pieces) = &self.pieces else { return };
        let v = self.session.variant();
        match pieces.fen_to_xboard(v, &self.session.position_string()) {
            Ok(fen) => self.out.send(&pieces.setup_command(&fen)),
            Err(e) => log::error!("cannot describe the start position to XBoard: {e}"),
        }
        for line in pieces.piece_commands(v) {
            self.out.send(&line);
        }
    }

    fn user_move(&mut self, text: &str) -> Reply {
        if text.is_empty() || text.contains(char::is_whitespace) {
            return Err("expected one move".into());
        }
        // An illegal move changes nothing: a search (pondering, analysis) goes on.
        let Some(mv) = self.our_move(text).filter(|m| self.session.is_legal(m)) else {
            self.out.send(&format!("Illegal move: {text}"));
            return Ok(());
        };
        // A ponder hit is the UCI `ponderhit`: the search thought on this position and the
        // real one starts with its table, on the clock from this command's arrival (as
        // `think` sets it). On a miss the table holds little of use.
        if let Some(pondered) = self.pondered() {
            let hit = if *pondered == mv { "hit" } else { "miss" };
            log::debug!("ponder {hit}: expected {pondered}, got {mv}");
        }
        self.stop_search();
        if let Err(e) = self.session.play(&mv) {
            self.out.send(&format!("Illegal move: {text}"));
            log::error!("a legal move was refused: {e}");
            self.restart_analysis();
            return Ok(());
        }
        if self.analyzing {
            self.restart_analysis();
        } else if let Some(outcome) = self.session.outcome() {
            self.out.send(&result_line(&outcome));
        } else if self.engine_side == Some(self.session.side_to_move()) {
            self.think();
        }
        Ok(())
    }

    /// Whether `s` names a square of the board (`lift`, `put` and `hover` name one).
    fn on_board(&self, s: &str) -> Reply {
        let shape = self.session.variant().shape;
        match xboard_targets::square(s) {
            Some((x, y)) if x < shape.files && y < shape.ranks => Ok(()),
            _ => Err("not a square of this board".into()),
        }
    }

    /// The user lifted a piece: in a variant we described to XBoard, mark where it may go
    /// (XBoard knows the rules of the others itself).
    fn lift(&mut self, square: &str) {
        self.targets = None;
        let Some(pieces) = &self.pieces else { return };
        if self.session.outcome().is_some() {
            return;
        }
        let Some(targets) = Targets::of(&self.session, pieces, square) else {
            return;
        };
        let shape = self.session.variant().shape;
        self.out
            .send(&targets.highlight_command(shape.files, shape.ranks));
        if let Some(choice) = targets.choice_on_lift() {
            self.out.send(&choice);
        }
        self.targets = Some(targets);
    }

    /// The user put the lifted piece down: name what it becomes if the move changes it.
    fn put(&mut self, square: &str) {
        if let Some(choice) = self.targets.as_ref().and_then(|t| t.choice_on_put(square)) {
            self.out.send(&choice);
        }
    }

    /// Our move string for XBoard's `text`, `None` if it is not a legal move. XBoard relays
    /// our moves as we sent them, so a suffix may name the kind a piece arrives as rather
    /// than a promotion (see `XBoardPieces::move_to_xboard`); that reads as the bare move.
    fn our_move(&self, text: &str) -> Option<String> {
        let Some(p) = &self.pieces else {
            return Some(text.to_string());
        };
        let (v, mover) = (self.session.variant(), self.session.side_to_move());
        let ours = p.move_from_xboard(v, mover, text);
        if ours.as_deref().is_some_and(|m| self.session.is_legal(m)) {
            return ours;
        }
        // Naming the kind a piece keeps reads as the plain move too.
        let (bare, named) = p.split_arrival(mover, text)?;
        let (_, after) = self.session.kinds_of_move(bare)?;
        (after == named).then(|| bare.to_string())
    }

    fn setboard(&mut self, fen: &str) -> Reply {
        self.stop_search();
        let ours = match &self.pieces {
            Some(p) => p.fen_from_xboard(self.session.variant(), fen),
            None => Ok(fen.to_string()),
        };
        let result = ours.and_then(|f| self.session.set_position(&f).map_err(|e| e.to_string()));
        if result.is_ok() && self.pieces.is_some() {
            self.infer_castling();
        }
        self.restart_analysis();
        result.map_err(|e| format!("bad position: {e}"))
    }

    /// In engine-defined variants XBoard's position strings leave out castling rights that
    /// come from `piece` commands (`O` moves): it tracks unmoved Kings and partners itself.
    /// A King and partner on their castling cells keep their right, as after `new`.
    fn infer_castling(&mut self) {
        let fen = self.session.position_string();
        let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
        let Some(given) = fields.get(2).cloned() else {
            return;
        };
        let pieces = self.session.pieces();
        let v = self.session.variant();
        let shape = v.shape;
        let at = |cell: crate::geometry::Cell| {
            let (x, y, _) = shape.coords(cell);
            pieces
                .iter()
                .find(|&&(px, py, _, _)| px == x && py == y)
                .map(|&(_, _, p, k)| (p, k))
        };
        let rights: String = v
            .castlings
            .iter()
            .filter(|c| {
                let king = at(c.king_from).is_some_and(|(p, k)| p == c.player && v.kind(k).royal);
                let partner = at(c.partner_from)
                    .is_some_and(|(p, k)| p == c.player && !v.kind(k).pawn && !v.kind(k).royal);
                given.contains(c.symbol) || (king && partner)
            })
            .map(|c| c.symbol)
            .collect();
        if rights.is_empty() || rights == given {
            return;
        }
        fields[2] = rights;
        if let Err(e) = self.session.set_position(&fields.join(" ")) {
            log::warn!("castling rights inferred from the placement do not fit: {e}");
        }
    }

    fn take_back(&mut self, plies: usize) -> Reply {
        self.stop_search();
        if self.session.plies_played() < plies {
            self.restart_analysis();
            return Err(format!(
                "cannot take back {plies} plies, the game has {}",
                self.session.plies_played()
            ));
        }
        for _ in 0..plies {
            self.session.undo();
        }
        self.restart_analysis();
        Ok(())
    }

    fn level(&mut self, arg: &str) -> Reply {
        let parts: Vec<&str> = arg.split_whitespace().collect();
        let [mps, base, inc] = parts[..] else {
            return Err("expected: level MOVES MINUTES[:SECONDS] INCREMENT".into());
        };
        let mps = parse_number::<u32>(mps).ok_or("moves per period must be a number")?;
        let base = match base.split_once(':') {
            Some((m, s)) => parse_number::<f64>(m)
                .zip(parse_number::<f64>(s))
                .map(|(m, s)| m * 60.0 + s),
            None => parse_number::<f64>(base).map(|m| m * 60.0),
        }
        .filter(|s| seconds_in_range(*s))
        .ok_or("base time must be minutes or minutes:seconds")?;
        let inc = parse_number::<f64>(inc)
            .filter(|s| seconds_in_range(*s))
            .ok_or("increment must be seconds")?;
        self.clock.moves_per_period = mps;
        self.clock.base = Duration::from_secs_f64(base);
        self.clock.increment = Duration::from_secs_f64(inc);
        self.clock.fixed_per_move = None;
        Ok(())
    }

    /// `memory N`: the hash table in MB, within the bounds of UCI's `Hash`.
    fn memory(&mut self, arg: &str) -> Reply {
        let mb = parse_number::<usize>(arg)
            .filter(|m| (1..=MAX_HASH_MB).contains(m))
            .ok_or_else(|| format!("memory must be a number of MB from 1 to {MAX_HASH_MB}"))?;
        let mut o = *self.session.options();
        let before = o.hash_mb;
        o.hash_mb = mb;
        self.session
            .set_options(o)
            .map_err(|e| format!("{e}; the table stays at {before} MB"))
    }

    /// `cores N`: search threads, within the bounds of UCI's `Threads`.
    fn cores(&mut self, arg: &str) -> Reply {
        let n = parse_number::<usize>(arg)
            .filter(|n| (1..=MAX_THREADS).contains(n))
            .ok_or_else(|| format!("cores must be a number from 1 to {MAX_THREADS}"))?;
        let mut o = *self.session.options();
        o.threads = n;
        self.session.set_options(o).map_err(|e| e.to_string())
    }

    /// `pong` after every earlier command is done: while the engine thinks on its own move
    /// that is after the move.
    fn ping(&mut self, arg: &str) {
        match &self.search {
            Some(run) if run.purpose == Purpose::Move => self.pending_pongs.push(arg.to_string()),
            _ => self.out.send(&format!("pong {arg}")),
        }
    }

    fn option(&mut self, arg: &str) -> Reply {
        // A button comes without a value.
        let (name, value) = match arg.split_once('=') {
            Some(pair) => pair,
            None if options::is_button(arg.trim()) => (arg, ""),
            None => return Err("expected option NAME=VALUE".into()),
        };
        let (name, value) = (name.trim(), value.trim());
        match name {
            "White Army" | "Black Army" => {
                let army = army_by_name(value).ok_or_else(|| format!("unknown army '{value}'"))?;
                self.armies[usize::from(name == "Black Army")] = army;
            }
            fairymax::SELECT_OPTION => {
                let (w, b) = fairymax::pairing_from_selects(value)
                    .ok_or_else(|| format!("unknown army pairing '{value}'"))?;
                self.armies = [w.name().to_string(), b.name().to_string()];
            }
            // Set first, then logged: a log macro skips its arguments when its level is off.
            _ => {
                let note = options::set(&mut self.session, &mut self.choices, name, value)?;
                if let Some(line) = note {
                    log::info!("{line}");
                }
                return Ok(());
            }
        }
        // Before the first move, a new army takes effect at once.
        if matches!(self.variant_label.as_str(), "cwda" | "fairy")
            && self.session.plies_played() == 0
        {
            let label = self.variant_label.clone();
            self.variant(&label)?;
        }
        Ok(())
    }

    fn move_limits(&self) -> Limits {
        let c = &self.clock;
        let mut limits = Limits {
            depth: c.max_depth,
            // XBoard's clock runs from the command that asked for the move.
            started: Some(self.inbox.arrival()),
            ..Limits::default()
        };
        if let Some(t) = c.fixed_per_move {
            limits.movetime = Some(t);
        } else {
            let done = self.session.fullmove().saturating_sub(1);
            limits.clock = Some(Clock {
                time_left: c.own_time.unwrap_or(c.base),
                increment: c.increment,
                moves_to_go: (c.moves_per_period > 0)
                    .then(|| c.moves_per_period - done % c.moves_per_period),
                opponent_time: c.opponent_time,
                lag: Duration::ZERO,
            });
        }
        limits
    }

    /// Starts thinking on the engine's move, or claims the result if the game is over.
    fn think(&mut self) {
        if let Some(outcome) = self.session.outcome() {
            self.out.send(&result_line(&outcome));
            return;
        }
        let mut limits = self.move_limits();
        // Only a clock XBoard sent (`time`) can be compared with our own count.
        if let (Some(c), Some(_)) = (&mut limits.clock, self.clock.own_time) {
            c.lag = self
                .lag
                .asked(c.time_left, c.increment, self.inbox.arrival());
        }
        if let Some(mv) = self.choices.book.choose(&self.session) {
            return self.play_own_move(mv);
        }
        self.launch(limits, Purpose::Move);
    }

    fn restart_analysis(&mut self) {
        if self.analyzing && self.search.is_none() && self.session.outcome().is_none() {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            self.launch(limits, Purpose::Analyze);
        }
    }

    /// The move a running ponder search assumes.
    fn pondered(&self) -> Option<&String> {
        self.search.as_ref().and_then(|run| run.pondered.as_ref())
    }

    fn stop_pondering(&mut self) {
        if self.pondered().is_some() {
            self.stop_search();
        }
    }

    /// With `hard`, while the opponent is to move and the engine is idle, thinks on the
    /// position after the reply its last search expected. Not below full strength: a level
    /// is measured without pondering, and a warm table would make it stronger.
    fn ponder_if_wanted(&mut self) {
        let opponent_to_move = self
            .engine_side
            .is_some_and(|side| side != self.session.side_to_move());
        if !self.choices.ponder
            || !opponent_to_move
            || self.analyzing
            || self.search.is_some()
            || !self.session.play_settings().level.is_full()
            || self.session.outcome().is_some()
        {
            return;
        }
        let position = self.session.position_string();
        let Some(guess) = self
            .hint
            .as_ref()
            .filter(|h| h.position == position)
            .map(|h| h.reply.clone())
        else {
            return;
        };
        if self.session.play(&guess).is_err() {
            return;
        }
        // The search runs on a copy of the game with the guess played; the session goes
        // back to the real game at once.
        if self.session.outcome().is_none() {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            self.launch(limits, Purpose::Ponder);
            if let Some(run) = &mut self.search {
                run.pondered = Some(guess);
            }
        }
        self.session.undo();
    }

    fn launch(&mut self, limits: Limits, purpose: Purpose) {
        let stop = Arc::new(AtomicBool::new(false));
        let last: Arc<Mutex<Option<Info<String>>>> = Arc::new(Mutex::new(None));
        let post = self.post.clone();
        let translate = self.move_translator();
        let keep = last.clone();
        let out = self.out.clone();
        let report = Box::new(move |r: &Info<String>| {
            if let Ok(mut l) = keep.lock() {
                *l = Some(r.clone());
            }
            if purpose == Purpose::Analyze || post.load(Ordering::Relaxed) {
                out.send(&thinking_line(r, &translate));
            }
        });
        self.session
            .start_search(limits, stop.clone(), report, search_done_to(&self.tx));
        self.search = Some(Running {
            stop,
            purpose,
            last,
            pondered: None,
        });
    }

    /// Translates a principal variation (moves alternate between the players) to XBoard's letters.
    fn move_translator(&self) -> impl Fn(&[String]) -> Vec<String> + Send + 'static {
        let pieces = self.pieces.clone();
        let variant = self.session.variant().clone();
        let first = self.session.side_to_move();
        move |pv: &[String]| {
            pv.iter()
                .enumerate()
                .map(|(i, m)| match &pieces {
                    Some(p) => {
                        let mover = if i % 2 == 0 { first } else { other(first) };
                        p.move_to_xboard(&variant, mover, m, None)
                    }
                    None => m.clone(),
                })
                .collect()
        }
    }

    /// Stops a running search and waits for it, keeping commands that arrive meanwhile; its
    /// move, if any, is dropped.
    fn stop_search(&mut self) {
        let Some(run) = self.search.take() else {
            return;
        };
        run.stop.store(true, Ordering::Relaxed);
        if let Some(finished) = self.inbox.wait_for_search() {
            self.session.finish(finished);
        }
        self.flush_pongs();
    }

    /// `quit` or the end of input during a search. A search for our move still sends the
    /// move before any `pong` for a `ping` that came during it, as a `ping` promises.
    fn stop_on_quit(&mut self) {
        let Some(run) = &self.search else { return };
        if run.purpose != Purpose::Move {
            return self.stop_search();
        }
        run.stop.store(true, Ordering::Relaxed);
        match self.inbox.wait_for_search() {
            Some(finished) => {
                self.search_done(finished);
                // The move is sent; no thinking on the opponent's time after `quit`.
                self.stop_pondering();
            }
            None => {
                self.search = None;
                self.flush_pongs();
            }
        }
    }

    fn search_done(&mut self, finished: Finished) {
        let found = self.session.finish(finished);
        let Some(run) = self.search.take() else {
            return;
        };
        // Only a search for our move plays its result: never a ponder search's.
        if run.purpose == Purpose::Move {
            if let Some(best) = found.best {
                self.play_own_move(best);
                let reply = found.ponder.filter(|r| self.session.is_legal(r));
                self.hint = reply.map(|reply| Hint {
                    position: self.session.position_string(),
                    reply,
                });
            } else if let Some(outcome) = self.session.outcome() {
                self.out.send(&result_line(&outcome));
            }
        }
        self.flush_pongs();
        if run.purpose == Purpose::Move {
            self.ponder_if_wanted();
        }
    }

    /// A legal move of the side to move as XBoard writes it.
    fn shown(&self, mv: &str) -> String {
        let mover = self.session.side_to_move();
        match &self.pieces {
            Some(p) => {
                let arrival = self.session.changed_kind(mv);
                p.move_to_xboard(self.session.variant(), mover, mv, arrival)
            }
            None => mv.to_string(),
        }
    }

    /// `hint`: the reply our last search expected, while it can still be played.
    fn send_hint(&self) {
        if let Some(hint) = &self.hint {
            if hint.position == self.session.position_string() {
                self.out.send(&format!("Hint: {}", self.shown(&hint.reply)));
            }
        }
    }

    /// `bk`: the book's moves for this position with their shares, each line indented, then
    /// an empty line, as CECP asks.
    fn send_book_moves(&self) {
        let entries = self.choices.book.entries(&self.session);
        let total: u64 = entries.iter().map(|e| e.1).sum::<u64>().max(1);
        if entries.is_empty() {
            self.out.send(" no book moves");
        }
        for (mv, weight) in &entries {
            self.out
                .send(&format!(" {} {}%", self.shown(mv), weight * 100 / total));
        }
        self.out.send("");
    }

    /// Plays the engine's move (found by the search or in the book) and sends it.
    fn play_own_move(&mut self, best: String) {
        let shown = self.shown(&best);
        match self.session.play(&best) {
            Ok(()) => {
                self.out.send(&format!("move {shown}"));
                self.lag.answered();
                if let Some(outcome) = self.session.outcome() {
                    self.claim_after_own_move(&outcome);
                }
            }
            Err(e) => log::error!("the engine chose an unplayable move: {e}"),
        }
    }

    /// Claims the result our move brought about, unless XBoard would score the claim false:
    /// a checkmate or stalemate it misreads because of a castling it wrongly allows
    /// (`xboard_castling`). Then the opponent, left without a move, ends the game itself
    /// (Fairy-Max claims its loss; a human in XBoard finds every move refused).
    fn claim_after_own_move(&self, outcome: &Outcome) {
        let no_moves = self.session.legal_moves().is_empty();
        if no_moves && self.pieces.is_some() && xboard_may_see_castling(&self.session) {
            log::info!(
                "not claiming '{}': XBoard would allow a castling here and score the claim false",
                result_line(outcome)
            );
        } else {
            self.out.send(&result_line(outcome));
        }
    }

    fn flush_pongs(&mut self) {
        for n in std::mem::take(&mut self.pending_pongs) {
            self.out.send(&format!("pong {n}"));
        }
    }

    fn analysis_status(&self) {
        let Some(run) = &self.search else { return };
        if run.purpose != Purpose::Analyze {
            return;
        }
        if let Ok(last) = run.last.lock() {
            if let Some(r) = last.as_ref() {
                self.out.send(&format!(
                    "stat01: {} {} {} 0 0",
                    r.time.as_millis() / 10,
                    r.nodes,
                    r.depth
                ));
            }
        }
    }
}

fn other(p: Player) -> Player {
    Player(1 - p.0)
}

/// The `White Army` / `Black Army` choices: (name shown, army code), the built-in armies
/// then those of armies files.
fn army_choices() -> Vec<(String, String)> {
    let built_in = ARMY_CHOICES
        .iter()
        .map(|(n, a)| (n.to_string(), a.name().to_string()));
    let loaded = armies::loaded_armies()
        .into_iter()
        .map(|a| (a.name, a.code));
    built_in.chain(loaded).collect()
}

/// The code of the army a GUI names by its shown name, Fairy-Max's name or its code.
fn army_by_name(s: &str) -> Option<String> {
    army_choices()
        .into_iter()
        .find(|(n, code)| n.eq_ignore_ascii_case(s) || code.eq_ignore_ascii_case(s))
        .map(|(_, code)| code)
        .or_else(|| fairymax::army_from_name(s).map(|a| a.name().to_string()))
}

/// `1-0 {White mates}` and the like.
fn result_line(o: &Outcome) -> String {
    match o {
        Outcome::Win { winner, reason } => {
            let (score, who) = if *winner == Player::WHITE {
                ("1-0", "White")
            } else {
                ("0-1", "Black")
            };
            let text = if reason == "checkmate" {
                format!("{who} mates")
            } else {
                format!("{who} wins by {reason}")
            };
            format!("{score} {{{text}}}")
        }
        Outcome::Draw { reason } => {
            let text = match reason.as_str() {
                "stalemate" => "Stalemate".to_string(),
                "threefold repetition" => "Draw by repetition".to_string(),
                r => format!("Draw by {r}"),
            };
            format!("1/2-1/2 {{{text}}}")
        }
    }
}

/// XBoard's thinking output: `depth score time(cs) nodes pv`.
fn thinking_line(r: &Info<String>, translate: &dyn Fn(&[String]) -> Vec<String>) -> String {
    let score = match r.score {
        Score::Cp(cp) => cp,
        // XBoard reads 100000 + N as mate in N moves.
        Score::Mate(n) if n > 0 => 100_000 + n,
        Score::Mate(n) => -100_000 + n,
    };
    format!(
        "{} {} {} {} {}",
        r.depth,
        score,
        r.time.as_millis() / 10,
        r.nodes,
        translate(&r.pv).join(" ")
    )
}

fn looks_like_move(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 4 && b[0].is_ascii_lowercase() && b[1].is_ascii_digit()
}

fn parse_number<T: std::str::FromStr>(s: &str) -> Option<T> {
    s.trim().parse().ok()
}

/// Times beyond this (about 30 years) are refused: `1e309` and the like would overflow.
const MAX_SECONDS: f64 = 1e9;

/// A number of seconds a clock can hold: finite, not negative, not absurd.
fn seconds_in_range(s: f64) -> bool {
    s.is_finite() && (0.0..=MAX_SECONDS).contains(&s)
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    parse_number::<f64>(s)
        .filter(|v| *v > 0.0 && seconds_in_range(*v))
        .map(Duration::from_secs_f64)
        .ok_or_else(|| "expected a positive number of seconds".into())
}

fn parse_centiseconds(s: &str) -> Result<Duration, String> {
    parse_number::<i64>(s)
        .map(|cs| Duration::from_millis((cs.max(0) as u64).saturating_mul(10)))
        .ok_or_else(|| "expected centiseconds".into())
}
