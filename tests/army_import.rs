//! Army codes turned into armies with army data in the builder's format (an invented army:
//! `tests/fixtures/army-data/README.md`).

use sightline::geometry::Silhouette;
use sightline::rules::{
    Ability, Army, FireteamKind, FireteamLimits, LieutenantOption, Setup, State, Training, TrooperSetup,
};
use sightline::store::army_code::decode;

mod common;
use common::army_code as code;
use sightline::store::army_data::{ArmyData, army_from_code};

const DATA: &str = include_str!("fixtures/army-data/invented-army.json");

fn data() -> ArmyData {
    ArmyData::from_json(DATA).expect("the invented army data")
}

fn find<'a>(troopers: &'a [TrooperSetup], id: &str) -> &'a TrooperSetup {
    troopers.iter().find(|t| t.id == id).unwrap_or_else(|| panic!("no trooper {id}"))
}

#[test]
fn a_public_builder_code_becomes_the_trooper_its_data_describes() {
    // The first public vector: nomads, one group, unit 1091 profile group 1 option 3999.
    let code = decode("gfUGbm9tYWRzASCBLAEBAQCEQwGPnwA=").expect("a builder code");
    let imported = army_from_code(&code, &data(), "b").expect("every member is in the data");
    let army = &imported.army;
    assert_eq!(army.groups.len(), 1);
    let t = &army.groups[0].troopers[0];
    assert_eq!(t.id, "b1");
    assert_eq!(t.name, "LINER (Old Name)", "the option's name, its spaces tidied");
    assert_eq!(t.silhouette, Silhouette::S2);
    assert_eq!(t.training, Training::Regular);
    assert_eq!(t.points, 11);
    assert_eq!(t.mov, Some([4.0, 2.0]), "MOV 10-5 cm is 4-2 inches");
    assert!(t.abilities.is_empty() && t.states.is_empty() && t.position.is_none());
    assert!(imported.notes.iter().any(|n| n.contains("no Fireteams")), "{:?}", imported.notes);
    assert_eq!(imported.title, "nomads, 300 points", "a list named \" \" has no name");
}

