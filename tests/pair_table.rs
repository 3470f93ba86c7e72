//! `PairTable::refresh` against measuring everything again: after any moves, the table holds
//! exactly what `Scene::all_pairs` gives for the new scene.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use sightline::geometry::{Arc, Body, Lof, PairTable, Scene, Silhouette, TablePoint, Terrain};

fn bench_scene(name: &str) -> Scene {
    let path = format!("{}/assets/scenes/{name}", env!("CARGO_MANIFEST_DIR"));
    Scene::from_json(&std::fs::read_to_string(path).expect("the bench scene")).expect("a valid scene")
}

/// One change to one trooper: a step (inches), a turn (degrees), and maybe another Silhouette,
/// arc, elevation, or going Prone or standing up.
#[derive(Debug, Clone)]
struct Change {
    trooper: usize,
    step: (f64, f64),
    turn: f64,
    silhouette: Option<usize>,
    all_round: Option<bool>,
    elevation: Option<f64>,
    prone: Option<bool>,
    marker: Option<bool>,
}

fn change() -> impl Strategy<Value = Change> {
    (
        0usize..60,
        (-4.0f64..4.0, -4.0f64..4.0),
        prop_oneof![Just(0.0), -180.0f64..180.0],
        prop::option::weighted(0.15, 0usize..4),
        prop::option::weighted(0.1, any::<bool>()),
        prop::option::weighted(0.1, prop_oneof![Just(0.0), 0.5f64..2.0]),
        prop::option::weighted(0.15, any::<bool>()),
        prop::option::weighted(0.1, any::<bool>()),
    )
        .prop_map(|(trooper, step, turn, silhouette, all_round, elevation, prone, marker)| Change {
            trooper,
            step,
            turn,
            silhouette,
            all_round,
            elevation,
            prone,
            marker,
        })
}

/// The scene with `c` made, if it is still a valid scene (not off the table, in terrain or on
/// another trooper).
fn apply(scene: &Scene, c: &Change) -> Option<Scene> {
    let mut b = scene.troopers.get(c.trooper)?.body;
    b.centre = TablePoint::new(b.centre.x + c.step.0, b.centre.y + c.step.1);
    b.facing_deg = (b.facing_deg + c.turn).rem_euclid(360.0);
    if let Some(s) = c.silhouette {
        b.silhouette = [Silhouette::S1, Silhouette::S2, Silhouette::S5, Silhouette::S7][s];
    }
    if let Some(all) = c.all_round {
        b.arc = if all { Arc::All360 } else { Arc::Front180 };
    }
    if let Some(z) = c.elevation {
        b.elevation_in = z;
    }
    if let Some(p) = c.prone {
        b.prone = p;
    }
    if let Some(m) = c.marker {
        b.marker = m;
    }
    scene.with_body(c.trooper, b).ok()
}

#[test]
fn refreshing_after_moves_gives_what_measuring_everything_gives() {
    refreshing_matches_measuring_everything(&bench_scene("bench-30v30.json"), 12);
}

/// The same among L- and U-shaped ruins, whose convex parts the work kept per viewer holds.
#[test]
fn refreshing_among_ruins_gives_what_measuring_everything_gives() {
    refreshing_matches_measuring_everything(&bench_scene("bench-30v30-ruins.json"), 6);
}

fn refreshing_matches_measuring_everything(start: &Scene, cases: u32) {
    let total = start.troopers.len() * (start.troopers.len() - 1);
    let mut runner = TestRunner::new_with_rng(
        Config { cases, failure_persistence: None, ..Config::default() },
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    );
    // Each case: a few refreshes, each after one to three changes.
    let batches = prop::collection::vec(prop::collection::vec(change(), 1..4), 1..4);
    runner
        .run(&batches, |batches| {
            let mut scene: Scene = start.clone();
            let mut table = PairTable::new(&scene);
            for batch in &batches {
                for c in batch {
                    if let Some(next) = apply(&scene, c) {
                        scene = next;
                    }
                }
                let measured = table.refresh(&scene);
                prop_assert!(measured <= total);
                let fresh = scene.all_pairs();
                prop_assert_eq!(table.pairs().len(), fresh.len());
                for (got, want) in table.pairs().iter().zip(&fresh) {
                    prop_assert_eq!(got, want, "after {:?}", batch);
                }
            }
            Ok(())
        })
        .expect("the refreshed table equals measuring everything again");
}

