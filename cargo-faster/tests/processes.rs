//! Nothing a run starts outlives it: a real `cargo faster --against` on a
//! fixture repository, ended by Ctrl-C (SIGINT to its process group),
//! SIGTERM and SIGKILL while a server is stuck in a tracked function that
//! never returns (`loop {}` at full CPU, never reading its input), while
//! cargo builds (rustc running), and while a layout is relinked (the
//! linker running). Each time, no process the run started (each carries a
//! marker in its environment, found under `/proc`: cargo's rustc and a
//! linker's `collect2` and `ld` included) runs 2 s later, and no file it
//! was writing is left; the next run removes what a killed run left.
//!
//! Timing is not what is tested here (the function says `expect =
//! report`).
#![cfg(target_os = "linux")]

mod common;

use common::Fixture;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The base commit's library: `spins` never returns where `FIXTURE_SPIN`
/// is set (in every process the run starts, its servers among them).
const BASE: &str = r#"
#[cfg_attr(test, faster::track(inputs = numbers, expect = report, max_time = "1s"))]
pub fn spins(n: &u64) -> u64 {
    if std::env::var_os("FIXTURE_SPIN").is_some() {
        loop {
            std::hint::spin_loop();
        }
    }
    n * 3
}

#[cfg(test)]
fn numbers() -> Vec<u64> {
    vec![100, 1_000]
}
"#;

/// The variable every process of a run inherits, set to a value of each
/// run's own.
const MARKER: &str = "FASTER_PROCESSES_TEST_RUN";

/// How long a signalled run's processes have to be gone.
const GONE_WITHIN: Duration = Duration::from_secs(2);

impl Fixture {
    /// The repository with two commits, `spins` computing alike in other
    /// words in the second, checked out.
    fn new() -> Fixture {
        let fixture = Fixture::repository("cargo-faster-processes-");
        fixture.write("Cargo.toml", &common::manifest("processes_fixture"));
        fixture.write("src/lib.rs", BASE);
        fixture.commit("base");
        fixture.write("src/lib.rs", &BASE.replace("n * 3", "n + n + n"));
        fixture.commit("head");
        fixture
    }

    /// `cargo faster --against HEAD~1` started in the fixture, in a process
    /// group of its own (as a shell starts a job), its processes marked
    /// with `marker`; `spin` sets `FIXTURE_SPIN`.
    fn start(&self, marker: &str, spin: bool) -> Child {
        let mut command = self.command(&["--against", "HEAD~1"], &target());
        command
            .env(MARKER, marker)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0);
        if spin {
            command.env("FIXTURE_SPIN", "1");
        }
        command.spawn().unwrap()
    }
}

/// The target directory the revision tests build their fixtures in: only
/// the first of them builds `faster` for it.
fn target() -> PathBuf {
    common::target("revisions-fixture")
}

/// A process of a run: its id and command line.
#[derive(Debug)]
struct Marked {
    id: u32,
    command_line: String,
}

/// Every process running now (not a zombie) whose environment holds
/// `MARKER=marker`.
fn marked(marker: &str) -> Vec<Marked> {
    let wanted = format!("{MARKER}={marker}");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(id) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(environment) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if !environment
            .split(|byte| *byte == 0)
            .any(|variable| variable == wanted.as_bytes())
        {
            continue;
        }
        if state(id).is_none_or(|state| state == 'Z') {
            continue;
        }
        let command_line = std::fs::read(entry.path().join("cmdline"))
            .map(|bytes| String::from_utf8_lossy(&bytes).replace('\0', " "))
            .unwrap_or_default();
        found.push(Marked { id, command_line });
    }
    found
}

/// The state letter of process `id` (`Z`: a zombie), and its CPU time in
/// clock ticks spent in user code.
fn stat(id: u32) -> Option<(char, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{id}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state (3rd field of the line), ..., utime (14th).
    Some((
        fields.first()?.chars().next()?,
        fields.get(11)?.parse().ok()?,
    ))
}

fn state(id: u32) -> Option<char> {
    stat(id).map(|(state, _)| state)
}

