//! Army codes against the 94 test vectors in `tests/fixtures/army-codes/vectors.json`: codes the
//! official army builder exported, found in public repositories, each with what it decodes to
//! (the file's README says where they come from). Every complete code must decode to exactly its
//! sectorial, name, points, layout, groups and members; the codes that carry an old Spec-Ops block
//! must say that a block was skipped; the cut-short and hand-made ones must be refused with a
//! message that says where.

use sightline::store::army_code::{CodeError, Layout, decode};

fn vectors() -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/army-codes/vectors.json"))
        .expect("the vectors file");
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    v["vectors"].as_array().expect("a vectors list").clone()
}

fn layout(name: &str) -> Layout {
    match name {
        "legacy" => Layout::Legacy,
        "v1" => Layout::V1,
        "v2" => Layout::V2,
        other => panic!("unknown layout {other}"),
    }
}

#[test]
fn every_complete_code_decodes_to_what_its_vector_says() {
    let (mut checked, mut skipped) = (0, 0);
    for (k, v) in vectors().iter().enumerate() {
        let status = v["status"].as_str().expect("status");
        if status != "ok" && status != "ok_heuristic" {
            continue;
        }
        let code = v["code"].as_str().expect("code");
        let want = &v["decoded"];
        let got = decode(code).unwrap_or_else(|e| panic!("vector {k} ({code}): {e}"));
        let at = format!("vector {k} ({code})");
        assert_eq!(u64::from(got.sectorial_id), want["sectorial_id"].as_u64().expect("id"), "{at}");
        assert_eq!(got.sectorial_slug, want["sectorial_slug"].as_str().expect("slug"), "{at}");
        assert_eq!(got.name, want["army_name"].as_str().expect("name"), "{at}");
        assert_eq!(u64::from(got.points_limit), want["points_limit"].as_u64().expect("points"), "{at}");
        assert_eq!(got.layout, layout(want["layout"].as_str().expect("layout")), "{at}");
        let groups = want["groups"].as_array().expect("groups");
        assert_eq!(got.groups.len(), groups.len(), "{at}");
        for (g, w) in got.groups.iter().zip(groups) {
            assert_eq!(u64::from(g.number), w["number"].as_u64().expect("number"), "{at}");
            assert_eq!(g.flag.map(u64::from), w["flag"].as_u64(), "{at}");
            assert_eq!(g.reinforcement, w["reinforcement"].as_bool(), "{at}");
            let members = w["members"].as_array().expect("members");
            assert_eq!(g.members.len() as u64, w["declared_members"].as_u64().expect("declared"), "{at}");
            assert_eq!(g.members.len(), members.len(), "{at}");
            for (m, wm) in g.members.iter().zip(members) {
                let ids = [m.slot, m.unit_id, m.group_id, m.option_id].map(u64::from);
                let want_ids = ["slot", "unit_id", "group_id", "option_id"].map(|f| wm[f].as_u64().expect("an id"));
                assert_eq!(ids, want_ids, "{at}");
                let want_ext = wm["extensions"].as_array().expect("extensions");
                let got_ext: Vec<serde_json::Value> =
                    m.extensions.iter().map(|list| serde_json::Value::Array(list.clone())).collect();
                assert_eq!(&got_ext, want_ext, "{at}");
            }
        }
        assert_eq!(got.skipped_block, status == "ok_heuristic", "{at}");
        skipped += usize::from(got.skipped_block);
        checked += 1;
    }
    assert_eq!((checked, skipped), (91, 3));
}

