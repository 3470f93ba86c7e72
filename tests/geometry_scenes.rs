//! Table geometry on the shipped example scenes and on the terrain cases that break visibility
//! code elsewhere. Expected values are worked out by hand in the comments, from the rules
//! (digest §1–§3), not read off the code.

use proptest::prelude::*;
use sightline::geometry::{
    Arc, Body, Lof, Obstacles, Scene, SceneError, Silhouette, TablePoint, Terrain, ZocVerdict, distance, line_of_fire,
    route_events, visibility_polygon, zoc,
};
use std::ops::Sub as _;

fn scene(name: &str) -> Scene {
    let path = format!("{}/assets/scenes/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("scene file");
    Scene::from_json(&text).expect("valid scene")
}

fn pair<'s>(
    s: &'s Scene,
    pairs: &'s [sightline::geometry::PairMeasure],
    from: &str,
    to: &str,
) -> &'s sightline::geometry::PairMeasure {
    let (f, t) = (s.trooper_index(from).expect("from"), s.trooper_index(to).expect("to"));
    pairs.iter().find(|m| m.from == f && m.to == t).expect("pair")
}

fn names(s: &Scene, l: &Lof) -> Vec<String> {
    let mut v: Vec<String> = l.blockers().iter().map(|&b| s.blocker_id(b).to_string()).collect();
    v.sort();
    v
}

const S2_DIAMETER: f64 = 25.0 / 25.4;

#[test]
fn zoc_constants_scene() {
    let s = scene("zoc-constants.json");
    let p = s.all_pairs();
    // Centres 8.9" apart: base edges 8.9 - 25 mm = 7.916" apart, inside the 8" ZoC.
    let m = pair(&s, &p, "a1", "b1");
    assert!((m.distance_in - (8.9 - S2_DIAMETER)).abs() < 1e-9);
    assert!(m.zoc.is_inside());
    // 9.1" apart: 8.116", outside.
    let m = pair(&s, &p, "a2", "b2");
    assert!((m.distance_in - (9.1 - S2_DIAMETER)).abs() < 1e-9);
    assert_eq!(m.zoc, ZocVerdict::Outside);
    assert_eq!(pair(&s, &p, "b2", "a2").zoc, ZocVerdict::Outside);
}

#[test]
fn wall_scene_verdicts() {
    let s = scene("wall.json");
    let p = s.all_pairs();
    // a1 (10,5) faces east; the 3" wall x 14–15, y 5–15 stands across every line to b1 (20,10).
    let m = pair(&s, &p, "a1", "b1");
    assert!(matches!(m.lof.lof, Lof::Blocked { .. }), "{:?}", m.lof.lof);
    assert_eq!(names(&s, &m.lof.lof), ["wall1"]);
    assert!(m.lof.witness.is_none());
    // b2 (13,20) is 3" ahead of a1's arc line and west of the wall: clear both ways.
    assert_eq!(pair(&s, &p, "a1", "b2").lof.lof, Lof::Clear);
    assert_eq!(pair(&s, &p, "b2", "a1").lof.lof, Lof::Clear);
    // b1 faces west; b2 is ahead of it and the lines pass north of the wall's end (y > 16 at x = 15).
    assert_eq!(pair(&s, &p, "b1", "b2").lof.lof, Lof::Clear);
    // b2 faces south: b1 at (20,10) is 10" ahead: the line passes the wall's north end? From
    // (13,20) to (20,10) the line is at y = 15.7 at x = 14 and 14.3 at x = 15: it crosses the
    // wall's corner region, but lines from b2's east side clear it: some lines blocked.
    assert!(pair(&s, &p, "b2", "b1").lof.lof.has_lof());
}

#[test]
fn wall_scene_route_events() {
    let s = scene("wall.json");
    let bodies = s.bodies();
    let obs = Obstacles::new(&s.terrain, &bodies);
    let a1 = s.trooper_index("a1").expect("a1");
    let ev = route_events(&obs, &bodies, a1, &s.troopers[a1].route);
    let of = |id: &str| ev.iter().find(|e| e.observer == s.trooper_index(id).expect("id")).expect("events");
    // b1 never sees a1 (the wall), but a1 ends inside its ZoC: on the leg x = 12 from y = 5 to 9,
    // centre distance to (20,10) ≤ 8 + 25 mm when (y - 10)² ≤ (8 + 0.984)² - 64 → y ≥ 5.912,
    // i.e. 2" + 0.912" along the route.
    let b1 = of("b1");
    assert!(b1.lof.is_empty(), "{:?}", b1.lof);
    let reach: f64 = 8.0 + S2_DIAMETER;
    let y_in = 10.0 - (reach * reach - 64.0).sqrt();
    let (along, at) = b1.first_zoc().expect("enters ZoC");
    assert!((at.y - y_in).abs() < 1e-6 && (along - (2.0 + y_in - 5.0)).abs() < 1e-6, "{along} {at:?}");
    assert_eq!(b1.zoc.last().map(|z| (z.to_in * 1000.0).round()), Some(6000.0));
    // b2 (13,20) faces south and sees the whole route.
    let b2 = of("b2");
    assert_eq!(b2.lof.len(), 1);
    assert_eq!((b2.lof[0].from_in, b2.lof[0].to_in), (0.0, 6.0));
}

