//! Reading the JSON files sightline takes (scenes, setups, game files, army files, army data)
//! with messages for the person who wrote them: the field, by its path, and what is wrong with
//! it in words rather than in the names of the Rust types that read it.

/// Why a JSON text could not be read as the type asked for.
#[derive(Debug)]
pub(crate) struct JsonError {
    /// The field's path, such as `troopers[0].x`, when the error is inside the text's top
    /// object; `None` for the text as a whole.
    pub at: Option<String>,
    /// serde_json's error.
    pub error: serde_json::Error,
    /// Whether the text is well-formed JSON (so the error is about what a value is, not how it
    /// is written).
    pub well_formed: bool,
}

impl JsonError {
    /// What is wrong, said for the person who wrote the file:
    /// - where a list is longer than the field takes (`[x, y, z]` for a point), "more elements
    ///   than it takes" rather than serde_json's "trailing characters" (which means text after
    ///   the end only at the top);
    /// - where a field that takes one of a set of names holds a number, a list or `true`, "expected
    ///   one of its names, as a string" rather than serde_json's "expected value" (which means
    ///   a value missing only in a text that is not well-formed);
    /// - "an object", "a list", "a number", "a whole number from 0 to 255" rather than the names of
    ///   the Rust types that read them ("struct RawTrooper", "sequence", "f64", "u8");
    /// - the place as serde_json gives it ("at line L column C"), or as "(column C)" for a
    ///   document on one line of a file whose line the caller names (`one_line`).
    ///
    /// The field's path is not in it (see [`JsonError::at`]).
    pub fn message(&self, one_line: bool) -> String {
        let e = &self.error;
        let text = e.to_string();
        let what = match text.rfind(" at line ") {
            Some(k) if e.line() > 0 => &text[..k],
            _ => text.as_str(),
        };
        let mut what = match what {
            "trailing characters" if self.at.is_some() => "more elements than it takes".to_string(),
            "expected value" if self.at.is_some() && self.well_formed => {
                "expected one of its names, as a string".into()
            }
            _ => what.to_string(),
        };
        // (Each a type's name as serde writes it, followed by the end or a non-word character.)
        for (rust, said) in [
            ("expected internally tagged enum ", "expected an object"),
            ("expected tuple struct ", "expected a list"),
            ("expected struct ", "expected an object"),
        ] {
            while let Some(k) = what.find(rust) {
                let from = k + rust.len();
                let to = what[from..].find(|c: char| !c.is_alphanumeric() && c != '_').map_or(what.len(), |n| from + n);
                what.replace_range(k..to, said);
            }
        }
        for (rust, said) in [
            ("invalid type: sequence", "invalid type: list"),
            ("invalid type: map", "invalid type: object"),
            ("expected a sequence", "expected a list"),
            ("elements in sequence", "elements in the list"),
            ("expected a tuple of size", "expected a list of length"),
            ("expected variant identifier", "expected a name, as a string"),
            ("expected string or map", "expected a string or an object"),
            ("expected f64", "expected a number"),
            ("expected f32", "expected a number"),
            ("expected u8", "expected a whole number from 0 to 255"),
            ("expected u16", "expected a whole number from 0 to 65535"),
            ("expected u32", "expected a whole number from 0 to 4294967295"),
            ("expected u64", "expected a whole number, 0 or more"),
            ("expected usize", "expected a whole number, 0 or more"),
        ] {
            let mut from = 0;
            while let Some(k) = what[from..].find(rust).map(|k| from + k) {
                let end = k + rust.len();
                // (Whole words only: "u16" is not "u1".)
                if what[end..].starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                    from = end;
                    continue;
                }
                what.replace_range(k..end, said);
                from = k + said.len();
            }
        }
        match (e.line(), one_line) {
            (0, _) => what,
            (_, true) => format!("{what} (column {})", e.column()),
            (line, false) => format!("{what} at line {line} column {}", e.column()),
        }
    }
}

