//! `accuracy --looks`: does stopping as soon as a verdict settles keep the
//! 99% interval honest? A replicated comparison looks at its interval after
//! each of its first slices and then as their count doubles, and stops at
//! the first look that settles (`replicate::settled`); each look is another
//! chance for the interval to miss. This mode runs the engine's own rule
//! (`replicate::looks_at`, `replicate::settled`,
//! `replicate::interval_over_layouts`) on simulated comparisons whose truth
//! is known, and counts how often the final interval holds it.
//!
//! ```text
//! accuracy --looks [--runs N]
//! ```
//!
//! Each cell stops on one of three budgets: 64 or 256 slices over a
//! comparison's 64 layouts, or 128 over 128 layouts, as a run's time left
//! over measures a comparison its own budget left unsettled at 64 slices
//! (`engine::budget`; extending every such comparison, where the engine
//! extends only those its projection says 128 layouts could settle, so the
//! figures count every look the engine could take).
//!
//! Each simulated comparison draws, for each layout (slot), an effect from
//! a distribution of a given spread, and for each slice a noise of its
//! own; slices go to the slots in turn as the engine sends them, so past 64
//! slices they measure the same layouts again. The truth is 1.00 (the mean
//! of a symmetric spread: code a commit did not touch, identical copies),
//! or the mean of a skewed spread (a real difference whose layouts read it
//! unevenly); every shape's mean is 0 in log space. Deterministic: a
//! seeded generator per cell.

use faster::Verdict;
use faster::report::{MOST_LAYOUTS_OF_A_RUN, NoiseFloor, ProcessSummary};
use faster_runtime::__internal::{Plan, interval_over_layouts, looks_at, settled};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand_distr::{Distribution, Exp, Normal, StudentT};
use std::process::ExitCode;

use crate::options::Options;

/// The least count of slices, as `processes = 4` asks.
const LEAST: usize = 4;

/// The most slices a simulated comparison measures (its budget), and over
/// how many layouts: its own budget over a comparison's 64 (again and
/// again past them), or the run's time over new layouts up to
/// `MOST_LAYOUTS_OF_A_RUN` (`engine::budget`: 64 slices on its own budget,
/// then one more look, at 128, in 64 new layouts).
const BUDGETS: [(usize, usize); 3] = [(64, 64), (256, 64), (128, MOST_LAYOUTS_OF_A_RUN)];

/// How each layout's effect is drawn, with standard deviation `spread`.
#[derive(Debug, Clone, Copy)]
enum Shape {
    Normal,
    /// Student's t with 3 degrees of freedom: heavy tails.
    HeavyTails,
    /// A few layouts far off either way, most at the centre: offsets of a
    /// cache line that put one side's hot loop across one more fetch block.
    Classes,
    /// An exponential, shifted to its mean: a real difference some layouts
    /// read much larger.
    Skewed,
}

impl Shape {
    const ALL: [Shape; 4] = [
        Shape::Normal,
        Shape::HeavyTails,
        Shape::Classes,
        Shape::Skewed,
    ];

    fn name(self) -> &'static str {
        match self {
            Shape::Normal => "normal",
            Shape::HeavyTails => "heavy tails (t3)",
            Shape::Classes => "offset classes",
            Shape::Skewed => "skewed",
        }
    }

    /// One layout's effect, in log space, of mean 0 and standard deviation
    /// `spread`.
    fn draw(self, spread: f64, random: &mut StdRng) -> f64 {
        match self {
            Shape::Normal => spread * Normal::new(0.0, 1.0).expect("a unit normal").sample(random),
            // t3's variance is 3.
            Shape::HeavyTails => {
                spread / 3f64.sqrt() * StudentT::new(3.0).expect("t3").sample(random)
            }
            // ±a with 1/8 each, 0 otherwise: variance a²/4.
            Shape::Classes => {
                let class = Normal::new(0.0, 1.0).expect("a unit normal").sample(random);
                let far = 2.0 * spread;
                if class > 1.15 {
                    far
                } else if class < -1.15 {
                    -far
                } else {
                    0.0
                }
            }
            Shape::Skewed => spread * (Exp::new(1.0).expect("an exponential").sample(random) - 1.0),
        }
    }
}