#[test]
fn heights_scene_crate_wall_tall_silhouette_and_rooftop() {
    let s = scene("heights.json");
    let p = s.all_pairs();
    // An S2 (1.575" tall) sees another S2 over a 1" crate: the feet are hidden (partial).
    let m = pair(&s, &p, "a1", "b1");
    assert!(matches!(m.lof.lof, Lof::Partial { .. }), "{:?}", m.lof.lof);
    assert_eq!(names(&s, &m.lof.lof), ["crate"]);
    let [_, end] = m.lof.witness.expect("witness");
    assert!(end.z > 1.0);
    // …but not over a 3" wall.
    let m = pair(&s, &p, "a2", "b2");
    assert!(matches!(m.lof.lof, Lof::Blocked { .. }), "{:?}", m.lof.lof);
    assert_eq!(names(&s, &m.lof.lof), ["wall"]);
    // A TAG (S7, 55 mm base, 67 mm tall) between two S2s in line blocks them.
    let m = pair(&s, &p, "a3", "b3");
    assert!(matches!(m.lof.lof, Lof::Blocked { .. }), "{:?}", m.lof.lof);
    assert_eq!(names(&s, &m.lof.lof), ["tag"]);
    // A sniper on a 4" roof sees over a 2" hedge 10" away; lines from its feet are cut by the
    // roof's edge, so the verdict is partial.
    let m = pair(&s, &p, "sniper", "b4");
    assert!(matches!(m.lof.lof, Lof::Partial { .. }), "{:?}", m.lof.lof);
    assert!(names(&s, &m.lof.lof).contains(&"roof".to_string()));
    assert!(pair(&s, &p, "b4", "sniper").lof.lof.has_lof());
    // The TAG on the ledge hangs over its edge, facing away from it: the ledge is only under
    // its base, so it blocks no line to b4 out on the table — only lines from the TAG's soles,
    // which are not looked at (assumption UNDERSIDE). Clear (before session 16: "partial, ledge").
    assert_eq!(pair(&s, &p, "lookout", "b4").lof.lof, Lof::Clear);
    // Distance to the sniper is 3D: plan gap 20 - 25 mm, height gap 4 - 1.575.
    let expect = (20.0 - S2_DIAMETER).hypot(4.0 - 40.0 / 25.4);
    assert!((pair(&s, &p, "sniper", "b4").distance_in - expect).abs() < 1e-9);
    // Two S2s with a 1" wall between them and, beyond it, a TAG up on a ledge at 1.4" with most
    // of its 55 mm base hanging over the line: the S2s' best lines (1.46"–1.57" up) run into the
    // TAG, and lines at mid-height (0.79") into the wall, but a line about 1.2" up clears the wall
    // and passes beneath the TAG's feet. Partial, both named.
    let m = pair(&s, &p, "a5", "b5");
    assert!(matches!(m.lof.lof, Lof::Partial { .. }), "{:?}", m.lof.lof);
    assert_eq!(names(&s, &m.lof.lof), ["lookout", "low wall"]);
    let [a, b] = m.lof.witness.expect("witness");
    let z_at = |x: f64| a.z + (b.z - a.z) * (x - a.x) / (b.x - a.x);
    assert!(z_at(24.0) > 1.0 && z_at(25.0) > 1.0, "over the wall: {a:?} -> {b:?}");
    assert!(z_at(28.0 - 1.083) < 1.4 && z_at(28.0 + 1.083) < 1.4, "beneath the feet: {a:?} -> {b:?}");
}

#[test]
fn the_demo_scene_is_valid_and_every_witness_is_in_both_silhouettes() {
    let s = scene("demo.json");
    let bodies = s.bodies();
    for m in s.all_pairs() {
        if let Some([a, b]) = m.lof.witness {
            let (va, vb) = (&bodies[m.from], &bodies[m.to]);
            assert!(
                a.plan().dist(va.centre) <= va.radius() + 1e-6 && a.z >= va.bottom() - 1e-9 && a.z <= va.top() + 1e-9
            );
            assert!(
                b.plan().dist(vb.centre) <= vb.radius() + 1e-6 && b.z >= vb.bottom() - 1e-9 && b.z <= vb.top() + 1e-9
            );
            assert!(va.ahead(a.plan()) >= -1e-9 && va.ahead(b.plan()) >= -1e-9, "witness outside the arc");
        }
        assert!(m.distance_in >= 0.0);
    }
}

// ---- arcs ----