#[test]
fn each_member_becomes_the_trooper_its_profile_and_option_say() {
    let list = code(&[
        &[(1091, 1, 1), (1091, 1, 3), (1091, 1, 4), (1091, 1, 5), (2000, 1, 1)],
        &[(3000, 1, 1), (4000, 1, 1), (5000, 1, 1)],
    ]);
    let imported = army_from_code(&list, &data(), "a").expect("every member is in the data");
    let groups = &imported.army.groups;
    assert_eq!(groups.len(), 2);
    let ids: Vec<Vec<&str>> = groups.iter().map(|g| g.troopers.iter().map(|t| t.id.as_str()).collect()).collect();
    // The walker (a6) brings two drones (a7, a8); its pilot is left out; then the shifter, the twin.
    assert_eq!(ids, [vec!["a1", "a2", "a3", "a4", "a5"], vec!["a6", "a7", "a8", "a9", "a10"]]);
    let all: Vec<TrooperSetup> = groups.iter().flat_map(|g| g.troopers.clone()).collect();

    let plain = find(&all, "a1");
    assert_eq!((plain.name.as_str(), plain.points), ("LINER", 10));
    assert!(plain.abilities.is_empty() && plain.lieutenant_option.is_none());

    let lt = find(&all, "a2");
    assert_eq!(lt.abilities, [Ability::Lieutenant]);
    assert_eq!(lt.lieutenant_option, Some(LieutenantOption::ExtraOrder), "the \"+1 Order\" extra");

    assert_eq!(find(&all, "a3").abilities, [Ability::Hacker], "a Killer Hacking Device makes a Hacker");
    assert_eq!(find(&all, "a4").abilities, [Ability::Repeater, Ability::Arc360], "a Repeater and a 360º Visor");
    let more = army_from_code(&code(&[&[(1091, 1, 6), (1091, 1, 7)]]), &data(), "x").expect("in the data");
    let t = &more.army.groups[0].troopers;
    assert_eq!(t[0].abilities, [Ability::DeploysOutsideZone], "Airborne Infiltration");
    assert_eq!(t[1].abilities, [Ability::Infiltration], "Superior Infiltration");

    let scout = find(&all, "a5");
    assert_eq!(scout.training, Training::Irregular);
    assert_eq!(scout.abilities, [Ability::Impetuous, Ability::ForwardDeployment8, Ability::Infiltration]);
    assert_eq!(scout.states, [State::Camouflaged]);

    let walker = find(&all, "a6");
    assert_eq!((walker.silhouette, walker.mov), (Silhouette::S7, Some([6.0, 4.0])));
    assert_eq!(walker.abilities, [Ability::TacticalAwareness, Ability::IgnoresRetreat]);
    for drone in ["a7", "a8"] {
        let d = find(&all, drone);
        assert_eq!(d.peripheral_of.as_deref(), Some("a6"), "{drone} is the walker's Peripheral");
        assert_eq!((d.name.as_str(), d.silhouette), ("DRONE", Silhouette::S1));
        assert_eq!(d.points, 0, "a Peripheral's points are in its Controller's option");
        assert_eq!(d.abilities, [Ability::Rem]);
    }
    assert!(!all.iter().any(|t| t.name == "PILOT"), "a pilot is not on the table at the start");

    let shifter = find(&all, "a9");
    assert_eq!(shifter.silhouette, Silhouette::S2, "the first of its two profiles");
    assert_eq!(
        shifter.abilities,
        [
            Ability::Nco,
            Ability::TacticalAwareness,
            Ability::SixthSense,
            Ability::Hacker,
            Ability::StrategicDeployment,
            Ability::Stealth,
            Ability::SuperJump,
            Ability::ClimbingPlus,
            Ability::Berserk,
        ]
    );

    let twin = find(&all, "a10");
    assert_eq!(twin.lieutenant_option, Some(LieutenantOption::ExtraCommandToken));
    assert_eq!(twin.abilities, [Ability::Lieutenant, Ability::DeploysOutsideZone, Ability::Impersonation]);
    assert_eq!(twin.states, [State::OtherMarker]);

    let notes = imported.notes.join("\n");
    for said in [
        "WALKER (a6) comes with PILOT, who is not a Peripheral",
        "SHIFTER (a9) has 2 profiles",
        "SCOUT (a5) starts as a Camouflage marker",
        "TWIN (a10) starts as an Impersonation marker",
    ] {
        assert!(notes.contains(said), "the notes say {said:?}:\n{notes}");
    }
}

#[test]
fn a_team_sold_as_one_option_becomes_its_troopers() {
    // Assumption TEAM_OPTION: the team's option id, with a profile group the unit does not have.
    let imported = army_from_code(&code(&[&[(6000, 0, 1), (6000, 0, 2)]]), &data(), "a").expect("a team option");
    let t: Vec<(&str, &str, u32, Option<&str>)> = imported.army.groups[0]
        .troopers
        .iter()
        .map(|t| (t.id.as_str(), t.name.as_str(), t.points, t.peripheral_of.as_deref()))
        .collect();
    assert_eq!(
        t,
        [
            ("a1", "RIG", 30, None),
            ("a2", "BOT", 0, Some("a1")),
            ("a3", "MECHANIC", 15, None),
            ("a4", "RIG", 30, None),
            ("a5", "BOT", 0, Some("a4")),
            ("a6", "MECHANIC", 15, None),
        ]
    );
    // The first team's troopers add up to its price; the second's do not, and that is said.
    let priced: Vec<&String> = imported.notes.iter().filter(|n| n.contains("points add up to")).collect();
    assert_eq!(priced.len(), 1, "{:?}", imported.notes);
    assert!(priced[0].contains("RIG & MECHANIC (old price): its troopers' points add up to 45, the team's to 50"));
    // An option id that is neither the group's nor a team's is refused as before.
    let e = army_from_code(&code(&[&[(6000, 0, 9)]]), &data(), "a").expect_err("no option 9");
    assert!(e.to_string().contains("has no profile group 0"), "{e}");
}

