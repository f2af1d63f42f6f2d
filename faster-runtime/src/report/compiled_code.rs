//! What a comparison across revisions knows of the tracked function's
//! machine code in each revision ([`CompiledCode`]), and the note that
//! says when that code changed while its source did not: a difference in
//! speed that may come from code generation rather than from the function.

/// The function's source and its timed machine code, compared between the
/// base revision and the current code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompiledCode {
    /// Whether the function's own source (its tokens, doc comments aside)
    /// is the same in both revisions.
    pub source_unchanged: bool,
    /// The size in bytes of the timed loop — the measuring loop compiled
    /// for this function, which inlines it — at the base revision and in
    /// the current code. Sizes, not bytes: the bytes of the same code
    /// differ between links (its calls' relative offsets), its size does
    /// not.
    pub timed_loop_bytes: [u64; 2],
}

impl CompiledCode {
    /// Whether the compiled code differs although the source does not.
    pub fn changed_alone(&self) -> bool {
        self.source_unchanged && self.timed_loop_bytes[0] != self.timed_loop_bytes[1]
    }

    /// What the reader should know beside the verdict, where the compiled
    /// code changed alone; nothing otherwise (an edited function's code is
    /// expected to change).
    pub fn note(&self) -> Option<String> {
        if !self.changed_alone() {
            return None;
        }
        let [base, current] = self.timed_loop_bytes;
        Some(format!(
            "Its source is unchanged, but its compiled code is not: the timed loop that inlines \
             it is {base} bytes at the base revision, {current} now. The difference may come \
             from code generation (how the compiler split its crate into codegen units) or from \
             code it calls, not from this function; `codegen-units = 1` in `[profile.release]` \
             at both revisions takes the split out of the comparison."
        ))
    }

    /// A few words for a table cell: `source unchanged, compiled code not`.
    pub fn short_note(&self) -> Option<&'static str> {
        self.changed_alone()
            .then_some("source unchanged, compiled code not")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_of_size_alone_is_said_with_both_sizes_and_what_to_do() {
        let code = CompiledCode {
            source_unchanged: true,
            timed_loop_bytes: [456, 546],
        };
        assert_eq!(
            code.note().unwrap(),
            "Its source is unchanged, but its compiled code is not: the timed loop that inlines \
             it is 456 bytes at the base revision, 546 now. The difference may come from code \
             generation (how the compiler split its crate into codegen units) or from code it \
             calls, not from this function; `codegen-units = 1` in `[profile.release]` at both \
             revisions takes the split out of the comparison."
        );
        assert_eq!(
            code.short_note(),
            Some("source unchanged, compiled code not")
        );
    }

    #[test]
    fn nothing_is_said_where_the_source_changed_or_the_code_did_not() {
        for code in [
            CompiledCode {
                source_unchanged: false,
                timed_loop_bytes: [456, 546],
            },
            CompiledCode {
                source_unchanged: true,
                timed_loop_bytes: [456, 456],
            },
        ] {
            assert_eq!(code.note(), None, "{code:?}");
            assert_eq!(code.short_note(), None, "{code:?}");
        }
    }
}
