//! Army codes: the lists the official Infinity army builder exports as one line of text.
//!
//! A code is base64 (sometimes URL-encoded, sometimes without its `=` padding) of bytes where an
//! integer is one byte below 128, else two bytes with the top bit set (`((b0 & 0x7F) << 8) | b1`),
//! and a string is an integer length then UTF-8. The header gives the sectorial (id and slug),
//! the list's name, its points limit and how many Combat Groups follow. Each member of a group is
//! `(slot, unit id, profile group id, option id)`, the ids of Corvus Belli's army data, which is
//! not shipped with sightline.
//!
//! Three layouts of the groups exist, with no version field, so a code is read with each in turn
//! (the newest first) and the first that reads every byte wins:
//! - [`Layout::Legacy`] (2020): a group is its number and member count; a member ends with a 0.
//! - [`Layout::V1`] (2023): a group number, a flag byte (0/1), when the flag is 1 a
//!   reinforcement byte (0/1), then the member count; a member's slot counts up or is 0.
//! - [`Layout::V2`] (2026): as V1, and after each member's 0 a count of extension lists, each a
//!   count of JSON strings (a customised profile's changes, kept as they are).
//!
//! Old codes can carry a Spec-Ops customisation as an opaque block after a member's byte 1
//! instead of 0. Its structure is unknown: when no layout reads the code, V1 is tried again
//! skipping the shortest block after which the rest of the code reads to its end, and
//! [`ArmyCode::skipped_block`] says so.
//!
//! ```
//! use sightline::store::army_code::{decode, Layout};
//! let code = decode("gfUGbm9tYWRzASCBLAEBAQCEQwGPnwA=").expect("a builder code");
//! assert_eq!((code.sectorial_id, code.sectorial_slug.as_str()), (501, "nomads"));
//! assert_eq!((code.points_limit, code.layout), (300, Layout::Legacy));
//! let m = &code.groups[0].members[0];
//! assert_eq!((m.unit_id, m.group_id, m.option_id), (1091, 1, 3999));
//! ```

use base64::Engine as _;
use serde::Serialize;

/// How a code's Combat Groups are laid out (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// The 2020 layout: no flag, no reinforcement, no extensions.
    Legacy,
    /// The 2023 layout: a flag and an optional reinforcement byte per group.
    V1,
    /// The 2026 layout: V1 with extension lists per member.
    V2,
}

impl Layout {
    /// The order codes are read in: the newest layout first.
    const ALL: [Layout; 3] = [Layout::V2, Layout::V1, Layout::Legacy];

    /// Its name, as in messages.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Legacy => "legacy",
            Layout::V1 => "v1",
            Layout::V2 => "v2",
        }
    }
}

/// A decoded army code.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArmyCode {
    /// The builder's id of the army or sectorial army.
    pub sectorial_id: u16,
    /// Its slug ("nomads", "shock-army-of-acontecimento").
    pub sectorial_slug: String,
    /// The list's name as the player typed it (often a single space).
    pub name: String,
    /// The points limit (300 for most games).
    pub points_limit: u16,
    /// The layout the code was read with.
    pub layout: Layout,
    /// The Combat Groups, in order.
    pub groups: Vec<CodeGroup>,
    /// Whether an unknown block (an old Spec-Ops customisation) was skipped to read the code.
    pub skipped_block: bool,
}

/// One Combat Group of a code.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CodeGroup {
    /// Its number (1, 2, ...).
    pub number: u16,
    /// The group's flag byte (V1 and V2 only).
    pub flag: Option<u8>,
    /// Whether it is a reinforcement group (V1 and V2, when the flag is 1).
    pub reinforcement: Option<bool>,
    /// Its members, in order.
    pub members: Vec<CodeMember>,
}

/// One trooper of a Combat Group, by the ids of the builder's army data.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CodeMember {
    /// The slot byte: 0, or counting up from 1 (V1).
    pub slot: u16,
    /// The unit's id.
    pub unit_id: u16,
    /// The id of the unit's profile group the option belongs to.
    pub group_id: u16,
    /// The option's id within that group.
    pub option_id: u16,
    /// V2's extension lists: each a list of parsed JSON values (a customised profile's changes).
    pub extensions: Vec<Vec<serde_json::Value>>,
}

/// Why a code cannot be read: what each layout ran into, and where.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CodeError {
    /// The text is not base64.
    #[error("not an army code: {0} (copy the code from the army builder's share or export button)")]
    NotBase64(String),
    /// The bytes fit no layout.
    #[error("{}", unreadable_message(.0))]
    Unreadable(Vec<LayoutError>),
}