#[test]
fn an_imported_list_joins_a_setup_the_rules_accept() {
    let setup_text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/setup-small.json"))
        .expect("the small setup");
    let mut setup = Setup::from_json(&setup_text).expect("a setup");
    let imported = army_from_code(&code(&[&[(1091, 1, 2), (1091, 1, 1), (3000, 1, 1)]]), &data(), "a")
        .expect("every member is in the data");
    let (army, _) = imported.army.renamed_apart_from(&setup.armies.b);
    setup.armies.a = army;
    setup.validate().expect("one Lieutenant, a Peripheral beside its Controller: a legal list");
    // Two Lieutenants are not: the rules, not the import, refuse them.
    let two = army_from_code(&code(&[&[(1091, 1, 2), (5000, 1, 1)]]), &data(), "a").expect("in the data");
    setup.armies.a = two.army.renamed_apart_from(&setup.armies.b).0;
    let e = setup.validate().expect_err("two Lieutenants");
    assert!(e.to_string().contains("two Lieutenants"), "{e}");
}

#[test]
fn a_customised_profile_is_imported_as_the_data_has_it_and_said() {
    let mut c = code(&[&[(1091, 1, 1), (1091, 1, 2)]]);
    c.groups[0].members[1].extensions = vec![vec![serde_json::json!({"skills": [{"id": 164}]})]];
    let imported = army_from_code(&c, &data(), "a").expect("in the data");
    assert_eq!(imported.army.groups[0].troopers[1].abilities, [Ability::Lieutenant], "the data's profile, unchanged");
    let said: Vec<&String> = imported.notes.iter().filter(|n| n.contains("customises")).collect();
    assert_eq!(said.len(), 1, "{:?}", imported.notes);
    assert!(said[0].starts_with("Combat Group 1, member 2:"), "{}", said[0]);
    c.skipped_block = true;
    let imported = army_from_code(&c, &data(), "a").expect("in the data");
    assert!(imported.notes.iter().any(|n| n.contains("old Spec-Ops customisation, skipped")), "{:?}", imported.notes);
}

#[test]
fn reinforcement_and_empty_groups_are_left_out_and_said() {
    let mut c = code(&[&[(1091, 1, 2)], &[], &[(1091, 1, 1), (2000, 1, 1)]]);
    c.groups[2].flag = Some(1);
    c.groups[2].reinforcement = Some(true);
    let imported = army_from_code(&c, &data(), "a").expect("in the data");
    assert_eq!(imported.army.groups.len(), 1);
    assert_eq!(imported.army.groups[0].troopers.len(), 1);
    assert!(
        imported.notes.iter().any(|n| n.contains("Combat Group 3 is a Reinforcement group (2 troopers)")),
        "{:?}",
        imported.notes
    );
}

#[test]
fn a_member_the_data_lacks_is_refused_naming_it() {
    let data = data();
    let e = army_from_code(&code(&[&[(1091, 1, 1)], &[(1091, 1, 1), (7777, 1, 1)]]), &data, "a")
        .expect_err("unit 7777 is not in the data");
    assert!(e.place.starts_with("Combat Group 2, member 2 of 2 (unit 7777"), "{e}");
    assert!(e.reason.contains("unit 7777 is not in this army data") && e.reason.contains("invented"), "{e}");

    let e = army_from_code(&code(&[&[(1091, 1, 42)]]), &data, "a").expect_err("no option 42");
    assert!(e.to_string().contains("has no option 42"), "{e}");
    let e = army_from_code(&code(&[&[(1091, 9, 1)]]), &data, "a").expect_err("no profile group 9");
    assert!(e.to_string().contains("has no profile group 9"), "{e}");
}

#[test]
fn bad_army_data_is_refused_naming_the_field() {
    let e = ArmyData::from_json("{\"units\": 3}").expect_err("units is not a list");
    assert_eq!(e.at, "units", "{e}");
    let e = ArmyData::from_json("not json").expect_err("not JSON");
    assert!(e.to_string().contains("army data"), "{e}");
    let e = ArmyData::from_json("{\"units\": []}").expect_err("no units");
    assert!(e.to_string().contains("no units"), "{e}");
    // A setup file is not army data.
    let setup_text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/setup-small.json"))
        .expect("the small setup");
    assert!(ArmyData::from_json(&setup_text).is_err());

    // Names are matched in English: data in another language, or without its names, is refused.
    let spanish = DATA.replacen("\"name\": \"Lieutenant\"", "\"name\": \"Teniente\"", 1);
    assert_ne!(spanish, DATA, "the fixture names Lieutenant");
    let e = ArmyData::from_json(&spanish).expect_err("not English");
    assert!(e.at == "filters.skills" && e.reason.contains("English"), "{e}");
    let e = ArmyData::from_json("{\"units\": [{\"id\": 1}]}").expect_err("no names");
    assert!(e.at == "filters.skills" && e.reason.contains("missing"), "{e}");
    // A Silhouette the rules do not have: read, then refused on the member that uses it.
    let bad = DATA.replacen("\"s\": 2", "\"s\": 9", 1);
    assert_ne!(bad, DATA, "the fixture writes \"s\": 2");
    let data = ArmyData::from_json(&bad).expect("s is a number");
    let e = army_from_code(&code(&[&[(1091, 1, 1)]]), &data, "a").expect_err("S9");
    assert!(e.to_string().contains("9 is not an N4 Silhouette"), "{e}");
    let e = ArmyData::from_json(&DATA.replacen("\"s\": 2", "\"s\": \"two\"", 1)).expect_err("s is text");
    assert!(e.at.starts_with("units[0].profileGroups[0].profiles[0].s"), "{e}");
}

