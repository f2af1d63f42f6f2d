//! The one framing every message between a parent and a child of it takes,
//! both ways: a line of its own, `faster-frame/VERSION ` and the message as
//! JSON.
//!
//! A child's standard output also carries what is not ours — libtest's
//! `running 1 test`, a `println!` in user code — so a frame is told apart by
//! its prefix and everything else is kept aside for error messages. The
//! version is in every frame, and it is the only version of every channel
//! (a server's requests and answers, a one-shot child's result): a parent
//! and a child built from different versions of faster (`cargo faster` and
//! an old base revision) refuse each other's first frame by name instead of
//! misreading it.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The version of every message: raised whenever one changes shape, on
/// any channel. 2: frames of their own line. 3: the one version; the
/// listing of a revision's server no longer carries a protocol number of
/// its own (the last was 4). 4: a revision's server is asked to `digest` a
/// function's inputs and answers `digested` (they were `probe` and
/// `probed`). 5: a comparison's server answers with its slice's
/// measurement (`measurement`: no verdict, each process under its slot),
/// no longer with a report document (`report`). 6: the settings a server
/// is configured with carry the engine's knobs under `plan`; a failure
/// (`failed`) carries the error as it is, not its words.
pub const VERSION: u32 = 6;

/// Starts every frame, up to the version.
const PREFIX: &str = "faster-frame/";

/// `message` as one frame, without the line's end.
pub fn encode<T: Serialize>(message: &T) -> String {
    let json = serde_json::to_string(message).expect("a message of plain data serializes");
    format!("{PREFIX}{VERSION} {json}")
}

/// The message a line carries: `None` for a line that is not a frame, an
/// error for a frame of another version or one that cannot be read as `T`.
pub fn decode<T: DeserializeOwned>(line: &str) -> Option<Result<T, String>> {
    let framed = line.trim_end().strip_prefix(PREFIX)?;
    let (version, json) = framed.split_once(' ').unwrap_or((framed, ""));
    if version != VERSION.to_string() {
        return Some(Err(format!(
            "it speaks faster's framing version {version}, this process version {VERSION}: \
             build both with the same version of faster"
        )));
    }
    Some(
        serde_json::from_str(json)
            .map_err(|error| format!("its message could not be read: {error}")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_round_trips_and_other_lines_are_not_frames() {
        let line = encode(&vec![1_u32, 2]);
        assert_eq!(decode::<Vec<u32>>(&line), Some(Ok(vec![1, 2])));
        assert_eq!(
            decode::<Vec<u32>>(&format!("{line}\n")),
            Some(Ok(vec![1, 2]))
        );
        assert_eq!(decode::<Vec<u32>>("running 1 test"), None);
    }

    #[test]
    fn a_frame_of_another_version_or_shape_is_refused_by_name() {
        let old = decode::<Vec<u32>>("faster-frame/1 [1]")
            .unwrap()
            .unwrap_err();
        assert!(old.contains("framing version 1"), "{old}");
        let garbled = decode::<Vec<u32>>(&encode(&"text")).unwrap().unwrap_err();
        assert!(garbled.contains("could not be read"), "{garbled}");
    }
}