#[test]
fn a_target_straddling_the_arc_line_is_in_arc() {
    // Viewer faces +x; the target's centre is 0.3" behind the arc line, its base (r = 0.492")
    // reaches 0.19" in front: partly inside the front 180°.
    let v = Body::new(TablePoint::new(10.0, 10.0), Silhouette::S2);
    let t = Body::new(TablePoint::new(9.7, 15.0), Silhouette::S2);
    let bodies = [v, t];
    let obs = Obstacles::new(&[], &bodies);
    let r = line_of_fire(&obs, &v, &t, &[0, 1]);
    assert_eq!(r.lof, Lof::Clear);
    let [a, b] = r.witness.expect("witness");
    assert!(v.ahead(a.plan()) >= 0.0 && v.ahead(b.plan()) >= 0.0);
    // Wholly behind (edge 0.01" behind the line): out of arc; with a 360° arc: clear.
    let behind = t.at(TablePoint::new(10.0 - t.radius() - 0.01, 15.0));
    assert_eq!(line_of_fire(&obs, &v, &behind, &[0, 1]).lof, Lof::OutOfArc);
    let round = v.with_arc(Arc::All360);
    assert_eq!(line_of_fire(&obs, &round, &behind, &[0, 1]).lof, Lof::Clear);
}

// ---- terrain cases that break visibility code ----

fn two(v: TablePoint, t: TablePoint) -> [Body; 2] {
    let a = Body::new(v, Silhouette::S2);
    let b = Body::new(t, Silhouette::S2).facing(180.0);
    [a, b]
}

#[test]
fn a_wall_collinear_with_the_viewer_hides_half_the_lines() {
    // A tall wall whose south face lies on the line between the two centres (y = 10).
    let wall = vec![Terrain::rect("wall", 3.0, 10.0, 8.0, 11.0, 4.0).expect("valid")];
    let bodies = two(TablePoint::new(1.0, 10.0), TablePoint::new(10.0, 10.0));
    let obs = Obstacles::new(&wall, &bodies);
    let r = line_of_fire(&obs, &bodies[0], &bodies[1], &[0, 1]);
    assert!(matches!(r.lof, Lof::Partial { .. }), "{:?}", r.lof);
    let [a, b] = r.witness.expect("witness");
    let y_at = |x: f64| a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x);
    assert!(y_at(3.0) < 10.0 && y_at(8.0) < 10.0, "the clear lines pass south of the wall: {a:?} {b:?}");
    // The visibility polygon from (1,10) facing +x: the point (9, 10.5) behind the wall is hidden,
    // (9, 9.5) in front of its face is seen.
    let table = sightline::geometry::Table { width: 20.0, depth: 20.0 };
    let poly = visibility_polygon(&bodies[0], &wall, &table);
    assert!(!inside(&poly, TablePoint::new(9.0, 10.5)));
    assert!(inside(&poly, TablePoint::new(9.0, 9.5)));
}

#[test]
fn a_line_grazing_a_vertex_is_not_blocked() {
    // A tall diamond whose bottom vertex sits exactly on the line joining the two bases' north
    // edges (y = 10 + r); every other line passes south of it. Touching a corner blocks nothing.
    let bodies = two(TablePoint::new(1.0, 10.0), TablePoint::new(10.0, 10.0));
    let r = Silhouette::S2.radius_in();
    let y = 10.0 + r;
    let p = TablePoint::new;
    let diamond = vec![p(5.5, y), p(6.0, y + 0.5), p(5.5, y + 1.0), p(5.0, y + 0.5)];
    let block = vec![Terrain::new("diamond", diamond, 5.0).expect("valid")];
    let obs = Obstacles::new(&block, &bodies);
    let res = line_of_fire(&obs, &bodies[0], &bodies[1], &[0, 1]);
    assert!(res.lof.has_lof(), "{:?}", res.lof);
}

#[test]
fn touching_pieces_leave_no_crack() {
    // Two tall blocks edge to edge along y = 10, right across the line between the centres.
    let pieces = vec![
        Terrain::rect("south", 5.0, 0.0, 6.0, 10.0, 5.0).expect("valid"),
        Terrain::rect("north", 5.0, 10.0, 6.0, 20.0, 5.0).expect("valid"),
    ];
    let bodies = two(TablePoint::new(1.0, 10.0), TablePoint::new(10.0, 10.0));
    let obs = Obstacles::new(&pieces, &bodies);
    let res = line_of_fire(&obs, &bodies[0], &bodies[1], &[0, 1]);
    assert!(matches!(res.lof, Lof::Blocked { .. }), "{:?}", res.lof);
    // Touching at one corner only (a diagonal crack of zero width): still no 3 mm to see through.
    let pieces = vec![
        Terrain::rect("sw", 5.0, 0.0, 6.0, 10.0, 5.0).expect("valid"),
        Terrain::rect("ne", 6.0, 10.0, 7.0, 20.0, 5.0).expect("valid"),
    ];
    let bodies = two(TablePoint::new(1.0, 8.0), TablePoint::new(10.0, 12.0));
    let obs = Obstacles::new(&pieces, &bodies);
    let res = line_of_fire(&obs, &bodies[0], &bodies[1], &[0, 1]);
    assert!(!res.lof.has_lof(), "{:?}", res.lof);
}

