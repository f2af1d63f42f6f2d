//! What a comparison across revisions knows of the tracked function's
//! machine code in each revision ([`CompiledCode`]), and the note that
//! says when that code changed while its source did not — a difference in
//! speed that comes from code it calls (whose source changed) or from code
//! generation rather than from the function — or when part of it could not
//! be compared.

/// The function's source and its timed machine code, compared between the
/// base revision and the current code.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CompiledCode {
    /// Whether the function's own source (its tokens, doc comments aside)
    /// is the same in both revisions.
    pub source_unchanged: bool,
    /// The size in bytes of the timed loop — the measuring loop compiled
    /// for this function, which inlines it — at the base revision and in
    /// the current code.
    pub timed_loop_bytes: [u64; 2],
    /// Whether the timed loop's instructions differ between the revisions,
    /// where they were put aside (the same code linked elsewhere has other
    /// bytes: its calls' and its data's relative addresses); its size may
    /// not.
    pub timed_loop_differs: bool,
    /// The functions the timed loop calls, directly or through others,
    /// whose instructions differ between the revisions or that one
    /// revision's loop does not reach, in the order the loops reach them:
    /// the function itself where it was left out of line, its callees.
    pub callees_differing: Vec<Callee>,
    /// Functions of the timed loop's code (in crates built for the
    /// revisions, not the standard library) with indirect calls whose
    /// target reading the binary could not resolve (a pointer they were
    /// handed): code those calls reach was not compared, so the code is
    /// never said to be the same.
    pub not_followed: Vec<String>,
}

/// A function the timed loop calls, named for a reader.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Callee {
    /// Its name, demangled, without the symbol's hash
    /// (`hex::decode_to_slice`).
    pub name: String,
    /// Its size in bytes at the base revision and in the current code;
    /// `None` where that revision's loop does not reach it.
    pub bytes: [Option<u64>; 2],
    /// Whether the source of its crate differs between the revisions: then
    /// the change is the edit's, not code generation's.
    pub source_changed: bool,
}

/// Callees named in the note; the rest are counted.
const CALLEES_NAMED: usize = 2;

impl CompiledCode {
    /// Whether the timed loop or a function it reaches differs in compiled
    /// code between the revisions.
    pub fn differs(&self) -> bool {
        self.timed_loop_differs || !self.callees_differing.is_empty()
    }

    /// Whether both revisions run the same compiled code: nothing differs
    /// and all of it was compared (see [`CompiledCode::compared_whole`]).
    pub fn same(&self) -> bool {
        !self.differs() && self.compared_whole()
    }

    /// Whether the compiled code differs although the source does not.
    pub fn changed_alone(&self) -> bool {
        self.source_unchanged && self.differs()
    }

    /// Whether all the code the timed loop can reach was compared: no call
    /// in it went where reading the binary could not follow.
    pub fn compared_whole(&self) -> bool {
        self.not_followed.is_empty()
    }

    /// What the reader should know beside the verdict: that the compiled
    /// code changed alone, and why it may have; or that it could not be
    /// compared whole. Nothing for an edited function (its code is expected
    /// to change) or for the same code compared whole.
    pub fn note(&self) -> Option<String> {
        if !self.source_unchanged {
            return None;
        }
        let not_followed = self.not_followed_words();
        if !self.changed_alone() {
            return not_followed
                .map(|words| format!("Its compiled code could not be compared whole: {words}."));
        }
        let cause = if self
            .callees_differing
            .iter()
            .any(|callee| callee.source_changed)
        {
            " The crate of code it calls was edited between the revisions: the difference \
             comes from that edit, or from code generation, not from this function."
        } else {
            " The difference may come from code generation (how the compiler split its crate \
             into codegen units) or from code it calls, not from this function; \
             `codegen-units = 1` in `[profile.release]` at both revisions takes the split out of \
             the comparison."
        };
        let also = not_followed.map_or(String::new(), |words| {
            format!(" Nor could it be compared whole: {words}.")
        });
        Some(format!(
            "Its source is unchanged, but its compiled code is not: {}{}.{cause}{also}",
            self.timed_loop_words(),
            self.callees_words()
        ))
    }

