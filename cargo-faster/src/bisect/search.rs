//! The search of one function's regression along a path of commits, as
//! pure logic over an [`Oracle`] that answers three ways and never guesses:
//! compiled code first (a commit whose code is that of a known end takes
//! that end's answer unmeasured), then a paired measurement against the
//! known-good end, measured again with more effort where undecided; a
//! commit that does not build, or lacks the function, is skipped as
//! `git bisect skip` does; a commit still undecided ends the search with
//! the range that holds it, never a guess. A regression left after the
//! commit found (several steps, none explaining the total) is searched
//! again from there, each step with its size.

/// A paired ratio of times, current over base (above 1: slower), with its
/// 99% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ratio {
    /// The estimate.
    pub ratio: f64,
    /// Its 99% interval, low to high.
    pub interval: (f64, f64),
}

/// What a paired measurement of a commit against another said, in the
/// judge's words (see `faster_runtime::judge`): the search adds no
/// threshold of its own.
#[derive(Debug, Clone, PartialEq)]
pub enum Measured {
    /// Decided slower beyond the floor.
    Slower(Ratio),
    /// Decided not slower beyond the floor; `faster` where decided faster.
    NotSlower {
        /// The ratio measured.
        ratio: Ratio,
        /// Whether the judge found it faster beyond the floor.
        faster: bool,
    },
    /// The interval could not rule a change of the floor's size in or out.
    Undecided(Ratio),
    /// The commit does not build: cargo's error, as said.
    DoesNotBuild(String),
    /// Not compared: the function returns something else there, or
    /// panics; why.
    Skipped(String),
    /// The function is not at this commit (or not with its signature).
    Absent,
}

/// What the search asks of the commits, each by its index on the path
/// (0 the known-good end, the last the known-bad one).
pub trait Oracle {
    /// Whether the function's compiled code — its timed loop and every
    /// callee — is the same at `one` and `other`; `false` where it cannot
    /// tell (a commit that does not build, a function absent).
    fn same_code(&mut self, one: usize, other: usize) -> bool;

    /// The function at `current` measured against `base`, paired, with
    /// `effort` (1, then more where undecided: a larger budget, more
    /// layouts).
    /// An error where the run itself failed (the known-good end does not
    /// build, a child could not start).
    fn measure(&mut self, base: usize, current: usize, effort: u32) -> Result<Measured, String>;
}

/// How many times an undecided commit is measured before the search says
/// it could not tell: once, then once with more effort.
pub const EFFORTS: u32 = 2;

/// How the answer at one commit was reached.
#[derive(Debug, Clone, PartialEq)]
pub enum How {
    /// Its compiled code is the known-good end's: good, unmeasured.
    SameCodeAsGood,
    /// Its compiled code is the known-bad end's: bad, unmeasured.
    SameCodeAsBad,
    /// Measured against the known-good end.
    Measured(Measured),
}

/// One commit the search looked at.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Its index on the path.
    pub commit: usize,
    /// The good end it was compared with.
    pub good: usize,
    /// How it was decided.
    pub how: How,
}

impl Step {
    /// Whether it counts as bad (slower than good).
    pub fn verdict(&self) -> Verdict {
        match &self.how {
            How::SameCodeAsGood => Verdict::Good,
            How::SameCodeAsBad | How::Measured(Measured::Slower(_)) => Verdict::Bad,
            How::Measured(Measured::NotSlower { .. }) => Verdict::Good,
            How::Measured(Measured::Undecided(_)) => Verdict::Undecided,
            How::Measured(Measured::DoesNotBuild(_) | Measured::Skipped(_) | Measured::Absent) => {
                Verdict::Skip
            }
        }
    }

    /// Whether it was measured (not decided by its code, nor skipped).
    pub fn measured(&self) -> bool {
        matches!(
            self.how,
            How::Measured(
                Measured::Slower(_) | Measured::NotSlower { .. } | Measured::Undecided(_)
            )
        )
    }

    /// Whether its compiled code decided it.
    pub fn same_code(&self) -> bool {
        matches!(self.how, How::SameCodeAsGood | How::SameCodeAsBad)
    }
}

/// A step's answer, in `git bisect`'s words and the one it lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Not slower than the good end.
    Good,
    /// Slower than the good end.
    Bad,
    /// Not comparable: does not build, or lacks the function.
    Skip,
    /// Measured, and still could not tell.
    Undecided,
}

