//! Under libtest, the comparisons of this test binary that passed
//! undecided, counted and said once as the process ends.
//!
//! libtest counts an undecided pass as passed, and has no end of the run at
//! which faster could print its own summary, so without this line nothing
//! under plain `cargo test` counted the undecided: a run whose every verdict
//! was undecided read `test result: ok. 4 passed`. The line comes after
//! libtest's (from a C `atexit` handler, which runs once `main` has
//! returned or `std::process::exit` was called), so the two closing lines
//! are read together: libtest's count, then how many of its passes could
//! not judge.

use crate::output::style::wrap;
use crate::report::Outcome;
use std::io::Write;
use std::sync::Mutex;

/// The comparisons judged in this process, and the names of those that
/// passed undecided.
struct Count {
    judged: usize,
    undecided: Vec<String>,
}

static COUNT: Mutex<Count> = Mutex::new(Count {
    judged: 0,
    undecided: Vec::new(),
});

unsafe extern "C" {
    /// The C library's `atexit` (in every platform's C runtime, which std
    /// links): `handler` runs when the process exits normally.
    fn atexit(handler: extern "C" fn()) -> std::ffi::c_int;
}

/// Counts `outcome`, a comparison judged inside libtest; the first one
/// counted arranges for the line to be said when the process ends.
pub fn count(outcome: &Outcome) {
    let mut count = COUNT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if count.judged == 0 {
        // SAFETY: `say_at_exit` is a plain function that never unwinds
        // (it writes with errors ignored and takes the lock without
        // waiting). Should registering fail, the line is not said.
        unsafe {
            atexit(say_at_exit);
        }
    }
    count.judged += 1;
    if outcome.passed_undecided() {
        count.undecided.push(outcome.test.clone());
    }
}

extern "C" fn say_at_exit() {
    // A test thread libtest left running could hold the lock: the line is
    // then not said rather than the exit waiting on it.
    let Ok(count) = COUNT.try_lock() else {
        return;
    };
    if let Some(line) = closing_line(count.judged, &count.undecided) {
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(line.as_bytes());
        let _ = stdout.flush();
    }
}

/// What follows libtest's `test result:` line when some of the `judged`
/// comparisons passed undecided, wrapped at 80 columns; nothing when none
/// did.
fn closing_line(judged: usize, undecided: &[String]) -> Option<String> {
    let first = undecided.first()?;
    let noun = if judged == 1 {
        "comparison"
    } else {
        "comparisons"
    };
    let (which, them) = match undecided.len() {
        1 => (format!("1 of this binary's {judged} {noun} passed"), "it"),
        many => (
            format!("{many} of this binary's {judged} {noun} passed"),
            "them",
        ),
    };
    let names = if undecided.len() <= 3 {
        undecided.join(", ")
    } else {
        format!("{first} and {} more", undecided.len() - 1)
    };
    let text = format!(
        "{which} undecided, counted as passed above ({names}): the interval could not \
         rule out a change of the noise floor's size; FASTER_UNDECIDED=fail fails {them}."
    );
    let mut said = String::new();
    for line in wrap(&text, "faster: ", "  ") {
        said.push_str(&line);
        said.push('\n');
    }
    said.push('\n');
    Some(said)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_said_when_no_comparison_passed_undecided() {
        assert_eq!(closing_line(4, &[]), None);
    }

    #[test]
    fn the_line_counts_the_undecided_among_the_judged_and_names_a_few() {
        let one = closing_line(4, &["mean::faster_mean_v2".into()]).unwrap();
        assert!(
            one.starts_with(
                "faster: 1 of this binary's 4 comparisons passed undecided, counted as passed\n  above (mean::faster_mean_v2)"
            ),
            "{one}"
        );
        assert!(one.contains("FASTER_UNDECIDED=fail fails it."), "{one}");
        let names: Vec<String> = (0..5).map(|index| format!("faster_{index}")).collect();
        let many = closing_line(5, &names).unwrap();
        assert!(
            many.contains("5 of this binary's 5 comparisons passed undecided"),
            "{many}"
        );
        assert!(many.contains("(faster_0 and 4 more)"), "{many}");
        assert!(many.contains("fails them."), "{many}");
        assert!(
            many.lines().all(|line| line.chars().count() <= 80),
            "{many}"
        );
    }
}
