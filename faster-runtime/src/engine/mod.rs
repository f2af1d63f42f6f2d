//! The measurement engine: the run's budget spent on undecided verdicts
//! (`budget`); how the two functions are called and timed
//! (`routine`), tuned, warmed up and sampled in alternating rounds until the
//! estimate converges (`sampler`), one comparison end to end (`compare`),
//! what disturbed it (`guard`), the machine's noise (`probe`), replication
//! across processes (`replicate`) and the interval it is judged by where
//! layouts put the code at different offsets of a cache line (`offsets`), and one tracked function as a process
//! serving a comparison across revisions holds it (`tracked`).

pub mod budget;
pub mod compare;
pub mod guard;
pub mod offsets;
pub mod probe;
pub mod replicate;
pub mod routine;
pub mod sampler;
pub mod tracked;
