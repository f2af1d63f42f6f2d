//! What a bisect tells the maintainer: per function, its conclusion (the
//! commit found, each step of a regression of several, the range left
//! where it could not narrow, or why there was nothing to search), the
//! table of the commits it looked at and how each was decided, how many
//! needed measuring, and what it built and leaves on disk; as Markdown (the
//! terminal's text, and the body to post on an issue or pull request) and
//! as a JSON document (schema [`SCHEMA`]); and the exit code it comes to.

use super::commits::Commit;
use super::search::{Bisect, End, How, Measured, Ratio, Step, Stopped, Verdict};
use faster_runtime::__internal::format_bytes;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::time::Duration;

/// The schema identifier of the JSON document.
pub const SCHEMA: &str = "faster/bisect/v1";

/// The exit code when every function slower at the bad end has its
/// commit found.
pub const FOUND: u8 = 0;
/// The exit code when none is slower, or one's range was not narrowed to
/// one commit.
pub const NOT_FOUND: u8 = 1;

/// One function's bisect.
pub struct FunctionBisect {
    /// Its name.
    pub name: String,
    /// The bad end measured against the good one.
    pub total: Measured,
    /// The search, where the bad end was slower.
    pub bisect: Option<Bisect>,
    /// Its wall time.
    pub elapsed: Duration,
}

/// A whole bisect, for the outputs.
pub struct Outcome<'a> {
    /// The path, from the good end to the bad one.
    pub path: &'a [Commit],
    /// Every function's.
    pub functions: Vec<FunctionBisect>,
    /// How many commits were built or found built.
    pub built: usize,
    /// What `target/faster/` holds on disk once it ended.
    pub disk_bytes: u64,
    /// Its wall time.
    pub elapsed: Duration,
}

/// What a function's bisect came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conclusion {
    /// Every step of its regression found.
    Found,
    /// A step not narrowed to one commit.
    NotNarrowed,
    /// Not slower at the bad end: nothing to search.
    NotSlower,
    /// Measured, and could not tell whether the bad end is slower.
    Undecided,
    /// Not compared at the ends: absent at one, or it failed there.
    NotCompared,
}

impl FunctionBisect {
    /// What it came to.
    pub fn conclusion(&self) -> Conclusion {
        match (&self.total, &self.bisect) {
            (_, Some(bisect)) => match bisect.end() {
                Some(End::Found(_)) => Conclusion::Found,
                _ => Conclusion::NotNarrowed,
            },
            (Measured::Undecided(_), None) => Conclusion::Undecided,
            (Measured::Slower(_) | Measured::NotSlower { .. }, None) => Conclusion::NotSlower,
            (Measured::DoesNotBuild(_) | Measured::Skipped(_) | Measured::Absent, None) => {
                Conclusion::NotCompared
            }
        }
    }
}