/// Where one layout stopped reading a code.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutError {
    /// The layout.
    pub layout: Layout,
    /// Byte offset (0-based) where it stopped.
    pub at: usize,
    /// What it found there.
    pub reason: String,
    /// Where in the list it was: "the header", "Combat Group 2, member 5 of 7".
    pub place: String,
}

fn unreadable_message(errors: &[LayoutError]) -> String {
    // The layout that read furthest is most likely the code's own; when every layout stopped at
    // the same place for the same reason, the layout does not matter.
    let Some(e) = errors.iter().max_by_key(|e| e.at) else { return "this army code cannot be read".into() };
    let alike = errors.iter().all(|o| (o.at, &o.reason) == (e.at, &e.reason));
    let how = if alike { String::new() } else { format!(", read as the {} layout", e.layout.name()) };
    if e.reason.starts_with("it ends after") {
        return format!("this army code is cut short: {} (in {}{how}); copy the whole code again", e.reason, e.place);
    }
    let others = if alike {
        String::new()
    } else {
        let others: Vec<String> = errors
            .iter()
            .filter(|o| o.layout != e.layout)
            .map(|o| format!("as {}: {} at byte {}", o.layout.name(), o.reason, o.at))
            .collect();
        format!("; {}", others.join("; "))
    };
    format!("this army code cannot be read: {} (in {}, byte {}{how}{others})", e.reason, e.place, e.at)
}

/// Decode an army code as the builder exports it (surrounding spaces and quotes, URL encoding
/// and missing `=` padding are accepted).
pub fn decode(text: &str) -> Result<ArmyCode, CodeError> {
    let bytes = code_bytes(text)?;
    let mut errors = Vec::new();
    for layout in Layout::ALL {
        match Reader::new(&bytes, layout, false).code() {
            Ok(code) => return Ok(code),
            Err(e) => errors.push(e),
        }
    }
    // An old Spec-Ops customisation's block: V1 again, skipping it.
    if let Ok(code) = Reader::new(&bytes, Layout::V1, true).code() {
        return Ok(code);
    }
    Err(CodeError::Unreadable(errors))
}

/// The bytes of a code's text. A share link (`https://infinitytheuniverse.com/army/list/CODE`)
/// gives its last segment.
fn code_bytes(text: &str) -> Result<Vec<u8>, CodeError> {
    let mut trimmed = text.trim().trim_matches(|c| c == '"' || c == '\'');
    if let Some((_, tail)) = trimmed.split_once("/army/list/") {
        trimmed = tail.split(['?', '#', '/']).next().unwrap_or_default();
    }
    // (A list saved on the builder's server is shared by a short id, which only the server can
    // turn into a list; a code is at least a header: ids, the army's slug, the points.)
    if (1..=12).contains(&trimmed.len()) && trimmed.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(CodeError::NotBase64(format!(
            "\"{trimmed}\" is a saved list's short id, which only the army builder's server can read"
        )));
    }
    let unescaped = percent_encoding::percent_decode_str(trimmed)
        .decode_utf8()
        .map_err(|_| CodeError::NotBase64("its %-escapes are not UTF-8".into()))?;
    // (The URL-safe alphabet's two letters, and no spaces or line breaks a mail client added.)
    let text: String = unescaped
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .collect();
    if text.is_empty() {
        return Err(CodeError::NotBase64("it is empty".into()));
    }
    let engine = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    );
    engine.decode(text.as_bytes()).map_err(|e| CodeError::NotBase64(e.to_string()))
}

/// A reading of a code's bytes in one layout.
struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
    layout: Layout,
    /// Whether a member's trailing byte 1 may be followed by an unknown block, skipped.
    skip_blocks: bool,
    skipped: bool,
    /// Where the reading is, for messages: (group index, member index, members declared).
    place: Option<(usize, usize, usize)>,
}

/// A failed read: where, and what was found.
type Stop = (usize, String);

impl<'b> Reader<'b> {
    fn new(bytes: &'b [u8], layout: Layout, skip_blocks: bool) -> Self {
        Self { bytes, at: 0, layout, skip_blocks, skipped: false, place: None }
    }

    fn code(mut self) -> Result<ArmyCode, LayoutError> {
        match self.read() {
            Ok(code) => Ok(code),
            Err((at, reason)) => Err(LayoutError {
                layout: self.layout,
                at,
                reason,
                place: match self.place {
                    None => "the header".into(),
                    Some((g, m, n)) if m < n => format!("Combat Group {}, member {} of {n}", g + 1, m + 1),
                    Some((g, _, _)) => format!("Combat Group {}", g + 1),
                },
            }),
        }
    }

