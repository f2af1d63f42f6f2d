//! Running registered comparisons: one at a time under libtest
//! ([`run_test`], called by each generated `#[test]`), or all of them from a
//! `harness = false` target ([`main`]), with a libtest-like command line —
//! and what a run leaves behind: the report in the chosen format (`pretty`,
//! `terse`, `json`, `bench`), the JSON and SVG files under
//! `target/faster/`, the summary table, and GitHub's job summary.

use crate::ci;
use crate::clock::TimerKind;
use crate::config::{Config, parse_duration, parse_noise_floor, parse_processes};
use crate::error::Error;
use crate::json::{self, Document, Source};
use crate::probe;
use crate::registry::{Comparison, comparisons};
use crate::replicate;
use crate::report::{Report, format_ns};
use crate::style::{ColorChoice, Progress, Style, Tone};
use crate::terminal::{self, SummaryRow};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What running one comparison came to.
struct Outcome {
    result: Result<Report, Error>,
    /// Whether a timing verdict that misses the expectation fails the run.
    enforced: bool,
}

impl Outcome {
    fn passed(&self) -> bool {
        match &self.result {
            Ok(report) => report.passed() || !self.enforced,
            Err(_) => false,
        }
    }

    fn summary_row<'a>(&'a self, name: &'a str) -> SummaryRow<'a> {
        SummaryRow {
            name,
            result: self.result.as_ref().map_err(ToString::to_string),
            passed: self.passed(),
        }
    }
}

/// Runs one comparison with `base` as the run-wide configuration.
///
/// `child_arguments` is the command line that makes this binary run exactly
/// this comparison again, for `processes = N`.
fn execute(
    comparison: &Comparison,
    base: &Config,
    child_arguments: impl FnOnce() -> Vec<String>,
) -> Outcome {
    let enforced = !comparison.debug_build || env_flag("FASTER_ENFORCE");
    let config = comparison.settings.apply(base);
    let mut result = replicate::measure(comparison, &config, child_arguments);
    if let Ok(report) = &mut result
        && replicate::child_target().is_none()
    {
        probe::judge(report, &probe::probe(), env_flag("FASTER_STRICT"));
    }
    if let Ok(report) = &mut result
        && !enforced
    {
        report.warnings.push(
            "debug build: the timing verdict is reported, not enforced (outputs are); run \
             `cargo test --release` to enforce it, or set FASTER_ENFORCE=1"
                .into(),
        );
    }
    Outcome { result, enforced }
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|value| matches!(value.trim(), "1" | "true" | "yes"))
}

/// An exclusive lock on `<dir>/.lock`, held while a comparison runs.
///
/// The in-process lock keeps libtest's threads from timing concurrently, but
/// nextest runs every test in its own process, several at once: two
/// comparisons timing side by side would disturb each other. Processes that
/// share a target directory take turns here. Best effort: where the lock
/// file cannot be created, the comparison runs without it.
///
/// The holder writes its process id into the file. A process whose parent
/// holds the lock does not wait for it: the parent is waiting for that child
/// (a comparison replicated across processes runs its own binary again),
/// and waiting would deadlock both.
struct ProcessLock(File);

impl Drop for ProcessLock {
    fn drop(&mut self) {
        // No holder any more: a later child of this process is not ours.
        let _ = self.0.set_len(0);
        let _ = self.0.unlock();
    }
}

fn lock_across_processes(dir: &Path) -> Option<ProcessLock> {
    use std::io::{Read, Seek};
    std::fs::create_dir_all(dir).ok()?;
    let mut file = File::options()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(dir.join(".lock"))
        .ok()?;
    let mut holder = String::new();
    let _ = file.read_to_string(&mut holder);
    if holder.trim().parse::<u32>().ok() == parent_process_id() {
        return None;
    }
    file.lock().ok()?;
    let _ = file.set_len(0);
    let _ = file.rewind();
    let _ = write!(file, "{}", std::process::id());
    let _ = file.flush();
    Some(ProcessLock(file))
}

#[cfg(unix)]
fn parent_process_id() -> Option<u32> {
    Some(std::os::unix::process::parent_id())
}

#[cfg(not(unix))]
fn parent_process_id() -> Option<u32> {
    None
}

/// Where the attribute is and what it names.
fn source(comparison: &Comparison) -> Source {
    Source {
        name: comparison.display_name().to_string(),
        original: comparison.original.to_string(),
        file: comparison.file.to_string(),
        line: comparison.line,
        debug_assertions: comparison.debug_build,
    }
}

/// The heading the attribute gives a report (`sum_fast vs sum_naive`), for
/// a comparison that ended before it had one.
fn label(comparison: &Comparison) -> String {
    let name = comparison.display_name();
    let short = if comparison.named {
        name
    } else {
        name.rsplit("::").next().unwrap_or(name)
    };
    format!("{short} vs {}", comparison.original)
}

/// Where a comparison's files went, and what went wrong writing them.
#[derive(Debug, Default)]
struct Saved {
    json: Option<PathBuf>,
    svg: Option<PathBuf>,
    problems: Vec<String>,
}

