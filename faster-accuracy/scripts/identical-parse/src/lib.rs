//! Two identical copies of a CSV line parse, compared at a 2% floor: on the
//! same code, `faster` must read "within noise" or say plainly that the
//! run's budget cannot settle 2% (issue 49's P-resolution).

/// Sums every numeric field of each line of `text` (fields split on
/// commas, a field that is no number counting 0).
#[cfg_attr(test, faster::compare(original = parse_a, inputs = csv_inputs, noise_floor = 0.02, expect = not_slower))]
pub fn parse_b(text: &str) -> u64 {
    text.lines()
        .flat_map(|line| line.split(','))
        .map(|field| field.trim().parse::<u64>().unwrap_or(0))
        .fold(0, u64::wrapping_add)
}

/// The same parse, token for token: what `parse_b` is compared with.
pub fn parse_a(text: &str) -> u64 {
    text.lines()
        .flat_map(|line| line.split(','))
        .map(|field| field.trim().parse::<u64>().unwrap_or(0))
        .fold(0, u64::wrapping_add)
}

/// About 4 KB of CSV lines: an id, three numbers and a name per line.
#[cfg(test)]
fn csv_inputs() -> Vec<String> {
    let line = |i: u64| format!("{i},{},{},{},name{}\n", i * 7919 % 100_000, i * 31, i % 97, i % 13);
    vec![(0..160).map(line).collect()]
}