    fn read(&mut self) -> Result<ArmyCode, Stop> {
        let sectorial_id = self.int()?;
        let sectorial_slug = self.string()?;
        let name = self.string()?;
        let points_limit = self.int()?;
        let count = usize::from(self.int()?);
        let mut groups = Vec::with_capacity(count.min(16));
        self.groups(0, count, &mut groups)?;
        if self.at != self.bytes.len() {
            return Err((
                self.at,
                format!("{} bytes are left over after the last Combat Group", self.bytes.len() - self.at),
            ));
        }
        Ok(ArmyCode {
            sectorial_id,
            sectorial_slug,
            name,
            points_limit,
            layout: self.layout,
            groups,
            skipped_block: self.skipped,
        })
    }

    /// Groups `from..count` into `out` (the group at `from` begun already when `out` holds it).
    fn groups(&mut self, from: usize, count: usize, out: &mut Vec<CodeGroup>) -> Result<(), Stop> {
        for g in from..count {
            let (first, declared) = if out.len() > g {
                (out[g].members.len(), self.place.map_or(0, |p| p.2))
            } else {
                self.place = Some((g, 0, 0));
                let number = self.int()?;
                let (flag, reinforcement) = match self.layout {
                    Layout::Legacy => (None, None),
                    Layout::V1 | Layout::V2 => {
                        let flag = self.flag("group flag")?;
                        let reinforcement = if flag == 1 { Some(self.flag("reinforcement")? == 1) } else { None };
                        (Some(flag), reinforcement)
                    }
                };
                let declared = usize::from(self.int()?);
                out.push(CodeGroup { number, flag, reinforcement, members: Vec::with_capacity(declared.min(16)) });
                (0, declared)
            };
            for m in first..declared {
                self.place = Some((g, m, declared));
                let member = self.member(g, m, (count, declared), out)?;
                out[g].members.push(member);
            }
            self.place = Some((g, declared, declared));
        }
        Ok(())
    }

    fn member(
        &mut self,
        g: usize,
        m: usize,
        (count, declared): (usize, usize),
        groups: &[CodeGroup],
    ) -> Result<CodeMember, Stop> {
        let slot = self.int()?;
        let unit_id = self.int()?;
        let group_id = self.int()?;
        let option_id = self.int()?;
        let member = |extensions| CodeMember { slot, unit_id, group_id, option_id, extensions };
        let end = self.byte()?;
        if end == 1 && self.skip_blocks {
            // The shortest skip after which the rest of the code reads to its end.
            let this = member(Vec::new());
            for skip in 0..=self.bytes.len() - self.at {
                let mut rest = Reader { at: self.at + skip, skip_blocks: false, ..*self };
                let mut tail: Vec<CodeGroup> = groups.to_vec();
                tail[g].members.push(this.clone());
                let (next_g, next_m) = if m + 1 < declared { (g, m + 1) } else { (g + 1, 0) };
                rest.place = Some((next_g, next_m, declared));
                if rest.groups(next_g, count, &mut tail).is_ok() && rest.at == rest.bytes.len() {
                    self.at += skip;
                    self.skipped = true;
                    return Ok(this);
                }
            }
        }
        if end != 0 {
            return Err((self.at - 1, format!("a member ends with byte {end}, not 0")));
        }
        let mut extensions = Vec::new();
        if self.layout == Layout::V2 {
            for _ in 0..self.int()? {
                let n = self.int()?;
                let mut list = Vec::with_capacity(usize::from(n).min(8));
                for _ in 0..n {
                    let at = self.at;
                    let text = self.string()?;
                    let value =
                        serde_json::from_str(&text).map_err(|e| (at, format!("an extension is not JSON ({e})")))?;
                    list.push(value);
                }
                extensions.push(list);
            }
        }
        Ok(member(extensions))
    }

    fn byte(&mut self) -> Result<u8, Stop> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| (self.at, format!("it ends after {} bytes where more was to come", self.bytes.len())))?;
        self.at += 1;
        Ok(b)
    }

    fn flag(&mut self, what: &str) -> Result<u8, Stop> {
        let b = self.byte()?;
        if b > 1 {
            return Err((self.at - 1, format!("the {what} byte is {b}, not 0 or 1")));
        }
        Ok(b)
    }

    fn int(&mut self) -> Result<u16, Stop> {
        let b0 = self.byte()?;
        if b0 < 0x80 {
            return Ok(u16::from(b0));
        }
        Ok((u16::from(b0 & 0x7F) << 8) | u16::from(self.byte()?))
    }

    fn string(&mut self) -> Result<String, Stop> {
        let len = usize::from(self.int()?);
        let start = self.at;
        let Some(raw) = self.bytes.get(start..start + len) else {
            return Err((
                start,
                format!("a text of {len} bytes runs past the code's end ({} bytes)", self.bytes.len()),
            ));
        };
        self.at += len;
        String::from_utf8(raw.to_vec()).map_err(|_| (start, "a text is not UTF-8".into()))
    }
}
