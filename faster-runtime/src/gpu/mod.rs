//! GPU compute kernels compared on the GPU's own timestamps (the `gpu`
//! feature): the same check, paired rounds, stop rule, interval, verdict
//! and report as for functions on the CPU, with [wgpu](https://wgpu.rs)
//! (Vulkan, Metal, DX12).
//!
//! Each side is a record function, `fn(&mut wgpu::ComputePass, &Case)`,
//! that sets its pipeline and bind groups and dispatches; the framework owns
//! the pass, its timestamp writes and the submission. A sample of `k` calls
//! is one pass in which the record function runs `k` times, between the
//! pass's two timestamps (ticks × [`wgpu::Queue::get_timestamp_period`]),
//! after a write over a buffer larger than the last-level cache. Before any
//! timing, each kernel runs once on every case and its output buffer is
//! read back and compared ([`GpuInput`]).
//!
//! ```no_run
//! use faster_runtime::Config;
//! use faster_runtime::gpu::{Gpu, GpuInput, KernelOptions, compare_kernels, wgpu};
//!
//! struct Case { bind_group: wgpu::BindGroup, output: wgpu::Buffer, naive: wgpu::ComputePipeline,
//!               tiled: wgpu::ComputePipeline, workgroups: u32 }
//!
//! impl GpuInput for Case {
//!     type Element = f32;
//!     fn output(&self) -> &wgpu::Buffer { &self.output }
//! }
//!
//! # fn cases(gpu: &Gpu) -> Vec<Case> { unimplemented!() }
//! let gpu = Gpu::new()?;
//! let cases: Vec<Case> = cases(&gpu); // buffers and pipelines made on gpu.device()
//! let options = KernelOptions::approx(1e-4, 1e-5);
//! let report = compare_kernels(
//!     &gpu, "matmul: tiled", &cases,
//!     |pass, case| {
//!         pass.set_pipeline(&case.naive);
//!         pass.set_bind_group(0, &case.bind_group, &[]);
//!         pass.dispatch_workgroups(case.workgroups, case.workgroups, 1);
//!     },
//!     |pass, case| {
//!         pass.set_pipeline(&case.tiled);
//!         pass.set_bind_group(0, &case.bind_group, &[]);
//!         pass.dispatch_workgroups(case.workgroups, case.workgroups, 1);
//!     },
//!     &options, &Config::default(),
//! )?;
//! println!("{report}");
//! # Ok::<(), faster_runtime::Error>(())
//! ```

mod device;
mod input;
mod subject;
mod timing;

pub use device::{Gpu, INSTALL_HINT, adapters};
pub use input::{Element, GpuInput};
pub use timing::{GPU_TIMESTAMPS, WALL_AROUND_SUBMIT, time_pass};
/// The wgpu these kernels are written for: use it (or the same version) to
/// make buffers and pipelines.
pub use wgpu;

use crate::check::{Approx, Eq, OutputCheck, Skip};
use crate::config::{Config, Plan};
use crate::engine::compare::{Device, Timed};
use crate::error::{Error, Phase, guarded};
use crate::judge::{self, Context};
use crate::report::{Measurement, Notice, Report};
use crate::stats::samples::Side;
use crate::time::WallClock;
use input::{Output, fill_sentinel, output_problem, read_back, unwritten_note};
use std::time::{Duration, Instant};
use subject::{Kernels, in_context};
use timing::PassTimer;

/// How two kernels are compared beyond the run's [`Config`]: how their
/// outputs are checked, and whether caches are flushed between samples.
///
/// ```
/// use faster_runtime::gpu::KernelOptions;
///
/// let exact = KernelOptions::default(); // outputs equal, caches flushed
/// let close = KernelOptions::approx(1e-4, 1e-5);
/// let warm = KernelOptions::skip().cache_flush(false);
/// assert!(exact.cache_flush && close.cache_flush && !warm.cache_flush);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct KernelOptions<K = Eq> {
    /// How the output buffers are compared before timing:
    /// [`Eq`](struct@Eq), [`Approx`] or [`Skip`] (or a check of your own).
    pub check: K,
    /// Before every sample, write over a buffer larger than the last-level
    /// cache, so each starts cold, as triton's `do_bench` and Tensara do
    /// (the default); `false` for kernels meant to run warm.
    pub cache_flush: bool,
}

