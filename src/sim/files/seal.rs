//! Checksums of JSON files a run reads back (checkpoints, shard tallies): the file's last key,
//! `checksum`, holds the FNV-1a 64 hash of every byte before it, so that an edited or damaged
//! byte is seen before the content is trusted.
//!
//! The rule, byte for byte: a sealed file is `BODY` followed by the suffix
//! `,"checksum":"fnv1a64:HHHHHHHHHHHHHHHH"}` (compact JSON) or
//! `,\n  "checksum": "fnv1a64:HHHHHHHHHHHHHHHH"\n}` (pretty JSON), where `BODY` is the JSON
//! object of the content without its closing brace and `H…` the 16 lowercase hexadecimal digits
//! of FNV-1a 64 over the bytes of `BODY`. The hash is the same on every platform.

/// FNV-1a 64: the offset basis and prime of the published definition.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The digest of some bytes as the files write it: `fnv1a64:` and 16 hexadecimal digits.
pub fn digest(bytes: &[u8]) -> String {
    format!("{PREFIX}{:016x}", fnv1a64(bytes))
}

/// What every digest starts with.
const PREFIX: &str = "fnv1a64:";

/// How the sealed JSON is laid out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One line (`serde_json::to_string`).
    Compact,
    /// Indented by two spaces (`serde_json::to_string_pretty`).
    Pretty,
}

impl Layout {
    /// The text before and after the digest in the suffix.
    fn around(self) -> (&'static str, &'static str) {
        match self {
            Layout::Compact => (",\"checksum\":\"", "\"}"),
            Layout::Pretty => (",\n  \"checksum\": \"", "\"\n}"),
        }
    }
}

/// Why a sealed file does not check.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    /// The file does not end with a `checksum` key of the expected form.
    #[error("missing or malformed (it must be the last key, \"fnv1a64:\" and 16 hex digits)")]
    Missing,
    /// The recorded digest is not that of the bytes before it.
    #[error("{recorded} recorded, but the content hashes to {computed}")]
    Mismatch {
        /// The digest the file holds.
        recorded: String,
        /// The digest of its content.
        computed: String,
    },
}

/// Seals `json`, one JSON object laid out as `layout` says, by appending its `checksum` key.
/// An empty object (`{}`) cannot be sealed this way and is returned as it is.
pub fn seal(json: &str, layout: Layout) -> String {
    let closing = match layout {
        Layout::Compact => "}",
        Layout::Pretty => "\n}",
    };
    let Some(body) = json.strip_suffix(closing).filter(|b| b.len() > 1) else {
        return json.to_string();
    };
    let (before, after) = layout.around();
    format!("{body}{before}{}{after}", digest(body.as_bytes()))
}

/// Whether `text` holds a `checksum` key at its end, in `layout` (not whether it checks).
pub fn is_sealed(text: &str, layout: Layout) -> bool {
    split(text, layout).is_some()
}

/// Checks that `text` is sealed in `layout` and that its digest is that of its body.
pub fn check(text: &str, layout: Layout) -> Result<(), SealError> {
    let (body, recorded) = split(text, layout).ok_or(SealError::Missing)?;
    let computed = digest(body.as_bytes());
    if computed != recorded {
        return Err(SealError::Mismatch {
            recorded: recorded.to_string(),
            computed,
        });
    }
    Ok(())
}

/// The body and the recorded digest of a sealed text.
fn split(text: &str, layout: Layout) -> Option<(&str, &str)> {
    let (before, after) = layout.around();
    let rest = text.strip_suffix(after)?;
    let cut = rest.len().checked_sub(PREFIX.len() + 16)?;
    let recorded = rest.get(cut..)?;
    let hex = recorded.strip_prefix(PREFIX)?;
    if !hex
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return None;
    }
    let body = rest[..cut].strip_suffix(before)?;
    Some((body, recorded))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_is_the_published_function() {
        // the test vectors of the FNV reference (draft-eastlake-fnv)
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn a_sealed_text_checks_and_any_edited_byte_does_not() {
        for (json, layout) in [
            (r#"{"a":1,"b":[2,3]}"#, Layout::Compact),
            ("{\n  \"a\": 1,\n  \"b\": 2\n}", Layout::Pretty),
        ] {
            let sealed = seal(json, layout);
            let body = json.trim_end_matches('}').trim_end();
            assert!(sealed.starts_with(body), "{sealed}");
            assert_eq!(check(&sealed, layout), Ok(()));
            serde_json::from_str::<serde_json::Value>(&sealed).expect("still JSON");
            for at in 0..sealed.len() {
                let mut bytes = sealed.clone().into_bytes();
                bytes[at] ^= 0x01;
                let Ok(edited) = String::from_utf8(bytes) else {
                    continue;
                };
                assert!(
                    check(&edited, layout).is_err(),
                    "byte {at} edited: {edited}"
                );
            }
            assert_eq!(check(json, layout), Err(SealError::Missing));
        }
    }
}
