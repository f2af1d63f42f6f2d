//! Records, for the JSON report's `environment`, what only the build knows:
//! the compiler's version (cargo gives build scripts the `RUSTC` it uses) and
//! the profile family (`release` or `debug`) of this build.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    // `rustc --version`, e.g. `rustc 1.89.0 (29483883e 2025-08-04)`. When it
    // cannot be run, the report says `null` rather than guessing.
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok());
    if let Some(version) = version {
        println!("cargo:rustc-env=FASTER_BUILD_RUSTC={}", version.trim());
    }
    if let Ok(profile) = std::env::var("PROFILE") {
        println!("cargo:rustc-env=FASTER_BUILD_PROFILE={profile}");
    }
}