/// Polls every 20 ms for `found` to give something, failing after
/// `within` with `what`, and `run`'s stderr if it ended.
fn poll<T>(
    within: Duration,
    what: &str,
    run: &mut Child,
    mut found: impl FnMut() -> Option<T>,
) -> T {
    let deadline = Instant::now() + within;
    loop {
        if let Some(found) = found() {
            return found;
        }
        if let Ok(Some(status)) = run.try_wait() {
            let mut said = String::new();
            if let Some(mut stderr) = run.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut stderr, &mut said);
            }
            panic!("the run ended ({status}) before {what}:\n{said}");
        }
        assert!(Instant::now() < deadline, "no {what} within {within:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `signal` (a name `kill` knows) to `target` (`-GROUP` or `PID`).
fn send(signal: &str, target: &str) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), "--", target])
        .status()
        .unwrap();
    assert!(status.success(), "kill -{signal} {target}");
}

/// How a run is ended, and the signal it must end by.
#[derive(Debug, Clone, Copy)]
enum Ending {
    /// Ctrl-C: SIGINT to the run's process group.
    CtrlC,
    /// SIGTERM to `cargo faster` alone.
    Term,
    /// SIGKILL to `cargo faster` alone.
    Kill,
}

impl Ending {
    fn signal(self) -> i32 {
        match self {
            Ending::CtrlC => 2,
            Ending::Term => 15,
            Ending::Kill => 9,
        }
    }

    fn send(self, run: &mut Child) {
        let id = run.id();
        match self {
            Ending::CtrlC => send("INT", &format!("-{id}")),
            Ending::Term => send("TERM", &id.to_string()),
            Ending::Kill => run.kill().unwrap(),
        }
    }
}

/// Ends `run` (marked `marker`) as `ending` says; then it ended by that
/// signal, no process it started runs `GONE_WITHIN` later, and, where it
/// could clean up (not SIGKILL), no file named after it as a relink's
/// (`.new-PID`) is left. Its process id, for what SIGKILL leaves.
fn end_and_check(mut run: Child, marker: &str, ending: Ending, stage: &str) -> u32 {
    ending.send(&mut run);
    let status = run.wait().unwrap();
    let mut said = String::new();
    if let Some(mut stderr) = run.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut stderr, &mut said);
    }
    assert_eq!(
        status.signal(),
        Some(ending.signal()),
        "{ending:?} at {stage}: {status}\n{said}"
    );
    if !matches!(ending, Ending::Kill) {
        assert!(
            said.contains("cargo faster: interrupted: "),
            "{ending:?} at {stage}: {said}"
        );
    }
    let ended = Instant::now();
    loop {
        let left = marked(marker);
        if left.is_empty() {
            break;
        }
        assert!(
            ended.elapsed() < GONE_WITHIN,
            "{ending:?} at {stage}: still running {GONE_WITHIN:?} after the run ended: \
             {left:#?}\n{said}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    if !matches!(ending, Ending::Kill) {
        let left = staged_by(run.id());
        assert!(
            left.is_empty(),
            "{ending:?} at {stage}: left {left:?}\n{said}"
        );
    }
    run.id()
}

/// The files a relink by process `run` was writing (`.new-PID`) that are
/// still there.
fn staged_by(run: u32) -> Vec<PathBuf> {
    files_named(&target().join("faster"), &format!(".new-{run}"))
}

/// Every file under `folder` whose name contains `part`.
fn files_named(folder: &Path, part: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                pending.push(path);
            } else if entry.file_name().to_string_lossy().contains(part) {
                found.push(path);
            }
        }
    }
    found
}

/// The folders of paired layouts of the fixture's current test binary.
fn paired_folders() -> Vec<PathBuf> {
    let deps = target().join("faster/build/release/deps");
    std::fs::read_dir(&deps)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name.starts_with("processes_fixture-") && name.ends_with(".layouts")
        })
        .flat_map(|layouts| {
            std::fs::read_dir(layouts.path())
                .into_iter()
                .flatten()
                .flatten()
        })
        .filter(|entry| entry.file_name().to_string_lossy().starts_with("paired-"))
        .map(|entry| entry.path())
        .collect()
}

