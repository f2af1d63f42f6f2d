//! Where and when a measurement was taken: CPU, operating system,
//! compiler, build profile, CI run, what about the machine may disturb
//! timing, and the time of day, as the JSON report records them.
//!
//! Everything here is read once per process and only from sources that are
//! cheap and never secret: `/proc` and `/etc/os-release` on Linux, what the
//! build script recorded, and a fixed list of CI variables (commit, branch,
//! run and runner names — never tokens).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The machine and build a report was measured on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Environment {
    /// The version of `faster` that measured.
    pub faster_version: String,
    /// The machine's host name, when the OS says: which machine of a CI
    /// matrix measured (absent from documents written before it).
    #[serde(default)]
    pub host: Option<String>,
    /// The CPU's model name (`/proc/cpuinfo`), when the OS says.
    pub cpu: Option<String>,
    /// Logical CPUs this process may use.
    pub logical_cpus: Option<usize>,
    /// `std::env::consts::OS`: `linux`, `macos`, `windows`, ...
    pub os: String,
    /// The distribution's name and version (`PRETTY_NAME` of
    /// `/etc/os-release`), when there is one.
    pub os_version: Option<String>,
    /// The kernel release (`/proc/sys/kernel/osrelease`), when readable.
    pub kernel: Option<String>,
    /// `std::env::consts::ARCH`: `x86_64`, `aarch64`, ...
    pub arch: String,
    /// `rustc --version` of the compiler that built `faster-runtime` (the
    /// same toolchain that built the code under test), recorded by its
    /// build script.
    pub rustc: Option<String>,
    /// The cargo profile family of the build, `release` or `debug`, as cargo
    /// told `faster-runtime`'s build script (`cargo bench` and
    /// `cargo test --release` build `release`).
    pub profile: Option<String>,
    /// The CI run, when one of the known CI variables is set.
    pub ci: Option<CiRun>,
    /// What about this machine may disturb timing (a frequency governor,
    /// turbo boost, a debugger, valgrind, a single core), each with what to
    /// do: said once per run, not with every comparison.
    pub machine: Vec<String>,
}

/// A CI run, named by provider, with the variables that identify it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CiRun {
    /// `github_actions`, `gitlab`, `buildkite`, `circleci`,
    /// `azure_pipelines`, `jenkins`, or `unknown` when only `CI` is set.
    pub provider: String,
    /// The identifying variables that are set (commit, branch, run, job,
    /// runner), by name.
    pub variables: BTreeMap<String, String>,
}

/// Per provider: the variable that detects it and the variables worth
/// recording. Only names that identify a run; nothing that could be secret.
const PROVIDERS: &[(&str, &str, &[&str])] = &[
    (
        "github_actions",
        "GITHUB_ACTIONS",
        &[
            "GITHUB_REPOSITORY",
            "GITHUB_SHA",
            "GITHUB_REF",
            "GITHUB_WORKFLOW",
            "GITHUB_JOB",
            "GITHUB_RUN_ID",
            "GITHUB_RUN_ATTEMPT",
            "RUNNER_NAME",
            "RUNNER_OS",
            "RUNNER_ARCH",
        ],
    ),
    (
        "gitlab",
        "GITLAB_CI",
        &[
            "CI_PROJECT_PATH",
            "CI_COMMIT_SHA",
            "CI_COMMIT_REF_NAME",
            "CI_PIPELINE_ID",
            "CI_JOB_ID",
            "CI_RUNNER_DESCRIPTION",
        ],
    ),
    (
        "buildkite",
        "BUILDKITE",
        &[
            "BUILDKITE_PIPELINE_SLUG",
            "BUILDKITE_COMMIT",
            "BUILDKITE_BRANCH",
            "BUILDKITE_BUILD_NUMBER",
            "BUILDKITE_AGENT_NAME",
        ],
    ),
    (
        "circleci",
        "CIRCLECI",
        &[
            "CIRCLE_PROJECT_REPONAME",
            "CIRCLE_SHA1",
            "CIRCLE_BRANCH",
            "CIRCLE_BUILD_NUM",
            "CIRCLE_JOB",
        ],
    ),
    (
        "azure_pipelines",
        "TF_BUILD",
        &[
            "BUILD_REPOSITORY_NAME",
            "BUILD_SOURCEVERSION",
            "BUILD_SOURCEBRANCH",
            "BUILD_BUILDID",
            "AGENT_NAME",
        ],
    ),
    (
        "jenkins",
        "JENKINS_URL",
        &[
            "JOB_NAME",
            "GIT_COMMIT",
            "GIT_BRANCH",
            "BUILD_NUMBER",
            "NODE_NAME",
        ],
    ),
];