/// One cell's outcome over its comparisons.
#[derive(Debug, Default)]
struct Tally {
    comparisons: usize,
    held: usize,
    decided: usize,
    slices: Vec<usize>,
}

/// `accuracy --looks`.
pub fn looks(options: &Options) -> ExitCode {
    let runs = options.runs.unwrap_or(2_000);
    println!(
        "faster accuracy suite: the stop rule's looks, simulated; {runs} comparisons per cell, \
         the truth 1.00 (the mean over layouts), each slice's own noise a quarter of the \
         layouts' spread"
    );
    println!();
    println!(
        "| layouts' spread | shape | floor | most slices | layouts | interval holds the truth | \
         decided | median slices |"
    );
    println!("| --: | --- | --: | --: | --: | --: | --: | --: |");
    let mut seed = 0;
    for spread in [0.005, 0.01, 0.02, 0.04] {
        for shape in Shape::ALL {
            for floor in [0.02, 0.05] {
                for (most, layouts) in BUDGETS {
                    seed += 1;
                    let tally = cell(shape, spread, floor, (most, layouts), runs, seed);
                    let mut slices = tally.slices.clone();
                    slices.sort_unstable();
                    println!(
                        "| {:.1}% | {} | {:.0}% | {most} | {layouts} | {:.1}% | {:.1}% | {} |",
                        100.0 * spread,
                        shape.name(),
                        100.0 * floor,
                        100.0 * tally.held as f64 / tally.comparisons as f64,
                        100.0 * tally.decided as f64 / tally.comparisons as f64,
                        slices[slices.len() / 2],
                    );
                }
            }
        }
    }
    ExitCode::SUCCESS
}

/// `runs` simulated comparisons of one cell, from `seed`: at most `most`
/// slices over `layouts` layouts, each slice in the next layout, in turn.
fn cell(
    shape: Shape,
    spread: f64,
    floor: f64,
    (most, layouts): (usize, usize),
    runs: usize,
    seed: u64,
) -> Tally {
    // The engine's interval, widened by its systematic allowance as a
    // comparison's is.
    let allowance = Plan::default().systematic_allowance;
    let mut random = StdRng::seed_from_u64(seed);
    let noise = Normal::new(0.0, spread / 4.0).expect("a normal");
    let mut tally = Tally::default();
    for _ in 0..runs {
        let slots: Vec<f64> = (0..layouts)
            .map(|_| shape.draw(spread, &mut random))
            .collect();
        let mut processes: Vec<ProcessSummary> = Vec::new();
        loop {
            // As the engine sends them (`slot_of`, and on the run's time
            // `Replication::next_slot`): every layout in turn.
            let slot = (processes.len() % layouts) as u32 + 1;
            let log_speedup = slots[slot as usize - 1] + noise.sample(&mut random);
            processes.push(ProcessSummary::new(
                log_speedup.exp(),
                (0.0, f64::INFINITY),
                64,
                slot,
            ));
            let count = processes.len();
            let stop = count >= LEAST
                && looks_at(count)
                && settled(&processes, NoiseFloor::new(floor), allowance);
            if stop || count >= most {
                break;
            }
        }
        // The truth: the mean over every layout the code could be linked
        // in, 0 in log space by construction of each shape.
        let interval = interval_over_layouts(&processes, allowance).expect("at least four slices");
        let bounds = interval.exp_bounds();
        tally.comparisons += 1;
        tally.held += usize::from(interval.low() <= 0.0 && 0.0 <= interval.high());
        tally.decided += usize::from(Verdict::settled(bounds, floor));
        tally.slices.push(processes.len());
    }
    tally
}