impl Saved {
    /// `  plot: PATH` and `  data: PATH` lines (and any problem), paths
    /// relative to the current directory when under it.
    fn lines(&self, style: Style) -> String {
        let mut out = String::new();
        let shown = |path: &Path| {
            let relative = std::env::current_dir()
                .ok()
                .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf));
            relative
                .unwrap_or_else(|| path.to_path_buf())
                .display()
                .to_string()
        };
        if let Some(svg) = &self.svg {
            out.push_str(&style.paint(Tone::Dim, &format!("  plot: {}", shown(svg))));
            out.push('\n');
        }
        if let Some(json) = &self.json {
            out.push_str(&style.paint(Tone::Dim, &format!("  data: {}", shown(json))));
            out.push('\n');
        }
        for problem in &self.problems {
            out.push_str(&style.paint(Tone::Warn, &format!("  ⚠ {problem}")));
            out.push('\n');
        }
        out
    }
}

/// Writes `<dir>/<name>.json` (also for an error, so CI tools see every
/// comparison) and, with the `plots` feature, `<dir>/<name>.svg`; each
/// atomically.
fn save(comparison: &Comparison, outcome: &Outcome, dir: &Path) -> Saved {
    let stem = json::file_stem(comparison.name);
    let source = source(comparison);
    let label = label(comparison);
    let document = match &outcome.result {
        Ok(report) => Document::new(report, Some(&source), outcome.enforced),
        Err(error) => Document::error(&source.name, &label, Some(&source), error.to_string()),
    };
    let mut saved = Saved::default();
    let path = dir.join(format!("{stem}.json"));
    match json::write_json(&path, &document) {
        Ok(()) => saved.json = Some(path),
        Err(error) => saved
            .problems
            .push(format!("could not write {}: {error}", path.display())),
    }
    #[cfg(feature = "plots")]
    if let Ok(report) = &outcome.result {
        let path = dir.join(format!("{stem}.svg"));
        match report.write_svg(&path) {
            Ok(()) => saved.svg = Some(path),
            Err(error) => saved
                .problems
                .push(format!("could not write {}: {error}", path.display())),
        }
    }
    saved
}

/// `--color` as libtest received it (`cargo test -- --color never`), for
/// the reports the generated tests print.
fn color_from_args(arguments: impl IntoIterator<Item = String>) -> ColorChoice {
    let mut arguments = arguments.into_iter();
    let mut choice = ColorChoice::Auto;
    while let Some(argument) = arguments.next() {
        let value = match argument.strip_prefix("--color") {
            Some("") => arguments.next(),
            Some(inline) => inline.strip_prefix('=').map(str::to_string),
            None => None,
        };
        if let Some(parsed) = value
            .as_deref()
            .and_then(|value| ColorChoice::parse(value).ok())
        {
            choice = parsed;
        }
    }
    choice
}

/// Whether this process has started its table in the job summary: the
/// generated tests of one binary share one heading.
static STEP_SUMMARY_STARTED: Mutex<bool> = Mutex::new(false);

/// The command line that makes this test binary run exactly the current
/// libtest test again: libtest names each test's thread after the test.
fn libtest_child_arguments() -> Vec<String> {
    let test = std::thread::current()
        .name()
        .unwrap_or_default()
        .to_string();
    vec![
        test,
        "--exact".into(),
        "--nocapture".into(),
        "--test-threads=1".into(),
    ]
}

/// Runs one registered comparison inside a libtest `#[test]`: prints its
/// report and panics when outputs differ, user code panics, or (in an
/// optimized build, or with `FASTER_ENFORCE=1`) the verdict misses the
/// expectation. Writes its JSON and SVG under `target/faster/` and, on
/// GitHub Actions, a row of the job summary.
#[doc(hidden)]
pub fn run_test(comparison: &Comparison) {
    let base = Config::from_env().unwrap_or_else(|error| panic!("faster: {error}"));
    if replicate::child_target().is_some() {
        // A child of a replicated comparison: measure once and hand the
        // figures back; the parent judges, saves and prints.
        let _ = replicate::measure(comparison, &comparison.settings.apply(&base), Vec::new);
        return;
    }
    let dir = json::output_dir();
    let (outcome, saved) = {
        let _exclusive = lock_across_processes(&dir);
        let outcome = execute(comparison, &base, libtest_child_arguments);
        let saved = save(comparison, &outcome, &dir);
        (outcome, saved)
    };
    if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|path| !path.is_empty()) {
        let mut started = STEP_SUMMARY_STARTED
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut text = String::new();
        if !*started {
            text.push_str(&format!(
                "\n### faster: `{}`\n\n{}",
                ci::binary_name(),
                ci::STEP_SUMMARY_HEADER
            ));
        }
        text.push_str(&ci::step_summary_row(
            &outcome.summary_row(comparison.display_name()),
        ));
        *started |= ci::append(Path::new(&path), &text).is_ok();
    }
    let style = color_from_args(std::env::args()).for_stdout();
    match &outcome.result {
        Ok(report) if outcome.passed() => {
            // Written past libtest's capture on purpose: the figures are the
            // point of the test, also when it passes.
            let text = terminal::render(report, style) + &saved.lines(style);
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
        }
        Ok(report) => panic!(
            "{report}{}faster: {} is {}, but was expected to be {} (see {}:{})",
            saved.lines(Style::PLAIN),
            comparison.display_name(),
            report.verdict,
            report.expect.as_str().replace('_', " "),
            comparison.file,
            comparison.line,
        ),
        Err(error) => panic!(
            "faster: {} vs {} ({}:{}): {error}",
            comparison.display_name(),
            comparison.original,
            comparison.file,
            comparison.line,
        ),
    }
}