impl Environment {
    /// This process's environment, read once and cached.
    pub fn current() -> &'static Environment {
        static CURRENT: OnceLock<Environment> = OnceLock::new();
        CURRENT.get_or_init(|| {
            let read = |path: &str| std::fs::read_to_string(path).ok();
            let from_sources = Environment::from_sources(
                read("/proc/cpuinfo").as_deref(),
                read("/etc/os-release").as_deref(),
                read("/proc/sys/kernel/osrelease").as_deref(),
                |name| std::env::var(name).ok(),
            );
            Environment {
                machine: machine_notes(),
                host: read("/proc/sys/kernel/hostname")
                    .map(|host| host.trim().to_string())
                    .filter(|host| !host.is_empty())
                    .or(from_sources.host.clone()),
                ..from_sources
            }
        })
    }

    /// The environment from the given file contents and variable lookup, so
    /// the parsing is testable; [`Environment::current`] feeds it the real
    /// ones.
    pub fn from_sources(
        cpuinfo: Option<&str>,
        os_release: Option<&str>,
        kernel: Option<&str>,
        var: impl Fn(&str) -> Option<String>,
    ) -> Environment {
        Environment {
            faster_version: env!("CARGO_PKG_VERSION").to_string(),
            host: ["HOSTNAME", "COMPUTERNAME"]
                .into_iter()
                .find_map(|name| var(name).filter(|host| !host.is_empty())),
            cpu: cpuinfo.and_then(cpu_model),
            logical_cpus: std::thread::available_parallelism().ok().map(usize::from),
            os: std::env::consts::OS.to_string(),
            os_version: os_release.and_then(pretty_name),
            kernel: kernel
                .map(str::trim)
                .filter(|k| !k.is_empty())
                .map(str::to_string),
            arch: std::env::consts::ARCH.to_string(),
            rustc: option_env!("FASTER_BUILD_RUSTC").map(str::to_string),
            profile: option_env!("FASTER_BUILD_PROFILE").map(str::to_string),
            ci: ci_run(&var),
            machine: Vec::new(),
        }
    }
}

/// The CPU's name from `/proc/cpuinfo`: `model name` on x86, else the
/// fields other architectures use (`Model`, `Hardware`, `cpu model`, `uarch`).
fn cpu_model(cpuinfo: &str) -> Option<String> {
    let field = |wanted: &str| {
        cpuinfo.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            let value = value.trim();
            (key.trim() == wanted && !value.is_empty()).then(|| value.to_string())
        })
    };
    ["model name", "Model", "Hardware", "cpu model", "uarch"]
        .into_iter()
        .find_map(field)
}

/// The last-level cache's size in bytes: that of cpu0's deepest cache
/// level, from Linux's sysfs; `None` elsewhere, or where it cannot be read.
pub fn last_level_cache_bytes() -> Option<u64> {
    let mut deepest: Option<(u32, u64)> = None;
    for index in 0..8 {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{index}");
        let read = |file: &str| std::fs::read_to_string(format!("{dir}/{file}")).ok();
        let (Some(level), Some(size)) = (read("level"), read("size")) else {
            continue;
        };
        let (Ok(level), Some(bytes)) = (level.trim().parse::<u32>(), parse_cache_size(size.trim()))
        else {
            continue;
        };
        if deepest.is_none_or(|(deepest_level, _)| level > deepest_level) {
            deepest = Some((level, bytes));
        }
    }
    deepest.map(|(_, bytes)| bytes)
}

