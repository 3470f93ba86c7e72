//! The top-down plan of the table: terrain, bases, arcs, ZoC rings, LoF lines, routes and the
//! selected trooper's visibility region.
//!
//! Spaces: table inches (origin at the bottom-left corner of the plan, y up) and screen points;
//! [`Frame::screen_from_table`] and [`Frame::table_from_screen`] convert between them.

use super::Command;
use crate::geometry::{
    LandingProblem, Lof, PairMeasure, RoutePoint, Scene, Side, Stretch, TablePoint, Walk, WalkProblem, ZOC_RANGE_IN,
    base_crossings, landing_problem, leap, may_pass_through, path_length, route_part, walk_problems_stepping,
    walk_stepping,
};
use egui::{Color32, Pos2, Rect, Sense, Shape, Stroke, pos2, vec2};

/// The colour of a side, the same everywhere in the app.
pub fn side_colour(side: Side) -> Color32 {
    match side {
        Side::A => Color32::from_rgb(70, 140, 255),
        Side::B => Color32::from_rgb(235, 90, 70),
    }
}

/// The colour of a terrain piece being traced, on the plan and the picture.
pub const TERRAIN_DRAFT: Color32 = Color32::from_rgb(120, 230, 255);

/// The colour of ladders and stairs on the plan.
pub const LADDER: Color32 = Color32::from_rgb(235, 200, 90);

/// The colour of a stretch of route the trooper may not take.
pub const BLOCKED_ROUTE: Color32 = Color32::from_rgb(255, 40, 40);

/// Green clear / amber partial / red blocked; grey out of arc.
pub fn verdict_colour(l: &Lof) -> Color32 {
    match l {
        Lof::Clear => Color32::from_rgb(60, 200, 90),
        Lof::Partial { .. } => Color32::from_rgb(240, 180, 40),
        Lof::Blocked { .. } => Color32::from_rgb(220, 60, 60),
        Lof::OutOfArc => Color32::GRAY,
    }
}

/// A verdict as the app words it ("out of arc", where `sightline measure` says `out_of_arc`).
pub fn verdict_text(l: &Lof) -> &'static str {
    match l {
        Lof::OutOfArc => "out of arc",
        other => other.name(),
    }
}

/// A stretch of a trooper's route where it may not go (N4 General Movement Rules): terrain taller
/// than its Silhouette, a base it may not pass through, or another's space where the route ends.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteProblem {
    /// Where along the route, inches.
    pub stretch: Stretch,
    /// What is in the way, in a few words ("into wall, 3\" high").
    pub what: String,
}

/// How a drafted route takes its trooper from level to level: the skill being declared, and the
/// trooper's skills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gait {
    /// A plain move (Move, Cautious Movement, Dodge): up and down no more than the Silhouette's
    /// height (N4 General Movement Rules).
    Walk,
    /// A Move with Climbing Plus: up and down vertical surfaces as over level ground, the faces
    /// climbed counted in its length (N4 Climbing Plus; the README's "Climbing Plus measure").
    ClimbingPlus,
    /// Climb or Jump: a slope to the surface where it ends, over anything in the way.
    Leap,
}

impl Gait {
    /// The highest step up or down the move takes for `body`, inches (not used by a leap).
    fn max_step_in(self, body: &crate::geometry::Body) -> f64 {
        if self == Gait::ClimbingPlus { f64::INFINITY } else { body.silhouette.height_in() }
    }
}

/// Scene trooper `i`'s route followed over the surfaces ([`walk_stepping`], at `gait`'s steps).
fn walked(scene: &Scene, i: usize, gait: Gait) -> Option<Walk> {
    let me = scene.troopers.get(i)?;
    Some(walk_stepping(&me.body, &me.route, &scene.terrain, gait.max_step_in(&me.body)))
}

/// Scene trooper `i`'s route with its level at each point: a plain move over the surfaces
/// ([`walk_stepping`]), or a Climb's or Jump's slope to the surface where it ends ([`leap`]).
/// Just where it stands without a route.
pub fn route_levels(scene: &Scene, i: usize, gait: Gait) -> Vec<RoutePoint> {
    let Some(me) = scene.troopers.get(i) else { return Vec::new() };
    match gait {
        Gait::Leap => leap(&me.body, &me.route, &scene.terrain),
        _ => walked(scene, i, gait).map(|w| w.path).unwrap_or_default(),
    }
}

