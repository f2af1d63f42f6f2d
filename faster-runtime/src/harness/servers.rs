//! The processes a replicated comparison measures its slices in: one
//! server per process slot (layout `k` of this binary in slot `k`, or this
//! binary itself where layouts do not vary), started the first time a
//! comparison needs it and kept for the rest of the run, each serving every
//! registered comparison of the binary. A run of a hundred comparisons
//! starts each server once, not a hundred times.
//!
//! A server is this binary started again in the role
//! [`Role::ServeComparisons`] with the command line that runs one
//! comparison's test alone ([`command::one_test`]): that test serves
//! instead of measuring (a `faster::main()` target serves at once). Each request names the comparison and
//! carries the whole configuration the parent resolved for the slice; the
//! answer is the slice's report or error. A server that crashes (user code
//! that aborts) or overruns is stopped and forgotten, and that comparison
//! fails; the next comparison starts a fresh one.

use super::Measured;
use crate::config::Config;
use crate::error::Error;
use crate::process::{self, Role, Server, command};
use crate::registry::Comparison;
use crate::report::Measurement;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// What a server is asked: measure the comparison whose test is `test`
/// with `config`.
#[derive(Debug, Serialize, Deserialize)]
struct Measure {
    test: String,
    config: Config,
}

/// This run's servers, by binary and slot.
pub struct Servers {
    running: BTreeMap<(PathBuf, u32), Server>,
}

static SERVERS: Mutex<Servers> = Mutex::new(Servers {
    running: BTreeMap::new(),
});

/// This run's servers, for one comparison at a time.
pub fn servers() -> MutexGuard<'static, Servers> {
    SERVERS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Servers {
    /// Measures the comparison whose test is `test` with `config` in slot
    /// `slot`'s server of `binary`, started from that test where it is not
    /// running yet; the process may take `timeout`.
    pub fn measure(
        &mut self,
        (binary, slot): (&Path, u32),
        test: &str,
        config: &Config,
        timeout: Duration,
    ) -> Result<Measurement, Error> {
        let failed = |message| Error::Replication {
            process: slot as usize,
            message,
        };
        let key = (binary.to_path_buf(), slot);
        if !self.running.contains_key(&key) {
            let mut serving = command::child(binary, Some(&Role::ServeComparisons));
            serving.args(command::one_test(test));
            // Not held to a CPU (as a pair across revisions is): both sides run
            // in this one process, and beside other builds a server held to
            // one CPU lost 50 ms slices to them (`process::cpu`).
            let server =
                Server::start("this binary's comparisons", serving, timeout).map_err(failed)?;
            self.running.insert(key.clone(), server);
        }
        let server = self.running.get_mut(&key).expect("started above");
        server.set_timeout(timeout);
        let request = Measure {
            test: test.to_string(),
            config: config.clone(),
        };
        match server.request::<_, Measured>(&request) {
            Ok(measured) => measured.into_result(config.max_time),
            Err(message) => {
                // Stopped already; dropped here, so the next comparison
                // starts a fresh one.
                self.running.remove(&key);
                Err(failed(message))
            }
        }
    }
}

/// The server's side: measures each comparison asked for, among
/// `registered`, until the parent closes the pipe; each measurement says where
/// the comparison's two functions start in a cache line in this
/// process's layout.
pub fn serve(registered: &[&Comparison]) -> io::Result<()> {
    // Not locked: user code may print from threads of its own meanwhile.
    process::serve(io::stdin().lock(), io::stdout(), |request| {
        let result = request
            .map_err(|message| Error::Replication {
                process: 0,
                message,
            })
            .and_then(|Measure { test, config }| {
                let comparison = registered
                    .iter()
                    .find(|comparison| comparison.test_name() == test)
                    .ok_or_else(|| Error::Replication {
                        process: 0,
                        message: format!("this binary registers no comparison named `{test}`"),
                    })?;
                // Taken here, in the layout that measured the slice.
                let offsets = comparison.offsets();
                // The engine checks the settings, as for every comparison.
                (comparison.run)(&config).map(|measurement| Measurement {
                    offsets,
                    ..measurement
                })
            });
        Some(Measured::of(&result))
    })
}