impl Outcome<'_> {
    /// 0 where every regression's commits were found (and there was one),
    /// else 1.
    pub fn exit_code(&self) -> u8 {
        let conclusions: Vec<Conclusion> = self
            .functions
            .iter()
            .map(FunctionBisect::conclusion)
            .collect();
        let found = conclusions.contains(&Conclusion::Found);
        let unsure = conclusions
            .iter()
            .any(|c| matches!(c, Conclusion::NotNarrowed | Conclusion::Undecided));
        if found && !unsure { FOUND } else { NOT_FOUND }
    }

    /// The Markdown body: the terminal's text, and the comment to post.
    pub fn markdown(&self) -> String {
        let (good, bad) = (&self.path[0], &self.path[self.path.len() - 1]);
        let mut text = format!(
            "## cargo faster bisect {}..{}\n\n{} commits after the good end, on the path by first \
             parents.\n",
            good.short(),
            bad.short(),
            self.path.len() - 1
        );
        for function in &self.functions {
            text.push('\n');
            text.push_str(&self.function_markdown(function));
        }
        let _ = write!(
            text,
            "\nBuilt {} commits in {}; `target/faster/` holds {} (`cargo faster clean` removes \
             it).\n",
            self.built,
            minutes(self.elapsed),
            format_bytes(self.disk_bytes)
        );
        text
    }

    /// One function's part of [`Outcome::markdown`].
    fn function_markdown(&self, function: &FunctionBisect) -> String {
        let (good, bad) = (&self.path[0], &self.path[self.path.len() - 1]);
        let mut text = format!("### `{}`\n\n", function.name);
        let total = match &function.total {
            Measured::Slower(ratio) => ratio_text(ratio),
            // Its ratio alone would read as a regression too small to see.
            not_slower @ Measured::NotSlower { .. } => {
                format!("{}; nothing to bisect", measured_text(not_slower))
            }
            Measured::Undecided(ratio) => format!("undecided: {}", ratio_text(ratio)),
            Measured::DoesNotBuild(why) | Measured::Skipped(why) => format!("not compared: {why}"),
            Measured::Absent => "not compared: it is not at both ends (or has another \
                                 signature at one); bisect from a good commit that has it"
                .to_string(),
        };
        let _ = writeln!(
            text,
            "At {} against {}: {total}.",
            bad.short(),
            good.short()
        );
        let Some(bisect) = &function.bisect else {
            return text;
        };
        text.push('\n');
        text.push_str(&self.culprits(bisect));
        if let Some(End::Range { good, bad, why }) = bisect.end() {
            let why = match why {
                Stopped::Undecided(at) => format!(
                    "{} stayed undecided after measuring again with twice the budget",
                    self.path[*at].short()
                ),
                Stopped::AllSkipped => "every commit between was skipped".to_string(),
            };
            let _ = writeln!(
                text,
                "Not narrowed further: the regression is after {} and at or before {} ({} \
                 commits); {why}.",
                self.path[*good].short(),
                self.path[*bad].short(),
                bad - good
            );
        }
        let steps: Vec<&Step> = bisect.steps().collect();
        let count = |counted: fn(&Step) -> bool| steps.iter().filter(|step| counted(step)).count();
        let _ = writeln!(
            text,
            "\nLooked at {} commits: {} needed measuring, {} were decided by their compiled \
             code alone, {} skipped. Done in {}.\n",
            steps.len(),
            count(Step::measured),
            count(Step::same_code),
            count(|step| step.verdict() == Verdict::Skip),
            minutes(function.elapsed)
        );
        text.push_str(&self.tables(bisect));
        text
    }

    /// The commits found, each with its own step's size.
    fn culprits(&self, bisect: &Bisect) -> String {
        let mut text = String::new();
        if bisect.culprits.len() > 1 {
            let _ = writeln!(
                text,
                "A regression of {} steps, no single commit explaining the total:",
                bisect.culprits.len()
            );
        }
        for culprit in &bisect.culprits {
            let commit = &self.path[culprit.commit];
            let _ = writeln!(
                text,
                "- **{}** {} ({}): against its parent, {}",
                commit.short(),
                commit.subject,
                commit.date,
                measured_text(&culprit.against_parent)
            );
        }
        text
    }

    /// The commits looked at: one table, or one per search where there
    /// were several, each headed by the good end it compared with (a
    /// commit bad against the first can be good against the commit found).
    fn tables(&self, bisect: &Bisect) -> String {
        let searched: Vec<&[Step]> = bisect
            .searches
            .iter()
            .map(|search| search.steps.as_slice())
            .filter(|steps| !steps.is_empty())
            .collect();
        let [_, _, ..] = searched[..] else {
            return self.table(searched.first().copied().unwrap_or(&[]));
        };
        let headed = |steps: &[Step]| {
            let good = steps[0].good;
            let which = if good == 0 {
                "the good end"
            } else {
                "the commit found"
            };
            let good = self.path[good].short();
            format!("Against {good} ({which}):\n\n{}", self.table(steps))
        };
        searched
            .into_iter()
            .map(headed)
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The table of the commits looked at.
    fn table(&self, steps: &[Step]) -> String {
        let mut text =
            "| commit | subject | decided by | answer | against good |\n| --- | --- | --- | --- | --- |\n"
                .to_string();
        for step in steps {
            let commit = &self.path[step.commit];
            let (how, ratio) = match &step.how {
                How::SameCodeAsGood => ("same code as good".to_string(), String::new()),
                How::SameCodeAsBad => ("same code as bad".to_string(), String::new()),
                How::Measured(
                    measured
                    @ (Measured::DoesNotBuild(_) | Measured::Skipped(_) | Measured::Absent),
                ) => (measured_text(measured), String::new()),
                How::Measured(measured) => ("measured".to_string(), measured_text(measured)),
            };
            let _ = writeln!(
                text,
                "| {} | {} | {how} | {} | {ratio} |",
                commit.short(),
                commit.subject.replace('|', "\\|"),
                verdict_word(step.verdict())
            );
        }
        text
    }

    /// The JSON document (schema [`SCHEMA`]).
    pub fn json(&self) -> Value {
        let commit = |index: usize| {
            let commit = &self.path[index];
            json!({"commit": commit.hash, "subject": commit.subject, "date": commit.date})
        };
        let functions: Vec<Value> = self
            .functions
            .iter()
            .map(|function| {
                let bisect = function.bisect.as_ref();
                let steps: Vec<Value> = bisect
                    .into_iter()
                    .flat_map(Bisect::steps)
                    .map(|step| {
                        let mut value = commit(step.commit);
                        value["decided_by"] = how_word(&step.how).into();
                        value["answer"] = verdict_word(step.verdict()).into();
                        if let How::Measured(measured) = &step.how {
                            value["against_good"] = measured_json(measured);
                        }
                        value
                    })
                    .collect();
                let culprits: Vec<Value> = bisect
                    .into_iter()
                    .flat_map(|bisect| &bisect.culprits)
                    .map(|culprit| {
                        let mut value = commit(culprit.commit);
                        value["against_parent"] = measured_json(&culprit.against_parent);
                        value
                    })
                    .collect();
                let range = bisect.and_then(Bisect::end).and_then(|end| match end {
                    End::Range { good, bad, .. } => {
                        Some(json!({"good": self.path[*good].hash, "bad": self.path[*bad].hash}))
                    }
                    End::Found(_) => None,
                });
                json!({
                    "name": function.name,
                    "conclusion": conclusion_word(function.conclusion()),
                    "total": measured_json(&function.total),
                    "culprits": culprits,
                    "remaining_range": range,
                    "measured": bisect.map_or(0, |b| b.steps().filter(|s| s.measured()).count()),
                    "steps": steps,
                    "rest": bisect.and_then(|b| b.rest.as_ref()).map(measured_json),
                    "elapsed_s": function.elapsed.as_secs_f64(),
                })
            })
            .collect();
        json!({
            "schema": SCHEMA,
            "good": self.path[0].hash,
            "bad": self.path[self.path.len() - 1].hash,
            "commits": self.path.len() - 1,
            "built": self.built,
            "disk_bytes": self.disk_bytes,
            "elapsed_s": self.elapsed.as_secs_f64(),
            "exit_code": self.exit_code(),
            "functions": functions,
        })
    }
}

