//! # sightline
//!
//! A native desktop companion for Infinity N4 games played on a real table: a webcam looks down
//! at the table and sightline answers the questions players argue about — how far, who is inside
//! whose Zone of Control, who has Line of Fire — from where the Models really stand.
//!
//! Layers (imports only go down): [`app`] → [`cli`] → [`store`] → [`rules`] → [`geometry`], and [`vision`] (image ↔
//! table calibration) → [`geometry`]. [`geometry`] is pure: plain data and functions in table inches, called the same
//! way by the tests, the CLI and the app.

pub mod app;
pub mod camera;
pub mod cli;
pub mod geometry;
pub mod rules;
pub mod store;
pub mod vision;

/// The bundled demo scene (what `sightline` opens with no arguments).
pub const DEMO_SCENE_JSON: &str = include_str!("../assets/scenes/demo.json");