impl Default for KernelOptions<Eq> {
    /// Outputs compared with `==`, caches flushed before every sample.
    fn default() -> Self {
        KernelOptions {
            check: Eq,
            cache_flush: true,
        }
    }
}

impl KernelOptions<Approx> {
    /// Outputs compared within a relative tolerance `rel`, or an absolute
    /// one `abs` near zero (`check = approx(rel, abs)`); caches flushed.
    pub fn approx(rel: f64, abs: f64) -> Self {
        KernelOptions {
            check: Approx { rel, abs },
            cache_flush: true,
        }
    }
}

impl KernelOptions<Skip> {
    /// Outputs not compared (`check = skip`); caches flushed.
    pub fn skip() -> Self {
        KernelOptions {
            check: Skip,
            cache_flush: true,
        }
    }
}

impl<K> KernelOptions<K> {
    /// The same options, caches flushed before every sample or not.
    pub fn cache_flush(self, cache_flush: bool) -> Self {
        KernelOptions {
            cache_flush,
            ..self
        }
    }
}

/// How long a GPU comparison's warm-up may last at the least
/// ([`Plan::max_warm_up`](crate::config::Plan::max_warm_up) is raised to it): GPUs raise their clocks under
/// load, and lavapipe compiles a shader when it first runs (its first pass
/// took 3.6 times the settled time here). As on the CPU, the warm-up stops
/// once the per-sample times settle, after at least a fifth of this, and
/// keeps within a fifth of the budget.
pub const WARM_UP_LIMIT: Duration = Duration::from_millis(500);

