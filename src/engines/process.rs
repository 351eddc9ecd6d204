//! An engine as a child process: lines in on stdin, lines out of stdout read by a thread, so
//! that every wait has a deadline and a hung engine cannot hang the match.

use super::engine_config::EngineConfig;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Why an engine could not do what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The program could not be started.
    Spawn(String),
    /// The process ended or closed its output.
    Crashed(String),
    /// No answer before the deadline.
    Timeout(String),
    /// The engine answered something the protocol does not allow here.
    Protocol(String),
    /// The engine cannot play this game (variant, player count, position set-up).
    Unsupported(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            EngineError::Spawn(m) => write!(f, "cannot start engine: {m}"),
            EngineError::Crashed(m) => write!(f, "engine crashed: {m}"),
            EngineError::Timeout(m) => write!(f, "engine did not answer in time: {m}"),
            EngineError::Protocol(m) => write!(f, "protocol error: {m}"),
            EngineError::Unsupported(m) => write!(f, "engine cannot play this: {m}"),
        }
    }
}

impl std::error::Error for EngineError {}

pub struct EngineProcess {
    /// For log lines: the engine's name and seat.
    pub label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl EngineProcess {
    pub fn spawn(cfg: &EngineConfig, label: &str) -> Result<EngineProcess, EngineError> {
        let mut cmd = Command::new(&cfg.program);
        cmd.args(&cfg.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        // Its own process group, so that killing a hung engine also ends any children it
        // started (and a Ctrl-C meant for the match is not delivered to engines mid-move).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        if let Some(dir) = &cfg.workdir {
            cmd.current_dir(dir);
        }
        match &cfg.stderr {
            Some(path) => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| EngineError::Spawn(format!("{}: {e}", path.display())))?;
                cmd.stderr(file);
            }
            None => {
                cmd.stderr(Stdio::null());
            }
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", cfg.program.display())))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        let reader_label = label.to_string();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                log::debug!("{reader_label} > {line}");
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess {
            label: label.to_string(),
            child,
            stdin,
            lines: rx,
        })
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::debug!("{} < {line}", self.label);
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| EngineError::Crashed("input closed".into()))?;
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|_| stdin.flush())
            .map_err(|_| self.crash_report())
    }

    /// The next output line, waiting until `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(format!(
                "no output for {:.2} s",
                wait.as_secs_f64()
            ))),
            Err(RecvTimeoutError::Disconnected) => Err(self.crash_report()),
        }
    }

    /// Reads lines until `accept` returns a value, or fails at `deadline`.
    pub fn recv_until<T>(
        &mut self,
        deadline: Instant,
        what: &str,
        mut accept: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, EngineError> {
        loop {
            let line = self.recv(deadline).map_err(|e| match e {
                EngineError::Timeout(_) => EngineError::Timeout(format!("waiting for {what}")),
                other => other,
            })?;
            if let Some(v) = accept(line.trim()) {
                return Ok(v);
            }
        }
    }

    /// Describes how the process ended (it closed its output or its input).
    fn crash_report(&mut self) -> EngineError {
        // Give a dying process a moment to be reaped so the exit status is known.
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            if let Ok(Some(status)) = self.child.try_wait() {
                return EngineError::Crashed(format!("process exited ({status})"));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        EngineError::Crashed("output closed".into())
    }

    /// Sends `quit_command`, waits up to `grace` for the process to end, then kills it.
    pub fn shut_down(&mut self, quit_command: &str, grace: Duration) {
        let _ = self.send(quit_command);
        self.stdin = None;
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    pub fn kill(&mut self) {
        #[cfg(unix)]
        if let Ok(None) = self.child.try_wait() {
            let group = format!("-{}", self.child.id());
            let _ = Command::new("kill")
                .args(["-KILL", "--", &group])
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}