/// The army made from `members` (unit, profile group, option) of the invented data with `chart`
/// as its `fireteamChart` (the fixture's own is empty).
fn imported_with_chart(chart: &str, members: &[(u16, u16, u16)]) -> sightline::store::army_data::Imported {
    let text = DATA.replacen("\"fireteamChart\": {}", &format!("\"fireteamChart\": {chart}"), 1);
    assert_ne!(text, DATA, "the fixture has an empty chart");
    let data = ArmyData::from_json(&text).expect("army data with a chart");
    army_from_code(&code(&[members]), &data, "a").expect("an army")
}

/// The army data's Fireteams Chart (`fireteamChart.spec`) gives the army how many Fireteams of
/// each type it may have on the table (digest §7, the 2022 chart); a chart that cannot be read
/// costs only its numbers, said in the notes.
#[test]
fn the_fireteams_chart_s_numbers_become_the_army_s_limits() {
    let with_chart = |chart: &str| imported_with_chart(chart, &[(1091, 1, 1)]);
    let chart = r#"{"spec": {"CORE": 1, "HARIS": "2", "DUO": 256}, "desc": "",
        "teams": [{"name": "Invented Fireteam", "type": ["CORE", "HARIS", "DUO"],
                   "units": [{"name": "INVENTED LINE TROOPERS", "slug": "invented-line", "min": 0, "max": 5}]}]}"#;
    let imported = with_chart(chart);
    let limits = imported.army.fireteam_limits;
    assert_eq!(limits, FireteamLimits { core: Some(1), haris: Some(2), duo: Some(256) });
    assert!(
        imported
            .notes
            .iter()
            .any(|n| n.contains("Fireteams Chart") && n.contains("at most 1 Core, 2 Haris and 256 Duos")),
        "{:?}",
        imported.notes
    );
    // Kept in the army file.
    let again = Army::from_file_json(&imported.army.to_file_json()).expect("the army file");
    assert_eq!(again.fireteam_limits, limits);
    // A type the chart leaves out keeps its default.
    let imported = with_chart(r#"{"spec": {"HARIS": 2}}"#);
    assert_eq!(imported.army.fireteam_limits, FireteamLimits { haris: Some(2), ..FireteamLimits::default() });
    // A chart that cannot be read: the defaults, and the notes say why.
    for bad in [r#"{"spec": {"HARIS": "two"}}"#, r#"{"teams": []}"#] {
        let imported = with_chart(bad);
        assert!(imported.army.fireteam_limits.is_unset());
        let said: Vec<&String> = imported.notes.iter().filter(|n| n.contains("could not be read")).collect();
        assert_eq!(said.len(), 1, "{bad}: {:?}", imported.notes);
        assert!(said[0].contains("fireteamChart.spec"), "{}", said[0]);
    }
    // No chart (the fixture's is empty): the defaults, and nothing to say about it.
    let imported = army_from_code(&code(&[&[(1091, 1, 1)]]), &data(), "a").expect("an army");
    assert!(imported.army.fireteam_limits.is_unset());
    assert!(!imported.notes.iter().any(|n| n.contains("Fireteams Chart")), "{:?}", imported.notes);
}

