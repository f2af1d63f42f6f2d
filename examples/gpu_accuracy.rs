//! How well GPU comparisons judge, on this machine's adapter: a kernel
//! against itself (no verdict is right), and the kernel against itself with
//! twice the loop trip count (a known ratio of about 2: `faster` is right,
//! and the speedup should match an independent measurement).
//!
//! ```text
//! cargo run --release --features gpu --example gpu_accuracy -- [--runs 20] [--cases long,short] [--pairs aa,2x] [--cache-flush on|off] [--each]
//! ```
//!
//! `--each` also prints every run: its speedup, interval, local truth,
//! rounds, verdict and time.
//!
//! The kernel is `tests/gpu/kernels.rs`'s `busy`: every invocation runs a
//! chain of dependent multiply-add steps; one side runs `2·trips` steps, the
//! other `trips` steps of the step composed with itself, writing the same
//! result. The true ratio is below 2 by what a dispatch costs besides its
//! loop, so it is measured by a reference independent of the engine:
//! alternating passes of each kernel (order ABBA...), each holding as many
//! dispatches as fill about 20 ms, timed by the same GPU timestamps, ten
//! pairs before the first run and after every run. A run is judged against
//! the median of the pairs just around it (on lavapipe the machine's other
//! work moves the cost of a dispatch, and with it the true ratio); `truth`
//! is the median of all pairs. Each comparison uses the default settings
//! (3 s, 5% floor, caches flushed before every sample unless
//! `--cache-flush off`).
//!
//! Measure on an otherwise quiet machine: lavapipe runs the kernels on the
//! CPU's cores. The program prints the load average before and after, and
//! `others`, the median and the largest CPU use of other processes during a
//! run (in cores), and `steal`, the largest share of CPU time the hypervisor
//! held back in a run (both from the reports' `load`). The load average
//! counts lavapipe's own threads too.

#[path = "../tests/gpu/kernels.rs"]
#[allow(dead_code)] // The tests' other kernels.
mod kernels;

use faster::gpu::{Gpu, KernelOptions, compare_kernels, time_pass, wgpu};
use faster::report::format_ns;
use faster::{Config, Verdict};
use faster_runtime::__internal::median;
use kernels::{Busy, busy, busy_once, busy_twice};

type Record = fn(&mut wgpu::ComputePass<'_>, &Busy);

/// The two sizes: dispatches of milliseconds and of tens of microseconds,
/// where what a dispatch costs besides its loop weighs more.
const CASES: [(&str, u32, u32); 2] = [("long", 4_096, 500), ("short", 512, 50)];

/// The nanoseconds of one pass of `count` dispatches.
fn pass_ns(gpu: &Gpu, case: &Busy, record: Record, count: u32) -> f64 {
    time_pass(gpu, |pass| {
        for _ in 0..count {
            record(pass, case);
        }
    })
    .expect("the kernel runs")
}

/// Alternating pairs of passes of `original` and `candidate` (order
/// ABBA...), each pass ≈ 20 ms of dispatches: every pair's time ratio.
struct Reference<'a> {
    gpu: &'a Gpu,
    case: &'a Busy,
    original: Record,
    candidate: Record,
    dispatches: u32,
}

impl<'a> Reference<'a> {
    fn new(gpu: &'a Gpu, case: &'a Busy, (original, candidate): (Record, Record)) -> Self {
        let per_dispatch = pass_ns(gpu, case, candidate, 16) / 16.0;
        Reference {
            gpu,
            case,
            original,
            candidate,
            dispatches: (20e6 / per_dispatch).clamp(1.0, 65_536.0) as u32,
        }
    }

    fn pairs(&self, count: usize) -> Vec<f64> {
        let time = |record| pass_ns(self.gpu, self.case, record, self.dispatches);
        (0..count)
            .map(|pair| {
                if pair % 2 == 0 {
                    let original_ns = time(self.original);
                    original_ns / time(self.candidate)
                } else {
                    let candidate_ns = time(self.candidate);
                    time(self.original) / candidate_ns
                }
            })
            .collect()
    }
}

