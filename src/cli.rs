//! Headless subcommands: JSON on stdout, a message naming the problem on stderr, exit codes.
//!
//! Exit codes: 0 success; 2 bad input (a file that cannot be read, a scene that fails
//! validation, an unknown trooper id).

use crate::geometry::{
    Point3, Scene, Stretch, TablePoint, ZocVerdict, base_crossings, may_pass_through, path_length,
    route_events_with_levels, table_side_problem, visibility_polygon, walk_crossings,
};
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
    let stretch =
        |s: &Stretch| json!({"from": r3(s.from_in), "to": r3(s.to_in), "start": pt(s.start), "end": pt(s.end)});
    let first = |s: Option<(f64, TablePoint)>| s.map(|(d, p)| json!({"along": r3(d), "point": pt(p)}));
    let routes: Vec<Value> = scene
        .troopers
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.route.is_empty())
        .map(|(i, t)| {
            let pts = t.path();
            let length = path_length(&pts);
            // Walked as a plain move over the surfaces (up onto a crate and down again).
            let (walk, crossings) = walk_crossings(&t.body, &t.route, &scene.terrain);
            let events: Vec<Value> = route_events_with_levels(&scene.terrain, &bodies, i, &walk.path)
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
            let crossings: Vec<Value> = crossings
                .iter()
                .map(|(level, c)| {
                    json!({
                        "terrain": scene.terrain[c.piece].id,
                        "level": r3(*level),
                        "rise": r3(c.rise_in),
                        "vault": c.vaultable,
                        "stretches": c.stretches.iter().map(stretch).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let bases: Vec<Value> = base_crossings(&t.body, &t.route, &bodies, &[i])
                .iter()
                .map(|c| {
                    let o = &scene.troopers[c.trooper];
                    json!({
                        "trooper": o.id,
                        "pass": may_pass_through(&t.body, t.side, &o.body, o.side),
                        "ends_inside": c.ends_inside,
                        "stretches": c.stretches.iter().map(stretch).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let levels: Vec<Value> =
                walk.path.iter().map(|q| json!([r3(q.at.x), r3(q.at.y), r3(q.level_in)])).collect();
            let steps: Vec<Value> = walk
                .steps
                .iter()
                .map(|s| {
                    let mut v = json!({"along": r3(s.along_in), "point": pt(s.at), "from": r3(s.from_level_in),
                           "to": r3(s.to_level_in), "terrain": s.piece.map(|k| scene.terrain[k].id.as_str()),
                           "taken": s.taken});
                    if s.ladder {
                        v["ladder"] = json!(true);
                    }
                    v
                })
                .collect();
            json!({"trooper": t.id, "length": r3(length), "path": pts.iter().map(|&p| pt(p)).collect::<Vec<_>>(),
                   "levels": levels, "steps": steps, "end_level": r3(walk.end_level()),
                   "events": events, "crosses": crossings, "crosses_bases": bases})
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

/// What `sightline locate` was asked, as given on the command line (parsed and checked by [`locate`]).
#[derive(Debug, Clone, Default)]
pub struct LocateArgs {
    /// `--image PHOTO`: read for its size, and decoded for `--snap`.
    pub image: std::path::PathBuf,
    /// `--table WxD`, inches (e.g. `48x48`).
    pub table: String,
    /// `--corners X1,Y1,X2,Y2,X3,Y3,X4,Y4`: pixels of the corners (0,0), (W,0), (W,D), (0,D).
    pub corners: String,
    /// `--pairs FILE`: further pixel ↔ table pairs (JSON `[{"pixel": [px, py], "table": [x, y]}, ...]`).
    pub pairs: Option<std::path::PathBuf>,
    /// The points to map: `PX,PY` pixels, or `TX,TY` inches with `to_image`.
    pub points: Vec<String>,
    /// `--to-image`: map table points to pixels instead.
    pub to_image: bool,
    /// `--snap` (with `--snap-radius`): snap each corner to the strongest image corner within this many pixels first.
    pub snap_px: Option<f64>,
}

/// One entry of a `--pairs` file.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PairEntry {
    pixel: [f64; 2],
    table: [f64; 2],
}

/// `sightline new SETUP GAME`: start game file `game` from the setup in `setup` (JSON: table,
/// terrain, armies, who goes first — docs/game-format.md "The setup"). The setup is validated as a
/// game would be (errors name its field); an existing file is never overwritten.
pub fn new_game(setup: &Path, game: &Path) -> Result<(), CliError> {
    use crate::rules::{Game, Setup};
    let text = std::fs::read_to_string(setup).map_err(|e| CliError::input(format!("{}: {e}", setup.display())))?;
    let parsed = Setup::from_json(&text).map_err(|e| CliError::input(format!("{}: {e}", setup.display())))?;
    Game::new(parsed.clone()).map_err(|e| CliError::input(format!("{}: setup.{e}", setup.display())))?;
    crate::store::GameWriter::create(game, &parsed).map_err(|e| CliError::input(format!("{}: {e}", game.display())))?;
    Ok(())
}

/// `sightline army-code`: the army code decoded (`{"code": ...}`); with `data`, also the army it
/// makes with that army data (`"army"`, as an army file holds it, and `"notes"`); with `out`, that
/// army written to a new army file (never over an existing one), named in `"written"`.
pub fn army_code(code: &str, data: Option<&Path>, out: Option<&Path>, ids: &str) -> Result<Value, CliError> {
    let decoded = crate::store::army_code::decode(code).map_err(|e| CliError::input(format!("army code: {e}")))?;
    let mut result = json!({ "code": decoded, "data_url": crate::store::army_data::data_url(decoded.sectorial_id) });
    let Some(data) = data else {
        if out.is_some() {
            return Err(CliError::input("--out needs --data: the army data turns the code's ids into troopers"));
        }
        return Ok(result);
    };
    if ids.trim().is_empty() || ids.chars().any(char::is_whitespace) {
        return Err(CliError::input(format!("--ids {ids:?}: expected a short prefix without spaces, e.g. a")));
    }
    let imported = crate::store::army_data::import(code, data, ids).map_err(CliError::input)?;
    result["army"] = serde_json::to_value(&imported.army).map_err(|e| CliError::input(e.to_string()))?;
    result["notes"] = json!(imported.notes);
    result["title"] = json!(imported.title);
    if let Some(out) = out {
        if out.exists() {
            return Err(CliError::input(format!(
                "--out {}: already exists; an army file is never written over",
                out.display()
            )));
        }
        crate::store::save_army(out, &imported.army)
            .map_err(|e| CliError { message: format!("--out {}: {e}", out.display()), code: 1 })?;
        result["written"] = json!(out.display().to_string());
    }
    Ok(result)
}

fn number(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

/// `"X,Y"` as two finite numbers.
fn xy(s: &str) -> Option<(f64, f64)> {
    let (a, b) = s.split_once(',')?;
    Some((number(a)?, number(b)?))
}

fn parse_table(s: &str) -> Result<(f64, f64), CliError> {
    let bad = || CliError::input(format!("--table {s:?}: expected WIDTHxDEPTH in inches, e.g. 48x48"));
    let (w, d) = s.split_once(['x', 'X', '×']).ok_or_else(bad)?;
    match (number(w), number(d)) {
        (Some(w), Some(d)) => match table_side_problem(w).or_else(|| table_side_problem(d)) {
            None => Ok((w, d)),
            Some(why) => Err(CliError::input(format!("--table {s:?}: {why}"))),
        },
        _ => Err(bad()),
    }
}

fn parse_corners(s: &str) -> Result<[crate::vision::ImagePoint; 4], CliError> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != 8 {
        return Err(CliError::input(format!(
            "--corners: expected 8 numbers X1,Y1,X2,Y2,X3,Y3,X4,Y4 (pixels of the corners (0,0), (W,0), (W,D), (0,D)), \
             got {}",
            parts.len()
        )));
    }
    let mut v = [0.0; 8];
    for (k, p) in parts.iter().enumerate() {
        v[k] = number(p).ok_or_else(|| {
            let axis = if k % 2 == 0 { 'X' } else { 'Y' };
            CliError::input(format!("--corners: {axis}{} = {p:?} is not a number", k / 2 + 1))
        })?;
    }
    Ok([0, 1, 2, 3].map(|i| crate::vision::ImagePoint::new(v[2 * i], v[2 * i + 1])))
}

/// `sightline locate`: fit the calibration from the corners (and `--pairs`), then map each point given, pixels to
/// table inches (or, with `--to-image`, inches to pixels). JSON: `points` (each `{"pixel", "table"}`), `residuals_px`
/// (per pair: corners first, then the `--pairs` entries), `rms_px`, `max_error_in`, `corners`, `image`, `table`, and
/// with `--snap`, `corners_clicked`; `camera`, the pinhole camera behind the calibration (`focal_px`, `hfov_deg`,
/// `focal`: `estimated` or `assumed`, `eye` in table inches, `tilt_deg`), or null.
pub fn locate(args: &LocateArgs) -> Result<Value, CliError> {
    use crate::vision::{Calibration, ImagePoint, PointPair, corner_pairs, snap_corner};
    let (w, d) = parse_table(&args.table)?;
    let clicked = parse_corners(&args.corners)?;
    let path = args.image.display();
    let mut corners = clicked;
    let size = if let Some(radius) = args.snap_px {
        if !(radius.is_finite() && radius > 0.0) {
            return Err(CliError::input(format!("--snap-radius {radius}: expected a positive number of pixels")));
        }
        let img = image::open(&args.image).map_err(|e| CliError::input(format!("--image {path}: cannot read: {e}")))?;
        let gray = img.to_luma8();
        for (k, c) in corners.iter_mut().enumerate() {
            *c = snap_corner(&gray, *c, radius)
                .map_err(|e| CliError::input(format!("--snap: corner {} ({}): {e}", k + 1, corner_name(k, w, d))))?;
        }
        gray.dimensions()
    } else {
        image::image_dimensions(&args.image)
            .map_err(|e| CliError::input(format!("--image {path}: cannot read: {e}")))?
    };
    let mut pairs = corner_pairs(w, d, corners).to_vec();
    let pairs_name = args.pairs.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
    if let Some(file) = &args.pairs {
        let text = std::fs::read_to_string(file)
            .map_err(|e| CliError::input(format!("--pairs {pairs_name}: cannot read: {e}")))?;
        let entries: Vec<PairEntry> = crate::geometry::read_json_at(&text).map_err(|e| {
            CliError::input(format!(
                "--pairs {pairs_name}: {} (expected [{{\"pixel\": [px, py], \"table\": [x, y]}}, ...])",
                e.described(false)
            ))
        })?;
        pairs.extend(
            entries.iter().map(|e| {
                PointPair::new(ImagePoint::new(e.pixel[0], e.pixel[1]), TablePoint::new(e.table[0], e.table[1]))
            }),
        );
    }
    let name = |i: usize| {
        if i < 4 {
            format!("corner {} ({})", i + 1, corner_name(i, w, d))
        } else {
            format!("--pairs {pairs_name}[{}]", i - 4)
        }
    };
    let cal = Calibration::fit(size, &pairs).map_err(|e| CliError::input(e.describe(&name)))?;

    let mut points = Vec::new();
    for (k, s) in args.points.iter().enumerate() {
        let what = if args.to_image { "TX,TY or TX,TY,TZ (inches)" } else { "PX,PY (pixels)" };
        let bad = || CliError::input(format!("point {} {s:?}: expected {what}", k + 1));
        // With --to-image, a third number is a height above the table, inches: mapped through
        // the calibration's camera (CameraPose).
        let (xy_part, z) = match s.splitn(3, ',').nth(2) {
            Some(z) if args.to_image => (&s[..s.len() - z.len() - 1], Some(number(z).ok_or_else(bad)?)),
            _ => (s.as_str(), None),
        };
        let (x, y) = xy(xy_part).ok_or_else(bad)?;
        if let Some(z) = z {
            let t = TablePoint::new(x, y);
            let pose = cal.pose().ok_or_else(|| {
                CliError::input(format!("point {} {s:?}: no camera above the table fits this calibration", k + 1))
            })?;
            let pixel = pose.image_from_table_at(t, z).ok_or_else(|| {
                CliError::input(format!("point {} {s:?}: not in front of the calibrated camera", k + 1))
            })?;
            points.push(json!({"pixel": [r3z(pixel.x), r3z(pixel.y)], "table": [r3z(x), r3z(y), r3z(z)]}));
            continue;
        }
        let (pixel, table) = if args.to_image {
            let t = TablePoint::new(x, y);
            (cal.image_from_table(t), t)
        } else {
            let p = ImagePoint::new(x, y);
            (p, cal.table_from_image(p))
        };
        if ![pixel.x, pixel.y, table.x, table.y].iter().all(|v| v.is_finite()) || !cal.is_visible(table) {
            let place = if args.to_image { "beyond the horizon" } else { "at or above the horizon" };
            return Err(CliError::input(format!("point {} {s:?}: {place} of the calibrated view", k + 1)));
        }
        points.push(json!({"pixel": [r3z(pixel.x), r3z(pixel.y)], "table": [r3z(table.x), r3z(table.y)]}));
    }
    let mut out = json!({
        "image": {"width": size.0, "height": size.1},
        "table": {"width": w, "depth": d},
        "corners": corners.iter().map(|c| json!([r3z(c.x), r3z(c.y)])).collect::<Vec<_>>(),
        "points": points,
        "residuals_px": cal.residuals_px().iter().map(|&r| r3(r)).collect::<Vec<_>>(),
        "rms_px": r3(cal.rms_px()),
        "max_error_in": r3(cal.max_error_in()),
    });
    out["camera"] = match cal.pose() {
        Some(pose) => json!({
            "focal_px": r3(pose.focal_px()),
            "hfov_deg": r3(pose.hfov_deg(f64::from(size.0))),
            "focal": match pose.focal() {
                crate::vision::Focal::Estimated => "estimated",
                crate::vision::Focal::Assumed => "assumed",
            },
            "eye": pose.eye().map(r3z),
            "tilt_deg": r3(pose.tilt_deg()),
        }),
        None => Value::Null,
    };
    let lens = cal.lens();
    out["lens"] = if lens.is_none() {
        Value::Null
    } else {
        json!({"model": "division", "lambda": (lens.lambda() * 1e6).round() / 1e6, "worst_shift_px": r3(lens.worst_shift_px())})
    };
    if args.snap_px.is_some() {
        out["corners_clicked"] = clicked.iter().map(|c| json!([r3z(c.x), r3z(c.y)])).collect();
    }
    Ok(out)
}

/// [`r3`] without negative zeros.
fn r3z(v: f64) -> f64 {
    r3(v) + 0.0
}

/// The table coordinates of corner `k` (0-based) of a `w × d` table, for messages.
fn corner_name(k: usize, w: f64, d: f64) -> String {
    let (x, y) = [(0.0, 0.0), (w, 0.0), (w, d), (0.0, d)][k % 4];
    format!("{x},{y}")
}
