//! Comparisons across git revisions (`cargo faster --against REV`): every
//! function registered with `#[faster::track]` in the current code against
//! the function of the same name at a base revision, each revision's build
//! serving its own functions from a long-lived child process, paired in
//! time by the parent.
//!
//! `protocol` is what crosses the pipe, `serve` the child's side, `child`
//! the parent's handle on a child, and `compare` one function: matched by
//! name, checked by the digests of its outputs, measured by the engine's
//! sampler with each batch timed by the child of its revision;
//! `machine_code` whether its compiled code changed where its source did
//! not.
//!
//! One feature, the revision comparison, in three places: the attribute
//! `#[faster::track]` (in `faster-macros`) marks a function and registers
//! it with its inputs (`crate::registry::Tracked`); this module is what the
//! two ends share, the protocol and the children; and `harness::against`
//! is the parent's run around them (outputs, exit code), which `cargo
//! faster --against` calls once it has built both revisions.

pub mod child;
pub mod compare;
pub mod machine_code;
pub mod protocol;
pub mod serve;
