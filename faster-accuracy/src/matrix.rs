//! The matrix of cells: every scale × true speedup × noise condition, each
//! named by a key such as `1us/1.25/quiet` that `--filter` matches.

use std::fmt;

/// What one side of a comparison runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Workload {
    /// The dependent chain at about this many nanoseconds per call.
    Chain { ns: f64 },
    /// The strided walk over a buffer larger than the last-level cache, at
    /// about this many nanoseconds per call.
    Memory { ns: f64 },
    /// The chain over inputs of these very different per-call times.
    Inputs { ns: [f64; 3] },
}

/// A row of the matrix: a workload at one size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    /// The key's first part, e.g. `1us`.
    pub name: &'static str,
    pub workload: Workload,
}

/// Every scale, smallest first.
pub const SCALES: [Scale; 7] = [
    Scale {
        name: "2ns",
        workload: Workload::Chain { ns: 2.0 },
    },
    Scale {
        name: "50ns",
        workload: Workload::Chain { ns: 50.0 },
    },
    Scale {
        name: "1us",
        workload: Workload::Chain { ns: 1e3 },
    },
    Scale {
        name: "50us",
        workload: Workload::Chain { ns: 50e3 },
    },
    Scale {
        name: "2ms",
        workload: Workload::Chain { ns: 2e6 },
    },
    Scale {
        name: "memory",
        workload: Workload::Memory { ns: 20e3 },
    },
    Scale {
        name: "inputs",
        workload: Workload::Inputs {
            ns: [50.0, 5e3, 500e3],
        },
    },
];

/// True speedups by construction (original time / candidate time): the same
/// function on both sides, below the 5% floor, on it, twice it, clear wins
/// and a clear loss.
pub const RATIOS: [f64; 7] = [1.0, 1.03, 1.05, 1.10, 1.25, 2.0, 0.8];

/// The machine's state while a cell runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Noise {
    /// Nothing but the suite (and whatever else the machine runs).
    Quiet,
    /// The suite's own time-varying background load (see `load.rs`).
    Load,
}

impl fmt::Display for Noise {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Noise::Quiet => "quiet",
            Noise::Load => "load",
        })
    }
}

/// One cell: a scale, a nominal speedup and a noise condition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    pub scale: Scale,
    pub ratio: f64,
    pub noise: Noise,
}

impl Cell {
    /// `scale/ratio/noise`, e.g. `1us/1.25/quiet`.
    pub fn key(&self) -> String {
        format!("{}/{:.2}/{}", self.scale.name, self.ratio, self.noise)
    }

    /// The same function on both sides: the truth is exactly one.
    pub fn identical(&self) -> bool {
        self.ratio == 1.0
    }
}

/// Every cell whose key matches one of `filters` (all when there are none),
/// quiet ones first so the background load starts once, then by scale and
/// ratio.
pub fn cells(filters: &[String]) -> Vec<Cell> {
    let mut cells = Vec::new();
    for noise in [Noise::Quiet, Noise::Load] {
        for scale in SCALES {
            for ratio in RATIOS {
                let cell = Cell {
                    scale,
                    ratio,
                    noise,
                };
                let key = cell.key();
                if filters.is_empty() || filters.iter().any(|filter| matches(&key, filter)) {
                    cells.push(cell);
                }
            }
        }
    }
    cells
}

/// Whether `key` contains `filter`, where a `*` in the filter stands for
/// any text: `1us/*/quiet` picks every quiet cell at 1 µs.
pub fn matches(key: &str, filter: &str) -> bool {
    let mut rest = key;
    for part in filter.split('*') {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_filters() {
        assert_eq!(cells(&[]).len(), 2 * 7 * 7);
        let one = cells(&["1us/1.25/quiet".to_string()]);
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].key(), "1us/1.25/quiet");
        assert_eq!(cells(&["/1.00/".to_string()]).len(), 14);
        let two = cells(&["2ms/".to_string(), "memory/0.80".to_string()]);
        assert_eq!(two.len(), 7 * 2 + 2);
        assert_eq!(two[0].noise, Noise::Quiet);
        assert_eq!(two.last().unwrap().noise, Noise::Load);
    }

    #[test]
    fn a_star_stands_for_any_text() {
        assert!(matches("1us/1.25/quiet", "1us/*/quiet"));
        assert!(!matches("1us/1.25/load", "1us/*/quiet"));
        assert!(matches("50us/1.25/quiet", "us/*quiet"));
        assert!(!matches("2ns/1.25/quiet", "1us"));
        assert_eq!(cells(&["1us/*/quiet".to_string()]).len(), 7);
    }
}
