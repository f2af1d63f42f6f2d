//! What `compare_kernels` checks before any timing: both kernels' output
//! buffers read back and compared (`eq` and `approx`), an element a kernel
//! never wrote named as the fill the buffer started with, and an output
//! buffer that cannot be read back refused.

use super::kernels::{Scale, busy_twice, scale, scale_with};
use super::{busy_cases, copy_both, ensure, gpu, quick};
use faster::Error;
use faster::gpu::{KernelOptions, compare_kernels, wgpu};
use libtest_mimic::Failed;

pub(super) fn outputs_are_read_back_and_compared_before_timing() -> Result<(), Failed> {
    let gpu = gpu()?;
    let cases = [scale(gpu, 1_024, copy_both())];
    let options = KernelOptions::approx(1e-6, 0.0);
    let error = compare_kernels(
        gpu,
        "scale: one element wrong",
        &cases,
        |pass, case: &Scale| scale_with(pass, case, &case.in_one_step),
        |pass, case: &Scale| scale_with(pass, case, &case.off_by_one_element),
        &options,
        &quick(),
    )
    .err()
    .ok_or("a wrong element passed the check")?;
    let message = error.to_string();
    ensure(matches!(error, Error::Mismatch { input: 0, .. }), || {
        message.clone()
    })?;
    ensure(
        message.contains("first difference at [100]: 30.000002 vs -1.0, not within approx(1e-6)"),
        || message.clone(),
    )
}

pub(super) fn eq_sees_rounding_that_approx_forgives() -> Result<(), Failed> {
    let gpu = gpu()?;
    let cases = [scale(gpu, 1_024, copy_both())];
    let two_steps =
        |pass: &mut wgpu::ComputePass<'_>, case: &Scale| scale_with(pass, case, &case.in_two_steps);
    let one_step =
        |pass: &mut wgpu::ComputePass<'_>, case: &Scale| scale_with(pass, case, &case.in_one_step);
    let exact = KernelOptions::default();
    let error = compare_kernels(
        gpu,
        "scale: eq",
        &cases,
        two_steps,
        one_step,
        &exact,
        &quick(),
    )
    .err()
    .ok_or("x·0.1·3 and x·0.3 compared equal: they round differently")?;
    ensure(error.to_string().contains("first difference at ["), || {
        error.to_string()
    })?;
    let close = KernelOptions::approx(1e-6, 0.0);
    let report = compare_kernels(
        gpu,
        "scale: approx",
        &cases,
        two_steps,
        one_step,
        &close,
        &quick(),
    )?;
    ensure(report.outputs_checked, || report.to_string())
}

pub(super) fn a_kernel_that_writes_nothing_is_caught() -> Result<(), Failed> {
    let gpu = gpu()?;
    let cases = busy_cases(gpu);
    let error = compare_kernels(
        gpu,
        "busy: nothing",
        &cases,
        busy_twice,
        |_, _| {},
        &KernelOptions::default(),
        &quick(),
    )
    .err()
    .ok_or("a kernel that writes nothing passed the check")?;
    ensure(matches!(error, Error::Mismatch { input: 0, .. }), || {
        error.to_string()
    })?;
    // The output is filled with 0xFF bytes before each checked run, and the
    // message says that is what the candidate's elements still hold.
    let message = error.to_string();
    ensure(
        message.contains("first difference at [0]: ")
            && message.contains(" vs 4294967295")
            && message.contains(
                "\n  unwritten: [0] of the candidate's output holds 4294967295 (0xFFFFFFFF: the \
                 fill the output buffer started with — the kernel never wrote this element), as \
                 do 4095 more of its elements",
            )
            && !message.contains("of the original's output"),
        || message.clone(),
    )
}

pub(super) fn an_element_a_kernel_never_wrote_is_named_as_the_fill() -> Result<(), Failed> {
    let gpu = gpu()?;
    let cases = [scale(gpu, 1_024, copy_both())];
    let error = compare_kernels(
        gpu,
        "scale: one element never written",
        &cases,
        |pass, case: &Scale| scale_with(pass, case, &case.in_one_step),
        |pass, case: &Scale| scale_with(pass, case, &case.skips_one_element),
        &KernelOptions::approx(1e-6, 0.0),
        &quick(),
    )
    .err()
    .ok_or("an element never written passed the check")?;
    let message = error.to_string();
    ensure(
        message.contains("first difference at [100]: 30.000002 vs NaN")
            && message.ends_with(
                "\n  unwritten: [100] of the candidate's output holds NaN (0xFFFFFFFF: the fill \
                 the output buffer started with — the kernel never wrote this element)",
            ),
        || message.clone(),
    )
}

pub(super) fn an_output_that_cannot_be_read_back_is_refused() -> Result<(), Failed> {
    let gpu = gpu()?;
    let cases = [scale(gpu, 1_024, wgpu::BufferUsages::COPY_DST)];
    let kernel =
        |pass: &mut wgpu::ComputePass<'_>, case: &Scale| scale_with(pass, case, &case.in_one_step);
    let error = compare_kernels(
        gpu,
        "scale",
        &cases,
        kernel,
        kernel,
        &KernelOptions::default(),
        &quick(),
    )
    .err()
    .ok_or("an output without COPY_SRC was accepted")?;
    ensure(
        matches!(&error, Error::Gpu(reason) if reason.contains("input 0") && reason.contains("COPY_SRC")),
        || error.to_string(),
    )
}
