//! `sightline army-code` from outside: the binary, its JSON, the army file it writes, its exit
//! codes and messages.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// The first public vector (nomads: unit 1091, profile group 1, option 3999), unpadded.
const CODE: &str = "gfUGbm9tYWRzASCBLAEBAQCEQwGPnwA";

fn data_path() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/army-data/invented-army.json").into()
}

fn army_code(args: &[&str]) -> (i32, Value, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_sightline")).arg("army-code").args(args).output().expect("run sightline");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), json, String::from_utf8_lossy(&out.stderr).to_string())
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sightline-army-code-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    dir.join(name)
}

#[test]
fn a_code_alone_is_decoded_to_its_ids() {
    let (code, json, err) = army_code(&[CODE]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json["code"]["sectorial_slug"], "nomads");
    assert_eq!(json["code"]["points_limit"], 300);
    let m = &json["code"]["groups"][0]["members"][0];
    assert_eq!(
        (m["unit_id"].as_u64(), m["group_id"].as_u64(), m["option_id"].as_u64()),
        (Some(1091), Some(1), Some(3999))
    );
    assert!(json.get("army").is_none(), "no army without data");
    assert_eq!(json["data_url"], "https://api.corvusbelli.com/army/units/en/501", "where nomads' data is");
}

#[test]
fn with_data_the_army_is_written_to_a_new_army_file_the_app_loads() {
    let out = temp("imported.json");
    let _ = std::fs::remove_file(&out);
    let out_s = out.to_string_lossy().to_string();
    let (code, json, err) = army_code(&[CODE, "--data", &data_path(), "--ids", "b", "--out", &out_s]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json["army"]["groups"][0]["troopers"][0]["id"], "b1");
    assert_eq!(json["written"], out_s.as_str());
    let army = sightline::store::load_army(&out).expect("an army file");
    let t = &army.groups[0].troopers[0];
    assert_eq!((t.id.as_str(), t.name.as_str(), t.points), ("b1", "LINER (Old Name)", 11));

    // Never over an existing file: refused, and the file is as it was.
    let before = std::fs::read(&out).expect("written");
    let (code, _, err) = army_code(&[CODE, "--data", &data_path(), "--ids", "c", "--out", &out_s]);
    assert_eq!(code, 2);
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(std::fs::read(&out).expect("still there"), before);
}

#[test]
fn bad_input_is_named_with_exit_2() {
    // Cut short: the place in the list is named.
    let (code, json, err) = army_code(&["gfUGbm9tYWRzASCBLAEBAQCE"]);
    assert_eq!((code, json), (2, Value::Null));
    assert!(err.contains("cut short") && err.contains("Combat Group 1, member 1 of 1"), "{err}");
    // Not army data: the file is named.
    let cargo = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let (code, _, err) = army_code(&[CODE, "--data", cargo]);
    assert_eq!(code, 2);
    assert!(err.contains("Cargo.toml") && err.contains("not JSON"), "{err}");
    // --out without --data.
    let (code, _, err) = army_code(&[CODE, "--out", "x.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("--out needs --data"), "{err}");
    // A member the data lacks: the Legacy code for unit 1091 option 3999 rewritten to unit 1092.
    let other = CODE.replace("AQCEQwGPnwA", "AQCERAGPnwA");
    let (code, _, err) = army_code(&[&other, "--data", &data_path()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unit 1092 is not in this army data"), "{err}");
}