/// The entry point of a `harness = false` test or bench target: runs every
/// registered comparison (filtered by the command line), prints each report
/// and a summary, and exits non-zero when any fails.
///
/// ```no_run
/// // tests/speed.rs, with `[[test]] name = "speed" harness = false`
/// use my_crate as _; // link the library so its comparisons register
///
/// fn main() -> std::process::ExitCode {
///     faster_runtime::main()
/// }
/// # mod my_crate {}
/// ```
///
/// Flags: `FILTER...`, `--exact`, `--skip FILTER`, `--list [--format terse]`,
/// `--quick`, `--max-time DURATION`, `--noise-floor FRACTION`,
/// `--timer wall|cycles|thread-cpu`, `--format pretty|terse|json|bench`
/// (or `FASTER_FORMAT`), `--color auto|always|never`, `--ignored`,
/// `--include-ignored`; the other flags cargo, libtest and nextest pass
/// (`--bench` under `cargo bench`, `--nocapture`, ...) are accepted and
/// ignored.
pub fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let cli = Cli::parse(&arguments).and_then(|cli| cli.with_env(|name| std::env::var(name).ok()));
    match cli {
        Ok(cli) => {
            // Not locked for the whole run: user code may print from
            // threads of its own while a comparison runs.
            let mut out = std::io::stdout();
            let mut sink = Sink {
                out: &mut out,
                style: cli.color.for_stdout(),
                progress: Progress::on_stderr(),
                output_dir: Some(json::output_dir()),
                step_summary: std::env::var_os("GITHUB_STEP_SUMMARY")
                    .filter(|path| !path.is_empty())
                    .map(PathBuf::from),
                binary: ci::binary_name(),
            };
            run_all(&cli, &comparisons(), &mut sink)
        }
        Err(message) => {
            eprintln!("faster: {message}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

const USAGE: &str = "usage: <test binary> [FILTER...] [--exact] [--skip FILTER] [--list] [--quick] \
[--max-time DURATION] [--noise-floor FRACTION] [--timer wall|cycles|thread-cpu] \
[--format pretty|terse|json|bench] [--color auto|always|never] [--ignored | --include-ignored]";

/// How [`main`] prints results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    /// Each report, the summary table and libtest's result line.
    Pretty,
    /// libtest's `test NAME ... ok` lines and the summary table.
    Terse,
    /// One `faster/report/v1` JSON document per comparison and line, and
    /// nothing else on stdout.
    Json,
    /// libtest's bench lines, `test NAME/original ... bench: N ns/iter
    /// (+/- M)`, for benchmark-tracking tools.
    Bench,
}

impl Format {
    fn parse(text: &str) -> Result<Format, String> {
        match text {
            "pretty" => Ok(Format::Pretty),
            "terse" => Ok(Format::Terse),
            "json" => Ok(Format::Json),
            "bench" => Ok(Format::Bench),
            other => Err(format!(
                "--format {other} is not supported; use pretty, terse, json or bench"
            )),
        }
    }
}

/// The parsed command line of [`main`].
#[derive(Debug, Default, PartialEq)]
struct Cli {
    filters: Vec<String>,
    skips: Vec<String>,
    exact: bool,
    list: bool,
    ignored_only: bool,
    quick: bool,
    max_time: Option<Duration>,
    noise_floor: Option<f64>,
    timer: Option<TimerKind>,
    processes: Option<usize>,
    format: Option<Format>,
    color: ColorChoice,
}

/// Budget per comparison with `--quick`.
const QUICK_MAX_TIME: Duration = Duration::from_millis(500);

impl Cli {
    fn parse(arguments: &[String]) -> Result<Cli, String> {
        let mut cli = Cli::default();
        let mut quiet = false;
        let mut arguments = arguments.iter();
        while let Some(argument) = arguments.next() {
            let mut value = |flag: &str| {
                arguments
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("{flag} needs a value"))
            };
            let (flag, inline_value) = match argument.split_once('=') {
                Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_string())),
                _ => (argument.as_str(), None),
            };
            let mut value_of = |flag: &str| inline_value.clone().map_or_else(|| value(flag), Ok);
            match flag {
                "--exact" => cli.exact = true,
                "--list" => cli.list = true,
                "--ignored" => cli.ignored_only = true,
                "--quick" => cli.quick = true,
                "--skip" => cli.skips.push(value_of(flag)?),
                "--max-time" => cli.max_time = Some(parse_duration(&value_of(flag)?)?),
                "--noise-floor" => cli.noise_floor = Some(parse_noise_floor(&value_of(flag)?)?),
                "--timer" => cli.timer = Some(TimerKind::parse(&value_of(flag)?)?),
                "--processes" => cli.processes = Some(parse_processes(&value_of(flag)?)?),
                "--format" => cli.format = Some(Format::parse(&value_of(flag)?)?),
                "--color" => cli.color = ColorChoice::parse(&value_of(flag)?)?,
                // libtest's quiet mode is its terse format.
                "--quiet" | "-q" => quiet = true,
                // Flags cargo, libtest and nextest pass, which change nothing here.
                "--include-ignored"
                | "--bench"
                | "--test"
                | "--nocapture"
                | "--no-capture"
                | "--show-output"
                | "--report-time"
                | "--ensure-time"
                | "--shuffle"
                | "--force-run-in-process"
                | "--exclude-should-panic" => {}
                "--test-threads" | "--logfile" | "--shuffle-seed" | "-Z" => {
                    value_of(flag)?;
                }
                _ if flag.starts_with('-') => return Err(format!("unknown flag {argument}")),
                _ => cli.filters.push(argument.clone()),
            }
        }
        if quiet && cli.format.is_none() {
            cli.format = Some(Format::Terse);
        }
        Ok(cli)
    }

    /// `FASTER_FORMAT` where the command line did not choose a format.
    fn with_env(mut self, var: impl Fn(&str) -> Option<String>) -> Result<Cli, String> {
        if self.format.is_none()
            && let Some(format) = var("FASTER_FORMAT").filter(|format| !format.is_empty())
        {
            self.format =
                Some(Format::parse(&format).map_err(|reason| format!("FASTER_FORMAT: {reason}"))?);
        }
        Ok(self)
    }

    fn selects(&self, name: &str) -> bool {
        let matches = |filter: &String| {
            if self.exact {
                name == filter
            } else {
                name.contains(filter.as_str())
            }
        };
        (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skips.iter().any(matches)
    }

    /// The run-wide configuration: the environment, then these flags.
    fn config(&self) -> Result<Config, Error> {
        let mut config = Config::from_env()?;
        if self.quick {
            config.max_time = QUICK_MAX_TIME;
        }
        if let Some(max_time) = self.max_time {
            config.max_time = max_time;
        }
        if let Some(noise_floor) = self.noise_floor {
            config.noise_floor = noise_floor;
        }
        if let Some(timer) = self.timer {
            config.timer = timer;
        }
        if let Some(processes) = self.processes {
            config.processes = processes;
        }
        Ok(config)
    }
}