/// `1.092x slower [99% CI 1.071x – 1.113x]`, or faster, from a ratio of
/// times (current over base).
fn ratio_text(ratio: &Ratio) -> String {
    let (low, high) = ratio.interval;
    if ratio.ratio >= 1.0 {
        format!("{:.3}x slower [99% CI {low:.3}x – {high:.3}x]", ratio.ratio)
    } else {
        format!(
            "{:.3}x faster [99% CI {:.3}x – {:.3}x]",
            1.0 / ratio.ratio,
            1.0 / high,
            1.0 / low
        )
    }
}

/// A measurement's answer in words, with its ratio where it has one.
fn measured_text(measured: &Measured) -> String {
    match measured {
        Measured::Slower(ratio) => format!("slower, {}", ratio_text(ratio)),
        Measured::NotSlower {
            ratio,
            faster: true,
        } => format!("faster, {}", ratio_text(ratio)),
        Measured::NotSlower { ratio, .. } => format!("within the floor, {}", ratio_text(ratio)),
        Measured::Undecided(ratio) => format!("undecided, {}", ratio_text(ratio)),
        Measured::DoesNotBuild(_) => "skipped: does not build".to_string(),
        Measured::Skipped(why) => format!("skipped: {}", why.lines().next().unwrap_or_default()),
        Measured::Absent => "skipped: the function is not there".to_string(),
    }
}

