//! A small JSON Schema checker for the subset of draft 2020-12 that
//! `schema/report-v1.schema.json` uses: `type`, `properties`, `required`,
//! `additionalProperties`, `items`, `enum`, `const`, `minItems`,
//! `maxItems`, `minimum`, `maximum`, `exclusiveMinimum` and local `$ref`s.
//! Any other keyword in the schema is an error, so the schema cannot grow a
//! rule this checker would silently skip.
//!
//! Shared by the integration tests (`mod support`) and the harness's unit
//! tests (`#[path]`), so one checker judges every document.

use serde_json::Value;

/// The schema, as shipped.
pub const REPORT_SCHEMA: &str = include_str!("../../schema/report-v1.schema.json");

/// Every way `document` breaks `schema`, each as `path: problem`; empty when
/// it conforms.
pub fn violations(schema: &Value, document: &Value) -> Vec<String> {
    let mut found = Vec::new();
    check(schema, schema, document, "$", &mut found);
    found
}

const KNOWN: &[&str] = &[
    "$schema",
    "$id",
    "$defs",
    "$ref",
    "title",
    "description",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "exclusiveMinimum",
];

fn check(root: &Value, schema: &Value, value: &Value, path: &str, found: &mut Vec<String>) {
    let Some(rules) = schema.as_object() else {
        found.push(format!("{path}: the schema here is not an object"));
        return;
    };
    for keyword in rules.keys() {
        if !KNOWN.contains(&keyword.as_str()) {
            found.push(format!(
                "{path}: the checker does not know the keyword `{keyword}`"
            ));
        }
    }
    if let Some(reference) = rules.get("$ref").and_then(Value::as_str) {
        let target = reference
            .strip_prefix("#/")
            .map(|pointer| root.pointer(&format!("/{pointer}")))
            .unwrap_or(None);
        match target {
            Some(target) => check(root, target, value, path, found),
            None => found.push(format!("{path}: unresolvable $ref {reference}")),
        }
    }
    if let Some(expected) = rules.get("type") {
        let types: Vec<&str> = match expected {
            Value::String(one) => vec![one.as_str()],
            Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        if !types.iter().any(|kind| is_type(value, kind)) {
            found.push(format!(
                "{path}: expected {}, found {}",
                types.join(" or "),
                describe(value)
            ));
            return;
        }
    }
    if let Some(constant) = rules.get("const").filter(|&constant| constant != value) {
        found.push(format!("{path}: expected {constant}, found {value}"));
    }
    if let Some(options) = rules
        .get("enum")
        .and_then(Value::as_array)
        .filter(|options| !options.contains(value))
    {
        found.push(format!(
            "{path}: {value} is not one of {}",
            Value::Array(options.clone())
        ));
    }
    if let Some(number) = value.as_f64() {
        let bound = |name: &str| rules.get(name).and_then(Value::as_f64);
        if let Some(minimum) = bound("minimum").filter(|&minimum| number < minimum) {
            found.push(format!("{path}: {number} is below the minimum {minimum}"));
        }
        if let Some(maximum) = bound("maximum").filter(|&maximum| number > maximum) {
            found.push(format!("{path}: {number} is above the maximum {maximum}"));
        }
        if let Some(limit) = bound("exclusiveMinimum").filter(|&limit| number <= limit) {
            found.push(format!("{path}: {number} is not above {limit}"));
        }
    }
    if let Some(object) = value.as_object() {
        let properties = rules.get("properties").and_then(Value::as_object);
        for required in rules
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(key) = required.as_str().filter(|&key| !object.contains_key(key)) {
                found.push(format!("{path}: missing required `{key}`"));
            }
        }
        for (key, field) in object {
            let field_path = format!("{path}.{key}");
            match (
                properties.and_then(|p| p.get(key)),
                rules.get("additionalProperties"),
            ) {
                (Some(field_schema), _) => check(root, field_schema, field, &field_path, found),
                (None, Some(Value::Bool(false))) => {
                    found.push(format!("{field_path}: not in the schema"))
                }
                (None, Some(extra @ Value::Object(_))) => {
                    check(root, extra, field, &field_path, found)
                }
                (None, _) => {}
            }
        }
    }
    if let Some(array) = value.as_array() {
        let count = |name: &str| rules.get(name).and_then(Value::as_u64);
        if let Some(least) = count("minItems").filter(|&least| (array.len() as u64) < least) {
            found.push(format!("{path}: {} items, fewer than {least}", array.len()));
        }
        if let Some(most) = count("maxItems").filter(|&most| (array.len() as u64) > most) {
            found.push(format!("{path}: {} items, more than {most}", array.len()));
        }
        if let Some(items) = rules.get("items") {
            for (index, item) in array.iter().enumerate() {
                check(root, items, item, &format!("{path}[{index}]"), found);
            }
        }
    }
}

fn is_type(value: &Value, kind: &str) -> bool {
    match kind {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "number" => value.is_number(),
        "integer" => {
            value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|n| n.fract() == 0.0)
        }
        _ => false,
    }
}

fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(_) => "a boolean".into(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}