/// A cache size as sysfs writes it (`32768K`; `M` and `G` also read), in
/// bytes.
fn parse_cache_size(text: &str) -> Option<u64> {
    let (digits, unit) = text.split_at(text.find(|c: char| !c.is_ascii_digit())?);
    let scale = match unit {
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        _ => return None,
    };
    Some(digits.parse::<u64>().ok()? * scale)
}

/// `PRETTY_NAME` from `/etc/os-release`, unquoted.
fn pretty_name(os_release: &str) -> Option<String> {
    os_release.lines().find_map(|line| {
        let value = line.strip_prefix("PRETTY_NAME=")?.trim();
        let value = value.trim_matches('"').trim_matches('\'');
        (!value.is_empty()).then(|| value.to_string())
    })
}

/// The CI run the variables describe, if any.
fn ci_run(var: &impl Fn(&str) -> Option<String>) -> Option<CiRun> {
    let set = |name: &str| var(name).is_some_and(|value| !value.is_empty());
    let recorded = |names: &[&str]| -> BTreeMap<String, String> {
        names
            .iter()
            .filter_map(|&name| {
                var(name)
                    .filter(|v| !v.is_empty())
                    .map(|value| (name.to_string(), value))
            })
            .collect()
    };
    for (provider, detector, names) in PROVIDERS {
        if set(detector) {
            return Some(CiRun {
                provider: provider.to_string(),
                variables: recorded(names),
            });
        }
    }
    set("CI").then(|| CiRun {
        provider: "unknown".into(),
        variables: BTreeMap::new(),
    })
}

/// What holds for the whole process and may disturb timing: valgrind, a
/// debugger, a frequency governor other than `performance`, turbo boost, a
/// single core. Each is said with what to do; read once per process.
fn machine_notes() -> Vec<String> {
    {
        let read = |path: &str| std::fs::read_to_string(path).ok();
        let mut found = Vec::new();
        if read("/proc/self/maps").is_some_and(|maps| maps.contains("vgpreload")) {
            found.push(
                "running under valgrind: times come from a simulated CPU, many times slower and \
                 differently shaped; measure outside valgrind"
                    .to_string(),
            );
        }
        if let Some(tracer) = read("/proc/self/status")
            .and_then(|status| tracer_pid(&status))
            .filter(|&tracer| tracer != 0)
        {
            found.push(format!(
                "a debugger or tracer (pid {tracer}) is attached: breakpoints and tracing distort \
                 timing; measure without it"
            ));
        }
        if let Some(governor) = read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor") {
            let governor = governor.trim();
            if governor != "performance" {
                found.push(format!(
                    "the CPU frequency governor is `{governor}`: the clock speed may change while \
                     measuring (pairing cancels most of it); `cpupower frequency-set -g performance` \
                     removes it"
                ));
            }
        }
        let turbo_off =
            read("/sys/devices/system/cpu/intel_pstate/no_turbo").map(|v| v.trim() == "1");
        let boost_on = read("/sys/devices/system/cpu/cpufreq/boost").map(|v| v.trim() == "1");
        if turbo_off == Some(false) || boost_on == Some(true) {
            found.push(
                "turbo boost is on: the clock speed follows temperature and load (pairing cancels \
                 most of it); turn it off for the steadiest figures"
                    .to_string(),
            );
        }
        if std::thread::available_parallelism().map_or(1, usize::from) == 1 {
            found.push(
                "one CPU core: the measuring thread shares it with everything else on the machine"
                    .to_string(),
            );
        }
        found
    }
}