    /// The timed loop's part of the note.
    fn timed_loop_words(&self) -> String {
        let [base, current] = self.timed_loop_bytes;
        match (self.timed_loop_differs, base == current) {
            (true, false) => format!(
                "the timed loop that inlines it is {base} bytes at the base revision, {current} now"
            ),
            (true, true) => format!(
                "the timed loop that inlines it is {base} bytes at both revisions, its \
                 instructions not the same"
            ),
            (false, _) => "the timed loop that inlines it is the same".to_string(),
        }
    }

    /// The callees' part of the note: the first few named, the rest
    /// counted.
    fn callees_words(&self) -> String {
        if self.callees_differing.is_empty() {
            return String::new();
        }
        let joint = if self.timed_loop_differs {
            "; and"
        } else {
            ", but"
        };
        let named: Vec<String> = self
            .callees_differing
            .iter()
            .map(Callee::described)
            .collect();
        format!("{joint} code it calls differs: {}", listed(&named))
    }

    /// The functions whose calls could not be followed, where there are.
    fn not_followed_words(&self) -> Option<String> {
        if self.compared_whole() {
            return None;
        }
        let named: Vec<String> = self
            .not_followed
            .iter()
            .map(|name| format!("`{name}`"))
            .collect();
        Some(format!(
            "{} calls through a pointer it was handed, which reading the binary cannot follow",
            listed(&named)
        ))
    }

    /// A few words for a table cell: `source unchanged, compiled code not`.
    pub fn short_note(&self) -> Option<&'static str> {
        if !self.source_unchanged {
            None
        } else if self.changed_alone() {
            Some("source unchanged, compiled code not")
        } else {
            (!self.compared_whole()).then_some("compiled code not compared whole")
        }
    }
}

/// The first [`CALLEES_NAMED`] of `names`, the rest counted: `a, b and 2
/// more`.
fn listed(names: &[String]) -> String {
    let shown = names[..names.len().min(CALLEES_NAMED)].join(", ");
    match names.len().saturating_sub(CALLEES_NAMED) {
        0 => shown,
        rest => format!("{shown} and {rest} more"),
    }
}

