//! The README's install lines are what a user types once the crates are
//! published: the package is `faster-test` (the name `faster` on crates.io
//! is another crate's), whatever the library is called in code.

const README: &str = include_str!("../README.md");

#[test]
fn every_install_line_names_our_package() {
    let mut install_lines = 0;
    for (number, line) in README.lines().enumerate() {
        let line = line.trim().trim_start_matches('`');
        let declares_faster = line
            .strip_prefix("faster")
            .is_some_and(|rest| rest.trim_start().starts_with('='));
        assert!(
            !declares_faster,
            "README.md:{}: `{line}` declares the package `faster`, an unrelated crate on \
             crates.io: write `faster-test`",
            number + 1
        );
        if line.starts_with("cargo add") {
            install_lines += 1;
            assert!(
                line.contains(" faster-test"),
                "README.md:{}: `{line}` does not add `faster-test`",
                number + 1
            );
        }
        let declares_ours = line
            .strip_prefix("faster-test")
            .is_some_and(|rest| rest.trim_start().starts_with('='));
        if declares_ours {
            install_lines += 1;
            assert!(
                line.contains("\"0.1\"") || line.contains("version = \"0.1\""),
                "README.md:{}: `{line}` does not ask for version 0.1",
                number + 1
            );
        }
    }
    assert!(install_lines >= 2, "the README shows no install line");
}
