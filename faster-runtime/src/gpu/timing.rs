//! Running and timing compute passes: one pass of whatever a record
//! function records, timed by the GPU's own timestamps at the pass's start
//! and end — or, where the device has no timestamp queries, by the wall
//! clock around its submission and the wait for it — after a write over a
//! buffer larger than the last-level cache; and what such a timer costs.

use super::device::Gpu;
use super::input::map_and_read;
use crate::error::Error;
use crate::report::environment::last_level_cache_bytes;
use crate::stats::percentile;
use crate::time::{Calibration, WallClock, calibrate};
use std::time::Instant;

/// What the dispatches of one sample are recorded by.
pub(crate) type Record<'r> = &'r mut dyn FnMut(&mut wgpu::ComputePass<'_>);

/// Runs and times passes on one [`Gpu`].
pub(crate) struct PassTimer<'g> {
    gpu: &'g Gpu,
    clock: PassClock,
    flush: Option<wgpu::Buffer>,
}

/// What a pass's duration is read from.
enum PassClock {
    /// Timestamps written at the pass's beginning and end, resolved into
    /// `resolve` and copied to `readback`.
    Timestamps {
        queries: wgpu::QuerySet,
        resolve: wgpu::Buffer,
        readback: wgpu::Buffer,
        ns_per_tick: f64,
    },
    /// The wall clock around submit-and-wait.
    Wall,
}

/// The timer's name where the GPU timestamps its passes.
pub const GPU_TIMESTAMPS: &str = "GPU timestamps";
/// The timer's name where the device has no timestamp queries.
pub const WALL_AROUND_SUBMIT: &str = "the monotonic clock around submit and wait";

/// Bytes of the two timestamps of a pass.
const TIMESTAMP_BYTES: u64 = 2 * wgpu::QUERY_SIZE as u64;