impl JsonError {
    /// [`JsonError::message`] after the field's path, when there is one (`troopers[0].x: …`).
    pub fn described(&self, one_line: bool) -> String {
        let message = self.message(one_line);
        match &self.at {
            Some(at) => format!("{at}: {message}"),
            None => message,
        }
    }
}

/// `text` read as JSON of type `T`, or why not ([`JsonError`]).
pub(crate) fn read_json_at<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, JsonError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let failed = |at: Option<String>, error: serde_json::Error| JsonError {
        at,
        error,
        well_formed: serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok(),
    };
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let at = e.path().to_string();
        failed((at != ".").then_some(at), e.into_inner())
    })?;
    de.end().map_err(|e| failed(None, e))?;
    Ok(value)
}

/// `text` read as JSON of type `T`; on an error, where it is ([`JsonError::at`]) and what is
/// wrong ([`JsonError::message`], with the line and column).
pub(crate) fn from_json_at<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, (Option<String>, String)> {
    read_json_at(text).map_err(|e| {
        let message = e.message(false);
        (e.at, message)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Point {
        #[allow(dead_code)]
        at: (f64, f64),
        #[allow(dead_code)]
        #[serde(default)]
        side: Option<Side>,
        #[allow(dead_code)]
        #[serde(default)]
        silhouette: u8,
    }

    #[derive(Debug, Deserialize)]
    enum Side {
        A,
        B,
    }

    #[derive(Debug, Deserialize)]
    struct Doc {
        #[allow(dead_code)]
        points: Vec<Point>,
    }

    fn refusal(text: &str) -> (Option<String>, String) {
        from_json_at::<Doc>(text).expect_err("a bad document")
    }

    #[test]
    fn a_point_with_three_numbers_has_more_elements_than_it_takes() {
        let (at, m) = refusal(r#"{"points": [{"at": [1, 2, 3]}]}"#);
        assert_eq!(at.as_deref(), Some("points[0].at"));
        assert!(m.starts_with("more elements than it takes at line 1 column"), "{m}");
        // Text after the document is still "trailing characters".
        let (at, m) = refusal(r#"{"points": []} x"#);
        assert_eq!(at, None);
        assert!(m.starts_with("trailing characters"), "{m}");
    }

    #[test]
    fn a_name_field_holding_a_number_is_asked_for_a_name() {
        let (at, m) = refusal(r#"{"points": [{"at": [1, 2], "side": 7}]}"#);
        assert_eq!(at.as_deref(), Some("points[0].side"));
        assert!(m.starts_with("expected one of its names, as a string"), "{m}");
        // A value missing from a text that is not JSON is still "expected value".
        let (_, m) = refusal(r#"{"points": [{"at": [1, 2], "side": }]}"#);
        assert!(m.starts_with("expected value"), "{m}");
    }

    #[test]
    fn rust_type_names_are_said_in_words() {
        let (_, m) = refusal(r#"{"points": [7]}"#);
        assert!(m.starts_with("invalid type: integer `7`, expected an object at line 1"), "{m}");
        let (_, m) = refusal(r#"{"points": [{"at": {"x": 1}}]}"#);
        assert!(m.starts_with("invalid type: object, expected a list of length 2"), "{m}");
        let (_, m) = refusal(r#"{"points": [{"at": ["a", 1]}]}"#);
        assert!(m.starts_with("invalid type: string \"a\", expected a number"), "{m}");
        let (_, m) = refusal(r#"{"points": [{"at": [1, 2], "silhouette": 300}]}"#);
        assert!(m.starts_with("invalid value: integer `300`, expected a whole number from 0 to 255"), "{m}");
        let (_, m) = refusal(r#"{"points": {"a": 1}}"#);
        assert!(m.starts_with("invalid type: object, expected a list"), "{m}");
    }

    #[test]
    fn a_one_line_document_gives_its_column_only() {
        let e = read_json_at::<Doc>(r#"{"points": [{"at": [1, "x"]}]}"#).expect_err("a string for a number");
        assert_eq!(e.message(true), "invalid type: string \"x\", expected a number (column 26)");
    }
}
