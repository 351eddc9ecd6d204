//! Timed counts for the benches: wall-clock seconds and, where the system tells, the CPU
//! seconds of the process, which stay meaningful on a machine shared with other work.

use std::time::Instant;

/// A timed count: nodes (or whatever the section counts), wall-clock seconds and, where the
/// system tells, CPU seconds of the process.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timed {
    pub nodes: u64,
    pub secs: f64,
    pub cpu_secs: Option<f64>,
}

impl Timed {
    /// An empty total to `add` runs to.
    pub fn zero() -> Timed {
        Timed {
            cpu_secs: Some(0.0),
            ..Timed::default()
        }
    }

    /// Times `f`, which returns the nodes it counted.
    pub fn run(f: impl FnOnce() -> u64) -> Timed {
        let cpu_start = process_cpu_seconds();
        let start = Instant::now();
        let nodes = f();
        let secs = start.elapsed().as_secs_f64();
        let cpu_secs = cpu_start.zip(process_cpu_seconds()).map(|(a, b)| b - a);
        Timed {
            nodes,
            secs,
            cpu_secs,
        }
    }

    pub fn add(&mut self, o: Timed) {
        self.nodes += o.nodes;
        self.secs += o.secs;
        self.cpu_secs = self.cpu_secs.zip(o.cpu_secs).map(|(a, b)| a + b);
    }

    /// Millions of nodes per wall-clock second.
    pub fn mnps(self) -> f64 {
        self.nodes as f64 / self.secs.max(1e-9) / 1e6
    }

    /// Nodes per CPU-second: the speed a single-threaded run would have on an idle core,
    /// which stays meaningful on a machine shared with other work.
    pub fn cpu_mnps(self) -> String {
        match self.cpu_secs {
            Some(c) if c > 0.0 => format!("{:.1}", self.nodes as f64 / c / 1e6),
            _ => "-".into(),
        }
    }
}

/// User plus system CPU time of this process (Linux `/proc`; `None` elsewhere). The kernel
/// reports it in clock ticks of 1/100 s on every mainstream Linux platform.
pub fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses): state is the first, utime the
    // 12th and stime the 13th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    Some((ticks(11)? + ticks(12)?) / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_total_adds_nodes_and_seconds() {
        let mut total = Timed::zero();
        total.add(Timed {
            nodes: 3_000_000,
            secs: 1.5,
            cpu_secs: Some(1.0),
        });
        assert_eq!(total.nodes, 3_000_000);
        assert!((total.mnps() - 2.0).abs() < 1e-9);
        assert_eq!(total.cpu_mnps(), "3.0");
    }

    #[test]
    fn without_cpu_time_the_cpu_speed_is_a_dash() {
        let t = Timed {
            nodes: 5,
            secs: 1.0,
            cpu_secs: None,
        };
        assert_eq!(t.cpu_mnps(), "-");
    }
}