#[test]
fn a_wall_crossing_the_table_edge() {
    // The wall runs from x = -2 (off the table) to 0.8; troopers either side of it, their bases
    // reaching x = 1.49 east of its end.
    let text = r#"{ "table": {"width": 24, "depth": 24},
        "troopers": [ {"id": "a", "side": "A", "silhouette": 2, "x": 1.0, "y": 4.0, "facing": 90},
                      {"id": "b", "side": "B", "silhouette": 2, "x": 1.0, "y": 10.0, "facing": 270} ],
        "terrain": [ {"id": "edge-wall", "polygon": [[-2, 6], [0.8, 6], [0.8, 7], [-2, 7]], "height": 3} ] }"#;
    let s = Scene::from_json(text).expect("a piece may cross the table edge");
    let p = s.all_pairs();
    assert!(
        matches!(pair(&s, &p, "a", "b").lof.lof, Lof::Partial { .. } | Lof::Clear),
        "lines pass east of the wall end"
    );
    let poly = visibility_polygon(&s.troopers[0].body, &s.terrain, &s.table);
    assert!(poly.iter().all(|q| q.x >= -1e-9 && q.x <= 24.0 + 1e-9 && q.y >= -1e-9 && q.y <= 24.0 + 1e-9));
    // The shadow's edge is the ray from (1, 4) past the wall's north-east corner (0.8, 7):
    // x = 1 - (y - 4)/15, so x = 0.467 at y = 12.
    assert!(!inside(&poly, TablePoint::new(0.3, 12.0)), "behind the wall, near the edge");
    assert!(inside(&poly, TablePoint::new(0.6, 12.0)), "just east of the shadow {poly:?}");
    assert!(inside(&poly, TablePoint::new(6.0, 12.0)));
}

// ---- bad input ----

