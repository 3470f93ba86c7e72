//! The N4 rules engine: armies, Orders and Order Pools, the Order Expenditure Sequence, AROs,
//! Command Tokens and Fireteams — as a validated game plus events.
//!
//! Pure: no egui, eframe, nokhwa or threads. Positions, LoF and ZoC come from [`crate::geometry`].
//!
//! One place changes a game: [`Game::apply`]. It returns the new game, or a [`Rejection`] that
//! names the broken rule and leaves the game as it was. A saved game is its [`Setup`] plus its
//! events, so undo ([`Game::replay`]), crash recovery and `sightline replay` are one code path.
//!
//! Sources: the four seed pages (`../shared/seeds/`) and the rules digest (§4–§8). Facts the digest
//! marks unconfirmed are named settings in [`assumptions`], listed in the README.
//!
//! ```
//! use sightline::rules::{Event, Game, Setup};
//! let setup = Setup::from_json(sightline::rules::EXAMPLE_SETUP_JSON).expect("valid setup");
//! let game = Game::new(setup).expect("a legal army");
//! // Player A's first Tactical Phase: count the Orders.
//! let game = game.apply(&Event::OrderCount).expect("order count is legal now");
//! assert!(game.pool(sightline::geometry::Side::A, 0) > 0);
//! ```

pub mod assumptions;
pub mod fireteam;
mod game;
mod roster;
pub mod skills;
mod view;

pub use fireteam::{ChartTeam, ChartUnit, Fireteam, FireteamKind, FireteamLimits, chart_problem};
pub use game::{
    Activation, AroDeclaration, AroReason, Declaration, DeploymentStep, Event, Game, Move, OrderSource, OrderStep,
    Outcome, Phase, Rejection, Rule, StrategicUse, TrooperState,
};
pub use roster::{
    ARMY_FORMAT, ARMY_VERSION, Ability, Army, CalibrationPair, CalibrationSetup, CombatGroup, FireteamSetup,
    LieutenantOption, Placement, Setup, SetupError, State, TerrainSetup, Training, TrooperSetup,
};
pub use view::{full_state, summary};

use crate::geometry::Side;
use serde::{Deserialize, Serialize};

/// A small two-player setup used in docs and tests (the same one as `tests/fixtures/setup-small.json`).
pub const EXAMPLE_SETUP_JSON: &str = include_str!("../../tests/fixtures/setup-small.json");

/// The other player.
pub fn opponent(side: Side) -> Side {
    match side {
        Side::A => Side::B,
        Side::B => Side::A,
    }
}

/// One value per player (shakmaty's `ByColor`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BySide<T> {
    /// Player A's.
    #[serde(rename = "A")]
    pub a: T,
    /// Player B's.
    #[serde(rename = "B")]
    pub b: T,
}

impl<T> BySide<T> {
    /// The value of `side`.
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::A => &self.a,
            Side::B => &self.b,
        }
    }

    /// The value of `side`, mutable.
    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::A => &mut self.a,
            Side::B => &mut self.b,
        }
    }
}