/// Checks that `candidate` writes what `original` writes on every case,
/// then measures both interleaved on `gpu` and judges the speedup against
/// `config.noise_floor`: the same [`Report`] as
/// [`compare_fns`](crate::compare_fns), which also names the adapter and
/// the timer.
///
/// A panic in a record function is [`Error::Panicked`]; commands wgpu
/// rejects, or a device that fails, are [`Error::Gpu`]; different outputs
/// are [`Error::Mismatch`], naming the case, both outputs around the first
/// difference, and its index and values, and the first element either
/// kernel left unwritten (still holding the buffer's `0xFF` fill).
pub fn compare_kernels<I, K, A, B>(
    gpu: &Gpu,
    name: &str,
    inputs: &[I],
    original: A,
    candidate: B,
    options: &KernelOptions<K>,
    config: &Config,
) -> Result<Report, Error>
where
    I: GpuInput,
    K: OutputCheck<Vec<I::Element>>,
    A: FnMut(&mut wgpu::ComputePass<'_>, &I),
    B: FnMut(&mut wgpu::ComputePass<'_>, &I),
{
    let measurement = measure(gpu, name, inputs, original, candidate, options, config)?;
    Ok(judge::judge(measurement, config, Context::default()))
}

/// Check → sample → estimate, for the judge (`crate::judge`):
/// [`compare_kernels`] and the attribute's comparisons (whose harness
/// judges) both land here.
pub(crate) fn measure<I, K, A, B>(
    gpu: &Gpu,
    name: &str,
    inputs: &[I],
    mut original: A,
    mut candidate: B,
    options: &KernelOptions<K>,
    config: &Config,
) -> Result<Measurement, Error>
where
    I: GpuInput,
    K: OutputCheck<Vec<I::Element>>,
    A: FnMut(&mut wgpu::ComputePass<'_>, &I),
    B: FnMut(&mut wgpu::ComputePass<'_>, &I),
{
    let started = Instant::now();
    config.validate()?;
    if inputs.is_empty() {
        return Err(Error::NoInputs);
    }
    let timer = PassTimer::new(gpu, options.cache_flush);
    let round = check_every_case(
        gpu,
        &timer,
        inputs,
        &mut original,
        &mut candidate,
        &options.check,
    )?;
    if round > config.max_time {
        return Err(Error::BudgetTooShort {
            round,
            max_time: config.max_time,
            processes: 1,
        });
    }

    let mut notices = Vec::new();
    if !gpu.has_timestamps() {
        notices.push(Notice::Said(format!(
            "the device has no timestamp queries: samples were timed by {WALL_AROUND_SUBMIT}, \
             which adds the submission's own cost to every sample"
        )));
    }
    let timed = Timed {
        label: name,
        timer: timer.name(),
        calibration: timer.calibrate()?,
        outputs_checked: options.check.checks(),
        notices,
        started,
        device: Some(Device {
            on_our_threads: gpu.adapter().device_type == wgpu::DeviceType::Cpu,
        }),
    };
    let mut subject = Kernels {
        timer: &timer,
        inputs,
        original,
        candidate,
    };
    let config = Config {
        plan: Plan {
            max_warm_up: config.plan.max_warm_up.max(WARM_UP_LIMIT),
            ..config.plan
        },
        ..config.clone()
    };
    let mut measurement = timed.measure(&WallClock, &mut subject, &config)?;
    measurement.gpu = Some(gpu.info(timer.flush_bytes()));
    for (input, case) in measurement.inputs.iter_mut().zip(inputs) {
        input.label = case.label();
    }
    Ok(measurement)
}

/// Runs each kernel once on every case and compares what they leave in the
/// output buffer; returns how long those runs took: one round, which, where
/// it alone outlasts the budget, says no round can be measured in it.
fn check_every_case<I, K>(
    gpu: &Gpu,
    timer: &PassTimer<'_>,
    inputs: &[I],
    original: &mut dyn FnMut(&mut wgpu::ComputePass<'_>, &I),
    candidate: &mut dyn FnMut(&mut wgpu::ComputePass<'_>, &I),
    check: &K,
) -> Result<Duration, Error>
where
    I: GpuInput,
    K: OutputCheck<Vec<I::Element>>,
{
    let mut round = Duration::ZERO;
    for (index, case) in inputs.iter().enumerate() {
        let mut output = |side, record: &mut dyn FnMut(&mut wgpu::ComputePass<'_>, &I)| {
            let (output, took) = output_of(gpu, timer, side, index, case, record)?;
            round += took;
            Ok::<_, Error>(output)
        };
        let (original, candidate) = (
            output(Side::Original, original)?,
            output(Side::Candidate, candidate)?,
        );
        if let Err((original_shown, mut candidate_shown)) =
            check.verify(&original.elements, &candidate.elements)
        {
            candidate_shown.push_str(&unwritten_note(&original, &candidate));
            return Err(Error::Mismatch {
                input: index,
                input_debug: case.label(),
                original: original_shown,
                candidate: candidate_shown,
            });
        }
    }
    Ok(round)
}

/// What one kernel leaves in `case`'s output buffer after one run (filled
/// before it), and how long the run took.
fn output_of<I: GpuInput>(
    gpu: &Gpu,
    timer: &PassTimer<'_>,
    side: Side,
    index: usize,
    case: &I,
    record: &mut dyn FnMut(&mut wgpu::ComputePass<'_>, &I),
) -> Result<(Output<I::Element>, Duration), Error> {
    let output = case.output();
    if let Some(problem) = output_problem(output) {
        return Err(Error::Gpu(format!("input {index}: {problem}")));
    }
    fill_sentinel(gpu, output);
    let started = Instant::now();
    guarded(Phase::from(side), index, || {
        timer.run(&mut |pass| record(pass, case))
    })?
    .map_err(|error| in_context(error, side, index))?;
    let took = started.elapsed();
    Ok((read_back(gpu, output)?, took))
}
