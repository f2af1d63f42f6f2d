//! The GPU tests (`--features gpu`): two wgpu kernels compared for real on
//! this machine's adapter — Mesa's lavapipe where there is no GPU — through
//! `faster::gpu::compare_kernels` and `#[faster::compare_gpu]`.
//!
//! A `harness = false` target, so that on a machine without any adapter
//! every test reports itself as ignored, with the reason and what to
//! install, instead of passing. Run with `FASTER_GPU_AS_HARNESS=1`, the
//! binary is `faster::main()` over its registered comparisons instead: the
//! attribute's tests run it as a child, as a user's `harness = false`
//! target would, and read its output, files and exit code.

mod attribute;
mod checks;
mod kernels;
#[path = "../../faster-runtime/tests/support/schema.rs"]
mod schema;

use faster::gpu::{
    GPU_TIMESTAMPS, Gpu, KernelOptions, WALL_AROUND_SUBMIT, adapters, compare_kernels, wgpu,
};
use faster::{Config, Error, Phase, Report};
use kernels::{Busy, busy, busy_once, busy_twice};
use libtest_mimic::{Arguments, Completion, Failed, Trial};
use std::time::Duration;

/// One test: `Ok` when it holds, the reason it does not otherwise.
type Test = fn() -> Result<(), Failed>;

/// Each test function with its name.
macro_rules! tests {
    ($($test:path),* $(,)?) => {
        vec![$((stringify!($test).rsplit("::").next().unwrap_or_default(), $test as Test)),*]
    };
}

/// Set, the binary runs its registered comparisons with `faster::main()`.
const AS_HARNESS: &str = "FASTER_GPU_AS_HARNESS";

fn main() {
    if std::env::var_os(AS_HARNESS).is_some() {
        faster::main();
        return;
    }
    let mut arguments = Arguments::from_args();
    // The GPU is one device: comparisons take turns anyway, and a test
    // recording passes beside a measurement would disturb it.
    arguments.test_threads.get_or_insert(1);
    let absent = adapters()
        .is_empty()
        .then_some("no GPU adapter: apt-get install -y mesa-vulkan-drivers");
    if absent.is_some() {
        eprintln!(
            "faster's GPU tests are ignored: this machine has no GPU adapter; {}",
            faster::gpu::INSTALL_HINT
        );
    }
    #[allow(unused_mut)] // Pushed to on Linux.
    let mut tests: Vec<(&str, Test)> = tests![
        a_comparison_is_timed_on_gpu_timestamps_and_names_the_gpu,
        checks::outputs_are_read_back_and_compared_before_timing,
        checks::eq_sees_rounding_that_approx_forgives,
        checks::a_kernel_that_writes_nothing_is_caught,
        checks::an_element_a_kernel_never_wrote_is_named_as_the_fill,
        checks::an_output_that_cannot_be_read_back_is_refused,
        a_panicking_record_function_is_reported,
        commands_wgpu_rejects_are_reported,
        a_budget_shorter_than_one_round_is_an_error,
        without_timestamp_queries_the_wall_clock_times_and_says_so,
        the_cache_flush_is_on_by_default_and_can_be_turned_off,
        throughput_counts_give_rates_in_every_output,
        attribute::the_attribute_passes_through_the_harness,
        attribute::the_attribute_fails_a_wrong_kernel_with_a_nonzero_exit,
    ];
    // Where the adapters are Vulkan ones, the loader can be shown none.
    #[cfg(target_os = "linux")]
    tests.push(tests![without_any_adapter_every_test_says_ignored_and_why][0]);
    let trials = tests
        .into_iter()
        .map(|(name, test)| {
            Trial::ignorable_test(name, move || match absent {
                Some(reason) => Ok(Completion::ignored_with(reason)),
                None => test().map(|()| Completion::Completed),
            })
        })
        .collect();
    libtest_mimic::run(&arguments, trials).exit();
}

/// What a test asserts, as a failure with the report attached.
fn ensure(holds: bool, what: impl FnOnce() -> String) -> Result<(), Failed> {
    if holds { Ok(()) } else { Err(what().into()) }
}

fn gpu() -> Result<&'static Gpu, Failed> {
    Gpu::shared().map_err(|error| error.to_string().into())
}

/// A short budget. No test here asserts a timed figure or a verdict, which
/// would pass or fail with the machine's load: how accurate verdicts and
/// figures are is `examples/gpu_accuracy.rs`'s to show.
fn quick() -> Config {
    let mut config = Config::default();
    config.max_time = Duration::from_secs(1);
    config
}