/// Scene trooper `i`'s route's length as a plain move, inches: over the table, plus the ladders
/// it goes up and down (N4 "Ladders and Stairs": measured along the surface). In a game the
/// rules engine measures a declared skill's route itself (`Game::route_length`).
pub fn route_length(scene: &Scene, i: usize) -> f64 {
    let Some(me) = scene.troopers.get(i) else { return 0.0 };
    let climbed = walked(scene, i, Gait::Walk).map_or(0.0, |w| w.climbed_in(me.body.silhouette.height_in()));
    path_length(&me.path()) + climbed
}

/// Where scene trooper `i`'s route may not go, in order along it (empty without a route): the
/// judgements the rules engine makes of where a declared move goes. A plain move ([`Gait::Walk`]):
/// terrain rising more than its Silhouette above the level it walks at, a step down further than
/// that, a top narrower than half its base, bases it may not pass through; with Climbing Plus, the
/// same but for the walls, which it goes up and down; a Climb or Jump goes over them all. Either
/// way: another's space where it ends, and an end not on a surface as large as the base. (How far it may go, and Climb's Requirements, the engine
/// judges when the move is declared; the panel shows the length beside its MOV.)
pub fn route_problems(scene: &Scene, i: usize, gait: Gait) -> Vec<RouteProblem> {
    let leaping = gait == Gait::Leap;
    let Some(me) = scene.troopers.get(i) else { return Vec::new() };
    if me.route.is_empty() {
        return Vec::new();
    }
    let name = |k: Option<usize>| k.map_or("where it stood", |k| scene.terrain[k].id.as_str());
    let path = me.path();
    let length = path_length(&path);
    let end = path.last().copied().unwrap_or(me.body.centre);
    let at_end = Stretch { from_in: length, to_in: length, start: end, end };
    let mut out = Vec::new();
    let levels = if leaping {
        leap(&me.body, &me.route, &scene.terrain)
    } else {
        let (walk, problems) = walk_problems_stepping(&me.body, &me.route, &scene.terrain, gait.max_step_in(&me.body));
        for p in problems {
            out.push(match p {
                WalkProblem::Into { piece, rise_in, stretch } => {
                    RouteProblem { stretch, what: format!("into {}, {rise_in:.1}\" high", name(Some(piece))) }
                }
                WalkProblem::Down { piece, drop_in, along_in, at } => RouteProblem {
                    stretch: Stretch { from_in: along_in, to_in: along_in, start: at, end: at },
                    what: format!("down {drop_in:.1}\" off {}", name(piece)),
                },
                WalkProblem::Narrow { piece, width_in, along_in, at } => RouteProblem {
                    stretch: Stretch { from_in: along_in, to_in: along_in, start: at, end: at },
                    what: format!("along {}, {width_in:.2}\" wide", name(piece)),
                },
            });
        }
        walk.path
    };
    let end_level = levels.last().map_or(me.body.elevation_in, |q| q.level_in);
    match landing_problem(&me.body.at(end).elevated(end_level), &scene.terrain) {
        Some(LandingProblem::OverHigher { piece, by_in }) => {
            out.push(RouteProblem { stretch: at_end, what: format!("ends {by_in:.2}\" over {}", name(Some(piece))) });
        }
        Some(LandingProblem::OffTheTop { piece, by_in }) => out.push(RouteProblem {
            stretch: at_end,
            what: format!("ends {by_in:.2}\" past {}'s edge", name(Some(piece))),
        }),
        None => {}
    }
    let bodies = scene.bodies();
    for c in base_crossings(&me.body, &me.route, &bodies, &[i]) {
        let o = &scene.troopers[c.trooper];
        if !leaping && !may_pass_through(&me.body, me.side, &o.body, o.side) {
            let why = if o.side == me.side { "taller ally" } else { "enemy" };
            for &stretch in &c.stretches {
                out.push(RouteProblem { stretch, what: format!("through {} ({why})", o.id) });
            }
        } else if c.ends_inside
            && let Some(&stretch) = c.stretches.last()
        {
            out.push(RouteProblem { stretch, what: format!("ends on {}", o.id) });
        }
    }
    out.sort_by(|a, b| a.stretch.from_in.total_cmp(&b.stretch.from_in));
    out
}

/// How close to base contact with an enemy a clicked route point must put the mover's base to be
/// put in contact exactly, inches: players aim for base contact (it makes the Engaged State, within
/// `SILHOUETTE_CONTACT_IN`), and a click on the plan or the picture is seldom that exact.
pub const CONTACT_SNAP_IN: f64 = 0.3;