/// `TracerPid` from `/proc/self/status`.
fn tracer_pid(status: &str) -> Option<u32> {
    status
        .lines()
        .find_map(|line| line.strip_prefix("TracerPid:"))
        .and_then(|pid| pid.trim().parse().ok())
}

/// The current time as RFC 3339 in UTC, to the second
/// (`2026-11-21T22:48:05Z`).
pub fn utc_now() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    rfc3339(seconds)
}

/// Seconds since the Unix epoch as an RFC 3339 UTC timestamp (Howard
/// Hinnant's `civil_from_days`).
fn rfc3339(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let of_day = seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3_600,
        of_day / 60 % 60,
        of_day % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn cache_sizes_read_as_sysfs_writes_them() {
        assert_eq!(parse_cache_size("32768K"), Some(32 << 20));
        assert_eq!(parse_cache_size("307200K"), Some(300 << 20));
        assert_eq!(parse_cache_size("48K"), Some(48 << 10));
        assert_eq!(parse_cache_size("2M"), Some(2 << 20));
        assert_eq!(parse_cache_size("512"), None);
        assert_eq!(parse_cache_size("lots"), None);
    }

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn cpu_os_and_kernel_are_parsed_from_their_files() {
        let cpuinfo = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7763 64-Core Processor\n";
        let os_release = "NAME=\"Ubuntu\"\nPRETTY_NAME=\"Ubuntu 24.04.1 LTS\"\nID=ubuntu\n";
        let env = Environment::from_sources(
            Some(cpuinfo),
            Some(os_release),
            Some("6.8.0-45-generic\n"),
            vars(&[]),
        );
        assert_eq!(env.cpu.as_deref(), Some("AMD EPYC 7763 64-Core Processor"));
        assert_eq!(env.os_version.as_deref(), Some("Ubuntu 24.04.1 LTS"));
        assert_eq!(env.kernel.as_deref(), Some("6.8.0-45-generic"));
        assert_eq!(env.ci, None);
        // An arm board names its CPU otherwise.
        assert_eq!(
            cpu_model("processor : 0\nHardware : BCM2835\n").as_deref(),
            Some("BCM2835")
        );
        assert_eq!(cpu_model("processor : 0\n"), None);
    }

    #[test]
    fn the_build_script_recorded_the_compiler_and_profile() {
        let env = Environment::current();
        assert!(
            env.rustc
                .as_deref()
                .is_some_and(|v| v.starts_with("rustc ")),
            "{env:?}"
        );
        assert!(
            matches!(env.profile.as_deref(), Some("release" | "debug")),
            "{env:?}"
        );
    }

    #[test]
    fn timestamps_are_rfc3339_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_795_301_285), "2026-11-21T22:48:05Z");
    }

    #[test]
    fn a_tracer_is_read_from_the_status_file() {
        assert_eq!(tracer_pid("Name:\tx\nTracerPid:\t42\n"), Some(42));
        assert_eq!(tracer_pid("Name:\tx\n"), None);
    }

    #[test]
    fn ci_runs_are_recognised_and_only_identifying_variables_kept() {
        let env = Environment::from_sources(
            None,
            None,
            None,
            vars(&[
                ("CI", "true"),
                ("GITHUB_ACTIONS", "true"),
                ("GITHUB_SHA", "abc123"),
                ("GITHUB_TOKEN", "secret"),
                ("RUNNER_OS", "Linux"),
            ]),
        );
        let ci = env.ci.unwrap();
        assert_eq!(ci.provider, "github_actions");
        assert_eq!(
            ci.variables.get("GITHUB_SHA").map(String::as_str),
            Some("abc123")
        );
        assert_eq!(
            ci.variables.get("RUNNER_OS").map(String::as_str),
            Some("Linux")
        );
        assert!(!ci.variables.contains_key("GITHUB_TOKEN"));
        let generic = ci_run(&vars(&[("CI", "1")])).unwrap();
        assert_eq!(generic.provider, "unknown");
        assert_eq!(ci_run(&vars(&[("CI", "")])), None);
    }
}