/// 4 096 chains of 1 000 steps against 500 double steps: about a
/// millisecond and a half per dispatch on lavapipe.
fn busy_cases(gpu: &Gpu) -> Vec<Busy> {
    vec![busy(gpu, 4_096, 500)]
}

/// The known-ratio pair (twice the steps against half as many double
/// steps) measured through the whole path: what the report says about how
/// it was timed, the GPU and the case, and that the pairs alternate in
/// ABBA order; not the figures themselves.
fn a_comparison_is_timed_on_gpu_timestamps_and_names_the_gpu() -> Result<(), Failed> {
    let gpu = gpu()?;
    let cases = busy_cases(gpu);
    let report = compare_kernels(
        gpu,
        "busy: half the steps",
        &cases,
        busy_twice,
        busy_once,
        &KernelOptions::default(),
        &quick(),
    )?;
    ensure(report.speedup.is_finite() && report.speedup > 0.0, || {
        report.to_string()
    })?;
    let original_first = report
        .round_original_first
        .iter()
        .filter(|first| **first)
        .count();
    ensure(
        report.rounds >= 2
            && report.round_original_first.len() == report.rounds
            && original_first.abs_diff(report.rounds - original_first) <= 1,
        || format!("not in ABBA order: {:?}", report.round_original_first),
    )?;
    ensure(
        report.timer == GPU_TIMESTAMPS || !gpu.has_timestamps(),
        || format!("timer: {}", report.timer),
    )?;
    let info = report.gpu.as_ref().ok_or("no GPU in the report")?;
    ensure(info.adapter == gpu.adapter().name, || format!("{info:?}"))?;
    ensure(
        report.inputs[0].label.as_deref() == Some("4096 invocations"),
        || format!("{:?}", report.inputs[0].label),
    )?;
    let text = report.to_string();
    ensure(text.contains(&format!("GPU: {}", info.adapter)), || {
        text.clone()
    })?;
    valid_document(&report.to_json())?;
    Ok(())
}

fn a_panicking_record_function_is_reported() -> Result<(), Failed> {
    let gpu = gpu()?;
    let cases = busy_cases(gpu);
    let error = compare_kernels(
        gpu,
        "busy: panics",
        &cases,
        busy_twice,
        |_, _: &Busy| panic!("no pipeline for this size"),
        &KernelOptions::default(),
        &quick(),
    )
    .err()
    .ok_or("a panic passed")?;
    ensure(
        matches!(&error, Error::Panicked { during: Phase::Candidate, input: Some(0), message } if message == "no pipeline for this size"),
        || error.to_string(),
    )
}

fn commands_wgpu_rejects_are_reported() -> Result<(), Failed> {
    let gpu = gpu()?;
    let cases = busy_cases(gpu);
    let error = compare_kernels(
        gpu,
        "busy: no pipeline",
        &cases,
        busy_twice,
        |pass, _: &Busy| pass.dispatch_workgroups(1, 1, 1),
        &KernelOptions::default(),
        &quick(),
    )
    .err()
    .ok_or("a dispatch without a pipeline was accepted")?;
    ensure(
        matches!(&error, Error::Gpu(reason) if reason.starts_with("the candidate on input 0: wgpu rejected")),
        || error.to_string(),
    )
}

fn a_budget_shorter_than_one_round_is_an_error() -> Result<(), Failed> {
    let gpu = gpu()?;
    let cases = busy_cases(gpu);
    let mut config = Config::default();
    config.max_time = Duration::from_micros(10);
    let error = compare_kernels(
        gpu,
        "busy",
        &cases,
        busy_twice,
        busy_once,
        &KernelOptions::default(),
        &config,
    )
    .err()
    .ok_or("a budget of 10 µs measured kernels of a millisecond")?;
    ensure(matches!(error, Error::BudgetTooShort { .. }), || {
        error.to_string()
    })
}

fn without_timestamp_queries_the_wall_clock_times_and_says_so() -> Result<(), Failed> {
    // A device of one's own, created without timestamp queries.
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle());
    let adapter = ready(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))?;
    let (device, queue) = ready(adapter.request_device(&wgpu::DeviceDescriptor::default()))?;
    let gpu = Gpu::from_device(adapter.get_info(), device, queue);
    ensure(!gpu.has_timestamps(), || "the device has timestamps".into())?;
    let cases = busy_cases(&gpu);
    let report = compare_kernels(
        &gpu,
        "busy: wall clock",
        &cases,
        busy_twice,
        busy_once,
        &KernelOptions::default(),
        &quick(),
    )?;
    ensure(report.timer == WALL_AROUND_SUBMIT, || report.timer.clone())?;
    ensure(
        report
            .warnings
            .iter()
            .any(|warning| warning.contains("no timestamp queries")),
        || report.to_string(),
    )?;
    let document = valid_document(&report.to_json())?;
    ensure(
        document["result"]["timer"]["name"] == WALL_AROUND_SUBMIT,
        || document.to_string(),
    )
}

