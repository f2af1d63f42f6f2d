//! The JSON report against its documented schema
//! (`schema/report-v1.schema.json`): real reports from the engine on a
//! simulated clock, with and without throughput, an interval too short to
//! bound, and the checker itself refusing documents that break the schema.

mod support;

use faster_runtime::report::SCHEMA as REPORT_SCHEMA;
use faster_runtime::time::{Clock, SimClock};
use faster_runtime::{Config, Report, compare_fns_with_clock};
use serde_json::Value;
use support::schema::{REPORT_SCHEMA as SCHEMA_TEXT, violations};

fn schema() -> Value {
    serde_json::from_str(SCHEMA_TEXT).expect("the schema file is JSON")
}

/// A real comparison on a virtual clock: the original costs 1.25x the
/// candidate on every input (both scale with the input's size).
fn report() -> Report {
    let clock = SimClock::with_reading_cost(25.0);
    let cost = |per_unit: f64| {
        let clock = clock.clone();
        move |size: &u64| clock.advance(per_unit * *size as f64)
    };
    compare_fns_with_clock(
        &clock,
        "scaled chain",
        &[100_u64, 400, 1_600],
        cost(12.5),
        cost(10.0),
        &Config::default(),
    )
    .expect("the simulated pair compares")
}

fn validate(document: &str) -> Value {
    let value: Value = serde_json::from_str(document).expect("the report is JSON");
    let problems = violations(&schema(), &value);
    assert!(
        problems.is_empty(),
        "the report breaks its schema:\n{}\n\n{document}",
        problems.join("\n")
    );
    value
}