/// A measurement as JSON: its answer and, where measured, its ratio.
fn measured_json(measured: &Measured) -> Value {
    let (answer, ratio) = match measured {
        Measured::Slower(ratio) => ("slower", Some(ratio)),
        Measured::NotSlower {
            ratio,
            faster: true,
        } => ("faster", Some(ratio)),
        Measured::NotSlower { ratio, .. } => ("within_noise", Some(ratio)),
        Measured::Undecided(ratio) => ("undecided", Some(ratio)),
        Measured::DoesNotBuild(_) => ("does_not_build", None),
        Measured::Skipped(_) => ("skipped", None),
        Measured::Absent => ("absent", None),
    };
    let mut value = json!({"answer": answer});
    if let Some(ratio) = ratio {
        value["time_ratio"] = ratio.ratio.into();
        value["ci"] = json!([ratio.interval.0, ratio.interval.1]);
    }
    if let Measured::DoesNotBuild(why) | Measured::Skipped(why) = measured {
        value["why"] = why.as_str().into();
    }
    value
}

/// How a step was decided, as the JSON names it.
fn how_word(how: &How) -> &'static str {
    match how {
        How::SameCodeAsGood => "same_code_as_good",
        How::SameCodeAsBad => "same_code_as_bad",
        How::Measured(Measured::DoesNotBuild(_) | Measured::Skipped(_) | Measured::Absent) => {
            "skipped"
        }
        How::Measured(Measured::Undecided(_)) => "undecided",
        How::Measured(_) => "measured",
    }
}

/// A step's answer in `git bisect`'s words.
fn verdict_word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Good => "good",
        Verdict::Bad => "bad",
        Verdict::Skip => "skip",
        Verdict::Undecided => "undecided",
    }
}

/// A conclusion as the JSON names it.
fn conclusion_word(conclusion: Conclusion) -> &'static str {
    match conclusion {
        Conclusion::Found => "found",
        Conclusion::NotNarrowed => "not_narrowed",
        Conclusion::NotSlower => "not_slower",
        Conclusion::Undecided => "undecided",
        Conclusion::NotCompared => "not_compared",
    }
}