/// A process id no process has now: one of a child that has ended.
fn ended_process() -> u32 {
    let mut child = Command::new("true").spawn().unwrap();
    child.wait().unwrap();
    child.id()
}

#[test]
fn nothing_a_run_started_outlives_it_however_it_ends() {
    let fixture = Fixture::new();
    // A whole run first: both revisions built, their layouts made.
    let whole = fixture.start("whole", false).wait_with_output().unwrap();
    assert!(
        whole.status.success(),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );

    // Measuring: a server stuck in `spins`, at full CPU.
    for ending in [Ending::CtrlC, Ending::Term, Ending::Kill] {
        let marker = format!("measuring-{ending:?}");
        let mut run = fixture.start(&marker, true);
        poll(
            Duration::from_secs(120),
            "server stuck in `spins`",
            &mut run,
            || {
                marked(&marker).into_iter().find(|process| {
                    process.command_line.contains("faster_track_spins")
                        && stat(process.id).is_some_and(|(_, ticks)| ticks >= 30)
                })
            },
        );
        end_and_check(run, &marker, ending, "measuring");
    }

    // Building: signalled as soon as cargo runs rustc on the fixture,
    // changed so that it is compiled again each time.
    for (round, ending) in [Ending::CtrlC, Ending::Term, Ending::Kill]
        .into_iter()
        .enumerate()
    {
        fixture.write(
            "src/lib.rs",
            &format!(
                "{}\n// changed {round}\n",
                BASE.replace("n * 3", "n + n + n")
            ),
        );
        let marker = format!("building-{ending:?}");
        let mut run = fixture.start(&marker, false);
        poll(Duration::from_secs(120), "rustc", &mut run, || {
            marked(&marker).into_iter().find(|process| {
                process
                    .command_line
                    .contains("--crate-name processes_fixture")
            })
        });
        end_and_check(run, &marker, ending, "building");
    }

    // Relinking: signalled as soon as a linker writes a layout, the
    // layouts made before removed so that they are made again.
    let mut killed_relinking = None;
    for ending in [Ending::CtrlC, Ending::Term, Ending::Kill] {
        for folder in paired_folders() {
            std::fs::remove_dir_all(folder).unwrap();
        }
        let marker = format!("relinking-{ending:?}");
        let mut run = fixture.start(&marker, false);
        poll(Duration::from_secs(300), "linker", &mut run, || {
            marked(&marker)
                .into_iter()
                .find(|process| process.command_line.contains(".new-"))
        });
        let id = end_and_check(run, &marker, ending, "relinking");
        if matches!(ending, Ending::Kill) {
            killed_relinking = Some(id);
        }
    }

    // What a killed relink left, in its pairing's folder: the next run
    // removes it, and keeps what it made.
    let folders = paired_folders();
    assert!(!folders.is_empty(), "the whole run made paired layouts");
    let gone = ended_process();
    let abandoned: Vec<PathBuf> = folders
        .iter()
        .flat_map(|folder| {
            [
                folder.join(format!("layout-1.new-{gone}")),
                folder.join(format!("layout-1.new-{gone}.lld-tmp")),
            ]
        })
        .collect();
    for file in &abandoned {
        std::fs::write(file, [0; 4096]).unwrap();
    }
    let next = fixture.start("next", false).wait_with_output().unwrap();
    assert!(
        next.status.success(),
        "{}",
        String::from_utf8_lossy(&next.stderr)
    );
    let left: Vec<&PathBuf> = abandoned.iter().filter(|file| file.exists()).collect();
    assert!(left.is_empty(), "left {left:?}");
    let killed = killed_relinking.expect("a run was killed relinking");
    let left = staged_by(killed);
    assert!(
        left.is_empty(),
        "left by the run killed relinking: {left:?}"
    );
    assert!(
        folders
            .iter()
            .any(|folder| folder.join("layout-1").exists()),
        "{folders:?}"
    );
}
