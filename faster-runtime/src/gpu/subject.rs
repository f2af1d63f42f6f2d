//! Two kernels over their input cases as the sampler's [`Subject`]: a
//! sample of `k` calls is one pass in which a kernel's record function runs
//! `k` times, timed by the [`PassTimer`]. User code runs here, so panics
//! are caught here.

use super::timing::PassTimer;
use crate::engine::sampler::Subject;
use crate::error::{Error, Phase, guarded};
use crate::stats::samples::Side;

/// The most dispatch recordings one pass holds: each costs the CPU a little
/// to record and the GPU nothing until it runs, but a pass is held in
/// memory until submitted.
const MAX_RECORDINGS: u64 = 1 << 16;

/// The original and the candidate kernel, and the cases they run on.
pub(crate) struct Kernels<'a, I, A, B> {
    pub timer: &'a PassTimer<'a>,
    pub inputs: &'a [I],
    pub original: A,
    pub candidate: B,
}

impl<I, A, B> Subject for Kernels<'_, I, A, B>
where
    A: FnMut(&mut wgpu::ComputePass<'_>, &I),
    B: FnMut(&mut wgpu::ComputePass<'_>, &I),
{
    fn input_count(&self) -> usize {
        self.inputs.len()
    }

    fn time_batch(&mut self, side: Side, input: usize, batch: u64) -> Result<f64, Error> {
        let case = &self.inputs[input];
        let record: &mut dyn FnMut(&mut wgpu::ComputePass<'_>, &I) = match side {
            Side::Original => &mut self.original,
            Side::Candidate => &mut self.candidate,
        };
        let timer = self.timer;
        guarded(Phase::from(side), input, || {
            timer.time(&mut |pass| {
                for _ in 0..batch {
                    record(pass, case);
                }
            })
        })?
        .map_err(|error| in_context(error, side, input))
    }

    fn max_batch(&self, _input: usize) -> u64 {
        MAX_RECORDINGS
    }
}

/// A GPU error, saying which kernel and which input it came from.
pub(crate) fn in_context(error: Error, side: Side, input: usize) -> Error {
    match error {
        Error::Gpu(reason) => {
            Error::Gpu(format!("{} on input {input}: {reason}", Phase::from(side)))
        }
        other => other,
    }
}