/// Where a source stated what its code holds (`unit-group-option` per Combat Group), the decoding
/// says the same, but for the one vector whose source's expectation ends in a misread member.
#[test]
fn decoded_codes_agree_with_what_their_sources_expected() {
    let (mut agree, mut disagree) = (0, 0);
    for v in vectors() {
        let expected = &v["expected_by_source"];
        if expected.is_null() {
            continue;
        }
        let got = decode(v["code"].as_str().expect("code")).expect("a code with an expectation reads");
        let ids = |g: &sightline::store::army_code::CodeGroup| -> Vec<String> {
            g.members.iter().map(|m| format!("{}-{}-{}", m.unit_id, m.group_id, m.option_id)).collect()
        };
        // (A source states its expectation per Combat Group, or as one list of every member.)
        let ours = if expected.is_array() {
            serde_json::Value::from(got.groups.iter().flat_map(ids).collect::<Vec<_>>())
        } else {
            serde_json::Value::Object(
                got.groups.iter().map(|g| (g.number.to_string(), serde_json::Value::from(ids(g)))).collect(),
            )
        };
        if &ours == expected {
            agree += 1;
        } else {
            disagree += 1;
            assert_eq!(v["matches_expected"].as_bool(), Some(false), "{}: {ours:?} against {expected:?}", v["code"]);
        }
    }
    assert_eq!((agree, disagree), (60, 1));
}

#[test]
fn cut_short_and_hand_made_codes_are_refused_saying_where() {
    let mut refused = 0;
    for v in vectors() {
        let status = v["status"].as_str().expect("status");
        if status != "partial" && status != "unreadable" {
            continue;
        }
        let code = v["code"].as_str().expect("code");
        let e = decode(code).expect_err("not a complete code");
        let CodeError::Unreadable(layouts) = &e else { panic!("{code}: {e}") };
        assert_eq!(layouts.len(), 3, "{code}: each layout tried");
        let text = e.to_string();
        assert!(text.contains("byte"), "{text}");
        if status == "partial" {
            // Both are cut short in a Combat Group: the message names it.
            assert!(text.contains("cut short") && text.contains("Combat Group"), "{text}");
        } else {
            assert!(text.contains("runs past the code's end"), "{text}");
        }
        refused += 1;
    }
    assert_eq!(refused, 3);
}

#[test]
fn a_code_is_read_however_it_was_pasted() {
    let plain = "gMkHeXUtamluZwEggSwBAQMAgqgBiSMAAICbAYIqAACAhQECAA==";
    let want = decode(plain).expect("a code");
    for pasted in [
        "gMkHeXUtamluZwEggSwBAQMAgqgBiSMAAICbAYIqAACAhQECAA",
        "gMkHeXUtamluZwEggSwBAQMAgqgBiSMAAICbAYIqAACAhQECAA%3D%3D",
        "  \"gMkHeXUtamluZwEggSwBAQMAgqgBiSMA\nAICbAYIqAACAhQECAA==\"\n",
        "https://infinitytheuniverse.com/army/list/gMkHeXUtamluZwEggSwBAQMAgqgBiSMAAICbAYIqAACAhQECAA%3D%3D",
        "https://infinitytheuniverse.com/army/list/gMkHeXUtamluZwEggSwBAQMAgqgBiSMAAICbAYIqAACAhQECAA?lang=en#top",
    ] {
        assert_eq!(decode(pasted).as_ref(), Ok(&want), "{pasted:?}");
    }
    assert_eq!(want.groups[0].members.len(), 3);
    for bad in ["", "   ", "not a code!", "%ZZ"] {
        let e = decode(bad).expect_err(bad);
        assert!(matches!(e, CodeError::NotBase64(_) | CodeError::Unreadable(_)), "{bad}: {e}");
        assert!(!e.to_string().is_empty());
    }
    // A saved list's short id (alone or in its link) is not a code, and is said to be one.
    for short in ["g6wpsm4Seh", "https://infinitytheuniverse.com/army/list/3296098999"] {
        let e = decode(short).expect_err(short).to_string();
        assert!(e.contains("is a saved list's short id") && e.contains("copy the code"), "{short}: {e}");
    }
    // A code whose last bytes are gone: cut short, named.
    let cut = decode("gMkHeXUtamluZwEggSwBAQMAgqgBiSMAAICbAYIq").expect_err("cut");
    assert!(cut.to_string().contains("cut short"), "{cut}");
}