#[test]
fn degenerate_scenes_are_refused_naming_the_field() {
    let base = |trooper: &str, terrain: &str| {
        format!(
            r#"{{"troopers": [{{"id": "a", "side": "A", "silhouette": 2, "x": 5, "y": 5}}, {trooper}], "terrain": [{terrain}]}}"#
        )
    };
    let ok_t = r#"{"id": "t", "polygon": [[10, 10], [12, 10], [12, 12]], "height": 2}"#;
    let err = |text: String| match Scene::from_json(&text) {
        Err(SceneError::Field { field, reason }) => format!("{field}: {reason}"),
        Err(SceneError::Json(e)) => format!("json: {e}"),
        Ok(_) => "accepted".into(),
    };
    let e = err(base(r#"{"id": "b", "side": "B", "silhouette": 2, "x": 5.2, "y": 5}"#, ok_t));
    assert!(e.starts_with("troopers[1] (\"b\").x") && e.contains("overlaps \"a\""), "{e}");
    let e = err(base(r#"{"id": "b", "side": "B", "silhouette": 2, "x": 11.5, "y": 10.5}"#, ok_t));
    assert!(e.contains("inside terrain \"t\""), "{e}");
    let e = err(base(r#"{"id": "b", "side": "B", "silhouette": 9, "x": 20, "y": 20}"#, ok_t));
    assert!(e.starts_with("troopers[1] (\"b\").silhouette"), "{e}");
    let e = err(base(r#"{"id": "b", "side": "B", "silhouette": 2, "x": 20, "y": 20, "arc": 90}"#, ok_t));
    assert!(e.starts_with("troopers[1] (\"b\").arc"), "{e}");
    let e = err(base(r#"{"id": "b", "side": "B", "silhouette": 2, "x": 60, "y": 20}"#, ok_t));
    assert!(e.contains("off the 48\"×48\" table"), "{e}");
    let e = err(base(
        r#"{"id": "b", "side": "B", "silhouette": 2, "x": 20, "y": 20}"#,
        r#"{"id": "t", "polygon": [[0, 0], [1, 1], [1, 0], [0, 1]], "height": 2}"#,
    ));
    assert!(e.starts_with("terrain[0] (\"t\")") && e.contains("crosses itself"), "{e}");
    let e = err(base(
        r#"{"id": "b", "side": "B", "silhouette": 2, "x": 20, "y": 20}"#,
        r#"{"id": "t", "polygon": [[0, 0], [1, 0], [2, 0]], "height": 2}"#,
    ));
    assert!(e.contains("no area"), "{e}");
    let e = err(base(r#"{"id": "b", "side": "B", "silhouette": 2, "x": 20, "y": 20, "elevaton": 1}"#, ok_t));
    assert!(e.contains("unknown field `elevaton`"), "{e}");
    // A value of the wrong type is named by its path in the file.
    let e = err(base(r#"{"id": "b", "side": "B", "silhouette": 2, "x": "20", "y": 20}"#, ok_t));
    assert!(e.starts_with("json: troopers[1].x: invalid type: string"), "{e}");
    let e = err(base(r#"{"id": "b", "side": "B", "silhouette": 2, "x": 20, "y": 20}"#, r#"{"id": "t", "height": 2}"#));
    assert!(e.starts_with("json: terrain[0]: missing field `polygon`"), "{e}");
    let e = err(base(r#"{"id": "b", "side": "B", "silhouette": 2, "x": 20, "y": 20}"#, ok_t) + " x");
    assert!(e.starts_with("json: trailing characters"), "{e}");
    // Standing on top of the piece is fine.
    assert_eq!(
        err(base(r#"{"id": "b", "side": "B", "silhouette": 2, "x": 11.5, "y": 10.5, "elevation": 2}"#, ok_t)),
        "accepted"
    );
}

#[test]
fn nan_and_infinite_numbers_never_panic() {
    let nan = Body::new(TablePoint::new(f64::NAN, 1.0), Silhouette::S2);
    let ok = Body::new(TablePoint::new(5.0, 5.0), Silhouette::S2);
    let bodies = [nan, ok];
    let obs = Obstacles::new(&[], &bodies);
    let _ = line_of_fire(&obs, &nan, &ok, &[0, 1]);
    let _ = line_of_fire(&obs, &ok, &nan, &[0, 1]);
    let _ = zoc(&nan, &ok);
    let _ = distance(&nan, &ok);
    // JSON cannot carry NaN; a huge number is refused as off the table.
    let text = r#"{"troopers": [{"id": "a", "side": "A", "silhouette": 2, "x": 1e400, "y": 5}]}"#;
    assert!(Scene::from_json(text).is_err());
}

// ---- invariants ----

fn inside(poly: &[TablePoint], p: TablePoint) -> bool {
    let mut c = false;
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) {
            c = !c;
        }
    }
    c
}

fn body_strategy() -> impl Strategy<Value = Body> {
    (0.0f64..48.0, 0.0f64..48.0, 0.0f64..6.0, 0u8..9, 0.0f64..360.0).prop_map(|(x, y, z, s, f)| {
        Body::new(TablePoint::new(x, y), Silhouette::try_from(s).expect("0..9")).elevated(z).facing(f)
    })
}

proptest! {
    #[test]
    fn distance_is_non_negative_and_symmetric(a in body_strategy(), b in body_strategy()) {
        let (d1, d2) = (distance(&a, &b), distance(&b, &a));
        prop_assert!(d1 >= 0.0);
        prop_assert!((d1 - d2).abs() < 1e-12);
        // never more than centre to centre in 3D
        let dz = (a.bottom() - b.bottom()).abs().max((a.top() - b.top()).abs());
        prop_assert!(d1 <= a.centre.dist(b.centre).hypot(dz) + 1e-9);
    }

    #[test]
    fn zoc_is_symmetric_between_equal_bases(a in body_strategy(), b in body_strategy()) {
        let b = Body { silhouette: a.silhouette, ..b };
        prop_assert_eq!(zoc(&a, &b).is_inside(), zoc(&b, &a).is_inside());
        // and agrees with the distance for troopers on one level
        let b0 = b.elevated(a.elevation_in);
        prop_assert_eq!(zoc(&a, &b0).is_inside(), distance(&a, &b0) <= 8.0 + 1e-9);
    }

    #[test]
    fn lof_without_obstacles_is_clear_both_ways_with_360_arcs(a in body_strategy(), b in body_strategy()) {
        prop_assume!(a.centre.dist(b.centre) > a.radius() + b.radius());
        let (a, b) = (a.with_arc(Arc::All360), b.with_arc(Arc::All360));
        let bodies = [a, b];
        let obs = Obstacles::new(&[], &bodies);
        prop_assert_eq!(line_of_fire(&obs, &a, &b, &[0, 1]).lof, Lof::Clear);
        prop_assert_eq!(line_of_fire(&obs, &b, &a, &[0, 1]).lof, Lof::Clear);
    }

    #[test]
    fn visibility_polygon_matches_ray_casting(x in 1.0f64..23.0, y in 1.0f64..23.0, f in 0.0f64..360.0,
                                               px in 0.2f64..23.8, py in 0.2f64..23.8) {
        let terrain = vec![
            Terrain::rect("a", 5.0, 5.0, 8.0, 6.0, 5.0).expect("valid"),
            Terrain::new("l", vec![TablePoint::new(14.0, 14.0), TablePoint::new(19.0, 14.0), TablePoint::new(19.0, 15.0),
                                   TablePoint::new(15.0, 15.0), TablePoint::new(15.0, 19.0), TablePoint::new(14.0, 19.0)], 5.0).expect("valid"),
            Terrain::rect("low", 10.0, 2.0, 12.0, 20.0, 0.5).expect("valid"),
        ];
        let v = Body::new(TablePoint::new(x, y), Silhouette::S2).facing(f);
        prop_assume!(terrain.iter().all(|t| t.height_in < 1.0 || !inside(&t.polygon, v.centre)));
        let table = sightline::geometry::Table { width: 24.0, depth: 24.0 };
        let poly = visibility_polygon(&v, &terrain, &table);
        let p = TablePoint::new(px, py);
        // Brute force: walk the ray from the viewer to p in 0.005" steps.
        let seen_by_walk = {
            let n = (v.centre.dist(p) / 0.005).ceil() as usize;
            (0..=n).all(|k| { let q = v.centre.lerp(p, k as f64 / n as f64); terrain.iter().all(|t| t.height_in <= v.top() || !inside(&t.polygon, q)) })
        } && v.ahead(p) >= 0.0;
        // Points within 0.02" of any obstacle edge or the arc line may go either way.
        let near_edge = terrain.iter().filter(|t| t.height_in > v.top()).any(|t| {
            let n = t.polygon.len();
            (0..n).any(|i| seg_dist(p, t.polygon[i], t.polygon[(i + 1) % n]) < 0.02)
        }) || v.ahead(p).abs() < 0.02;
        if !near_edge {
            // near a shadow boundary the walk and the polygon may differ by a hair
            let shadow_edge = terrain.iter().filter(|t| t.height_in > v.top()).any(|t| t.polygon.iter().any(|&c| {
                let (u, w) = (c.sub(v.centre), p.sub(v.centre));
                (u.cross(w) / w.norm()).abs() < 0.02 && u.dot(w) > 0.0
            }));
            if !shadow_edge {
                prop_assert_eq!(inside(&poly, p), seen_by_walk, "viewer {:?} facing {} point {:?}", v.centre, f, p);
            }
        }
    }
}

fn wild_number() -> impl Strategy<Value = f64> {
    prop_oneof![
        -60.0f64..60.0,
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(1e300),
        Just(-0.0),
        Just(5.0),
    ]
}

fn wild_body() -> impl Strategy<Value = Body> {
    (wild_number(), wild_number(), wild_number(), 0u8..9, wild_number(), prop::bool::ANY, prop::bool::ANY).prop_map(
        |(x, y, z, s, f, round, prone)| Body {
            centre: TablePoint::new(x, y),
            elevation_in: z,
            silhouette: Silhouette::try_from(s).expect("0..9"),
            facing_deg: f,
            arc: if round { Arc::All360 } else { Arc::Front180 },
            prone,
            marker: false,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Degenerate input through the API (the scene loader refuses it, but callers may not use
    /// it): non-finite and huge numbers, overlapping bases, bases inside terrain. Never a panic.
    #[test]
    fn geometry_never_panics_on_wild_input(bodies in prop::collection::vec(wild_body(), 2..5),
                                           route in prop::collection::vec((wild_number(), wild_number()), 0..3)) {
        let terrain = vec![
            Terrain::rect("box", 4.0, 4.0, 6.0, 6.0, 3.0).expect("valid"),
            Terrain::new("l", vec![TablePoint::new(10.0, 10.0), TablePoint::new(14.0, 10.0), TablePoint::new(14.0, 11.0),
                                   TablePoint::new(11.0, 11.0), TablePoint::new(11.0, 14.0), TablePoint::new(10.0, 14.0)], 2.0).expect("valid"),
        ];
        let obs = Obstacles::new(&terrain, &bodies);
        let table = sightline::geometry::Table { width: 48.0, depth: 48.0 };
        for i in 0..bodies.len() {
            for j in 0..bodies.len() {
                let r = line_of_fire(&obs, &bodies[i], &bodies[j], &[i, j]);
                prop_assert_eq!(r.lof.has_lof(), r.witness.is_some());
                let _ = (distance(&bodies[i], &bodies[j]), zoc(&bodies[i], &bodies[j]));
            }
            let _ = visibility_polygon(&bodies[i], &terrain, &table);
        }
        let route: Vec<TablePoint> = route.into_iter().map(|(x, y)| TablePoint::new(x, y)).collect();
        let _ = route_events(&obs, &bodies, 0, &route);
    }
}

fn seg_dist(p: TablePoint, a: TablePoint, b: TablePoint) -> f64 {
    let d = b.sub(a);
    let t = (p.sub(a).dot(d) / d.dot(d)).clamp(0.0, 1.0);
    p.dist(a.lerp(b, t))
}

#[test]
fn a_tall_viewer_sees_the_top_of_a_small_trooper_crouched_behind_a_taller_wall() {
    // N4 LoF: a line may end on any part of the Silhouette, its top face included. An S1 right
    // behind a 1.3" wall taller than itself is hidden from the side, but a TAG (S7) a few inches
    // back sees down onto its top; an S2 on the same spot as the TAG does not.
    let h1 = Silhouette::S1.height_in();
    assert!(h1 < 1.3, "the wall is taller than the S1 ({h1}\")");
    let wall = vec![Terrain::rect("wall", 13.0, 8.0, 13.5, 12.0, 1.3).expect("valid")];
    let target = Body::new(TablePoint::new(13.5 + Silhouette::S1.radius_in() + 0.02, 10.0), Silhouette::S1);
    for (s, seen) in [(Silhouette::S7, true), (Silhouette::S2, false)] {
        let viewer = Body::new(TablePoint::new(10.0, 10.0), s);
        let bodies = [viewer, target];
        let obs = Obstacles::new(&wall, &bodies);
        let r = line_of_fire(&obs, &viewer, &target, &[0, 1]);
        assert_eq!(r.lof.has_lof(), seen, "{s:?}: {:?}", r.lof);
        if let Some([a, b]) = r.witness {
            assert!((b.z - target.top()).abs() < 1e-9, "the witness ends on the top face: {b:?}");
            assert!(a.z <= viewer.top() + 1e-9 && b.plan().dist(target.centre) <= target.radius() + 1e-9);
        }
    }
}

#[test]
fn a_tall_wall_across_both_outer_tangents_blocks_and_one_falling_short_does_not() {
    // An S2 viewer at (1, 10) facing +x and an S7 target at (10, 10): bases of different sizes,
    // so the two outer tangent lines (the hull's edges) are not parallel. The upper one has unit
    // normal (-sin t, cos t) with sin t = (r7 - r2) / 9 and passes at r2 from the viewer's centre:
    // y(x) = 10 + ((x - 1) sin t + r2) / cos t; the lower one is its mirror image in y = 10.
    let (r2, r7) = (Silhouette::S2.radius_in(), Silhouette::S7.radius_in());
    let sin_t = (r7 - r2) / 9.0;
    let cos_t = (1.0 - sin_t * sin_t).sqrt();
    let upper = |x: f64| 10.0 + ((x - 1.0) * sin_t + r2) / cos_t;
    let bodies = [
        Body::new(TablePoint::new(1.0, 10.0), Silhouette::S2),
        Body::new(TablePoint::new(10.0, 10.0), Silhouette::S7).facing(180.0),
    ];
    let tall = bodies[1].top() + 1.0;
    let verdict = |y0: f64, y1: f64| {
        let wall = vec![Terrain::rect("wall", 5.4, y0, 5.6, y1, tall).expect("valid")];
        let obs = Obstacles::new(&wall, &bodies);
        line_of_fire(&obs, &bodies[0], &bodies[1], &[0, 1]).lof
    };
    // Past both tangents by 0.05": every line between the bases runs into it.
    let half = upper(5.6) - 10.0 + 0.05;
    assert_eq!(verdict(10.0 - half, 10.0 + half), Lof::Blocked { by: vec![sightline::geometry::Blocker::Terrain(0)] });
    // 0.2" (5 mm) short of the upper tangent where it is lowest over the wall: lines pass over
    // the top of the wall in plan, beside it, and see the target's edge.
    let l = verdict(10.0 - half, upper(5.4) - 0.2);
    assert!(matches!(l, Lof::Partial { .. }), "{l:?}");
    // The same, short of the lower tangent.
    let l = verdict(20.0 - upper(5.4) + 0.2, 10.0 + half);
    assert!(matches!(l, Lof::Partial { .. }), "{l:?}");
}

#[test]
fn a_low_wall_hides_the_trooper_crouched_behind_it_but_not_the_far_one() {
    // Two S2 troopers (40 mm = 1.575" tall) 20" apart, and a 1.5" wall across the line between
    // them, 0.7" in front of the second. From the first: the highest lines run from its top
    // (1.575") down to 3 mm below the second's top (1.457"); over the wall, 93–96% of the way,
    // they are at most 1.575 - 0.118 × 0.93 ≈ 1.465" < 1.5", so every line hits the wall (lines
    // onto the top face would have to come down from higher up: the tops are level). From the
    // second, the wall is 4–7% of the way along: lines pass at about 1.57" > 1.5", over it.
    let s2_top = Silhouette::S2.height_in();
    assert!((s2_top - 40.0 / 25.4).abs() < 1e-12);
    let bodies = [
        Body::new(TablePoint::new(2.0, 10.0), Silhouette::S2),
        Body::new(TablePoint::new(22.0, 10.0), Silhouette::S2).facing(180.0),
    ];
    let wall = vec![Terrain::rect("wall", 20.5, 8.0, 20.8, 12.0, 1.5).expect("valid")];
    let obs = Obstacles::new(&wall, &bodies);
    let far_to_near = line_of_fire(&obs, &bodies[0], &bodies[1], &[0, 1]);
    assert_eq!(far_to_near.lof, Lof::Blocked { by: vec![sightline::geometry::Blocker::Terrain(0)] });
    let near_to_far = line_of_fire(&obs, &bodies[1], &bodies[0], &[1, 0]);
    assert!(matches!(near_to_far.lof, Lof::Partial { .. }), "{:?}", near_to_far.lof);
    let [a, b] = near_to_far.witness.expect("a clear line");
    let z_at = |x: f64| a.z + (b.z - a.z) * (a.x - x) / (a.x - b.x);
    let z_at_wall = z_at(20.8).min(z_at(20.5));
    assert!(z_at_wall > 1.5, "the witness passes over the wall: {a:?} -> {b:?}");
}

#[test]
fn a_prone_trooper_hides_behind_a_crate_that_a_standing_one_is_seen_over() {
    // Two S2s 10" apart (centres), a 1" crate just in front of the target (0.3" from its base).
    // Standing, the target's upper part shows over the crate: the viewer's top (1.575") to the
    // target's side 3 mm below its top (1.457") runs at about 1.46" over the crate. Prone, the
    // target is 3 mm tall on its 25 mm base: a line that reaches it (at most 0.118" up, at most
    // 1.3" beyond the crate's near face) is at most 0.118 + 1.575 · 1.6 / 9.5 ≈ 0.38" up over the
    // crate, under its 1"; from the prone trooper back, the same lines. Blocked both ways.
    let text = |prone: bool| {
        format!(
            r#"{{"table": {{"width": 48, "depth": 48}},
               "troopers": [
                 {{"id": "a1", "side": "A", "silhouette": 2, "x": 10, "y": 10, "facing": 0}},
                 {{"id": "b1", "side": "B", "silhouette": 2, "x": 20, "y": 10, "facing": 180, "prone": {prone}}}],
               "terrain": [{{"id": "crate", "polygon": [[18.8, 8], [19.2, 8], [19.2, 12], [18.8, 12]], "height": 1.0}}]}}"#
        )
    };
    let standing = Scene::from_json(&text(false)).expect("valid scene");
    let p = standing.all_pairs();
    for (from, to) in [("a1", "b1"), ("b1", "a1")] {
        let m = pair(&standing, &p, from, to);
        assert!(matches!(m.lof.lof, Lof::Partial { .. }), "standing {from}->{to}: {:?}", m.lof.lof);
        assert_eq!(names(&standing, &m.lof.lof), ["crate"]);
    }
    let prone = Scene::from_json(&text(true)).expect("valid scene");
    let b1 = &prone.troopers[prone.trooper_index("b1").expect("b1")].body;
    assert!((b1.top() - 3.0 / 25.4).abs() < 1e-12 && (b1.radius() - S2_DIAMETER / 2.0).abs() < 1e-12);
    let p = prone.all_pairs();
    for (from, to) in [("a1", "b1"), ("b1", "a1")] {
        let m = pair(&prone, &p, from, to);
        assert!(matches!(m.lof.lof, Lof::Blocked { .. }), "prone {from}->{to}: {:?}", m.lof.lof);
        assert_eq!(names(&prone, &m.lof.lof), ["crate"]);
    }
    // Same base, same level: the distance does not change.
    let d = |s: &Scene, p: &[sightline::geometry::PairMeasure]| pair(s, p, "a1", "b1").distance_in;
    assert!((d(&standing, &standing.all_pairs()) - d(&prone, &p)).abs() < 1e-12);
    // A bad value names the field.
    let bad = text(true).replace("\"prone\": true", "\"prone\": \"yes\"");
    let err = Scene::from_json(&bad).expect_err("a string is not a bool").to_string();
    assert!(err.starts_with("troopers[1].prone: invalid type") && err.contains("boolean"), "{err}");
}

#[test]
fn a_roof_edge_just_inside_a_hanging_base_makes_the_lof_partial() {
    // A TAG (S7, 55 mm base) up on a 1.341" roof with its base hanging 0.1" over the roof's
    // edge, toward a TAG on the table. Lines from the lower one's feet that reach the raised
    // one's rim at its feet, over the roof, cross the roof's edge just inside the rim (0.02" in
    // plan) about 0.016" below its top: those lines are blocked, so the LoF is partial, by the
    // roof. (A brute-force scene, seed 11: this used to be "clear".)
    let roof = Terrain::rect(
        "roof",
        10.253168455809151,
        5.493816178785878,
        15.278296951153292,
        10.067769548130974,
        1.341340950170582,
    )
    .expect("a valid roof");
    let viewer =
        Body::new(TablePoint::new(19.016192088113723, 3.980230713195812), Silhouette::S7).facing(122.99578827695466);
    let target = Body::new(TablePoint::new(14.897564790276515, 6.473842000639858), Silhouette::S7)
        .facing(308.75516360733013)
        .elevated(1.341340950170582);
    let terrain = [roof];
    let bodies = [viewer, target];
    let obstacles = Obstacles::new(&terrain, &bodies);
    let lof = line_of_fire(&obstacles, &viewer, &target, &[0, 1]).lof;
    assert_eq!(lof, Lof::Partial { blocked_by: vec![sightline::geometry::Blocker::Terrain(0)] });
}

/// Every shipped scene written back as a scene file (`Scene::to_json`, what the app's "Save
/// table" writes) reads again as the same scene: the same file, and the same measurements.
#[test]
fn every_shipped_scene_written_back_reads_as_the_same_scene() {
    let dir = format!("{}/assets/scenes", env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("scenes") {
        let name = entry.expect("entry").file_name().to_string_lossy().to_string();
        let s = scene(&name);
        let written = s.to_json();
        let back = Scene::from_json(&written.to_string()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back.to_json(), written, "{name}");
        assert_eq!(back.all_pairs(), s.all_pairs(), "{name}");
        let original: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(format!("{dir}/{name}")).expect("read")).expect("JSON");
        let count = |v: &serde_json::Value, k: &str| v[k].as_array().map_or(0, Vec::len);
        assert_eq!(count(&written, "terrain"), count(&original, "terrain"), "{name}");
        assert_eq!(count(&written, "troopers"), count(&original, "troopers"), "{name}");
        seen += 1;
    }
    assert!(seen >= 8, "only {seen} scenes");
}
