//! Who may react to a move, checked at random: the rules engine's ARO windows against the
//! geometry asked directly.
//!
//! N4 Order Expenditure Sequence (seed 000, 1.1.1 wording): a reactive trooper may declare an ARO
//! when an activated enemy is in its LoF or inside its ZoC at any point of its route; in the
//! second window, only those that were not eligible in the first. Here random games — boxes from
//! crates to buildings, four troopers a side of every standing Silhouette, some on tops, some
//! Prone, some with a 360° arc — have a random trooper of side A move twice along random routes.
//! After each move the engine's eligible troopers, their reasons and the first point of each must
//! be what `route_events_with_levels` gives for a walk ([`walk`]) built here from the setup's own
//! numbers. The seed is `SIGHTLINE_ARO_SEED` (default 1); `SIGHTLINE_ARO_CASES` sets how many games.
//!
//! # Units
//! Table inches.

mod common;

use std::collections::BTreeMap;

use common::{Rng, env, ok, setup, start_orders};
use serde_json::{Value, json};
use sightline::geometry::{
    Arc, Body, RouteEvents, Silhouette, TablePoint, Terrain, distance, leap, route_events_with_levels, surface_at, walk,
};
use sightline::rules::{AroReason, Game, Setup};

const STANDING: [u8; 7] = [1, 2, 3, 4, 5, 6, 7];

/// A trooper of the random game, as the test knows it (not as the engine does).
#[derive(Clone)]
struct Piece {
    id: String,
    body: Body,
}

struct RandomGame {
    game: Game,
    terrain: Vec<Terrain>,
    troopers: Vec<Piece>,
}

fn silhouette(v: u8) -> Silhouette {
    Silhouette::try_from(v).expect("a Silhouette value")
}

/// A random game in its first Order, or `None` when the setup drawn is one the rules refuse
/// (bases overlapping, a base over a higher piece's footprint …).
fn random_game(rng: &mut Rng) -> Option<RandomGame> {
    // (Each box twice from the same numbers: for the setup, and for the geometry asked here.)
    let (mut terrain_json, mut terrain) = (Vec::new(), Vec::new());
    for k in 0..4 + rng.below(6) {
        let (w, d) = (rng.within(0.5, 6.0), rng.within(0.5, 6.0));
        let (x, y) = (rng.within(2.0, 28.0 - w), rng.within(2.0, 28.0 - d));
        let h = if rng.below(2) == 0 { rng.within(0.3, 1.6) } else { rng.within(1.6, 5.0) };
        let id = format!("t{k}");
        terrain_json.push(json!({"id": id, "polygon": [[x, y], [x + w, y], [x + w, y + d], [x, y + d]], "height": h}));
        terrain.push(Terrain::rect(id, x, y, x + w, y + d, h).expect("a box"));
    }
    let mut troopers = Vec::new();
    let mut side = |name: &str, rng: &mut Rng| -> Vec<Value> {
        (0..4)
            .map(|k| {
                let id = if k == 0 { format!("{name}_lt") } else { format!("{name}{k}") };
                let at = TablePoint::new(rng.within(2.0, 30.0), rng.within(2.0, 30.0));
                let (s, facing) = (STANDING[rng.below(STANDING.len())], rng.within(0.0, 360.0));
                let elevation = surface_at(&terrain, at).height_in;
                let prone = rng.below(5) == 0;
                let all_round = rng.below(5) == 0;
                let mut body = Body::new(at, silhouette(s)).facing(facing).elevated(elevation).lying(prone);
                if all_round {
                    body = body.with_arc(Arc::All360);
                }
                troopers.push(Piece { id: id.clone(), body });
                let mut t = json!({"id": id, "silhouette": s, "points": 10,
                    "position": {"x": at.x, "y": at.y, "facing": facing, "elevation": elevation},
                    "states": if prone { json!(["prone"]) } else { json!([]) },
                    "abilities": if all_round { json!(["arc360"]) } else { json!([]) }});
                if k == 0 {
                    t["abilities"].as_array_mut().expect("abilities").push(json!("lieutenant"));
                }
                t
            })
            .collect()
    };
    let (a, b) = (side("a", rng), side("b", rng));
    // (No two troopers in Silhouette contact to start with: an Engaged trooper traces no LoF
    // outside its Close Combat, which tests/rules_engaged.rs covers.)
    let apart = |i: usize| troopers[i + 1..].iter().all(|t| distance(&troopers[i].body, &t.body) > 0.3);
    if !(0..troopers.len()).all(apart) {
        return None;
    }
    let s: Setup = serde_json::from_value(setup(vec![a], vec![b], Value::Array(terrain_json))).expect("setup JSON");
    let game = Game::new(s).ok()?;
    Some(RandomGame { game: start_orders(&game), terrain, troopers })
}