/// Digest §7 and the 2022 Fireteams Chart ✅: the chart's `teams` (which units may form which
/// Fireteam, how many of each, which are required) become the army's `fireteam_chart`, and each
/// trooper keeps its unit's slug, which the teams name; a team that cannot be read costs only the
/// check, said in the notes with its field.
#[test]
fn the_fireteams_chart_s_teams_and_each_trooper_s_unit_are_kept() {
    let with_chart = |chart: &str| imported_with_chart(chart, &[(1091, 1, 1), (2000, 1, 1)]);
    let chart = r#"{"spec": {"CORE": 1, "HARIS": 1, "DUO": 256}, "desc": "",
        "teams": [
          {"name": "Invented  Fireteams", "obs": " Haris:  no more than one SCOUTS ", "type": ["HARIS", "CORE"],
           "units": [{"min": 1, "max": 5, "name": "INVENTED LINE", "comment": "", "required": false, "slug": "invented-line"},
                     {"min": "0", "max": 2, "name": "SCOUTS", "comment": "(Line)", "required": true, "slug": "invented-scouts"}]},
          {"name": "Triads", "type": ["TRIAD"], "units": [{"min": 0, "max": 3, "name": "X", "slug": "invented-walker"}]},
          {"name": "Wildcards", "obs": "", "type": [],
           "units": [{"min": 0, "max": 1, "name": "TWIN", "comment": "", "required": false, "slug": "invented-twin"}]}]}"#;
    let imported = with_chart(chart);
    let teams = &imported.army.fireteam_chart;
    type Row<'t> = (&'t str, usize, usize, bool);
    let summary: Vec<(&str, Vec<FireteamKind>, Vec<Row>)> = teams
        .iter()
        .map(|t| {
            (
                t.name.as_str(),
                t.types.clone(),
                t.units.iter().map(|u| (u.unit.as_str(), u.min, u.max, u.required)).collect(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (
                "Invented Fireteams",
                vec![FireteamKind::Core, FireteamKind::Haris],
                vec![("invented-line", 1, 5, false), ("invented-scouts", 0, 2, true)]
            ),
            ("Wildcards", vec![], vec![("invented-twin", 0, 1, false)]),
        ],
        "the TRIAD team is left out, the Wildcards kept with no type"
    );
    assert_eq!(teams[0].units[1].name, "SCOUTS");
    // What the chart says beside a row and under a team is kept (shown, not checked).
    assert_eq!(teams[0].units[1].comment, "(Line)");
    assert_eq!(teams[0].units[0].comment, "");
    assert_eq!(teams[0].note, "Haris: no more than one SCOUTS");
    assert_eq!(teams[1].note, "");
    let units: Vec<Option<&str>> = imported.army.troopers().map(|t| t.unit.as_deref()).collect();
    assert!(units.contains(&Some("invented-line")) && units.contains(&Some("invented-scouts")), "{units:?}");
    assert!(units.iter().all(Option::is_some), "{units:?}");
    assert!(imported.notes.iter().any(|n| n.contains("teams (Invented Fireteams) decide")), "{:?}", imported.notes);
    // Kept in the army file, units and all.
    let again = Army::from_file_json(&imported.army.to_file_json()).expect("the army file");
    assert_eq!(again.fireteam_chart, imported.army.fireteam_chart);
    assert_eq!(
        again.troopers().map(|t| t.unit.clone()).collect::<Vec<_>>(),
        imported.army.troopers().map(|t| t.unit.clone()).collect::<Vec<_>>()
    );
    // A row that cannot be read: no teams (nothing checked), the numbers still read, and the
    // notes name the field.
    let bad = chart.replacen(r#""max": 2,"#, r#""max": "many","#, 1);
    let imported = with_chart(&bad);
    assert!(imported.army.fireteam_chart.is_empty());
    assert_eq!(imported.army.fireteam_limits.haris, Some(1));
    let said: Vec<&String> = imported.notes.iter().filter(|n| n.contains("could not be read")).collect();
    assert_eq!(said.len(), 1, "{:?}", imported.notes);
    assert!(said[0].contains("fireteamChart.teams[0].units[1].max"), "{}", said[0]);
    // A team that lists no units is left out (a setup refuses one), and the rest still count.
    let empty = chart.replacen(r#""teams": ["#, r#""teams": [{"name": "Empty", "type": ["DUO"], "units": []},"#, 1);
    let names: Vec<String> = with_chart(&empty).army.fireteam_chart.iter().map(|t| t.name.clone()).collect();
    assert_eq!(names, vec!["Invented Fireteams", "Wildcards"]);
}