/// Two troopers on an empty table, and a third off to the side that then steps between them.
fn three(c_at: (f64, f64)) -> Scene {
    let json = format!(
        r#"{{"table": {{"width": 48, "depth": 48}},
            "troopers": [
              {{"id": "a", "side": "A", "silhouette": 2, "x": 10, "y": 10, "facing": 0}},
              {{"id": "b", "side": "B", "silhouette": 2, "x": 30, "y": 10, "facing": 180}},
              {{"id": "c", "side": "B", "silhouette": 5, "x": {}, "y": {}, "facing": 90}}],
            "terrain": [{{"id": "crate", "polygon": [[40, 40], [42, 40], [42, 42], [40, 42]], "height": 1}}]}}"#,
        c_at.0, c_at.1
    );
    Scene::from_json(&json).expect("a valid scene")
}

#[test]
fn a_trooper_stepping_into_a_line_is_measured_again() {
    let mut table = PairTable::new(&three((20.0, 30.0)));
    let ab = |t: &PairTable| t.pairs().iter().find(|m| (m.from, m.to) == (0, 1)).map(|m| m.lof.lof.clone());
    assert_eq!(ab(&table), Some(Lof::Clear));
    let moved = three((20.0, 10.0));
    let measured = table.refresh(&moved);
    // c's own four pairs, and a → b and b → a, which it now stands between.
    assert_eq!(measured, 6);
    assert!(matches!(ab(&table), Some(Lof::Blocked { .. } | Lof::Partial { .. })), "{:?}", ab(&table));
    assert_eq!(table.pairs(), moved.all_pairs().as_slice());
    // And back out of the way: a → b is clear again.
    let back = three((20.0, 30.0));
    assert_eq!(table.refresh(&back), 6);
    assert_eq!(ab(&table), Some(Lof::Clear));
}

#[test]
fn a_trooper_going_prone_in_a_line_is_measured_again() {
    // c (S5, 45 mm tall) stands between a and b and blocks their best lines; Prone it is 3 mm
    // tall, and lines between the two S2s' upper parts pass over it: a → b is seen (partial,
    // naming c for the lowest lines it still cuts), though c neither moved nor turned.
    let standing = three((20.0, 10.0));
    let mut table = PairTable::new(&standing);
    let ab = |t: &PairTable| t.pairs().iter().find(|m| (m.from, m.to) == (0, 1)).map(|m| m.lof.lof.clone());
    assert!(matches!(ab(&table), Some(Lof::Blocked { .. } | Lof::Partial { .. })), "{:?}", ab(&table));
    let mut prone = standing.clone();
    prone.troopers[2].body.prone = true;
    assert_eq!(table.refresh(&prone), 6, "c's own four pairs, and a → b and b → a");
    assert_eq!(ab(&table), Some(Lof::Partial { blocked_by: vec![sightline::geometry::Blocker::Trooper(2)] }));
    assert_eq!(table.pairs(), prone.all_pairs().as_slice());
}

