//! The time-varying background load the suite starts itself: one thread
//! whose busy fraction follows a sine wave, streaming through a buffer larger
//! than the last-level cache while busy and sleeping otherwise.
//!
//! It competes with the measured functions for the cache and memory
//! bandwidth (and, on a two-core machine, for the core whenever the system
//! places it there), and it changes over seconds: the drift that makes a
//! sequential measurement of A, then B, disagree with itself.

use faster_runtime::__internal::last_level_cache_bytes;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The period of the busy fraction's sine wave.
pub const PERIOD: Duration = Duration::from_secs(4);
/// The busy fraction is decided per slot of this length.
const SLOT: Duration = Duration::from_millis(10);
/// Bytes streamed between two looks at the clock.
const CHUNK_WORDS: usize = 8 * 1024;

/// A running background load; stops (and joins its thread) when dropped.
pub struct BackgroundLoad {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl BackgroundLoad {
    /// Starts the load over a buffer of `bytes` (written once here, so the
    /// pages are real).
    pub fn start(bytes: usize) -> BackgroundLoad {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("background-load".into())
            .spawn(move || run(bytes, &flag))
            .expect("the background load's thread starts");
        BackgroundLoad {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for BackgroundLoad {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The load's buffer as the suite sizes it: twice the last-level cache,
/// within the suite's bounds.
pub fn buffer_bytes() -> usize {
    let llc = last_level_cache_bytes().map_or(crate::ASSUMED_LLC, |bytes| bytes as usize);
    (2 * llc).clamp(crate::MIN_BUFFER, crate::MAX_BUFFER)
}

/// The busy fraction `seconds` after the start: 0 at the start, 1 half a
/// period later.
pub fn busy_fraction(seconds: f64) -> f64 {
    0.5 - 0.5 * (2.0 * std::f64::consts::PI * seconds / PERIOD.as_secs_f64()).cos()
}

fn run(bytes: usize, stop: &AtomicBool) {
    let mut buffer: Vec<u64> = (0..(bytes / 8).max(CHUNK_WORDS) as u64).collect();
    let start = Instant::now();
    let mut position = 0;
    while !stop.load(Ordering::Relaxed) {
        let slot_start = Instant::now();
        let busy = SLOT.mul_f64(busy_fraction(start.elapsed().as_secs_f64()));
        while slot_start.elapsed() < busy {
            // Read and write every word: the writes evict the measured
            // functions' lines as surely as the reads do.
            let end = (position + CHUNK_WORDS).min(buffer.len());
            for word in &mut buffer[position..end] {
                *word = word.wrapping_add(1);
            }
            position = if end == buffer.len() { 0 } else { end };
        }
        if let Some(idle) = SLOT.checked_sub(slot_start.elapsed()) {
            std::thread::sleep(idle);
        }
    }
    std::hint::black_box(&buffer);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_busy_fraction_swings_from_idle_to_busy_and_back() {
        assert!(busy_fraction(0.0).abs() < 1e-12);
        assert!((busy_fraction(PERIOD.as_secs_f64() / 2.0) - 1.0).abs() < 1e-12);
        assert!((busy_fraction(PERIOD.as_secs_f64() / 4.0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn the_load_starts_and_stops() {
        let load = BackgroundLoad::start(1 << 20);
        std::thread::sleep(Duration::from_millis(30));
        drop(load);
    }
}