impl Callee {
    /// `hex::decode_to_slice` (451 bytes at the base revision, 341 now).
    fn described(&self) -> String {
        let sizes = match self.bytes {
            [Some(base), Some(current)] if base == current => {
                // A function's instructions, or the bytes of data it reads.
                format!("{base} bytes at both, not the same")
            }
            [Some(base), Some(current)] => {
                format!("{base} bytes at the base revision, {current} now")
            }
            [Some(_), None] => "called at the base revision only".to_string(),
            // A callee one of the two loops reaches.
            [None, _] => "called now only".to_string(),
        };
        let source = if self.source_changed {
            ", its crate's source changed"
        } else {
            ""
        };
        format!("`{}` ({sizes}{source})", self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(timed_loop_bytes: [u64; 2], timed_loop_differs: bool) -> CompiledCode {
        CompiledCode {
            source_unchanged: true,
            timed_loop_bytes,
            timed_loop_differs,
            callees_differing: vec![],
            not_followed: vec![],
        }
    }

    fn callee(name: &str, bytes: [Option<u64>; 2]) -> Callee {
        Callee {
            name: name.into(),
            bytes,
            source_changed: false,
        }
    }

    const ADVICE: &str = ". The difference may come from code generation (how the compiler split \
                          its crate into codegen units) or from code it calls, not from this \
                          function; `codegen-units = 1` in `[profile.release]` at both revisions \
                          takes the split out of the comparison.";

    #[test]
    fn a_change_of_size_alone_is_said_with_both_sizes_and_what_to_do() {
        let code = code([456, 546], true);
        assert_eq!(
            code.note().unwrap(),
            format!(
                "Its source is unchanged, but its compiled code is not: the timed loop that \
                 inlines it is 456 bytes at the base revision, 546 now{ADVICE}"
            )
        );
        assert_eq!(
            code.short_note(),
            Some("source unchanged, compiled code not")
        );
    }

    #[test]
    fn a_loop_of_the_same_size_with_other_instructions_is_said() {
        assert_eq!(
            code([513, 513], true).note().unwrap(),
            format!(
                "Its source is unchanged, but its compiled code is not: the timed loop that \
                 inlines it is 513 bytes at both revisions, its instructions not the same{ADVICE}"
            )
        );
    }

    #[test]
    fn callees_that_differ_are_named_the_first_two_and_the_rest_counted() {
        let mut same_loop = code([513, 513], false);
        same_loop.callees_differing = vec![callee(
            "hex::tracked::decode_to_slice",
            [Some(451), Some(341)],
        )];
        assert_eq!(
            same_loop.note().unwrap(),
            format!(
                "Its source is unchanged, but its compiled code is not: the timed loop that \
                 inlines it is the same, but code it calls differs: \
                 `hex::tracked::decode_to_slice` (451 bytes at the base revision, 341 \
                 now){ADVICE}"
            )
        );
        let mut both = code([495, 983], true);
        both.callees_differing = vec![
            callee("hex::val", [Some(40), Some(40)]),
            callee("hex::tracked::decode_to_slice", [Some(451), None]),
            callee("core::fmt::write", [None, Some(900)]),
            callee("alloc::fmt::format", [None, Some(100)]),
        ];
        assert_eq!(
            both.note().unwrap(),
            format!(
                "Its source is unchanged, but its compiled code is not: the timed loop that \
                 inlines it is 495 bytes at the base revision, 983 now; and code it calls \
                 differs: `hex::val` (40 bytes at both, not the same), \
                 `hex::tracked::decode_to_slice` (called at the base revision only) and 2 \
                 more{ADVICE}"
            )
        );
    }

    #[test]
    fn nothing_is_said_where_the_source_changed_or_the_code_did_not() {
        let mut edited = code([456, 546], true);
        edited.source_unchanged = false;
        edited.callees_differing = vec![callee("hex::val", [Some(40), Some(48)])];
        for code in [edited, code([456, 456], false)] {
            assert_eq!(code.note(), None, "{code:?}");
            assert_eq!(code.short_note(), None, "{code:?}");
        }
    }

    #[test]
    fn a_callee_whose_crate_was_edited_is_said_and_code_generation_not_blamed() {
        let mut code = code([495, 495], false);
        let mut edited = callee(
            "httparse::simd::avx2::match_header_value_vectored",
            [Some(190), Some(194)],
        );
        edited.source_changed = true;
        code.callees_differing = vec![edited];
        assert_eq!(
            code.note().unwrap(),
            "Its source is unchanged, but its compiled code is not: the timed loop that inlines \
             it is the same, but code it calls differs: \
             `httparse::simd::avx2::match_header_value_vectored` (190 bytes at the base \
             revision, 194 now, its crate's source changed). The crate of code it calls was \
             edited between the revisions: the difference comes from that edit, or from code \
             generation, not from this function."
        );
        assert!(!code.note().unwrap().contains("codegen-units"));
    }

    #[test]
    fn code_not_compared_whole_is_never_called_the_same() {
        let mut same = code([456, 456], false);
        same.not_followed = vec![
            "demo::visit".into(),
            "demo::walk".into(),
            "demo::run".into(),
        ];
        assert!(!same.compared_whole());
        assert_eq!(
            same.note().unwrap(),
            "Its compiled code could not be compared whole: `demo::visit`, `demo::walk` and 1 \
             more calls through a pointer it was handed, which reading the binary cannot follow."
        );
        assert_eq!(same.short_note(), Some("compiled code not compared whole"));
        let mut changed = code([456, 460], true);
        changed.not_followed = vec!["demo::visit".into()];
        assert_eq!(
            changed.note().unwrap(),
            format!(
                "Its source is unchanged, but its compiled code is not: the timed loop that \
                 inlines it is 456 bytes at the base revision, 460 now{ADVICE} Nor could it be \
                 compared whole: `demo::visit` calls through a pointer it was handed, which \
                 reading the binary cannot follow."
            )
        );
        assert_eq!(
            changed.short_note(),
            Some("source unchanged, compiled code not")
        );
    }
}
