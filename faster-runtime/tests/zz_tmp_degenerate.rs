use faster_runtime::{Config, SimClock, compare_fns_with_clock};
#[test]
fn degenerate() {
    let clock = SimClock::with_reading_cost(20.0);
    let r = compare_fns_with_clock(&clock, "zero", &[()], |_: &()| (), |_: &()| (), &Config::default());
    match r {
        Ok(report) => { println!("{report}"); println!("{}", &report.to_json()[..1500.min(report.to_json().len())]); }
        Err(e) => println!("error: {e}"),
    }
}