/// Where a run's output goes: stdout, the terminal's stderr, the report
/// directory and the job summary in [`main`]; buffers and a temporary
/// directory in tests.
struct Sink<'a> {
    out: &'a mut dyn Write,
    style: Style,
    progress: Progress,
    /// Where the JSON and SVG files go; `None` writes none.
    output_dir: Option<PathBuf>,
    /// `$GITHUB_STEP_SUMMARY`, when set.
    step_summary: Option<PathBuf>,
    /// The test binary's name, for the job summary's heading.
    binary: String,
}

fn run_all(cli: &Cli, registered: &[&'static Comparison], sink: &mut Sink<'_>) -> ExitCode {
    // Output to a closed pipe is not worth a panic; the exit code still
    // says how the run went.
    macro_rules! say {
        ($($arg:tt)*) => {{ let _ = writeln!(sink.out, $($arg)*); }};
    }
    // No comparison is ignored, so `--ignored` selects none.
    let selected: Vec<&'static Comparison> = registered
        .iter()
        .copied()
        .filter(|comparison| !cli.ignored_only && cli.selects(comparison.display_name()))
        .collect();
    let format = cli.format.unwrap_or(Format::Pretty);
    if cli.list {
        for comparison in &selected {
            say!("{}: test", comparison.display_name());
        }
        if format == Format::Pretty {
            say!("\n{} tests, 0 benchmarks", selected.len());
        }
        return ExitCode::SUCCESS;
    }
    if registered.is_empty() {
        eprintln!("{NOTHING_REGISTERED}");
        return ExitCode::from(101);
    }
    let base = match cli.config() {
        Ok(config) => config,
        Err(error) => {
            eprintln!("faster: {error}");
            return ExitCode::from(2);
        }
    };

    let started = Instant::now();
    if format != Format::Json {
        let noun = if selected.len() == 1 {
            "comparison"
        } else {
            "comparisons"
        };
        say!("\nrunning {} {noun}", selected.len());
    }
    let bench_width = ci::bench_width(selected.iter().map(|comparison| comparison.display_name()));
    let mut outcomes: Vec<(&Comparison, Outcome)> = Vec::with_capacity(selected.len());
    for &comparison in &selected {
        let budget = comparison.settings.apply(&base).max_time;
        sink.progress.start(
            comparison.display_name(),
            &format_ns(budget.as_nanos() as f64),
        );
        let (outcome, saved) = {
            let _exclusive = sink.output_dir.as_deref().and_then(lock_across_processes);
            let outcome = execute(comparison, &base, || {
                vec![comparison.display_name().to_string(), "--exact".into()]
            });
            let saved = match &sink.output_dir {
                Some(dir) => save(comparison, &outcome, dir),
                None => Saved::default(),
            };
            (outcome, saved)
        };
        sink.progress.finish();

        let name = comparison.display_name();
        let status = if outcome.passed() {
            sink.style.paint(Tone::Good, "ok")
        } else {
            sink.style.paint(Tone::Bad, "FAILED")
        };
        match format {
            Format::Pretty => {
                let text = match &outcome.result {
                    Ok(report) => terminal::render(report, sink.style),
                    Err(error) => format!(
                        "faster: {}\n{}\n",
                        sink.style.paint(Tone::Bold, &label(comparison)),
                        sink.style.paint(Tone::Bad, &format!("  error: {error}"))
                    ),
                };
                let _ = write!(sink.out, "{text}{}", saved.lines(sink.style));
                say!("test {name} ... {status}\n");
            }
            Format::Terse => say!("test {name} ... {status}"),
            Format::Json => {
                let source = source(comparison);
                let label = label(comparison);
                let document = match &outcome.result {
                    Ok(report) => Document::new(report, Some(&source), outcome.enforced),
                    Err(error) => {
                        Document::error(&source.name, &label, Some(&source), error.to_string())
                    }
                };
                say!("{}", document.to_line());
            }
            Format::Bench => match &outcome.result {
                Ok(report) => {
                    let _ = write!(sink.out, "{}", ci::bench_lines(name, report, bench_width));
                }
                Err(error) => {
                    say!("test {name} ... {status}");
                    eprintln!("faster: {name}: {error}");
                }
            },
        }
        if matches!(format, Format::Json | Format::Bench | Format::Terse) {
            for problem in &saved.problems {
                eprintln!("faster: {name}: {problem}");
            }
        }
        outcomes.push((comparison, outcome));
    }

    let rows: Vec<SummaryRow<'_>> = outcomes
        .iter()
        .map(|(comparison, outcome)| outcome.summary_row(comparison.display_name()))
        .collect();
    if let Some(path) = &sink.step_summary
        && !rows.is_empty()
        && let Err(error) = ci::append(path, &ci::step_summary(&sink.binary, &rows))
    {
        eprintln!(
            "faster: could not append to GITHUB_STEP_SUMMARY ({}): {error}",
            path.display()
        );
    }
    if format == Format::Json {
        return exit_code(&rows);
    }
    // Sections are separated by one blank line. Pretty output ends each
    // comparison with one already; terse and bench lines do not.
    if format != Format::Pretty || rows.is_empty() {
        say!();
    }
    if format == Format::Terse && !rows.is_empty() || format == Format::Pretty && rows.len() > 1 {
        say!("{}", terminal::summary(&rows, sink.style));
    }
    let failures: Vec<&str> = rows
        .iter()
        .filter(|row| !row.passed)
        .map(|row| row.name)
        .collect();
    if !failures.is_empty() {
        say!("failures:");
        for name in &failures {
            say!("    {name}");
        }
        say!();
    }
    let measured = if format == Format::Bench {
        rows.len()
    } else {
        0
    };
    let passed = if format == Format::Bench {
        0
    } else {
        rows.len() - failures.len()
    };
    say!(
        "test result: {}. {passed} passed; {} failed; 0 ignored; {measured} measured; {} filtered out; \
         finished in {:.2}s\n",
        if failures.is_empty() {
            sink.style.paint(Tone::Good, "ok")
        } else {
            sink.style.paint(Tone::Bad, "FAILED")
        },
        failures.len(),
        registered.len() - selected.len(),
        started.elapsed().as_secs_f64(),
    );
    exit_code(&rows)
}

fn exit_code(rows: &[SummaryRow<'_>]) -> ExitCode {
    if rows.iter().all(|row| row.passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(101)
    }
}

const NOTHING_REGISTERED: &str = "faster: no comparison is registered in this binary.
  A test or bench target only sees the comparisons of the crates it links. If they live in
  your library, link it from this target with `use the_crate as _;` (the_crate: your
  library's name). Comparisons written as `#[cfg_attr(test, faster::compare(...))]` exist
  only in the library's own unit-test binary (`cargo test --lib`); to run them from this
  target, apply the attribute without `cfg_attr(test, ...)`.";

/// The JSON Schema checker of the integration tests, so the harness's
/// documents are judged by the same one.
#[cfg(test)]
#[path = "../tests/support/schema.rs"]
mod schema_check;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Expect;
    use crate::registry::Settings;
    use crate::report::fixtures;
    use crate::style::{WIDTH, display_width};
    use crate::verdict::Verdict;

    fn parse(arguments: &[&str]) -> Result<Cli, String> {
        Cli::parse(&arguments.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn filters_and_flags() {
        let cli = parse(&[
            "sum",
            "--exact",
            "--max-time",
            "250ms",
            "--noise-floor=0.1",
            "--timer",
            "cycles",
        ])
        .unwrap();
        assert_eq!(cli.timer, Some(TimerKind::Cycles));
        assert_eq!(cli.filters, vec!["sum"]);
        assert!(cli.exact);
        assert_eq!(cli.max_time, Some(Duration::from_millis(250)));
        assert_eq!(cli.noise_floor, Some(0.1));
    }

    #[test]
    fn the_flags_cargo_and_nextest_pass_are_accepted() {
        let cli = parse(&[
            "--bench",
            "--nocapture",
            "--test-threads",
            "1",
            "--show-output",
        ])
        .unwrap();
        assert_eq!(cli, Cli::default());
        let cli = parse(&["--list", "--format", "terse", "--ignored"]).unwrap();
        assert!(cli.list && cli.ignored_only);
        assert_eq!(cli.format, Some(Format::Terse));
        let cli = parse(&[
            "--exact",
            "sum::sum_fast",
            "--nocapture",
            "--include-ignored",
        ])
        .unwrap();
        assert!(cli.exact && !cli.ignored_only);
        assert_eq!(parse(&["-q"]).unwrap().format, Some(Format::Terse));
    }

    #[test]
    fn formats_and_colours() {
        assert_eq!(
            parse(&["--format", "json"]).unwrap().format,
            Some(Format::Json)
        );
        assert_eq!(
            parse(&["--format=bench"]).unwrap().format,
            Some(Format::Bench)
        );
        assert_eq!(
            parse(&["--color", "always"]).unwrap().color,
            ColorChoice::Always
        );
        assert_eq!(parse(&["--color=never"]).unwrap().color, ColorChoice::Never);
        assert!(
            parse(&["--format", "xml"])
                .unwrap_err()
                .contains("pretty, terse, json or bench")
        );
        assert!(
            parse(&["--color", "maybe"])
                .unwrap_err()
                .contains("auto, always or never")
        );
        let args = |list: &[&str]| list.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        assert_eq!(
            color_from_args(args(&["bin", "--color", "never"])),
            ColorChoice::Never
        );
        assert_eq!(
            color_from_args(args(&["bin", "--color=always", "x"])),
            ColorChoice::Always
        );
        assert_eq!(
            color_from_args(args(&["bin", "--nocapture"])),
            ColorChoice::Auto
        );
    }

    #[test]
    fn processes_take_turns_but_a_child_of_the_holder_does_not_wait() {
        let dir = std::env::temp_dir().join(format!("faster-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let held = lock_across_processes(&dir).expect("the lock is free");
        let holder = std::fs::read_to_string(dir.join(".lock")).unwrap();
        assert_eq!(holder, std::process::id().to_string());
        // Another process must wait: a second descriptor cannot lock.
        let other = File::options().write(true).open(dir.join(".lock")).unwrap();
        assert!(other.try_lock().is_err());
        drop(held);
        assert!(other.try_lock().is_ok());
        other.unlock().unwrap();
        assert_eq!(std::fs::read_to_string(dir.join(".lock")).unwrap(), "");

        // A child of the holder (this test plays the child: it writes its
        // parent's id as the holder's) goes ahead without the lock.
        if let Some(parent) = parent_process_id() {
            std::fs::write(dir.join(".lock"), parent.to_string()).unwrap();
            assert!(lock_across_processes(&dir).is_none());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn faster_format_applies_unless_the_flag_chose() {
        let env = |value: &'static str| {
            move |name: &str| (name == "FASTER_FORMAT").then(|| value.to_string())
        };
        assert_eq!(
            parse(&[]).unwrap().with_env(env("json")).unwrap().format,
            Some(Format::Json)
        );
        let flag_wins = parse(&["--format", "pretty"])
            .unwrap()
            .with_env(env("json"))
            .unwrap();
        assert_eq!(flag_wins.format, Some(Format::Pretty));
        assert_eq!(parse(&[]).unwrap().with_env(env("")).unwrap().format, None);
        let error = parse(&[]).unwrap().with_env(env("yaml")).unwrap_err();
        assert!(
            error.starts_with("FASTER_FORMAT: --format yaml is not supported"),
            "{error}"
        );
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        assert_eq!(
            parse(&["--frobnicate"]).unwrap_err(),
            "unknown flag --frobnicate"
        );
        assert_eq!(
            parse(&["--max-time"]).unwrap_err(),
            "--max-time needs a value"
        );
        assert!(
            parse(&["--noise-floor", "5"])
                .unwrap_err()
                .contains("between 0 and 1")
        );
    }

    #[test]
    fn selection_by_substring_exact_name_and_skip() {
        let cli = parse(&["sum"]).unwrap();
        assert!(cli.selects("sum::sum_fast") && !cli.selects("sort::quick"));
        let cli = parse(&["sum::sum_fast", "--exact"]).unwrap();
        assert!(cli.selects("sum::sum_fast") && !cli.selects("sum::sum_fast2"));
        let cli = parse(&["--skip", "slow"]).unwrap();
        assert!(cli.selects("sum::fast") && !cli.selects("sum::slow"));
    }

    #[test]
    fn run_wide_flags_override_the_environment_defaults() {
        let config = parse(&["--quick"]).unwrap().config().unwrap();
        assert_eq!(config.max_time, QUICK_MAX_TIME);
        let config = parse(&["--quick", "--max-time", "2s"])
            .unwrap()
            .config()
            .unwrap();
        assert_eq!(config.max_time, Duration::from_secs(2));
    }

    // Comparisons with canned reports: the harness's output without timing.

    fn faster_report(_: &Config) -> Result<Report, Error> {
        Ok(fixtures::three_inputs())
    }

    fn slower_report(_: &Config) -> Result<Report, Error> {
        Ok(fixtures::report(
            0.8,
            (0.78, 0.82),
            Verdict::Slower,
            Expect::Faster,
        ))
    }

    fn mismatch(_: &Config) -> Result<Report, Error> {
        Err(Error::Mismatch {
            input: 1,
            input_debug: None,
            original: "501501".into(),
            candidate: "500500".into(),
        })
    }

    const fn comparison(
        name: &'static str,
        run: fn(&Config) -> Result<Report, Error>,
    ) -> Comparison {
        Comparison {
            name,
            named: false,
            original: "naive",
            file: "src/lib.rs",
            line: 7,
            settings: Settings::NONE,
            debug_build: false,
            run,
        }
    }

    static FAST: Comparison = comparison("demo::dup::has_duplicate_sorted", faster_report);
    static SLOW: Comparison = comparison("demo::sum::sum_slow", slower_report);
    static WRONG: Comparison = comparison("demo::sum::sum_wrong", mismatch);

    struct Ran {
        code: ExitCode,
        stdout: String,
        dir: PathBuf,
        summary: String,
    }

    fn run(arguments: &[&str], registered: &[&'static Comparison], color: bool) -> Ran {
        static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "faster-harness-{}-{}",
            std::process::id(),
            RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let summary_path = dir.join("step-summary.md");
        let cli = parse(arguments).unwrap();
        let mut out = Vec::new();
        let code = {
            let mut sink = Sink {
                out: &mut out,
                style: Style { color },
                progress: Progress::disabled(),
                output_dir: Some(dir.join("faster")),
                step_summary: Some(summary_path.clone()),
                binary: "speed".into(),
            };
            run_all(&cli, registered, &mut sink)
        };
        Ran {
            code,
            stdout: String::from_utf8(out).unwrap(),
            summary: std::fs::read_to_string(&summary_path).unwrap_or_default(),
            dir,
        }
    }

    #[test]
    fn pretty_output_has_reports_files_a_summary_and_libtests_result_line() {
        let ran = run(&[], &[&FAST, &SLOW, &WRONG], false);
        assert_eq!(ran.code, ExitCode::from(101));
        let text = &ran.stdout;
        assert!(text.contains("running 3 comparisons"), "{text}");
        assert!(
            text.contains("faster: has_duplicate_sorted vs has_duplicate_naive"),
            "{text}"
        );
        assert!(
            text.contains("test dup::has_duplicate_sorted ... ok"),
            "{text}"
        );
        assert!(text.contains("test sum::sum_slow ... FAILED"), "{text}");
        assert!(
            text.contains("  error: the candidate returns a different result for input 1"),
            "{text}"
        );
        assert!(
            text.contains("faster: 3 comparisons: 1 passed, 2 failed"),
            "{text}"
        );
        assert!(
            text.contains("test result: FAILED. 1 passed; 2 failed;"),
            "{text}"
        );
        #[cfg(feature = "plots")]
        assert!(text.contains("plot: "), "{text}");
        assert!(text.contains("data: "), "{text}");
        // Paths and libtest's own result line are as long as they are.
        let ours = |line: &&str| {
            !line.contains("plot: ")
                && !line.contains("data: ")
                && !line.starts_with("test result:")
        };
        for line in text.lines().filter(ours) {
            assert!(
                display_width(line) <= WIDTH,
                "{} columns: {line}",
                display_width(line)
            );
        }
        assert!(
            !text.contains('\x1b'),
            "escape codes without colour:\n{text}"
        );
        // Every comparison left its JSON, the failed one included.
        for stem in [
            "demo.dup.has_duplicate_sorted",
            "demo.sum.sum_slow",
            "demo.sum.sum_wrong",
        ] {
            let path = ran.dir.join("faster").join(format!("{stem}.json"));
            let document: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert_eq!(document["schema"], "faster/report/v1");
        }
        let _ = std::fs::remove_dir_all(&ran.dir);
    }

    #[test]
    fn colour_only_when_asked() {
        let ran = run(&["has_duplicate"], &[&FAST], true);
        assert!(ran.stdout.contains("\x1b[32m"), "{}", ran.stdout);
        let _ = std::fs::remove_dir_all(&ran.dir);
    }

    #[test]
    fn json_format_prints_one_document_per_line_and_nothing_else() {
        let ran = run(&["--format", "json"], &[&FAST, &WRONG], false);
        assert_eq!(ran.code, ExitCode::from(101));
        let lines: Vec<&str> = ran.stdout.lines().collect();
        assert_eq!(lines.len(), 2, "{}", ran.stdout);
        let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
        assert_eq!(first["name"], "dup::has_duplicate_sorted");
        assert_eq!(first["status"], "passed");
        assert_eq!(first["source"]["line"], 7);
        let second: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
        let schema: serde_json::Value = serde_json::from_str(schema_check::REPORT_SCHEMA).unwrap();
        for document in [&first, &second] {
            let problems = schema_check::violations(&schema, document);
            assert!(problems.is_empty(), "{problems:?}\n{document}");
        }
        assert_eq!(second["status"], "error");
        assert!(second["result"].is_null());
        assert!(second["error"].as_str().unwrap().contains("input 1"));
        let _ = std::fs::remove_dir_all(&ran.dir);
    }

    #[test]
    fn bench_format_prints_libtest_bench_lines() {
        let ran = run(&["--format", "bench", "--bench"], &[&FAST, &SLOW], false);
        let pattern = |line: &&str| {
            // What github-action-benchmark's `cargo` tool matches.
            line.starts_with("test ")
                && line.contains(" ... bench: ")
                && line.ends_with(')')
                && line.contains(" ns/iter (+/- ")
        };
        let bench: Vec<&str> = ran.stdout.lines().filter(pattern).collect();
        assert_eq!(bench.len(), 4, "{}", ran.stdout);
        assert!(
            bench[0].starts_with("test dup::has_duplicate_sorted/original  ... bench: "),
            "{}",
            bench[0]
        );
        assert!(
            bench[1].starts_with("test dup::has_duplicate_sorted/candidate ... bench: "),
            "{}",
            bench[1]
        );
        assert!(
            ran.stdout
                .contains("test result: FAILED. 0 passed; 1 failed; 0 ignored; 2 measured;"),
            "{}",
            ran.stdout
        );
        let _ = std::fs::remove_dir_all(&ran.dir);
    }

    #[test]
    fn the_job_summary_gets_a_markdown_table() {
        let ran = run(&["--format", "terse"], &[&FAST, &WRONG], false);
        let summary = &ran.summary;
        assert!(
            summary.contains("### faster: `speed` — 2 comparisons, 1 failed"),
            "{summary}"
        );
        assert!(
            summary.contains("| comparison | original | candidate | speedup [99% CI] | verdict |"),
            "{summary}"
        );
        assert!(summary.contains("| `dup::has_duplicate_sorted` | 405 µs | 44.0 µs | 8.95x faster [8.78x – 9.11x] | ✅ faster |"), "{summary}");
        assert!(summary.contains("| `sum::sum_wrong` | | | | ❌ error: the candidate returns a different result for input 1 |"), "{summary}");
        // Terse: result lines and the summary table, no reports.
        assert!(!ran.stdout.contains("⏱️"), "{}", ran.stdout);
        assert!(
            ran.stdout.contains("test dup::has_duplicate_sorted ... ok"),
            "{}",
            ran.stdout
        );
        assert!(
            ran.stdout
                .contains("faster: 2 comparisons: 1 passed, 1 failed"),
            "{}",
            ran.stdout
        );
        let _ = std::fs::remove_dir_all(&ran.dir);
    }

    #[test]
    fn listing_is_what_nextest_reads() {
        let ran = run(&["--list", "--format", "terse"], &[&FAST, &SLOW], false);
        assert_eq!(
            ran.stdout,
            "dup::has_duplicate_sorted: test\nsum::sum_slow: test\n"
        );
        let ran = run(
            &["--list", "--format", "terse", "--ignored"],
            &[&FAST, &SLOW],
            false,
        );
        assert_eq!(ran.stdout, "");
        let ran = run(&["--list"], &[&FAST], false);
        assert_eq!(
            ran.stdout,
            "dup::has_duplicate_sorted: test\n\n1 tests, 0 benchmarks\n"
        );
    }

    #[test]
    fn one_exact_comparison_as_nextest_runs_it() {
        let ran = run(
            &["--exact", "dup::has_duplicate_sorted", "--nocapture"],
            &[&FAST, &SLOW],
            false,
        );
        assert_eq!(ran.code, ExitCode::SUCCESS);
        assert!(ran.stdout.contains(
            "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 1 filtered out"
        ));
        // One comparison: its report is the summary.
        assert!(!ran.stdout.contains("comparisons:"), "{}", ran.stdout);
        let _ = std::fs::remove_dir_all(&ran.dir);
    }
}
