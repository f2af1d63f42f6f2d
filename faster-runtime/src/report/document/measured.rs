//! A [`Measurement`] as documents carry it: its figures — per input, per
//! process, the placements, the load, the timer — as a report's result
//! holds them beside its judgement ([`MeasuredDoc`], flattened into it),
//! and as a server sends a slice to its parent ([`Slice`]).

use super::context::GpuDoc;
use super::values::nullable;
use crate::config::by_name;
use crate::report::throughput::overall_rates;
use crate::report::{InputReport, Load, Measurement, Notice, Placement, ProcessSummary};
use crate::stats::LinearFit;
use crate::stats::samples::{BatchLimit, CONFIDENCE, Stop};
use crate::time::Calibration;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A [`Measurement`]'s fields, as a report's result holds them beside its
/// judgement, and as a server sends a slice to its parent ([`Slice`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct MeasuredDoc {
    #[serde(deserialize_with = "nullable::number")]
    speedup: f64,
    ci: IntervalDoc,
    /// Absent from documents written before it: then none is known, and
    /// the whole of `ci` reads as what more measuring could narrow.
    #[serde(default)]
    systematic: f64,
    #[serde(deserialize_with = "nullable::number")]
    best_speedup: f64,
    #[serde(deserialize_with = "nullable::number")]
    uncorrected_speedup: f64,
    #[serde(deserialize_with = "nullable::number")]
    original_ns: f64,
    #[serde(deserialize_with = "nullable::number")]
    candidate_ns: f64,
    rounds: usize,
    warm_up_rounds: usize,
    #[serde(with = "by_name")]
    stop: Stop,
    elapsed_s: f64,
    outputs_checked: bool,
    throughput: Throughput,
    timer: TimerDoc,
    inputs: Vec<InputDoc>,
    #[serde(deserialize_with = "nullable::numbers")]
    round_log_ratios: Vec<f64>,
    round_original_first: Vec<bool>,
    processes: Vec<ProcessDoc>,
    placement: PlacementDoc,
    load: Option<LoadDoc>,
    warnings: Vec<String>,
    gpu: Option<GpuDoc>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct PlacementDoc {
    threshold_ns: f64,
    #[serde(deserialize_with = "nullable::number")]
    shorter_call_ns: f64,
    count: usize,
    #[serde(deserialize_with = "nullable::numbers")]
    speedups: Vec<f64>,
    /// Derived from `speedups`; written for readers, not read back.
    #[serde(deserialize_with = "nullable::number")]
    spread: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct LoadDoc {
    other_processes: f64,
    other_threads: f64,
    steal: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct IntervalDoc {
    confidence: f64,
    #[serde(deserialize_with = "nullable::number")]
    low: f64,
    /// `null` when there were too few rounds for an interval.
    high: Option<f64>,
}

impl IntervalDoc {
    fn of((low, high): (f64, f64)) -> IntervalDoc {
        IntervalDoc {
            confidence: CONFIDENCE,
            low,
            high: high.is_finite().then_some(high),
        }
    }

    fn bounds(&self) -> (f64, f64) {
        (self.low, self.high.unwrap_or(f64::INFINITY))
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Throughput {
    flops: Option<u64>,
    bytes: Option<u64>,
    original: Rates,
    candidate: Rates,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Rates {
    flop_per_s: Option<f64>,
    bytes_per_s: Option<f64>,
}

impl Rates {
    /// `(original, candidate)` of each rate, where known.
    fn pair(flops: Option<(f64, f64)>, bytes: Option<(f64, f64)>) -> [Rates; 2] {
        let side = |pick: fn((f64, f64)) -> f64| Rates {
            flop_per_s: flops.map(pick),
            bytes_per_s: bytes.map(pick),
        };
        [
            side(|(original, _)| original),
            side(|(_, candidate)| candidate),
        ]
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct TimerDoc {
    name: String,
    reading_cost_ns: f64,
    resolution_ns: f64,
    empty_call_ns: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Fits {
    original: Option<Fit>,
    candidate: Option<Fit>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Fit {
    intercept_ns: f64,
    slope_ns: f64,
    r_squared: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct InputDoc {
    index: usize,
    label: Option<String>,
    batch_sizes: [u64; 2],
    /// What held the batches short of the timer's sample length: `budget`,
    /// `memory`, or `null`.
    #[serde(default)]
    batch_limit: Option<String>,
    #[serde(deserialize_with = "nullable::number")]
    original_ns: f64,
    #[serde(deserialize_with = "nullable::number")]
    candidate_ns: f64,
    #[serde(deserialize_with = "nullable::number")]
    speedup: f64,
    #[serde(deserialize_with = "nullable::number")]
    overhead_ns: f64,
    fits: Fits,
    flops: Option<u64>,
    bytes: Option<u64>,
    original: Rates,
    candidate: Rates,
    #[serde(deserialize_with = "nullable::pairs")]
    rounds_ns: Vec<[f64; 2]>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct ProcessDoc {
    #[serde(deserialize_with = "nullable::number")]
    speedup: f64,
    ci: IntervalDoc,
    rounds: usize,
    /// Absent from documents written before it: then the layout, or the
    /// process's place.
    #[serde(default)]
    slot: Option<u32>,
    #[serde(default)]
    layout: Option<u32>,
}

impl MeasuredDoc {
    pub(super) fn of(measurement: &Measurement) -> MeasuredDoc {
        let inputs = &measurement.inputs;
        let sum = |count: fn(&InputReport) -> Option<u64>| -> Option<u64> {
            inputs.iter().map(count).sum()
        };
        let [original, candidate] = Rates::pair(
            overall_rates(inputs, |input| input.flops),
            overall_rates(inputs, |input| input.bytes),
        );
        MeasuredDoc {
            speedup: measurement.speedup,
            ci: IntervalDoc::of(measurement.ci),
            systematic: measurement.systematic,
            best_speedup: measurement.best_speedup,
            uncorrected_speedup: measurement.uncorrected_speedup,
            original_ns: measurement.original_ns,
            candidate_ns: measurement.candidate_ns,
            rounds: measurement.rounds,
            warm_up_rounds: measurement.warm_up_rounds,
            stop: measurement.stop,
            elapsed_s: measurement.elapsed.as_secs_f64(),
            outputs_checked: measurement.outputs_checked,
            throughput: Throughput {
                flops: sum(|input| input.flops),
                bytes: sum(|input| input.bytes),
                original,
                candidate,
            },
            timer: TimerDoc {
                name: measurement.timer.clone(),
                reading_cost_ns: measurement.calibration.reading_cost_ns,
                resolution_ns: measurement.calibration.resolution_ns,
                empty_call_ns: measurement.calibration.empty_call_ns,
            },
            inputs: inputs.iter().map(InputDoc::of).collect(),
            round_log_ratios: measurement.round_log_ratios.clone(),
            round_original_first: measurement.round_original_first.clone(),
            processes: measurement
                .processes
                .iter()
                .map(|process| ProcessDoc {
                    speedup: process.speedup,
                    ci: IntervalDoc::of(process.ci),
                    rounds: process.rounds,
                    slot: Some(process.slot),
                    layout: process.layout,
                })
                .collect(),
            placement: PlacementDoc {
                threshold_ns: measurement.placement.threshold_ns,
                shorter_call_ns: measurement.placement.shorter_call_ns,
                count: measurement.placement.count,
                speedups: measurement.placement.speedups.clone(),
                spread: measurement.placement.spread(),
            },
            load: measurement.load.map(|load| LoadDoc {
                other_processes: load.other_processes,
                other_threads: load.other_threads,
                steal: load.steal,
            }),
            warnings: measurement.notices.iter().map(Notice::to_string).collect(),
            gpu: measurement.gpu.as_ref().map(GpuDoc::of),
        }
    }

    pub(super) fn into_measurement(self, label: String) -> Measurement {
        Measurement {
            name: label,
            speedup: self.speedup,
            ci: self.ci.bounds(),
            systematic: self.systematic,
            best_speedup: self.best_speedup,
            uncorrected_speedup: self.uncorrected_speedup,
            original_ns: self.original_ns,
            candidate_ns: self.candidate_ns,
            rounds: self.rounds,
            elapsed: Duration::try_from_secs_f64(self.elapsed_s).unwrap_or_default(),
            inputs: self.inputs.into_iter().map(InputDoc::into_input).collect(),
            outputs_checked: self.outputs_checked,
            stop: self.stop,
            timer: self.timer.name,
            calibration: Calibration {
                reading_cost_ns: self.timer.reading_cost_ns,
                resolution_ns: self.timer.resolution_ns,
                empty_call_ns: self.timer.empty_call_ns,
            },
            notices: self.warnings.into_iter().map(Notice::Said).collect(),
            load: self.load.map(|load| Load {
                other_processes: load.other_processes,
                other_threads: load.other_threads,
                steal: load.steal,
            }),
            processes: (1..)
                .zip(self.processes)
                .map(|(place, process)| ProcessSummary {
                    speedup: process.speedup,
                    ci: process.ci.bounds(),
                    rounds: process.rounds,
                    slot: process.slot.or(process.layout).unwrap_or(place),
                    layout: process.layout,
                    offsets: None,
                })
                .collect(),
            placement: Placement {
                threshold_ns: self.placement.threshold_ns,
                shorter_call_ns: self.placement.shorter_call_ns,
                count: self.placement.count,
                speedups: self.placement.speedups,
            },
            round_log_ratios: self.round_log_ratios,
            round_original_first: self.round_original_first,
            warm_up_rounds: self.warm_up_rounds,
            gpu: self.gpu.map(GpuDoc::into_info),
            offsets: None,
        }
    }
}

/// A slice as a server sends it to its parent: its heading and measurement,
/// and beside them the offsets of the server's functions
/// ([`Measurement::offsets`]), which no stored document has.
#[derive(Debug, Serialize, Deserialize)]
pub struct Slice {
    name: String,
    #[serde(flatten)]
    measured: MeasuredDoc,
    /// What the slice observed, as data: its `warnings` in words are for
    /// people, these for the parent, which combines them.
    notices: Vec<Notice>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    offsets: Option<[u8; 2]>,
}

impl Slice {
    /// `measurement` as it crosses.
    pub fn of(measurement: &Measurement) -> Slice {
        Slice {
            name: measurement.name.clone(),
            measured: MeasuredDoc::of(measurement),
            notices: measurement.notices.clone(),
            offsets: measurement.offsets,
        }
    }

    /// The measurement again, in the parent.
    pub fn into_measurement(self) -> Measurement {
        Measurement {
            notices: self.notices,
            offsets: self.offsets,
            ..self.measured.into_measurement(self.name)
        }
    }
}

impl InputDoc {
    fn of(input: &InputReport) -> InputDoc {
        let [original, candidate] = Rates::pair(input.flop_rates(), input.byte_rates());
        let fit = |fit: &Option<LinearFit>| {
            fit.map(|fit| Fit {
                intercept_ns: fit.intercept,
                slope_ns: fit.slope,
                r_squared: fit.r_squared,
            })
        };
        InputDoc {
            index: input.index,
            label: input.label.clone(),
            batch_sizes: input.batch_sizes,
            batch_limit: input.batch_limit.map(|limit| limit.name().to_string()),
            original_ns: input.original_ns,
            candidate_ns: input.candidate_ns,
            speedup: input.speedup,
            overhead_ns: input.overhead_ns,
            fits: Fits {
                original: fit(&input.fits[0]),
                candidate: fit(&input.fits[1]),
            },
            flops: input.flops,
            bytes: input.bytes,
            original,
            candidate,
            rounds_ns: input.round_ns.clone(),
        }
    }

    fn into_input(self) -> InputReport {
        let fit = |fit: Option<Fit>| {
            fit.map(|fit| LinearFit {
                intercept: fit.intercept_ns,
                slope: fit.slope_ns,
                r_squared: fit.r_squared,
            })
        };
        InputReport {
            index: self.index,
            batch_sizes: self.batch_sizes,
            // A limit this version does not know is one it cannot name.
            batch_limit: self
                .batch_limit
                .and_then(|name| BatchLimit::parse(&name).ok()),
            original_ns: self.original_ns,
            candidate_ns: self.candidate_ns,
            speedup: self.speedup,
            overhead_ns: self.overhead_ns,
            fits: [fit(self.fits.original), fit(self.fits.candidate)],
            label: self.label,
            flops: self.flops,
            bytes: self.bytes,
            round_ns: self.rounds_ns,
        }
    }
}