/// Reference pairs measured around each run: the truth a run is judged
/// against is the median of the chunks just before and just after it, since
/// the machine's other work moves lavapipe's cost per dispatch, and with it
/// the true ratio.
const PAIRS_PER_CHUNK: usize = 10;

/// One comparison's figures, with the truth it is judged against.
struct Run {
    speedup: f64,
    ci: (f64, f64),
    truth: f64,
    rounds: usize,
    warm_up_rounds: usize,
    /// Dispatches per sample, `[original, candidate]`.
    batch_sizes: [u64; 2],
    /// The least empty timed pass: the timer's cost, which sets how long
    /// a sample must be.
    empty_pass_ns: f64,
    verdict: Verdict,
    seconds: f64,
}

/// What `runs` comparisons of one pair came to.
struct Cell {
    runs: Vec<Run>,
    /// Per run, the other processes' CPU use while it measured, in cores.
    others: Vec<f64>,
    /// The largest share of CPU time the hypervisor held back in a run.
    steal: f64,
    verdicts: [usize; 3],
    per_dispatch_ns: f64,
    /// Every reference pair's ratio (empty for a pair of equal kernels).
    reference: Vec<f64>,
}

fn run_cell(
    gpu: &Gpu,
    case: &Busy,
    pair: (Record, Record),
    runs: usize,
    known: Option<f64>,
    cache_flush: bool,
) -> Cell {
    let reference = Reference::new(gpu, case, pair);
    let measure = || match known {
        Some(_) => Vec::new(),
        None => reference.pairs(PAIRS_PER_CHUNK),
    };
    let mut cell = Cell {
        runs: Vec::new(),
        others: Vec::new(),
        steal: 0.0,
        verdicts: [0; 3],
        per_dispatch_ns: 0.0,
        reference: Vec::new(),
    };
    let mut before = measure();
    for _ in 0..runs {
        let report = compare_kernels(
            gpu,
            "busy",
            std::slice::from_ref(case),
            pair.0,
            pair.1,
            &KernelOptions::default().cache_flush(cache_flush),
            &Config::default(),
        )
        .expect("the kernels agree");
        let after = measure();
        let truth = known.unwrap_or_else(|| median(&[before.clone(), after.clone()].concat()));
        cell.reference.extend(before);
        before = after;
        cell.runs.push(Run {
            speedup: report.speedup,
            ci: report.ci,
            truth,
            rounds: report.rounds,
            warm_up_rounds: report.warm_up_rounds,
            batch_sizes: report.inputs[0].batch_sizes,
            empty_pass_ns: report.calibration.reading_cost_ns,
            verdict: report.verdict,
            seconds: report.elapsed.as_secs_f64(),
        });
        if let Some(load) = report.load {
            cell.others.push(load.other_processes);
            cell.steal = cell.steal.max(load.steal);
        }
        cell.per_dispatch_ns = report.candidate_ns;
        cell.verdicts[match report.verdict {
            Verdict::Faster => 0,
            Verdict::WithinNoise => 1,
            Verdict::Slower => 2,
        }] += 1;
    }
    cell.reference.extend(before);
    cell
}