/// Where one search ended.
#[derive(Debug, Clone, PartialEq)]
pub enum End {
    /// The first bad commit: its index (its parent, one before, is good).
    Found(usize),
    /// The range it could not narrow further: the last good and first bad
    /// commits known, and why.
    Range {
        /// The last commit known good.
        good: usize,
        /// The first commit known bad.
        bad: usize,
        /// Why it stopped there.
        why: Stopped,
    },
}

/// Why a search stopped with a range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// A commit in it was measured with every effort and still undecided.
    Undecided(usize),
    /// Every commit between its ends was skipped.
    AllSkipped,
}

/// One search from a good end to a bad one: the steps and where it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Search {
    /// The commits looked at, in order.
    pub steps: Vec<Step>,
    /// Where it ended.
    pub end: End,
}

/// Searches the path from `good` to `bad` (indices, `good < bad`) for
/// the first commit slower than `good`.
pub fn search(good: usize, bad: usize, oracle: &mut impl Oracle) -> Result<Search, String> {
    let (known_good, mut good, mut bad) = (good, good, bad);
    let mut skipped = Vec::new();
    let mut steps = Vec::new();
    while let Some(middle) = midpoint(good, bad, &skipped) {
        let step = Step {
            commit: middle,
            good: known_good,
            how: decide(known_good, bad, middle, oracle)?,
        };
        let verdict = step.verdict();
        steps.push(step);
        match verdict {
            Verdict::Good => good = middle,
            Verdict::Bad => bad = middle,
            Verdict::Skip => skipped.push(middle),
            Verdict::Undecided => {
                let why = Stopped::Undecided(middle);
                let end = End::Range { good, bad, why };
                return Ok(Search { steps, end });
            }
        }
    }
    let end = if bad - good == 1 {
        End::Found(bad)
    } else {
        let why = Stopped::AllSkipped;
        End::Range { good, bad, why }
    };
    Ok(Search { steps, end })
}

/// The commit between `good` and `bad` to look at next: the middle one, or
/// where it was skipped the nearest one not skipped (as `git bisect skip`
/// moves away from a skipped commit); `None` when none is left.
fn midpoint(good: usize, bad: usize, skipped: &[usize]) -> Option<usize> {
    let middle = good + (bad - good) / 2;
    (0..bad - good)
        .flat_map(|distance| [middle + distance, middle.wrapping_sub(distance)])
        .find(|&commit| commit > good && commit < bad && !skipped.contains(&commit))
}

/// How `commit` is decided between the ends `good` and `bad`: by its
/// compiled code where it is one end's, else measured against `good`, again
/// with more effort while undecided.
fn decide(good: usize, bad: usize, commit: usize, oracle: &mut impl Oracle) -> Result<How, String> {
    if oracle.same_code(commit, good) {
        return Ok(How::SameCodeAsGood);
    }
    if oracle.same_code(commit, bad) {
        return Ok(How::SameCodeAsBad);
    }
    measured(good, commit, oracle).map(How::Measured)
}

/// `current` measured against `base`, with more effort while undecided.
pub fn measured(base: usize, current: usize, oracle: &mut impl Oracle) -> Result<Measured, String> {
    let mut effort = 1;
    loop {
        let measured = oracle.measure(base, current, effort)?;
        if !matches!(measured, Measured::Undecided(_)) || effort == EFFORTS {
            return Ok(measured);
        }
        effort += 1;
    }
}

/// One step of a regression: the commit found and its ratio against its
/// own parent.
#[derive(Debug, Clone, PartialEq)]
pub struct Culprit {
    /// Its index on the path.
    pub commit: usize,
    /// It measured against its parent.
    pub against_parent: Measured,
}

/// The whole of a function's bisect: every search (one per step of the
/// regression), the commits found, and what is left after the last.
#[derive(Debug, Clone, PartialEq)]
pub struct Bisect {
    /// Each search, in order: the first from the good end, each next from
    /// the commit the one before found.
    pub searches: Vec<Search>,
    /// The commits found, each with its own step's size.
    pub culprits: Vec<Culprit>,
    /// What measuring the bad end against the last commit found said,
    /// where it was measured: the part of the regression not found yet.
    pub rest: Option<Measured>,
}

impl Bisect {
    /// Every step of every search.
    pub fn steps(&self) -> impl Iterator<Item = &Step> {
        self.searches.iter().flat_map(|search| &search.steps)
    }

    /// Where the last search ended.
    pub fn end(&self) -> Option<&End> {
        self.searches.last().map(|search| &search.end)
    }
}

