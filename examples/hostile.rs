//! Functions that make measuring hard, through `compare_fns` with the
//! default configuration (3 s budget): prints each outcome and how long the
//! comparison took, to see that the budget holds.
//!
//! ```text
//! cargo run --release --example hostile -- [slow|sleep|nothing]...   (all three without arguments)
//! ```
//!
//! - `slow`: 5 s per call on both sides, longer than the whole budget;
//! - `sleep`: 10 ms against 5 ms of `thread::sleep`, no computing at all;
//! - `nothing`: a 1 000-step loop against one whose work the optimizer
//!   removes.

use faster::{Config, compare_fns};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Busy for `duration`.
fn spin(duration: Duration) {
    let start = Instant::now();
    let mut count = 0_u64;
    while start.elapsed() < duration {
        count = black_box(count + 1);
    }
}

fn main() {
    let mut cases: Vec<String> = std::env::args().skip(1).collect();
    if cases.is_empty() {
        cases = ["slow", "sleep", "nothing"].map(String::from).to_vec();
    }
    let config = Config::default();
    for case in cases {
        let started = Instant::now();
        let result = match case.as_str() {
            "slow" => compare_fns(
                "5 s per call",
                &[()],
                |_| spin(Duration::from_secs(5)),
                |_| spin(Duration::from_secs(5)),
                &config,
            ),
            "sleep" => compare_fns(
                "asleep",
                &[()],
                |_| std::thread::sleep(Duration::from_millis(10)),
                |_| std::thread::sleep(Duration::from_millis(5)),
                &config,
            ),
            "nothing" => compare_fns(
                "optimized away",
                &[1_000_u64],
                |n| {
                    for i in 0..*n {
                        black_box(i);
                    }
                },
                |n| {
                    let _doubled = n * 2;
                },
                &config,
            ),
            other => {
                eprintln!("unknown case `{other}`: slow, sleep or nothing");
                std::process::exit(2);
            }
        };
        match result {
            Ok(report) => print!("{report}"),
            Err(error) => println!("faster: {case}: {error}"),
        }
        println!(
            "  ({case}: {:.2} s for a {:?} budget)\n",
            started.elapsed().as_secs_f64(),
            config.max_time
        );
    }
}