/// Route point `p` clicked for scene trooper `mover`: when its base there would be within
/// [`CONTACT_SNAP_IN`] of touching an enemy's base (short of it or overlapping), standing on the
/// same level, the point moved along the line from that enemy's centre to where the bases just
/// touch (the nearest such enemy); otherwise `p` as clicked. Table inches.
pub fn snap_to_contact(scene: &Scene, mover: usize, p: TablePoint) -> TablePoint {
    let Some(me) = scene.troopers.get(mover) else { return p };
    let level = crate::geometry::surface_height(&scene.terrain, p);
    scene
        .troopers
        .iter()
        .filter(|o| o.side != me.side && (o.body.elevation_in - level).abs() <= crate::geometry::LEVEL_EPS_IN)
        .filter_map(|o| {
            let (c, touch) = (o.body.centre, me.body.radius() + o.body.radius());
            let d = p.dist(c);
            let gap = d - touch;
            (gap.abs() <= CONTACT_SNAP_IN && d > 1e-9).then(|| (gap.abs(), c + (p - c).scale(touch / d)))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map_or(p, |(_, q)| q)
}

/// What a label names, which sets where it would rather go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LabelFor {
    /// A terrain piece (or a stretch of route): inside it when it fits, else above, below,
    /// right or left.
    Piece,
    /// A trooper: beneath its base, else above, right or left; never over it.
    Base,
}

/// Where a label of `size` goes for a thing whose screen box is `piece`: centred in it if it is a
/// [`LabelFor::Piece`], fits there and overlaps nothing `taken`, else just beside it (in the
/// order [`LabelFor`] gives, the first such place inside `bounds` that overlaps nothing), else a
/// line further up or down from those (labels of one place stacked rather than printed over each
/// other), else where it would rather go.
fn place_label(size: egui::Vec2, piece: Rect, taken: &[Rect], bounds: Rect, what: LabelFor) -> Rect {
    let gap = 2.0;
    let centre = Rect::from_center_size(piece.center(), size);
    let fits_inside = what == LabelFor::Piece && size.x <= piece.width() && size.y <= piece.height();
    let above = pos2(piece.center().x, piece.min.y - gap - size.y / 2.0);
    let below = pos2(piece.center().x, piece.max.y + gap + size.y / 2.0);
    let (first, second) = match what {
        LabelFor::Piece => (above, below),
        LabelFor::Base => (below, above),
    };
    let beside = [
        first,
        second,
        pos2(piece.max.x + gap + size.x / 2.0, piece.center().y),
        pos2(piece.min.x - gap - size.x / 2.0, piece.center().y),
    ]
    .map(|c| Rect::from_center_size(c, size));
    let line = size.y + gap;
    let stacked = (1..=6).flat_map(|k| {
        beside.into_iter().flat_map(move |r| [-1.0, 1.0].map(|d| r.translate(vec2(0.0, d * k as f32 * line))))
    });
    let free = |r: &Rect| bounds.contains_rect(*r) && !taken.iter().any(|t| t.intersects(*r));
    let rather = if what == LabelFor::Piece { centre } else { beside[0] };
    fits_inside
        .then_some(centre)
        .filter(free)
        .or_else(|| beside.into_iter().find(free))
        .or_else(|| stacked.into_iter().find(free))
        .unwrap_or(rather)
}

/// Mapping between table inches and screen points.
struct Frame {
    screen: Rect,
    /// Screen points per inch.
    scale: f32,
    depth: f64,
}

impl Frame {
    fn screen_from_table(&self, p: TablePoint) -> Pos2 {
        pos2(self.screen.min.x + p.x as f32 * self.scale, self.screen.min.y + (self.depth - p.y) as f32 * self.scale)
    }

    fn table_from_screen(&self, p: Pos2) -> TablePoint {
        TablePoint::new(
            ((p.x - self.screen.min.x) / self.scale) as f64,
            self.depth - ((p.y - self.screen.min.y) / self.scale) as f64,
        )
    }

    fn len(&self, inches: f64) -> f32 {
        inches as f32 * self.scale
    }

    /// A base's radius on screen (points): its true size, but never under 3 points, so a
    /// trooper on a small plan can still be seen and clicked.
    fn base_radius(&self, body: &crate::geometry::Body) -> f32 {
        self.len(body.radius()).max(3.0)
    }
}

/// What the plan shows this frame.
pub struct PlanView<'a> {
    pub scene: &'a Scene,
    pub pairs: &'a [PairMeasure],
    pub selected: Option<usize>,
    pub visibility: &'a [TablePoint],
    pub all_zoc: bool,
    /// What a click on the table does.
    pub click: super::order_panel::TableClick,
    /// Troopers that may declare an ARO now (ringed in [`MAY_REACT`]).
    pub may_react: &'a [usize],
    /// The game's Deployment Zones, if its setup sets them: each player's area, inches.
    pub zones: &'a [(Side, Vec<TablePoint>)],
    /// How each trooper's route being drawn moves it (scene indices): a Climb's or Jump's goes
    /// over what a plain move may not, a Climbing Plus Move up and down walls.
    pub gaits: &'a [Gait],
    /// Pairs of troopers (scene indices) in Close Combat (Engaged with each other): each is
    /// ringed in [`CLOSE_COMBAT`].
    pub close_combat: &'a [(usize, usize)],
    /// The corners of a terrain piece being traced, inches (drawn in [`TERRAIN_DRAFT`]).
    pub terrain_draft: &'a [TablePoint],
    /// While a trooper with Forward Deployment (or Strategic Deployment) is to be tagged: how far
    /// beyond its player's Deployment Zone it may go — the line, on the table, and the inches.
    pub reach: Option<(Side, Vec<TablePoint>, f64)>,
}

