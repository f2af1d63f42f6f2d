//! `#[faster::compare_gpu]` through `faster::main()`: this binary, run as a
//! child with `FASTER_GPU_AS_HARNESS=1`, lists, runs and reports the two
//! comparisons registered here as a user's `harness = false` target would,
//! writes their JSON reports, and exits non-zero when one fails.

use super::kernels::{self, Busy, Scale};
use super::{AS_HARNESS, ensure, valid_document};
use faster::gpu::{Gpu, wgpu};
use libtest_mimic::Failed;
use std::path::{Path, PathBuf};
use std::process::Command;

// `expect = report`: the verdict is shown, not enforced, since a test must
// not pass or fail with the machine's load; the one that fails below fails
// on its outputs, before any timing.
#[faster::compare_gpu(
    original = kernels::busy_twice,
    inputs = busy_cases,
    flops = busy_flops,
    expect = report,
    max_time = "1s"
)]
fn busy_once(pass: &mut wgpu::ComputePass<'_>, case: &Busy) {
    kernels::busy_once(pass, case)
}

fn busy_cases(gpu: &Gpu) -> Vec<Busy> {
    super::busy_cases(gpu)
}

/// A step is a multiply and an add; the candidate does the original's work
/// in half the steps.
pub fn busy_flops(case: &Busy) -> u64 {
    2 * case.steps
}

fn scale_one_step(pass: &mut wgpu::ComputePass<'_>, case: &Scale) {
    kernels::scale_with(pass, case, &case.in_one_step)
}

#[faster::compare_gpu(
    original = scale_one_step,
    inputs = scale_cases,
    check = approx(1e-6),
    name = "scale: one element wrong",
    cache_flush = false,
    max_time = "1s"
)]
fn scale_off_by_one(pass: &mut wgpu::ComputePass<'_>, case: &Scale) {
    kernels::scale_with(pass, case, &case.off_by_one_element)
}

fn scale_cases(gpu: &Gpu) -> [Scale; 1] {
    [kernels::scale(gpu, 1_024, super::copy_both())]
}

/// What a child `faster::main()` run of one comparison printed, left (its
/// JSON reports) and returned.
struct Run {
    code: Option<i32>,
    stdout: String,
    reports: Vec<String>,
}

fn run_child(test: &str) -> Result<Run, Failed> {
    let temp = tempfile::tempdir()?;
    let files = temp.path().join(test);
    let mut command = Command::new(std::env::current_exe()?);
    command
        .args([test, "--exact", "--color", "never"])
        .env(AS_HARNESS, "1")
        .env("FASTER_OUTPUT_DIR", &files);
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("FASTER_") && name != AS_HARNESS {
            command.env_remove(&name);
        }
    }
    let output = command.output()?;
    let mut paths = Vec::new();
    collect_json(&files, &mut paths);
    let reports = paths
        .iter()
        .map(std::fs::read_to_string)
        .collect::<Result<_, _>>();
    Ok(Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        reports: reports?,
    })
}

fn collect_json(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_json(&path, found);
        } else if path
            .extension()
            .is_some_and(|extension| extension == "json")
        {
            found.push(path);
        }
    }
}

pub fn the_attribute_passes_through_the_harness() -> Result<(), Failed> {
    let run = run_child("attribute::faster_busy_once")?;
    let stdout = &run.stdout;
    ensure(run.code == Some(0), || {
        format!("exit {:?}:\n{stdout}", run.code)
    })?;
    for expected in [
        "faster: busy_once vs kernels::busy_twice",
        "GPU: ",
        "GFLOP/s",
        "test attribute::faster_busy_once ... ok",
    ] {
        ensure(stdout.contains(expected), || {
            format!("no `{expected}` in:\n{stdout}")
        })?;
    }
    let [report] = run.reports.as_slice() else {
        return Err(format!("expected one JSON report, found {}", run.reports.len()).into());
    };
    let document = valid_document(report)?;
    ensure(document["status"] == "passed", || document.to_string())?;
    ensure(document["result"]["gpu"]["adapter"].is_string(), || {
        document.to_string()
    })
}

pub fn the_attribute_fails_a_wrong_kernel_with_a_nonzero_exit() -> Result<(), Failed> {
    let run = run_child("attribute::faster_scale_off_by_one")?;
    let stdout = &run.stdout;
    ensure(run.code == Some(101), || {
        format!("exit {:?}:\n{stdout}", run.code)
    })?;
    ensure(
        stdout.contains("first difference at [100]: 30.000002 vs -1.0"),
        || stdout.clone(),
    )?;
    let [report] = run.reports.as_slice() else {
        return Err(format!("expected one JSON report, found {}", run.reports.len()).into());
    };
    let document = valid_document(report)?;
    ensure(document["status"] == "error", || document.to_string())
}