fn the_cache_flush_is_on_by_default_and_can_be_turned_off() -> Result<(), Failed> {
    let gpu = gpu()?;
    let cases = busy_cases(gpu);
    let kernels = |options: &KernelOptions| {
        compare_kernels(
            gpu,
            "busy",
            &cases,
            busy_twice,
            busy_once,
            options,
            &quick(),
        )
    };
    let flushed = kernels(&KernelOptions::default())?;
    let bytes = flushed
        .gpu
        .as_ref()
        .and_then(|gpu| gpu.cache_flush_bytes)
        .ok_or("not flushed by default")?;
    ensure(bytes >= 8 << 20, || {
        format!("a flush of {bytes} bytes is smaller than any last-level cache")
    })?;
    let warm = kernels(&KernelOptions::default().cache_flush(false))?;
    ensure(
        warm.gpu
            .as_ref()
            .is_some_and(|gpu| gpu.cache_flush_bytes.is_none()),
        || format!("{:?}", warm.gpu),
    )?;
    ensure(warm.to_string().contains("caches not flushed"), || {
        warm.to_string()
    })
}

fn throughput_counts_give_rates_in_every_output() -> Result<(), Failed> {
    let gpu = gpu()?;
    let cases = busy_cases(gpu);
    let options = KernelOptions::skip();
    let report: Report = compare_kernels(
        gpu,
        "busy",
        &cases,
        busy_twice,
        busy_once,
        &options,
        &quick(),
    )?
    .with_flops(&[attribute::busy_flops(&cases[0])]);
    let (original, candidate) = report.flop_rates().ok_or("no FLOP rates")?;
    ensure(original > 0.0 && candidate > 0.0, || report.to_string())?;
    ensure(report.to_string().contains("FLOP/s"), || report.to_string())?;
    let document = valid_document(&report.to_json())?;
    ensure(
        document["result"]["throughput"]["candidate"]["flop_per_s"]
            .as_f64()
            .is_some(),
        || document.to_string(),
    )
}

/// This binary run again where the Vulkan loader finds no driver: every
/// test is reported ignored, with the install line, and none passes.
#[cfg(target_os = "linux")]
fn without_any_adapter_every_test_says_ignored_and_why() -> Result<(), Failed> {
    let output = std::process::Command::new(std::env::current_exe()?)
        .args(["--color", "never"])
        .env("VK_ICD_FILENAMES", "/nonexistent/icd.json")
        .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
        .output()?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    ensure(output.status.success(), || format!("{stdout}\n{stderr}"))?;
    ensure(
        stderr.contains("apt-get install -y mesa-vulkan-drivers"),
        || stderr.to_string(),
    )?;
    let ignored = stdout
        .lines()
        .filter(|line| {
            line.ends_with("ignored (no GPU adapter: apt-get install -y mesa-vulkan-drivers)")
        })
        .count();
    ensure(ignored >= 13 && stdout.contains(" 0 passed;"), || {
        stdout.to_string()
    })
}

/// Both usages an output needs besides `STORAGE`.
fn copy_both() -> wgpu::BufferUsages {
    wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST
}

/// The output of a wgpu future, which on native backends is ready at once.
fn ready<T, E: std::fmt::Display>(
    future: impl std::future::Future<Output = Result<T, E>>,
) -> Result<T, Failed> {
    let mut future = std::pin::pin!(future);
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output.map_err(|error| error.to_string().into());
        }
        std::thread::yield_now();
    }
}

/// `document` parsed, if it conforms to the report schema.
fn valid_document(document: &str) -> Result<serde_json::Value, Failed> {
    let value: serde_json::Value =
        serde_json::from_str(document).map_err(|error| error.to_string())?;
    let schema: serde_json::Value =
        serde_json::from_str(schema::REPORT_SCHEMA).map_err(|error| error.to_string())?;
    let problems = schema::violations(&schema, &value);
    ensure(problems.is_empty(), || {
        format!("{}\n{document}", problems.join("\n"))
    })?;
    Ok(value)
}
