//! How a list of inputs is named in a message: by index, ascending, runs
//! as ranges. Errors, warnings and reports all name inputs this way, so it
//! sits below all of them.

/// Input indexes as a reader takes them in: ascending, runs of three or
/// more as ranges (`0–2047`, `0, 2, 5–9`), so that 2,048 inputs take one
/// word rather than 170 lines.
fn format_indexes(indexes: &[usize]) -> String {
    let mut sorted = indexes.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for index in sorted {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == index => *last = index,
            _ => runs.push((index, index)),
        }
    }
    let mut words = Vec::new();
    for (first, last) in runs {
        match last - first {
            0 => words.push(first.to_string()),
            // Two neighbours read better as two numbers than as a range.
            1 => words.extend([first.to_string(), last.to_string()]),
            _ => words.push(format!("{first}–{last}")),
        }
    }
    words.join(", ")
}

/// `input 2`, `inputs 0, 3` or `inputs 0–2047`.
pub fn format_inputs(indexes: &[usize]) -> String {
    let plural = if indexes.len() == 1 { "" } else { "s" };
    format!("input{plural} {}", format_indexes(indexes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexes_read_as_ranges() {
        let all: Vec<usize> = (0..2048).collect();
        assert_eq!(format_indexes(&all), "0–2047");
        assert_eq!(format_inputs(&all), "inputs 0–2047");
        assert_eq!(format_indexes(&[9, 0, 2, 5, 6, 7, 8]), "0, 2, 5–9");
        assert_eq!(format_indexes(&[3, 4]), "3, 4");
        assert_eq!(format_inputs(&[2]), "input 2");
        assert_eq!(format_indexes(&[]), "");
    }
}