/// An ARO window: each eligible trooper's reasons, as (`lof` or `zoc`, the first point of the
/// route where it holds).
type Window = BTreeMap<String, Vec<(&'static str, (f64, f64))>>;

/// What the engine's open ARO window says: each eligible trooper's reasons, as
/// (`lof`/`zoc`, the first point) for the activated trooper.
fn engine_window(g: &Game) -> Window {
    let o = g.order().expect("an Order");
    o.eligible_now()
        .into_iter()
        .map(|(id, rs)| {
            let rs = rs
                .iter()
                .map(|r| match r {
                    AroReason::Lof { at, .. } => ("lof", *at),
                    AroReason::Zoc { at, .. } => ("zoc", *at),
                    other => panic!("{id}: no reason but LoF and ZoC can arise here, got {other:?}"),
                })
                .collect();
            (id.clone(), rs)
        })
        .collect()
}

/// What the geometry says: for each of side B's troopers, LoF and ZoC along `events`.
fn geometry_window(troopers: &[Piece], events: &[RouteEvents], skip: &[String]) -> Window {
    let mut out = BTreeMap::new();
    for e in events {
        let id = &troopers[e.observer].id;
        if !id.starts_with('b') || skip.contains(id) {
            continue;
        }
        let mut rs = Vec::new();
        if let Some((_, p)) = e.first_lof() {
            rs.push(("lof", (p.x, p.y)));
        }
        if let Some((_, p)) = e.first_zoc() {
            rs.push(("zoc", (p.x, p.y)));
        }
        if !rs.is_empty() {
            out.insert(id.clone(), rs);
        }
    }
    out
}

fn same(a: &Window, b: &Window) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|((ia, ra), (ib, rb))| {
            ia == ib
                && ra.len() == rb.len()
                && ra
                    .iter()
                    .zip(rb)
                    .all(|(x, y)| x.0 == y.0 && (x.1.0 - y.1.0).abs() <= 5.01e-4 && (x.1.1 - y.1.1).abs() <= 5.01e-4)
        })
}

