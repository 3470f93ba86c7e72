//! The game's state as JSON: what `sightline replay` prints after each event ([`summary`]) and
//! with `--at N` ([`full_state`]). The field names are part of the documented format.

use super::fireteam;
use super::game::{Game, Phase};
use crate::geometry::Side;
use serde_json::{Map, Value, json};

fn side_name(s: Side) -> &'static str {
    match s {
        Side::A => "A",
        Side::B => "B",
    }
}

fn per_side(f: impl Fn(Side) -> Value) -> Value {
    json!({ "A": f(Side::A), "B": f(Side::B) })
}

/// Pools, held special Orders, Command Tokens, the Order in progress (step, eligible AROs with
/// reasons, declared AROs) and Fireteams (members, coherency, bonus).
pub fn summary(game: &Game) -> Value {
    let held = |side: Side| {
        let mine = |id: &String| game.trooper(id).is_some_and(|t| t.side == side);
        let irregular: Map<String, Value> = game
            .irregular_orders()
            .iter()
            .filter(|(id, n)| mine(id) && **n > 0)
            .map(|(id, n)| (id.clone(), json!(n)))
            .collect();
        json!({
            "irregular": irregular,
            "lieutenant": {
                "orders": game.lieutenant_orders(side),
                "usable_by": game.lieutenant_order_users(side),
            },
            "tactical_awareness": game.tactical_awareness_orders().iter().filter(|id| mine(id)).collect::<Vec<_>>(),
            "impetuous": game.impetuous_tokens().iter().filter(|id| mine(id)).collect::<Vec<_>>(),
        })
    };
    let fireteams = |side: Side| {
        Value::Array(
            game.fireteams(side)
                .iter()
                .map(|f| {
                    json!({
                        "id": f.id,
                        "kind": f.kind,
                        "leader": f.leader,
                        "members": f.members,
                        "left": f.left,
                        "coherency": game.coherency(f),
                        "bonus": fireteam::bonuses(f.members.len()),
                        "cancel_at_end_of_order": f.cancel_at_end_of_order,
                    })
                })
                .collect(),
        )
    };
    let order = game.order().map(|o| {
        let eligible: Vec<Value> =
            o.eligible_now().into_iter().map(|(id, reasons)| json!({ "trooper": id, "reasons": reasons })).collect();
        json!({
            "source": o.source,
            "troopers": o.troopers,
            "spearhead": o.spearhead,
            "fireteam": o.fireteam,
            "step": o.step,
            "skills": o.skills.iter().map(|s| s.skill.as_str()).collect::<Vec<_>>(),
            "eligible_aros": eligible,
            "hidden_by_stealth": o.hidden_now().iter().map(|(id, by)| json!({ "trooper": id, "from": by })).collect::<Vec<_>>(),
            "declared_aros": o.declared,
            "lost_aros": o.lost,
            "fireteam_aro": o.fireteam_aro,
        })
    });
    let phase = game.phase();
    json!({
        "round": game.round(),
        "turn": game.turn(),
        "phase": phase,
        "active": if phase == Phase::GameOver { Value::Null } else { json!(side_name(game.active())) },
        "reactive": if phase == Phase::GameOver { Value::Null } else { json!(side_name(game.reactive())) },
        "pools": per_side(|s| json!(game.pools(s))),
        "held_orders": per_side(held),
        "command_tokens": per_side(|s| json!(game.command_tokens(s))),
        "loss_of_lieutenant": per_side(|s| json!(game.loss_of_lieutenant(s))),
        "retreat": per_side(|s| json!(game.in_retreat(s))),
        "order": order,
        "fireteams": per_side(fireteams),
        "deployment": game.deployment_step().map(|d| json!({
            "step": d.number,
            "places": side_name(d.side),
            "to_place": d.to_place,
            "held_back": d.held_back,
        })),
    })
}

/// [`summary`] plus every trooper: where it stands, its states, training now, Lieutenant.
pub fn full_state(game: &Game) -> Value {
    let mut v = summary(game);
    let troopers: Vec<Value> = game
        .troopers()
        .iter()
        .map(|t| {
            let mut v = json!({
                "id": t.id,
                "name": t.name,
                "side": side_name(t.side),
                "group": t.group,
                "position": t.position,
                "mov": t.mov,
                "states": t.states,
                "training_now": game.training_now(t),
                "lieutenant": game.lieutenant(t.side) == Some(t.id.as_str()),
            });
            // A Peripheral on the table with its Controller: inside the Controller's ZoC or not.
            if let Some(c) = game.peripheral_coherency(&t.id) {
                v["coherency"] = json!(c);
            }
            v
        })
        .collect();
    if let Value::Object(m) = &mut v {
        m.insert("troopers".into(), Value::Array(troopers));
        m.insert("events_applied".into(), json!(game.events_applied()));
    }
    v
}
