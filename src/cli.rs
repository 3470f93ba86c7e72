//! Headless subcommands: JSON on stdout, a message naming the problem on stderr, exit codes.
//!
//! Exit codes: 0 success; 2 bad input (a file that cannot be read, a scene that fails
//! validation, an unknown trooper id).

use crate::geometry::{Obstacles, Point3, Scene, Stretch, TablePoint, ZocVerdict, route_events, visibility_polygon};
use serde_json::{Value, json};
use std::path::Path;

/// A failed subcommand: what to print and the exit code.
#[derive(Debug)]
pub struct CliError {
    /// The message for stderr.
    pub message: String,
    /// The process exit code.
    pub code: u8,
}

impl CliError {
    fn input(message: impl Into<String>) -> Self {
        Self { message: message.into(), code: 2 }
    }
}

/// Round to 3 decimals (thousandths of an inch) for output.
fn r3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

fn pt(p: TablePoint) -> Value {
    json!([r3(p.x), r3(p.y)])
}

fn p3(p: Point3) -> Value {
    json!([r3(p.x), r3(p.y), r3(p.z)])
}

/// Read and validate a scene file; errors name the file and the field.
pub fn load_scene(path: &Path) -> Result<Scene, CliError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| CliError::input(format!("{}: cannot read: {e}", path.display())))?;
    Scene::from_json(&text).map_err(|e| CliError::input(format!("{}: {e}", path.display())))
}

/// `sightline measure`: distance, ZoC and LoF for every ordered pair, route events for every
/// trooper with a route, and the visibility polygon of each trooper in `visibility`.
pub fn measure(scene: &Scene, visibility: &[String]) -> Result<Value, CliError> {
    let pairs: Vec<Value> = scene
        .all_pairs()
        .into_iter()
        .map(|m| {
            let names: Vec<&str> = m.lof.lof.blockers().iter().map(|&b| scene.blocker_id(b)).collect();
            json!({
                "from": scene.troopers[m.from].id,
                "to": scene.troopers[m.to].id,
                "distance": r3(m.distance_in),
                "in_zoc": m.zoc.is_inside(),
                "zoc": match m.zoc {
                    ZocVerdict::Outside => "outside",
                    ZocVerdict::Inside => "inside",
                    ZocVerdict::TotallyInside => "totally_inside",
                },
                "lof": m.lof.lof.name(),
                "has_lof": m.lof.lof.has_lof(),
                "witness": m.lof.witness.map(|[a, b]| json!([p3(a), p3(b)])),
                "blocked_by": names,
            })
        })
        .collect();
    let bodies = scene.bodies();
    let obstacles = Obstacles::new(&scene.terrain, &bodies);
    let stretch =
        |s: &Stretch| json!({"from": r3(s.from_in), "to": r3(s.to_in), "start": pt(s.start), "end": pt(s.end)});
    let first = |s: Option<(f64, TablePoint)>| s.map(|(d, p)| json!({"along": r3(d), "point": pt(p)}));
    let routes: Vec<Value> = scene
        .troopers
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.route.is_empty())
        .map(|(i, t)| {
            let mut pts = vec![t.body.centre];
            pts.extend_from_slice(&t.route);
            let length: f64 = pts.windows(2).map(|w| w[0].dist(w[1])).sum();
            let events: Vec<Value> = route_events(&obstacles, &bodies, i, &t.route)
                .iter()
                .map(|e| {
                    json!({
                        "observer": scene.troopers[e.observer].id,
                        "first_lof": first(e.first_lof()),
                        "lof_stretches": e.lof.iter().map(stretch).collect::<Vec<_>>(),
                        "first_zoc": first(e.first_zoc()),
                        "zoc_stretches": e.zoc.iter().map(stretch).collect::<Vec<_>>(),
                    })
                })
                .collect();
            json!({"trooper": t.id, "length": r3(length), "path": pts.iter().map(|&p| pt(p)).collect::<Vec<_>>(), "events": events})
        })
        .collect();
    let mut out = json!({
        "table": {"width": scene.table.width, "depth": scene.table.depth},
        "pairs": pairs,
        "routes": routes,
    });
    if !visibility.is_empty() {
        let mut vis = serde_json::Map::new();
        for id in visibility {
            let i = scene
                .trooper_index(id)
                .ok_or_else(|| CliError::input(format!("--visibility {id}: no trooper with that id in the scene")))?;
            let poly = visibility_polygon(&bodies[i], &scene.terrain, &scene.table);
            vis.insert(id.clone(), Value::Array(poly.into_iter().map(pt).collect()));
        }
        out["visibility"] = Value::Object(vis);
    }
    Ok(out)
}

/// What `sightline replay` found: the lines to print, warnings for stderr, and the exit code.
#[derive(Debug)]
pub struct ReplayReport {
    /// One JSON value per output line.
    pub lines: Vec<Value>,
    /// Messages for stderr (a torn last line that was skipped).
    pub warnings: Vec<String>,
    /// 0 when every event was accepted, 1 when any was rejected.
    pub code: u8,
}

/// `sightline replay GAME [--at N]`: apply every event of a game file; one JSON line per event
/// (its index, `accepted` or the rejection, and the state after it), or with `at`, the full state
/// after event `at` (0: before the first event).
pub fn replay(path: &Path, at: Option<usize>) -> Result<ReplayReport, CliError> {
    use crate::rules::{Game, full_state, summary};
    let file = crate::store::load(path).map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    let mut warnings = Vec::new();
    if let Some(t) = &file.torn {
        warnings.push(format!(
            "{}: line {}: torn last line skipped ({} bytes: {}); the game is read up to the line before",
            path.display(),
            t.line,
            t.bytes,
            t.error
        ));
    }
    if let Some(n) = at
        && n > file.events.len()
    {
        return Err(CliError::input(format!("--at {n}: the file has only {} events", file.events.len())));
    }
    let mut game =
        Game::new(file.setup).map_err(|e| CliError::input(format!("{}: line 1: setup.{e}", path.display())))?;
    let mut lines = Vec::new();
    let mut code = 0;
    if at == Some(0) {
        lines.push(full_state(&game));
    }
    for (k, logged) in file.events.iter().enumerate() {
        let index = k + 1;
        let (result, next) = match game.apply(&logged.event) {
            Ok(g) => (json!({"result": "accepted"}), Some(g)),
            Err(r) => {
                code = 1;
                (json!({"result": "rejected", "rule": r.rule.name(), "reason": r.reason}), None)
            }
        };
        if let Some(g) = next {
            game = g;
        }
        if at.is_none() {
            let mut line = json!({"index": index, "line": logged.line, "event": logged.event.kind()});
            if let (Value::Object(m), Value::Object(r)) = (&mut line, result) {
                m.extend(r);
                m.insert("state".into(), summary(&game));
            }
            lines.push(line);
        } else if at == Some(index) {
            let mut state = full_state(&game);
            if let (Value::Object(m), Value::Object(r)) = (&mut state, result) {
                m.insert("event".into(), json!({"index": index, "line": logged.line, "type": logged.event.kind()}));
                m.extend(r);
            }
            lines.push(state);
        }
    }
    Ok(ReplayReport { lines, warnings, code })
}