fn print_cell(label: &str, cell: &Cell, each: bool) {
    let errors: Vec<f64> = cell
        .runs
        .iter()
        .map(|run| run.speedup / run.truth - 1.0)
        .collect();
    let worst = errors
        .iter()
        .fold(0.0, |worst: f64, error| worst.max(error.abs()));
    let within = errors.iter().filter(|error| error.abs() <= 0.03).count();
    let covered = cell
        .runs
        .iter()
        .filter(|run| (run.ci.0..=run.ci.1).contains(&run.truth))
        .count();
    let runs = cell.runs.len();
    let truth = if cell.reference.is_empty() {
        1.0
    } else {
        median(&cell.reference)
    };
    let speedups: Vec<f64> = cell.runs.iter().map(|run| run.speedup).collect();
    let seconds: Vec<f64> = cell.runs.iter().map(|run| run.seconds).collect();
    println!(
        "{label:<14} {:>9} {truth:>7.4} {runs:>5} {:>6} {:>6} {:>6} {:>9.4} {:>8.2}% {:>6}/{runs} {:>5}/{runs} {:>7.2}s {:>4.2}/{:.2} {:>5.1}%",
        format_ns(cell.per_dispatch_ns),
        cell.verdicts[0],
        cell.verdicts[1],
        cell.verdicts[2],
        median(&speedups),
        100.0 * worst,
        within,
        covered,
        median(&seconds),
        median(&cell.others),
        cell.others.iter().copied().fold(0.0, f64::max),
        100.0 * cell.steal,
    );
    if !cell.reference.is_empty() {
        let (low, high) = cell
            .reference
            .iter()
            .fold((f64::INFINITY, 0.0_f64), |(low, high), ratio| {
                (low.min(*ratio), high.max(*ratio))
            });
        println!(
            "  reference: {} pairs of ≈ 20 ms passes, ratios {low:.4} – {high:.4}",
            cell.reference.len()
        );
    }
    if each {
        for run in &cell.runs {
            println!(
                "  run: {:.4} [{:.4} – {:.4}] truth {:.4} ({:+.2}%), {} rounds after {} warm-up, \
                 {:?} dispatches per sample (empty pass {}), {:?}, {:.2}s",
                run.speedup,
                run.ci.0,
                run.ci.1,
                run.truth,
                100.0 * (run.speedup / run.truth - 1.0),
                run.rounds,
                run.warm_up_rounds,
                run.batch_sizes,
                format_ns(run.empty_pass_ns),
                run.verdict,
                run.seconds,
            );
        }
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|load| {
            load.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".into())
}

fn main() {
    let mut runs = 20;
    let mut cache_flush = true;
    let mut each = false;
    let mut pairs = vec!["aa".to_string(), "2x".to_string()];
    let mut selected: Vec<String> = CASES.iter().map(|(name, ..)| name.to_string()).collect();
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let mut arguments = arguments.iter();
    while let Some(flag) = arguments.next() {
        let mut value = || arguments.next().map(String::as_str).unwrap_or_default();
        match flag.as_str() {
            "--runs" => runs = value().parse().expect("--runs takes a count"),
            "--cases" => selected = value().split(',').map(str::to_string).collect(),
            "--cache-flush" => cache_flush = value() != "off",
            "--pairs" => pairs = value().split(',').map(str::to_string).collect(),
            "--each" => each = true,
            "--bench" => {}
            other => panic!("unknown argument {other}; see the comment at the top"),
        }
    }
    let gpu = Gpu::new().unwrap_or_else(|error| panic!("{error}"));
    let adapter = gpu.adapter();
    println!(
        "gpu_accuracy: {} ({:?}, {:?}), {}, {runs} runs per pair, default settings, caches {}; load {}",
        adapter.name,
        adapter.backend,
        adapter.device_type,
        if gpu.has_timestamps() {
            "GPU timestamps"
        } else {
            "no timestamp queries: wall clock"
        },
        if cache_flush {
            "flushed"
        } else {
            "not flushed"
        },
        load_average(),
    );
    println!(
        "{:<14} {:>9} {:>7} {:>5} {:>6} {:>6} {:>6} {:>9} {:>9} {:>8} {:>7} {:>8} {:>9} {:>6}",
        "pair",
        "dispatch",
        "truth",
        "runs",
        "faster",
        "within",
        "slower",
        "median",
        "worst",
        "≤ 3%",
        "in CI",
        "time",
        "others",
        "steal"
    );
    for (name, invocations, trips) in CASES {
        if !selected.iter().any(|wanted| wanted == name) {
            continue;
        }
        let case = busy(&gpu, invocations, trips);
        if pairs.iter().any(|pair| pair == "aa") {
            let same = run_cell(
                &gpu,
                &case,
                (busy_once, busy_once),
                runs,
                Some(1.0),
                cache_flush,
            );
            print_cell(&format!("A/A {name}"), &same, each);
        }
        if pairs.iter().any(|pair| pair == "2x") {
            let double = run_cell(
                &gpu,
                &case,
                (busy_twice, busy_once),
                runs,
                None,
                cache_flush,
            );
            print_cell(&format!("2x {name}"), &double, each);
        }
    }
    println!("load at the end: {}", load_average());
}