impl<'g> PassTimer<'g> {
    /// A timer on `gpu`'s timestamps where it has them; with a buffer to
    /// write over before each timed pass when `cache_flush` is set.
    pub fn new(gpu: &'g Gpu, cache_flush: bool) -> PassTimer<'g> {
        let device = gpu.device();
        let clock = if gpu.has_timestamps() {
            let buffer = |label, usage| {
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(label),
                    size: TIMESTAMP_BYTES,
                    usage,
                    mapped_at_creation: false,
                })
            };
            PassClock::Timestamps {
                queries: device.create_query_set(&wgpu::QuerySetDescriptor {
                    label: Some("faster: pass timestamps"),
                    ty: wgpu::QueryType::Timestamp,
                    count: 2,
                }),
                resolve: buffer(
                    "faster: resolved timestamps",
                    wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                ),
                readback: buffer(
                    "faster: timestamps read back",
                    wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                ),
                ns_per_tick: f64::from(gpu.queue().get_timestamp_period()),
            }
        } else {
            PassClock::Wall
        };
        let flush = cache_flush.then(|| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("faster: cache flush"),
                size: flush_bytes(gpu),
                usage: wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        });
        PassTimer { gpu, clock, flush }
    }

    /// The timer's name, as the report shows it.
    pub fn name(&self) -> &'static str {
        match self.clock {
            PassClock::Timestamps { .. } => GPU_TIMESTAMPS,
            PassClock::Wall => WALL_AROUND_SUBMIT,
        }
    }

    /// The bytes written over before each timed pass; `None` when off.
    pub fn flush_bytes(&self) -> Option<u64> {
        self.flush.as_ref().map(wgpu::Buffer::size)
    }

    /// Runs one pass of what `record` records, untimed, and waits for it.
    pub fn run(&self, record: Record<'_>) -> Result<(), Error> {
        let mut encoder = self.encoder();
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            record(&mut pass);
        }
        self.submit_checked(encoder)?;
        self.gpu.wait()
    }

    /// The nanoseconds one pass of what `record` records takes, after the
    /// cache flush.
    pub fn time(&self, record: Record<'_>) -> Result<f64, Error> {
        self.time_after(self.flush.as_ref(), record)
    }

    /// The nanoseconds one pass takes, after a write over `flush`.
    fn time_after(&self, flush: Option<&wgpu::Buffer>, record: Record<'_>) -> Result<f64, Error> {
        match &self.clock {
            PassClock::Timestamps {
                queries,
                resolve,
                readback,
                ns_per_tick,
            } => {
                let mut encoder = self.encoder();
                if let Some(flush) = flush {
                    encoder.clear_buffer(flush, 0, None);
                }
                {
                    let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                        label: Some("faster: timed pass"),
                        timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                            query_set: queries,
                            beginning_of_pass_write_index: Some(0),
                            end_of_pass_write_index: Some(1),
                        }),
                    });
                    record(&mut pass);
                }
                encoder.resolve_query_set(queries, 0..2, resolve, 0);
                encoder.copy_buffer_to_buffer(resolve, 0, readback, 0, TIMESTAMP_BYTES);
                self.submit_checked(encoder)?;
                let bytes = map_and_read(self.gpu, readback)?;
                let tick =
                    |at: usize| u64::from_ne_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
                let (start, end) = (tick(0), tick(8));
                end.checked_sub(start)
                    .map(|ticks| ticks as f64 * ns_per_tick)
                    .ok_or_else(|| {
                        Error::Gpu(format!(
                            "the GPU's timestamps ran backwards within a pass ({start} → {end}): \
                             its clock is not usable for timing here"
                        ))
                    })
            }
            PassClock::Wall => {
                if let Some(flush) = flush {
                    let mut encoder = self.encoder();
                    encoder.clear_buffer(flush, 0, None);
                    self.submit_checked(encoder)?;
                    self.gpu.wait()?;
                }
                let mut encoder = self.encoder();
                {
                    let mut pass =
                        encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
                    record(&mut pass);
                }
                // Recording errors surface at `finish`, inside the scope.
                let scope = self
                    .gpu
                    .device()
                    .push_error_scope(wgpu::ErrorFilter::Validation);
                let commands = encoder.finish();
                let start = Instant::now();
                self.gpu.queue().submit([commands]);
                self.gpu.wait()?;
                let elapsed = start.elapsed();
                rejected(scope)?;
                Ok(elapsed.as_nanos() as f64)
            }
        }
    }

    /// What a timed pass with nothing in it costs (the timer's reading
    /// cost) and how finely the timer ticks. The cost is the lower quartile
    /// of 64 empty passes: about what every sample pays. An empty pass's
    /// time varies from pass to pass, and samples are sized to be a
    /// thousand times the cost: the least of a few passes came out too
    /// high for a budget to hold enough long samples, the least of many
    /// too low for samples of one dispatch to outweigh the pass's own
    /// cost, and the median let the spread above the typical cost lengthen
    /// every sample (`guide/gpu.md` has the figures measured).
    pub fn calibrate(&self) -> Result<Calibration, Error> {
        const PASSES: usize = 64;
        let mut empty = (0..PASSES)
            .map(|_| self.time_after(None, &mut |_| {}))
            .collect::<Result<Vec<f64>, Error>>()?;
        let resolution_ns = match &self.clock {
            PassClock::Timestamps { ns_per_tick, .. } => *ns_per_tick,
            PassClock::Wall => calibrate(&WallClock).resolution_ns,
        };
        empty.sort_by(f64::total_cmp);
        Ok(Calibration {
            reading_cost_ns: percentile(&empty, 25.0),
            resolution_ns,
            empty_call_ns: 0.0,
        })
    }

    fn encoder(&self) -> wgpu::CommandEncoder {
        self.gpu
            .device()
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("faster"),
            })
    }

    /// Submits `encoder`'s commands, or says what wgpu rejected in them (a
    /// dispatch without a pipeline, a bind group that does not fit, ...).
    fn submit_checked(&self, encoder: wgpu::CommandEncoder) -> Result<(), Error> {
        let scope = self
            .gpu
            .device()
            .push_error_scope(wgpu::ErrorFilter::Validation);
        self.gpu.queue().submit([encoder.finish()]);
        rejected(scope)
    }
}

/// The validation error `scope` caught, if any.
fn rejected(scope: wgpu::ErrorScopeGuard) -> Result<(), Error> {
    match super::device::block_on(scope.pop()) {
        None => Ok(()),
        Some(error) => Err(Error::Gpu(format!("wgpu rejected the commands: {error}"))),
    }
}

/// The nanoseconds one compute pass of what `record` records takes on
/// `gpu`, timed as a comparison's samples are (by the GPU's timestamps where
/// the device has them), without a cache flush: for measurements of your
/// own next to a comparison's, such as a long reference run.
pub fn time_pass(
    gpu: &Gpu,
    mut record: impl FnMut(&mut wgpu::ComputePass<'_>),
) -> Result<f64, Error> {
    PassTimer::new(gpu, false).time(&mut record)
}

/// The bytes written over to flush caches between samples: twice the CPU's
/// last-level cache for a software adapter that runs on it (where the size
/// can be read), 256 MiB (as triton's `do_bench`) for a GPU, whose caches
/// are smaller; within the device's largest buffer.
fn flush_bytes(gpu: &Gpu) -> u64 {
    const GPU_FLUSH: u64 = 256 << 20;
    let wanted = match gpu.adapter().device_type {
        wgpu::DeviceType::Cpu => last_level_cache_bytes().map_or(GPU_FLUSH, |bytes| 2 * bytes),
        _ => GPU_FLUSH,
    };
    wanted.min(gpu.device().limits().max_buffer_size) / 4 * 4
}