/// A polygon's outline, dashed (`dash` and `gap` long, screen points), closed back to its first point.
pub fn dashed_outline(painter: &egui::Painter, pts: &[Pos2], stroke: Stroke, dash: f32, gap: f32) {
    if let Some(&first) = pts.first() {
        let closed: Vec<Pos2> = pts.iter().copied().chain([first]).collect();
        painter.extend(Shape::dashed_line(&closed, stroke, dash, gap));
    }
}

/// A press dragged on `response`: where it was pressed and where the pointer is now (screen),
/// while it is dragged and on the frame it ends (`.2`: it ended, the button released).
pub fn facing_drag(ui: &egui::Ui, response: &egui::Response) -> Option<(Pos2, Pos2, bool)> {
    let id = response.id.with("facing drag");
    if response.drag_started()
        && let Some(origin) = ui.input(|i| i.pointer.press_origin())
    {
        ui.data_mut(|d| d.insert_temp(id, origin));
    }
    if !(response.dragged() || response.drag_stopped()) {
        return None;
    }
    let origin = ui.data(|d| d.get_temp::<Pos2>(id))?;
    let now = response.interact_pointer_pos().or_else(|| ui.input(|i| i.pointer.latest_pos()))?;
    let ended = response.drag_stopped();
    if ended {
        ui.data_mut(|d| d.remove::<Pos2>(id));
    }
    Some((origin, now, ended))
}

/// The line [`PlanView::reach`] draws, kept on `table` (inches), and where it is named: its
/// point nearest the table's middle.
pub fn reach_on_table(line: &[TablePoint], table: &crate::geometry::Table) -> (Vec<TablePoint>, Option<TablePoint>) {
    let on: Vec<TablePoint> =
        line.iter().map(|p| TablePoint::new(p.x.clamp(0.0, table.width), p.y.clamp(0.0, table.depth))).collect();
    let middle = table.middle();
    let name_at = (0..on.len())
        .map(|k| crate::geometry::closest_on_segment(middle, on[k], on[(k + 1) % on.len()]))
        .min_by(|a, b| a.dist(middle).total_cmp(&b.dist(middle)));
    (on, name_at)
}

/// Name the reach line ("+4\" forward") at screen point `at`, beside it on the side of
/// `towards` (the table's middle), clear of its dashes.
pub fn reach_label(painter: &egui::Painter, at: Pos2, towards: Pos2, inches: f64, colour: Color32) {
    let v = towards - at;
    let align = match (v.x.abs() > v.y.abs(), v.x > 0.0, v.y > 0.0) {
        (true, true, _) => egui::Align2::LEFT_CENTER,
        (true, false, _) => egui::Align2::RIGHT_CENTER,
        (false, _, true) => egui::Align2::CENTER_TOP,
        (false, _, false) => egui::Align2::CENTER_BOTTOM,
    };
    // On a dark plate, readable over the picture and the terrain.
    let galley = painter.layout_no_wrap(format!("+{inches}\" forward"), egui::FontId::proportional(12.0), colour);
    let rect = align.anchor_size(at + v.normalized() * 6.0, galley.size());
    painter.rect_filled(rect.expand(2.0), 3.0, Color32::from_black_alpha(170));
    painter.galley(rect.min, galley, colour);
}