#[test]
fn the_aro_windows_of_a_move_are_those_the_geometry_gives() {
    let mut rng = Rng::new(env("SIGHTLINE_ARO_SEED", 1));
    let n = env("SIGHTLINE_ARO_CASES", 150) as usize;
    let (mut games, mut moves, mut refused, mut windows) = (0, 0, 0, [0usize; 2]);
    let mut reasons = BTreeMap::<&str, usize>::new();
    let (mut raised, mut jumps) = (0, 0);
    for case in 0..n {
        let Some(mut r) = random_game(&mut rng) else { continue };
        games += 1;
        let mover = 1 + rng.below(3);
        let id = r.troopers[mover].id.clone();
        let mut g = ok(&r.game, json!({"type": "activate", "source": "regular", "troopers": [id]}));
        let mut first_window: Vec<String> = Vec::new();
        // The mover's whole path so far: the second window is judged on it all (those that could
        // see or reach it on the first move were eligible then, and are not again).
        let start = r.troopers[mover].body;
        let mut whole = Vec::new();
        for window in [0usize, 1] {
            // Random routes of one or two legs until one is a move the rules take (most are
            // refused: into a building, through a base, off a roof).
            // A quarter of the Orders are a Jump (an Entire Order, N4 Jump: one window only), most
            // of them onto a top.
            let here = r.troopers[mover].body.centre;
            let skill = if window == 0 && rng.below(4) == 0 { "jump" } else { "move" };
            let mut accepted = None;
            for _ in 0..12 {
                let legs = 1 + rng.below(2);
                let route: Vec<[f64; 2]> = if skill == "jump" {
                    let onto = r.terrain[rng.below(r.terrain.len())].polygon.clone();
                    let (lo, hi) = (onto[0], onto[2]);
                    vec![[rng.within(lo.x, hi.x), rng.within(lo.y, hi.y)]]
                } else {
                    (0..legs)
                        .map(|_| {
                            let (dx, dy) = (rng.within(-10.0, 10.0), rng.within(-10.0, 10.0));
                            [(here.x + dx).clamp(1.0, 47.0), (here.y + dy).clamp(1.0, 47.0)]
                        })
                        .collect()
                };
                let declare = json!({"type": "declare", "skill": skill, "moves": [{"trooper": id, "route": route}]});
                match g.apply(&common::ev(declare)) {
                    Ok(next) => {
                        accepted = Some((route, next));
                        break;
                    }
                    Err(e) => {
                        if std::env::var_os("SIGHTLINE_ARO_SHOW").is_some() {
                            eprintln!("refused: {e}");
                        }
                        refused += 1;
                    }
                }
            }
            let Some((route, next)) = accepted else { break };
            moves += 1;
            let pts: Vec<TablePoint> = route.iter().map(|p| TablePoint::new(p[0], p[1])).collect();
            let path = match skill {
                "jump" => leap(&r.troopers[mover].body, &pts, &r.terrain),
                _ => walk(&r.troopers[mover].body, &pts, &r.terrain).path,
            };
            jumps += usize::from(skill == "jump");
            whole.extend(path.iter().skip(usize::from(!whole.is_empty())));
            let mut bodies: Vec<Body> = r.troopers.iter().map(|t| t.body).collect();
            bodies[mover] = start;
            let events = route_events_with_levels(&r.terrain, &bodies, mover, &whole);
            let expected = geometry_window(&r.troopers, &events, &first_window);
            let got = engine_window(&next);
            assert!(
                same(&got, &expected),
                "case {case}, window {}: {id} moves along {route:?} (walk {:?});\n engine: {got:?}\n geometry: {expected:?}\n \
                 setup: {}",
                window + 1,
                path,
                serde_json::to_string(&r.game.setup()).unwrap_or_default()
            );
            windows[window] += 1;
            for rs in expected.values() {
                for (why, _) in rs {
                    *reasons.entry(why).or_default() += 1;
                }
            }
            raised += usize::from(path.iter().any(|p| p.level_in > 0.0));
            first_window.extend(expected.into_keys());
            // No ARO declared: the window closes, the trooper stands at the end of its route.
            g = ok(&next, json!({"type": "close_aro_window"}));
            let end = path.last().expect("a walk has a point");
            r.troopers[mover].body = r.troopers[mover].body.at(end.at).elevated(end.level_in);
            if skill == "jump" {
                break;
            }
        }
    }
    let counts = format!(
        "{games} games, {moves} moves ({refused} refused, {jumps} jumps), windows {windows:?}, reasons {reasons:?}, \
         {raised} moves off the table"
    );
    eprintln!("{counts}");
    assert!(
        games >= n / 3
            && windows[0] >= games / 2
            && windows[1] >= games / 4
            && reasons.get("lof").copied().unwrap_or(0) > 50
            && reasons.get("zoc").copied().unwrap_or(0) > 50
            && raised > 5
            && jumps > 3,
        "{counts}"
    );
}