/// `3.2 min`, or `41 s` under a minute.
fn minutes(elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    if seconds < 60.0 {
        format!("{seconds:.0} s")
    } else {
        format!("{:.1} min", seconds / 60.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bisect::search::{Culprit, Search};

    fn ratio(ratio: f64) -> Ratio {
        Ratio {
            ratio,
            interval: (ratio - 0.01, ratio + 0.01),
        }
    }

    fn path(length: usize) -> Vec<Commit> {
        (0..length)
            .map(|i| Commit {
                hash: format!("{i:0>40}"),
                subject: format!("commit {i}"),
                date: "2026-01-01T00:00:00Z".into(),
            })
            .collect()
    }

    fn function(total: Measured, bisect: Option<Bisect>) -> FunctionBisect {
        FunctionBisect {
            name: "demo::parse".into(),
            total,
            bisect,
            elapsed: Duration::from_secs(90),
        }
    }

    fn step(commit: usize, how: How) -> Step {
        Step {
            commit,
            good: 0,
            how,
        }
    }

    #[test]
    fn a_found_commit_is_named_with_its_step_and_the_table_says_how_each_was_decided() {
        let path = path(9);
        let bisect = Bisect {
            searches: vec![Search {
                steps: vec![
                    step(4, How::Measured(Measured::DoesNotBuild("E0425".into()))),
                    step(5, How::SameCodeAsBad),
                    step(
                        2,
                        How::Measured(Measured::NotSlower {
                            ratio: ratio(1.0),
                            faster: false,
                        }),
                    ),
                    step(3, How::SameCodeAsGood),
                ],
                end: End::Found(4),
            }],
            culprits: vec![Culprit {
                commit: 4,
                against_parent: Measured::Slower(ratio(1.2)),
            }],
            rest: None,
        };
        let outcome = Outcome {
            path: &path,
            functions: vec![
                function(Measured::Slower(ratio(1.2)), Some(bisect)),
                function(
                    Measured::NotSlower {
                        ratio: ratio(1.0),
                        faster: false,
                    },
                    None,
                ),
            ],
            built: 6,
            disk_bytes: 3 << 20,
            elapsed: Duration::from_secs(200),
        };
        assert_eq!(outcome.exit_code(), FOUND);
        let markdown = outcome.markdown();
        for said in [
            "- **0000000** commit 4 (2026-01-01T00:00:00Z): against its parent, slower, 1.200x \
             slower [99% CI 1.190x – 1.210x]",
            "Looked at 4 commits: 1 needed measuring, 2 were decided by their compiled code \
             alone, 1 skipped.",
            "| 0000000 | commit 5 | same code as bad | bad |  |",
            "| 0000000 | commit 4 | skipped: does not build | skip |  |",
            "Built 6 commits in 3.3 min; `target/faster/` holds 3.00 MiB",
            "within the floor, 1.000x slower [99% CI 0.990x – 1.010x]; nothing to bisect.",
        ] {
            assert!(markdown.contains(said), "{said}\n{markdown}");
        }
        assert!(
            !markdown.contains("(the good end):"),
            "one search, one table"
        );
        let json = outcome.json();
        assert_eq!(json["schema"], SCHEMA);
        assert_eq!(json["functions"][0]["conclusion"], "found");
        assert_eq!(
            json["functions"][0]["culprits"][0]["against_parent"]["answer"],
            "slower"
        );
        assert_eq!(json["functions"][0]["measured"], 1);
        assert_eq!(json["functions"][1]["conclusion"], "not_slower");
    }

    #[test]
    fn a_regression_of_two_steps_has_a_table_per_search_headed_by_its_good_end() {
        let path = path(9);
        let within = Measured::NotSlower {
            ratio: ratio(1.0),
            faster: false,
        };
        let from_found = |commit, how| Step {
            commit,
            good: 3,
            how,
        };
        let bisect = Bisect {
            searches: vec![
                Search {
                    steps: vec![
                        step(4, How::Measured(Measured::Slower(ratio(1.25)))),
                        step(2, How::Measured(within.clone())),
                        step(3, How::SameCodeAsBad),
                    ],
                    end: End::Found(3),
                },
                Search {
                    steps: vec![
                        from_found(4, How::SameCodeAsGood),
                        from_found(6, How::SameCodeAsBad),
                        from_found(5, How::SameCodeAsBad),
                    ],
                    end: End::Found(5),
                },
            ],
            culprits: vec![
                Culprit {
                    commit: 3,
                    against_parent: Measured::Slower(ratio(1.25)),
                },
                Culprit {
                    commit: 5,
                    against_parent: Measured::Slower(ratio(1.1)),
                },
            ],
            rest: Some(within),
        };
        let outcome = Outcome {
            path: &path,
            functions: vec![function(Measured::Slower(ratio(1.4)), Some(bisect))],
            built: 6,
            disk_bytes: 0,
            elapsed: Duration::from_secs(60),
        };
        let markdown = outcome.markdown();
        let at = |said: &str| {
            markdown
                .find(said)
                .unwrap_or_else(|| panic!("{said}\n{markdown}"))
        };
        // Commit 4, bad against the good end, good against commit 3.
        let order = [
            at("Against 0000000 (the good end):"),
            at("| commit 4 | measured | bad | slower, 1.250x slower"),
            at("Against 0000000 (the commit found):"),
            at("| commit 4 | same code as good | good |"),
        ];
        assert!(order.is_sorted(), "{markdown}");
        at("A regression of 2 steps");
    }

    #[test]
    fn a_range_not_narrowed_or_nothing_slower_exits_1() {
        let path = path(9);
        let range = Bisect {
            searches: vec![Search {
                steps: vec![step(4, How::Measured(Measured::Undecided(ratio(1.03))))],
                end: End::Range {
                    good: 0,
                    bad: 8,
                    why: Stopped::Undecided(4),
                },
            }],
            culprits: vec![],
            rest: None,
        };
        let outcome = |functions| Outcome {
            path: &path,
            functions,
            built: 3,
            disk_bytes: 0,
            elapsed: Duration::from_secs(5),
        };
        let unsure = outcome(vec![function(Measured::Slower(ratio(1.1)), Some(range))]);
        assert_eq!(unsure.exit_code(), NOT_FOUND);
        assert!(
            unsure.markdown().contains("Not narrowed further"),
            "{}",
            unsure.markdown()
        );
        assert!(!unsure.json()["functions"][0]["remaining_range"].is_null());
        let nothing = outcome(vec![function(Measured::Absent, None)]);
        assert_eq!(nothing.exit_code(), NOT_FOUND);
        assert!(nothing.markdown().contains("not at both ends"));
    }
}