/// Fill a polygon given in screen points, concave or not (earcut triangulates it).
fn fill_polygon(painter: &egui::Painter, pts: &[Pos2], fill: Color32) {
    let mut tris: Vec<u32> = Vec::new();
    earcut::Earcut::new().earcut(pts.iter().map(|p| [p.x, p.y]), &[] as &[u32], &mut tris);
    let mut mesh = egui::Mesh::default();
    for &p in pts {
        mesh.colored_vertex(p, fill);
    }
    mesh.indices = tris;
    painter.add(Shape::mesh(mesh));
}

/// The ring round a trooper that may declare an ARO now.
pub const MAY_REACT: Color32 = Color32::from_rgb(255, 160, 30);

/// The ring round a trooper in Close Combat (the Engaged State).
pub const CLOSE_COMBAT: Color32 = Color32::from_rgb(200, 80, 255);

impl PlanView<'_> {
    /// Draw the plan; a click on a base selects that trooper.
    pub fn ui(&self, ui: &mut egui::Ui) -> Option<Command> {
        let avail = ui.available_rect_before_wrap();
        let t = &self.scene.table;
        let scale = ((avail.width() - 20.0) / t.width as f32).min((avail.height() - 20.0) / t.depth as f32).max(1.0);
        let size = vec2(t.width as f32 * scale, t.depth as f32 * scale);
        let screen = Rect::from_center_size(avail.center(), size);
        let response = ui.allocate_rect(screen, Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "table plan"));
        let f = Frame { screen, scale, depth: t.depth };
        let painter = ui.painter_at(avail);

        painter.rect_filled(screen, 4.0, Color32::from_rgb(52, 72, 52));
        // 6" grid.
        let grid = Stroke::new(1.0, Color32::from_rgba_unmultiplied(255, 255, 255, 18));
        let mut x = 6.0;
        while x < t.width {
            painter.line_segment(
                [f.screen_from_table(TablePoint::new(x, 0.0)), f.screen_from_table(TablePoint::new(x, t.depth))],
                grid,
            );
            x += 6.0;
        }
        let mut y = 6.0;
        while y < t.depth {
            painter.line_segment(
                [f.screen_from_table(TablePoint::new(0.0, y)), f.screen_from_table(TablePoint::new(t.width, y))],
                grid,
            );
            y += 6.0;
        }

        // Deployment Zones, each in its player's colour, faint (a mission's areas may be concave).
        for (side, zone) in self.zones {
            let pts: Vec<Pos2> = zone.iter().map(|&p| f.screen_from_table(p)).collect();
            fill_polygon(&painter, &pts, side_colour(*side).gamma_multiply(0.12));
            dashed_outline(&painter, &pts, Stroke::new(1.0, side_colour(*side).gamma_multiply(0.6)), 8.0, 4.0);
        }
        if let Some((side, line, inches)) = &self.reach {
            let (on, name_at) = reach_on_table(line, t);
            let pts: Vec<Pos2> = on.iter().map(|&p| f.screen_from_table(p)).collect();
            dashed_outline(&painter, &pts, Stroke::new(1.5, side_colour(*side)), 4.0, 4.0);
            if let Some(p) = name_at {
                reach_label(
                    &painter,
                    f.screen_from_table(p),
                    f.screen_from_table(t.middle()),
                    *inches,
                    side_colour(*side),
                );
            }
        }

        if self.visibility.len() >= 3 {
            // The region is star-shaped around the viewer: one triangle-fan mesh, no feathering.
            let c = self.selected.map(|i| self.scene.troopers[i].body.centre).unwrap_or_default();
            let fill = Color32::from_rgba_unmultiplied(255, 250, 190, 40);
            let mut mesh = egui::Mesh::default();
            mesh.colored_vertex(f.screen_from_table(c), fill);
            for &p in self.visibility {
                mesh.colored_vertex(f.screen_from_table(p), fill);
            }
            let n = self.visibility.len() as u32;
            for k in 1..=n {
                mesh.add_triangle(0, k, k % n + 1);
            }
            painter.add(Shape::mesh(mesh));
        }

        for piece in &self.scene.terrain {
            let pts: Vec<Pos2> = piece.polygon.iter().map(|&p| f.screen_from_table(p)).collect();
            let shade = (90.0 + 25.0 * piece.height_in.min(6.0)) as u8;
            let fill = Color32::from_rgb(shade, shade.saturating_sub(10), shade.saturating_sub(25));
            // Pieces may be concave (an L-shaped ruin): triangulate with earcut.
            fill_polygon(&painter, &pts, fill);
            painter.add(Shape::closed_line(pts, Stroke::new(1.5, Color32::from_gray(30))));
            // Ladders and stairs up its sides: a rail with rungs across it.
            for &[a, b] in &piece.ladders {
                let (sa, sb) = (f.screen_from_table(a), f.screen_from_table(b));
                painter.line_segment([sa, sb], Stroke::new(2.0, LADDER));
                let along = sb - sa;
                let rungs = (along.length() / 5.0).floor().max(1.0) as usize;
                let across = along.normalized().rot90() * 4.0;
                for k in 0..=rungs {
                    let c = sa + along * (k as f32 / rungs as f32);
                    painter.line_segment([c - across, c + across], Stroke::new(1.5, LADDER));
                }
            }
        }

        // The terrain piece being traced: its corners so far, closed once it has three.
        if !self.terrain_draft.is_empty() {
            let pts: Vec<Pos2> = self.terrain_draft.iter().map(|&p| f.screen_from_table(p)).collect();
            let stroke = Stroke::new(2.0, TERRAIN_DRAFT);
            if pts.len() >= 3 {
                painter.add(Shape::closed_line(pts.clone(), stroke));
            } else {
                painter.add(Shape::line(pts.clone(), stroke));
            }
            for p in pts {
                painter.circle_filled(p, 3.5, TERRAIN_DRAFT);
            }
        }

        // LoF lines from the selected trooper.
        if let Some(sel) = self.selected {
            for m in self.pairs.iter().filter(|m| m.from == sel) {
                let colour = verdict_colour(&m.lof.lof);
                match m.lof.witness {
                    Some([a, b]) => {
                        painter.line_segment(
                            [f.screen_from_table(a.plan()), f.screen_from_table(b.plan())],
                            Stroke::new(2.0, colour),
                        );
                    }
                    None if matches!(m.lof.lof, Lof::Blocked { .. }) => {
                        let (a, b) = (self.scene.troopers[m.from].body.centre, self.scene.troopers[m.to].body.centre);
                        let dash = egui::Shape::dashed_line(
                            &[f.screen_from_table(a), f.screen_from_table(b)],
                            Stroke::new(1.0, colour.gamma_multiply(0.6)),
                            6.0,
                            5.0,
                        );
                        painter.extend(dash);
                    }
                    None => {}
                }
            }
        }

        let mut route_labels: Vec<(String, Rect)> = Vec::new();
        for (i, tr) in self.scene.troopers.iter().enumerate() {
            let b = &tr.body;
            let c = f.screen_from_table(b.centre);
            let colour = side_colour(tr.side);
            if self.all_zoc || self.selected == Some(i) {
                painter.circle_stroke(
                    c,
                    f.len(b.radius() + ZOC_RANGE_IN),
                    Stroke::new(1.5, colour.gamma_multiply(0.7)),
                );
            }
            if !tr.route.is_empty() {
                let path = tr.path();
                let pts: Vec<Pos2> = path.iter().map(|&p| f.screen_from_table(p)).collect();
                painter.add(Shape::line(pts.clone(), Stroke::new(2.0, colour.gamma_multiply(0.8))));
                for p in &pts[1..] {
                    painter.circle_stroke(*p, f.len(b.radius()), Stroke::new(1.0, colour.gamma_multiply(0.6)));
                }
                // Where the route may not go, in red over it.
                for p in route_problems(self.scene, i, self.gaits.get(i).copied().unwrap_or(Gait::Walk)) {
                    let part: Vec<Pos2> = route_part(&path, p.stretch.from_in, p.stretch.to_in)
                        .into_iter()
                        .map(|q| f.screen_from_table(q))
                        .collect();
                    if part.len() > 1 {
                        painter.add(Shape::line(part.clone(), Stroke::new(5.0, BLOCKED_ROUTE)));
                    } else {
                        painter.circle_filled(part[0], 4.0, BLOCKED_ROUTE);
                    }
                    route_labels.push((p.what, Rect::from_points(&part).expand(3.0)));
                }
            }
            let r = f.base_radius(b);
            painter.circle_filled(c, r, colour.gamma_multiply(0.85));
            // Front arc: the front half drawn brighter, with a facing tick.
            let face = b.facing_unit();
            let dir = vec2(face.x as f32, -face.y as f32);
            if b.arc == crate::geometry::Arc::Front180 {
                let perp = vec2(-dir.y, dir.x);
                painter.line_segment([c - perp * r, c + perp * r], Stroke::new(1.5, Color32::WHITE));
            }
            painter.line_segment([c, c + dir * r * 1.6], Stroke::new(2.0, Color32::WHITE));
            let ring = if self.selected == Some(i) {
                Stroke::new(2.5, Color32::YELLOW)
            } else {
                Stroke::new(1.0, Color32::BLACK)
            };
            painter.circle_stroke(c, r, ring);
            if self.may_react.contains(&i) {
                painter.circle_stroke(c, r + 4.0, Stroke::new(2.5, MAY_REACT));
            }
            if self.close_combat.iter().any(|&(a, b)| a == i || b == i) {
                painter.circle_stroke(c, r + 7.5, Stroke::new(2.5, CLOSE_COMBAT));
            }
        }

        // Labels last, each where it covers no base, trooper name or other label: a trooper's
        // beneath its base when that is free (else above or beside it: two Models in base contact
        // do not print their names over each other); a piece's inside it when it can, else beside
        // it, so none is hidden under a trooper on a roof.
        let mut taken: Vec<Rect> = Vec::new();
        let bases: Vec<Rect> = self
            .scene
            .troopers
            .iter()
            .map(|tr| {
                let r = f.base_radius(&tr.body);
                Rect::from_center_size(f.screen_from_table(tr.body.centre), vec2(2.0 * r, 2.0 * r))
            })
            .collect();
        taken.extend(&bases);
        for (tr, base) in self.scene.troopers.iter().zip(&bases) {
            let name = painter.layout_no_wrap(tr.id.clone(), egui::FontId::proportional(12.0), Color32::WHITE);
            // A space's width either side, so two names side by side never read as one word.
            let at = place_label(name.size() + vec2(8.0, 0.0), *base, &taken, screen, LabelFor::Base);
            taken.push(at);
            painter.galley(at.center() - name.size() / 2.0, name, Color32::WHITE);
        }
        // What blocks a route first, on a dark ground (it may lie over terrain).
        for (text, part) in route_labels {
            let galley = painter.layout_no_wrap(text, egui::FontId::proportional(12.0), BLOCKED_ROUTE);
            let at = place_label(galley.size() + vec2(6.0, 2.0), part, &taken, screen, LabelFor::Piece);
            taken.push(at);
            painter.rect_filled(at, 3.0, Color32::from_black_alpha(190));
            painter.galley(at.min + vec2(3.0, 1.0), galley, BLOCKED_ROUTE);
        }
        for piece in &self.scene.terrain {
            let pts: Vec<Pos2> = piece.polygon.iter().map(|&p| f.screen_from_table(p)).collect();
            let text = format!("{} {}\"", piece.id, piece.height_in);
            let galley = painter.layout_no_wrap(text, egui::FontId::proportional(11.0), Color32::from_gray(20));
            let at = place_label(galley.size(), Rect::from_points(&pts), &taken, screen, LabelFor::Piece);
            taken.push(at);
            painter.galley(at.min, galley, Color32::from_gray(20));
        }

        // While tagging, or drawing a route: a press dragged gives the facing it is dragged
        // towards (the Model's; the mover's at the end of its route).
        if self.click.takes_facing()
            && let Some((from, to, ended)) = facing_drag(ui, &response)
        {
            painter.arrow(from, to - from, Stroke::new(2.0, Color32::WHITE));
            let (a, b) = (f.table_from_screen(from), f.table_from_screen(to));
            if ended
                && a.dist(b) >= super::order_panel::FACING_DRAG_IN
                && let Some(facing) = super::order_panel::facing_towards(a, b)
            {
                let h = crate::geometry::surface_height(&self.scene.terrain, a);
                return self.click.command_facing(a, h, facing);
            }
        }
        if response.clicked() {
            let p = response.interact_pointer_pos().map(|p| f.table_from_screen(p))?;
            return Some(
                self.click
                    .command_at(p, &self.scene.terrain)
                    .unwrap_or_else(|| Command::Select(super::trooper_at(self.scene, p, 0.3))),
            );
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A click 0.2" short of b1's base (or 0.2" into it) puts a1's base against it; 0.5" short,
    /// or beside an ally, stays where it was clicked.
    #[test]
    fn a_route_click_near_an_enemys_base_snaps_to_base_contact() {
        let text = r#"{"troopers": [
            {"id": "a1", "side": "A", "silhouette": 2, "x": 5, "y": 10, "facing": 0},
            {"id": "a2", "side": "A", "silhouette": 2, "x": 30, "y": 10, "facing": 0},
            {"id": "b1", "side": "B", "silhouette": 2, "x": 20, "y": 10, "facing": 180}]}"#;
        let scene = Scene::from_json(text).expect("scene");
        let touch = 2.0 * crate::geometry::Silhouette::S2.radius_in();
        for clicked in [20.0 - touch - 0.2, 20.0 - touch + 0.2] {
            let q = snap_to_contact(&scene, 0, TablePoint::new(clicked, 10.0));
            assert!((q.x - (20.0 - touch)).abs() < 1e-12 && (q.y - 10.0).abs() < 1e-12, "{clicked} → {q:?}");
        }
        let far = TablePoint::new(20.0 - touch - 0.5, 10.0);
        assert_eq!(snap_to_contact(&scene, 0, far), far);
        let by_ally = TablePoint::new(30.0 - touch - 0.1, 10.0);
        assert_eq!(snap_to_contact(&scene, 0, by_ally), by_ally);
    }

    /// A trooper's name goes beneath its base; the name of a second trooper in base contact
    /// with the first goes where it covers neither base nor the first name; at the table's
    /// bottom edge it goes above; never over a base, even a base large enough to hold it.
    #[test]
    fn trooper_names_go_beneath_their_bases_unless_that_is_taken() {
        let bounds = Rect::from_min_size(Pos2::ZERO, vec2(500.0, 500.0));
        let size = vec2(40.0, 14.0);
        let a = Rect::from_center_size(pos2(200.0, 200.0), vec2(20.0, 20.0));
        let b = a.translate(vec2(20.0, 0.0));
        let mut taken = vec![a, b];
        let first = place_label(size, a, &taken, bounds, LabelFor::Base);
        assert!(first.min.y >= a.max.y && (first.center().x - a.center().x).abs() < 1e-3, "{first:?}");
        taken.push(first);
        let second = place_label(size, b, &taken, bounds, LabelFor::Base);
        assert!(!taken.iter().any(|t| t.intersects(second)), "{second:?} over {taken:?}");
        let low = Rect::from_center_size(pos2(100.0, 490.0), vec2(20.0, 20.0));
        let at = place_label(size, low, &[low], bounds, LabelFor::Base);
        assert!(at.max.y <= low.min.y && bounds.contains_rect(at), "{at:?}");
        let big = Rect::from_center_size(pos2(300.0, 100.0), vec2(80.0, 80.0));
        let at = place_label(size, big, &[big], bounds, LabelFor::Base);
        assert!(!at.intersects(big), "{at:?}");
    }

    /// A label goes inside its piece when it fits and is free; beside it when a trooper stands
    /// on the piece or the piece is too thin; and never over a base.
    #[test]
    fn terrain_labels_avoid_bases_and_thin_pieces() {
        let bounds = Rect::from_min_size(Pos2::ZERO, vec2(500.0, 500.0));
        let size = vec2(40.0, 12.0);
        let roof = Rect::from_min_size(pos2(100.0, 100.0), vec2(80.0, 80.0));
        assert_eq!(place_label(size, roof, &[], bounds, LabelFor::Piece).center(), roof.center());
        let base = Rect::from_center_size(roof.center(), vec2(20.0, 20.0));
        let at = place_label(size, roof, &[base], bounds, LabelFor::Piece);
        assert!(!at.intersects(base) && bounds.contains_rect(at), "{at:?}");
        let wall = Rect::from_min_size(pos2(200.0, 200.0), vec2(8.0, 60.0));
        let at = place_label(size, wall, &[], bounds, LabelFor::Piece);
        assert!(!at.intersects(wall), "{at:?}");
        // At the table's top edge, above is out: it goes below.
        let edge = Rect::from_min_size(pos2(300.0, 0.0), vec2(8.0, 30.0));
        let at = place_label(size, edge, &[], bounds, LabelFor::Piece);
        assert!(at.min.y > edge.max.y, "{at:?}");
        // Two labels for one small place (a route's two problems at its end): the second is
        // stacked off the first, not printed over it.
        let spot = Rect::from_center_size(pos2(250.0, 400.0), vec2(4.0, 4.0));
        let mut taken = Vec::new();
        for _ in 0..6 {
            let at = place_label(size, spot, &taken, bounds, LabelFor::Piece);
            assert!(!taken.iter().any(|t: &Rect| t.intersects(at)), "{at:?} over {taken:?}");
            taken.push(at);
        }
    }
}