#[test]
fn a_report_conforms_to_the_schema_and_says_what_was_measured() {
    let report = report();
    let document = validate(&report.to_json());
    assert_eq!(document["schema"], REPORT_SCHEMA);
    assert_eq!(document["name"], "scaled chain");
    assert_eq!(document["status"], "passed");
    assert!(document["source"].is_null());
    let result = &document["result"];
    assert_eq!(result["verdict"], "faster");
    assert_eq!(result["ci"]["confidence"], 0.99);
    assert!(
        (result["speedup"].as_f64().unwrap() - 1.25).abs() < 0.01,
        "{result}"
    );
    assert_eq!(result["rounds"].as_u64().unwrap() as usize, report.rounds);
    assert_eq!(
        result["round_log_ratios"].as_array().unwrap().len(),
        report.rounds
    );
    assert_eq!(result["round_original_first"][0], true);
    assert_eq!(result["round_original_first"][1], false);
    let inputs = result["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 3);
    assert_eq!(
        inputs[2]["rounds_ns"].as_array().unwrap().len(),
        report.rounds
    );
    assert_eq!(result["timer"]["name"], SimClock::new().name());
    assert!(
        document["environment"]["os"]
            .as_str()
            .is_some_and(|os| !os.is_empty())
    );
    assert!(document["time"].as_str().unwrap().ends_with('Z'));
}

#[test]
fn throughput_and_labels_land_in_the_document() {
    let report = report()
        .with_flops(&[200, 800, 3_200])
        .with_bytes(&[800, 3_200, 12_800])
        .with_input_labels(["100", "400", "1600"]);
    let document = validate(&report.to_json());
    let throughput = &document["result"]["throughput"];
    assert_eq!(throughput["flops"], 4_200);
    assert_eq!(throughput["bytes"], 16_800);
    let (original, candidate) = report.flop_rates().unwrap();
    assert_eq!(
        throughput["original"]["flop_per_s"].as_f64().unwrap(),
        original
    );
    assert_eq!(
        throughput["candidate"]["flop_per_s"].as_f64().unwrap(),
        candidate
    );
    // The candidate does the same work in less time.
    assert!(candidate > original * 1.2, "{original} {candidate}");
    let input = &document["result"]["inputs"][1];
    assert_eq!(input["label"], "400");
    assert_eq!(input["flops"], 800);
    assert!(input["candidate"]["bytes_per_s"].as_f64().unwrap() > 0.0);
}

#[test]
fn an_unbounded_interval_is_null_not_infinity() {
    let mut report = report();
    report.ci = (0.0, f64::INFINITY);
    let document = validate(&report.to_json());
    assert!(document["result"]["ci"]["high"].is_null());
}

#[test]
fn a_noise_floor_of_one_or_more_conforms() {
    // 1.0 asks for at least 2x, 3.0 for at least 4x: floors, not errors.
    for floor in [1.0, 3.0] {
        let mut report = report();
        report.noise_floor = floor;
        let document = validate(&report.to_json());
        assert_eq!(document["result"]["noise_floor"], floor);
    }
}

#[test]
fn the_checker_refuses_documents_that_break_the_schema() {
    let good: Value = serde_json::from_str(&report().to_json()).unwrap();
    assert!(violations(&schema(), &good).is_empty());

    let mut missing = good.clone();
    missing["result"].as_object_mut().unwrap().remove("speedup");
    assert!(
        violations(&schema(), &missing)
            .iter()
            .any(|v| v.contains("missing required `speedup`"))
    );

    let mut retyped = good.clone();
    retyped["result"]["rounds"] = Value::from("many");
    assert!(
        violations(&schema(), &retyped)
            .iter()
            .any(|v| v.contains("$.result.rounds"))
    );

    let mut extra = good.clone();
    extra["surprise"] = Value::from(1);
    assert!(
        violations(&schema(), &extra)
            .iter()
            .any(|v| v.contains("$.surprise: not in the schema"))
    );

    let mut wrong_enum = good.clone();
    wrong_enum["result"]["verdict"] = Value::from("much faster");
    assert!(!violations(&schema(), &wrong_enum).is_empty());

    let mut bad_pair = good;
    bad_pair["result"]["inputs"][0]["rounds_ns"][0] = serde_json::json!([1.0]);
    assert!(
        violations(&schema(), &bad_pair)
            .iter()
            .any(|v| v.contains("fewer than 2"))
    );
}

#[test]
fn the_schema_file_names_the_version_the_runtime_writes() {
    assert_eq!(schema()["title"], REPORT_SCHEMA);
    assert_eq!(schema()["properties"]["schema"]["const"], REPORT_SCHEMA);
}

#[test]
fn the_schema_is_identified_by_our_repository_where_the_file_is() {
    // Not docs.rs/faster, another crate's: this package's repository, at the
    // file's own path in it.
    let id = schema()["$id"]
        .as_str()
        .expect("the schema has an $id")
        .to_string();
    let in_repository = "faster-runtime/schema/report-v1.schema.json";
    assert_eq!(
        id,
        format!("{}/raw/main/{in_repository}", env!("CARGO_PKG_REPOSITORY"))
    );
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    assert_eq!(
        std::fs::read_to_string(workspace.join(in_repository)).unwrap(),
        SCHEMA_TEXT
    );
}

#[cfg(feature = "plots")]
#[test]
fn the_plot_is_an_svg_with_text_and_the_data() {
    let svg = report().to_svg().unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..100]);
    assert!(svg.trim_end().ends_with("</svg>"));
    // Text is SVG <text>, laid out by the viewer: no font library needed.
    assert!(svg.contains("<text"));
    for caption in [
        "per-call time per round",
        "per-call time distribution",
        "ratio per round",
        "99% interval",
    ] {
        assert!(svg.contains(caption), "no {caption:?} in the plot");
    }
}

#[test]
fn figures_that_are_not_finite_are_null_and_still_conform() {
    // What a candidate optimized away to nothing can produce.
    let mut report = report();
    report.speedup = f64::INFINITY;
    report.best_speedup = f64::NAN;
    report.candidate_ns = 0.0;
    report.round_log_ratios[0] = f64::INFINITY;
    report.inputs[0].round_ns[0] = [1_000.0, f64::NAN];
    let document = validate(&report.to_json());
    assert!(document["result"]["speedup"].is_null());
    assert!(document["result"]["best_speedup"].is_null());
    assert!(document["result"]["round_log_ratios"][0].is_null());
    assert!(document["result"]["inputs"][0]["rounds_ns"][0][1].is_null());
}