/// Bisects the path `0..=bad`: searches for the first bad commit, measures
/// it against its parent, then measures the bad end against it; where the
/// bad end is still slower (a regression of several steps), searches again
/// from there.
pub fn bisect(bad: usize, oracle: &mut impl Oracle) -> Result<Bisect, String> {
    let mut bisect = Bisect {
        searches: Vec::new(),
        culprits: Vec::new(),
        rest: None,
    };
    let mut good = 0;
    loop {
        let search = search(good, bad, oracle)?;
        let found = match search.end {
            End::Found(commit) => commit,
            End::Range { .. } => {
                bisect.searches.push(search);
                return Ok(bisect);
            }
        };
        bisect.searches.push(search);
        let against_parent = measured(found - 1, found, oracle)?;
        bisect.culprits.push(Culprit {
            commit: found,
            against_parent,
        });
        // Where the commit found compiles as the bad end, nothing is left.
        if found == bad || oracle.same_code(found, bad) {
            return Ok(bisect);
        }
        let rest = measured(found, bad, oracle)?;
        let slower = matches!(rest, Measured::Slower(_));
        bisect.rest = Some(rest);
        if !slower {
            return Ok(bisect);
        }
        good = found;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path of commits with the function's time at each (`None`: does not
    /// build), its code named by a number (the same number, the same code),
    /// and a floor: the judge's rule, simplified to an exact ratio, with
    /// commits listed in `undecided` answered undecided at every effort
    /// but those listed in `settles`.
    struct Path {
        times: Vec<Option<f64>>,
        code: Vec<u32>,
        floor: f64,
        undecided: Vec<usize>,
        settles: Vec<usize>,
        absent: Vec<usize>,
        measured: Vec<(usize, usize, u32)>,
    }

    impl Path {
        fn new(times: &[Option<f64>], floor: f64) -> Path {
            Path {
                times: times.to_vec(),
                // Every commit compiled differently unless told otherwise.
                code: (0..times.len() as u32).collect(),
                floor,
                undecided: vec![],
                settles: vec![],
                absent: vec![],
                measured: vec![],
            }
        }
    }

    impl Oracle for Path {
        fn same_code(&mut self, one: usize, other: usize) -> bool {
            self.times[one].is_some()
                && self.times[other].is_some()
                && self.code[one] == self.code[other]
        }

        fn measure(
            &mut self,
            base: usize,
            current: usize,
            effort: u32,
        ) -> Result<Measured, String> {
            self.measured.push((base, current, effort));
            let Some(time) = self.times[current] else {
                return Ok(Measured::DoesNotBuild("error[E0425]".into()));
            };
            if self.absent.contains(&current) {
                return Ok(Measured::Absent);
            }
            let ratio = time / self.times[base].unwrap();
            let ratio = Ratio {
                ratio,
                interval: (ratio * 0.99, ratio * 1.01),
            };
            let unsure = self.undecided.contains(&current)
                && !(effort == EFFORTS && self.settles.contains(&current));
            Ok(if unsure {
                Measured::Undecided(ratio)
            } else if ratio.ratio >= 1.0 + self.floor {
                Measured::Slower(ratio)
            } else {
                Measured::NotSlower {
                    ratio,
                    faster: ratio.ratio <= 1.0 / (1.0 + self.floor),
                }
            })
        }
    }

    /// 1.0 up to `at`, then `slower` from it, over `n` commits.
    fn one_step(n: usize, at: usize, slower: f64) -> Vec<Option<f64>> {
        (0..n)
            .map(|i| Some(if i >= at { slower } else { 1.0 }))
            .collect()
    }

    #[test]
    fn one_step_is_found_at_every_place_in_log2_measurements() {
        for n in [2, 3, 8, 33, 64] {
            for at in 1..n {
                let mut path = Path::new(&one_step(n, at, 1.10), 0.05);
                let bisect = bisect(n - 1, &mut path).unwrap();
                assert_eq!(bisect.culprits.len(), 1, "n {n} at {at}");
                assert_eq!(bisect.culprits[0].commit, at);
                assert!(matches!(
                    bisect.culprits[0].against_parent,
                    Measured::Slower(_)
                ));
                let searched = bisect.steps().count();
                let most = (n as f64).log2().ceil() as usize;
                assert!(searched <= most, "n {n} at {at}: {searched} steps");
            }
        }
    }

    #[test]
    fn a_commit_with_an_ends_code_takes_its_answer_unmeasured() {
        let mut path = Path::new(&one_step(16, 11, 1.5), 0.05);
        // Commits 0..=10 compile alike, 11..=15 alike.
        path.code = (0..16).map(|i| u32::from(i >= 11)).collect();
        let bisect = bisect(15, &mut path).unwrap();
        assert_eq!(bisect.culprits[0].commit, 11);
        assert!(bisect.steps().all(|step| !step.measured()));
        assert!(bisect.steps().any(|step| step.how == How::SameCodeAsBad));
        // Only the step's own size was measured: 11 against 10.
        assert_eq!(path.measured, [(10, 11, 1)]);
    }

    #[test]
    fn a_commit_that_does_not_build_is_skipped_and_the_search_moves_beside_it() {
        let mut times = one_step(16, 9, 1.2);
        times[7] = None;
        let mut path = Path::new(&times, 0.05);
        let bisect = bisect(15, &mut path).unwrap();
        assert_eq!(bisect.culprits[0].commit, 9);
        let skipped: Vec<usize> = bisect
            .steps()
            .filter(|step| step.verdict() == Verdict::Skip)
            .map(|step| step.commit)
            .collect();
        assert_eq!(skipped, [7]);
        assert_eq!(bisect.steps().nth(1).map(|step| step.commit), Some(8));

        // Two skipped before the culprit: it is one of three, said as such.
        times[8] = None;
        let mut path = Path::new(&times, 0.05);
        let three = super::bisect(15, &mut path).unwrap();
        assert_eq!(
            three.end(),
            Some(&End::Range {
                good: 6,
                bad: 9,
                why: Stopped::AllSkipped
            })
        );
    }

    #[test]
    fn a_culprit_beside_skipped_commits_is_a_range_not_a_guess() {
        let mut times = one_step(8, 5, 1.2);
        times[4] = None;
        let mut path = Path::new(&times, 0.05);
        let bisect = bisect(7, &mut path).unwrap();
        assert!(bisect.culprits.is_empty());
        assert_eq!(
            bisect.end(),
            Some(&End::Range {
                good: 3,
                bad: 5,
                why: Stopped::AllSkipped
            })
        );
    }

    #[test]
    fn a_commit_without_the_function_is_skipped() {
        let mut path = Path::new(&one_step(8, 6, 1.2), 0.05);
        path.absent = vec![3];
        let bisect = bisect(7, &mut path).unwrap();
        assert_eq!(bisect.culprits[0].commit, 6);
        assert!(
            bisect
                .steps()
                .any(|step| step.commit == 3 && step.how == How::Measured(Measured::Absent))
        );
    }

    #[test]
    fn undecided_is_measured_again_then_kept_as_a_range() {
        let mut path = Path::new(&one_step(16, 9, 1.06), 0.05);
        path.undecided = vec![7];
        path.settles = vec![7];
        let settled = bisect(15, &mut path).unwrap();
        assert_eq!(settled.culprits[0].commit, 9);
        assert!(path.measured.contains(&(0, 7, 2)), "{:?}", path.measured);

        let mut path = Path::new(&one_step(16, 9, 1.06), 0.05);
        path.undecided = vec![7];
        let unsure = bisect(15, &mut path).unwrap();
        assert!(unsure.culprits.is_empty(), "never a guess");
        assert_eq!(
            unsure.end(),
            Some(&End::Range {
                good: 0,
                bad: 15,
                why: Stopped::Undecided(7)
            })
        );
    }

    #[test]
    fn two_small_steps_are_each_found_with_their_size() {
        // 3% at 10, 3% more at 20: 6% over the path, against a 2% floor.
        let times: Vec<Option<f64>> = (0..32)
            .map(|i| Some(1.03_f64.powi((i >= 10) as i32 + (i >= 20) as i32)))
            .collect();
        let mut path = Path::new(&times, 0.02);
        let bisect = bisect(31, &mut path).unwrap();
        let found: Vec<usize> = bisect.culprits.iter().map(|c| c.commit).collect();
        assert_eq!(found, [10, 20]);
        for culprit in &bisect.culprits {
            let Measured::Slower(ratio) = culprit.against_parent else {
                panic!("{culprit:?}");
            };
            assert!((ratio.ratio - 1.03).abs() < 1e-9);
        }
        assert!(matches!(bisect.rest, Some(Measured::NotSlower { .. })));
    }

    #[test]
    fn a_step_faster_than_good_is_good_and_said_faster() {
        let mut times = one_step(16, 12, 1.2);
        for time in times.iter_mut().take(12).skip(4) {
            *time = Some(0.8);
        }
        let mut path = Path::new(&times, 0.05);
        let bisect = bisect(15, &mut path).unwrap();
        assert_eq!(bisect.culprits[0].commit, 12);
        assert!(bisect.steps().any(|step| matches!(
            step.how,
            How::Measured(Measured::NotSlower { faster: true, .. })
        )));
    }
}