/// Digest §2: "Markers do not block LoF". c standing between a and b blocks them as a model; as
/// a marker (Camouflaged, say) it blocks nothing, though it neither moved nor turned, and it is
/// still seen, and sees, as its Silhouette.
#[test]
fn a_trooper_becoming_a_marker_in_a_line_is_measured_again() {
    let model = three((20.0, 10.0));
    let mut table = PairTable::new(&model);
    let lof = |t: &PairTable, pair| t.pairs().iter().find(|m| (m.from, m.to) == pair).map(|m| m.lof.lof.clone());
    assert!(matches!(lof(&table, (0, 1)), Some(Lof::Blocked { .. } | Lof::Partial { .. })));
    let mut marker = model.clone();
    marker.troopers[2].body.marker = true;
    assert_eq!(table.refresh(&marker), 6, "c's own four pairs, and a → b and b → a");
    assert_eq!(lof(&table, (0, 1)), Some(Lof::Clear));
    assert_eq!(lof(&table, (1, 0)), Some(Lof::Clear));
    assert_eq!(lof(&table, (0, 2)), Some(Lof::Clear), "a still sees the marker");
    assert_eq!(lof(&table, (2, 0)), lof(&PairTable::new(&model), (2, 0)), "and the marker sees as it did");
    assert_eq!(table.pairs(), marker.all_pairs().as_slice());
    // In a scene file: `"marker": true`.
    let json = r#"{"troopers": [
        {"id": "a", "side": "A", "silhouette": 2, "x": 10, "y": 10},
        {"id": "b", "side": "B", "silhouette": 2, "x": 30, "y": 10, "facing": 180},
        {"id": "c", "side": "B", "silhouette": 5, "x": 20, "y": 10, "facing": 90, "marker": true}],
        "terrain": [{"id": "crate", "polygon": [[40, 40], [42, 40], [42, 42], [40, 42]], "height": 1}]}"#;
    assert_eq!(Scene::from_json(json).expect("a valid scene").all_pairs(), marker.all_pairs());
}

#[test]
fn only_pairs_a_change_can_alter_are_measured_again() {
    let scene = three((20.0, 30.0));
    let mut table = PairTable::new(&scene);
    // Nothing changed: nothing measured.
    assert_eq!(table.refresh(&scene), 0);
    // c turns where it stands: only its own pairs.
    let mut turned = scene.clone();
    turned.troopers[2].body.facing_deg = 270.0;
    assert_eq!(table.refresh(&turned), 4);
    assert_eq!(table.pairs(), turned.all_pairs().as_slice());
    // New terrain: everything again.
    let mut walled = turned.clone();
    walled.terrain.push(Terrain::rect("wall", 19.0, 5.0, 21.0, 15.0, 3.0).expect("a valid wall"));
    assert_eq!(table.refresh(&walled), 6);
    assert_eq!(table.pairs(), walled.all_pairs().as_slice());
    assert!(matches!(table.pairs()[0].lof.lof, Lof::Blocked { .. }));
    // A trooper fewer: everything again.
    let mut fewer = walled.clone();
    fewer.troopers.pop();
    assert_eq!(table.refresh(&fewer), 2);
    assert_eq!(table.pairs(), fewer.all_pairs().as_slice());
}

#[test]
fn a_changed_body_is_checked_like_a_new_scene() {
    let scene = three((20.0, 30.0));
    let b = scene.troopers[2].body;
    let err = scene.with_body(3, b).expect_err("there is no fourth trooper").to_string();
    assert!(err.starts_with("troopers[3]"), "{err}");
    // Onto the crate (1" tall) from the table: standing inside terrain.
    let onto = Body { centre: TablePoint::new(41.0, 41.0), ..b };
    let err = scene.with_body(2, onto).expect_err("c stands inside the crate").to_string();
    assert!(err.contains("elevation") && err.contains("crate"), "{err}");
    // On top of it: fine.
    assert!(scene.with_body(2, onto.elevated(1.0)).is_ok());
}

#[test]
fn a_body_that_may_block_is_near_the_line() {
    let a = Body::new(TablePoint::new(10.0, 10.0), Silhouette::S2);
    let b = Body::new(TablePoint::new(30.0, 10.0), Silhouette::S2);
    let near = Body::new(TablePoint::new(20.0, 11.0), Silhouette::S2);
    let far = Body::new(TablePoint::new(20.0, 12.0), Silhouette::S2);
    assert!(sightline::geometry::may_block(&a, &b, &near));
    assert!(!sightline::geometry::may_block(&a, &b, &far));
}
