//! Named assumptions: N4 facts the rules digest marks unconfirmed (⚠️ or ❓), or that the sources
//! leave silent, each as one constant that is easy to change. The README lists them all.
//!
//! Each constant names the digest section it comes from and what the alternative would be.

/// Command Tokens each player has for the game (digest §4 "Command Tokens", ✅), before the
/// Lieutenant's "+1 Command Token" option.
pub const COMMAND_TOKENS_PER_GAME: u32 = 4;

/// `DODGE_MOVE_IN` (digest §3 "Dodge movement", ⚠️: N3 allowed up to 2"; the N4 value was not
/// confirmed): how far a Dodge may move the trooper, inches.
pub const DODGE_MOVE_IN: f64 = 2.0;

/// `NULL_ENEMIES_WATCH` (the sources are silent): whether an enemy in a Null state (Unconscious …)
/// counts for Cautious Movement's "outside the LoF and ZoC of all enemy Models and Markers". It
/// cannot react, so by default it does not; set to `true` to count every enemy on the table.
pub const NULL_ENEMIES_WATCH: bool = false;

/// `BS_INTO_CLOSE_COMBAT_MOD` (N4 Engaged State, ✅: "By declaring BS Attack on a Trooper in
/// Engaged State, the BS Attack against a Close Combat rule must be applied"; the rule's own N4
/// text is cut short in the sources at hand, <https://infinitythewiki.com/index.php?title=BS_Attack&diff=396&oldid=395>;
/// N3 and N5 both give −6): the MOD to BS for each of the attacker's allies in that Close Combat.
/// Dice are the players'; the app says the MOD and who a missed shot may hit.
pub const BS_INTO_CLOSE_COMBAT_MOD: i32 = -6;

/// Number of Game Rounds (digest §8, ✅).
pub const ROUNDS: u32 = 3;

/// `DISCONNECTED_IS_NULL` (digest §4 "Null states", ❓: N3 chart only). A Disconnected trooper
/// adds no Order and declares no Orders or AROs. Set to `false` to treat it as not Null.
pub const DISCONNECTED_IS_NULL: bool = true;

/// `RETREAT_THRESHOLD` (digest §4 "Retreat!", ✅ with its table: 300 → 75, 250 → 63, 150 → 38):
/// an army is in Retreat! when its surviving points are at most a quarter of its points, the
/// quarter rounded up. Returns the largest surviving total that is still in Retreat!.
pub fn retreat_threshold(army_points: u32) -> u32 {
    army_points.div_ceil(4)
}

/// `HARIS_PER_ARMY` (digest §7 "Types", ⚠️: N3 says one Haris; the 2022 chart sets it per
/// Sectorial). At most this many Haris Fireteams on the table at once.
pub const HARIS_PER_ARMY: usize = 1;

/// `CHART_TYPELESS_TEAMS_ARE_WILDCARDS` (digest §7 "Types", Wildcard ⚠️: "may be part of any
/// Fireteam the chart allows"): a team of an army's Fireteams Chart that names no type — the
/// builder's data lists its Wildcards so, as a team called "Wildcards" with no types — lends its
/// units to every team of the chart, each up to its own maximum. Set to `false` to let only the
/// units a team names join it.
pub const CHART_TYPELESS_TEAMS_ARE_WILDCARDS: bool = true;

/// `CORE_PER_ARMY` (digest §7 "Types", ✅ "1 unless a rule says otherwise").
pub const CORE_PER_ARMY: usize = 1;

/// `SOLO_ACTIVATION_LEAVES_FIRETEAM` (the sources are silent): a Fireteam member activated on its
/// own — not by the Team Leader's Order for the whole Fireteam — leaves the Fireteam when that
/// Order is declared, as an Irregular member spending its own Order does (Fireteam Integrity,
/// case 3). Set to `false` to refuse such activations instead.
pub const SOLO_ACTIVATION_LEAVES_FIRETEAM: bool = true;

/// `COORDINATED_EXCLUDES_PERIPHERALS` (digest §4 "Coordinated Orders", ⚠️ seen in N5): Peripherals
/// and their Controllers cannot take part in a Coordinated Order.
pub const COORDINATED_EXCLUDES_PERIPHERALS: bool = true;

/// Fewest troopers in a Coordinated Order (the digest gives "up to 4"; one trooper is a plain
/// Order, so a Coordinated Order needs at least two).
pub const COORDINATED_MIN: usize = 2;

/// Most troopers in a Coordinated Order (digest §4, ✅).
pub const COORDINATED_MAX: usize = 4;

/// `FACE_FREELY_WHILE_MOVING` (the sources are silent on facing during a move): for a skill that
/// needs LoF declared in the same Order as a movement, LoF may be drawn from any point of the
/// route in any direction (the trooper turns as it moves). Without a movement the trooper's own
/// front arc is used.
pub const FACE_FREELY_WHILE_MOVING: bool = true;

/// `NEW_LIEUTENANT_IN_RETREAT` (digest §4 "Loss of Lieutenant", ⚠️ N3): under Retreat! no new
/// Lieutenant can be named at the end of the Turn.
pub const NEW_LIEUTENANT_IN_RETREAT: bool = false;

/// `STRATEGIC_USE_WINDOW` (digest §4 "Command Tokens", ✅ "at the end of the opponent's first Order
/// Count"): the second player's Strategic Use is accepted after the first Turn's Order Count and
/// before the first Order of that Turn is spent.
pub const STRATEGIC_ORDERS_REMOVED: u32 = 2;

/// Troopers each player keeps back in the Deployment Phase, to place after the opponent has
/// placed all but its own (N4 Initiative and Deployment, ✅: "all but one"; the player with the
/// first Turn may hold back one more with a Command Token, digest §4 ✅).
pub const TROOPERS_HELD_BACK: u32 = 1;

/// `RETAG_AT_ANY_DEPLOYMENT_STEP` (the sources are silent on the record; the rules let players
/// adjust positions while they deploy): tagging a trooper already on the table again only moves
/// it, at any step of the Deployment Phase — a tag corrects the record (a Model tagged in the
/// wrong place) as much as it adjusts a position. Set to `false` to accept it only in its own
/// player's step.
pub const RETAG_AT_ANY_DEPLOYMENT_STEP: bool = true;

/// `SILHOUETTE_CONTACT_IN`: two troopers are in Silhouette contact (N4 Engaged State, ✅
/// <https://infinitythewiki.com/index.php?title=Engaged_State&diff=2545&oldid=310>: "in Silhouette
/// contact with an Enemy Trooper") when their Silhouette cylinders are no more than this far
/// apart, inches: 0.1", the precision of a tag on the calibrated picture (as
/// `MOVE_CONTACT_SLACK_IN`), so Models set base to base on the table are in contact however they
/// were tagged.
pub const SILHOUETTE_CONTACT_IN: f64 = 0.1;

/// `MARKERS_ARE_NOT_ENGAGED` (the sources are silent; digest §6: a trooper cannot move into
/// Silhouette contact with an enemy Camouflage marker): a trooper in a marker state (Camouflaged,
/// Impersonation …) neither is Engaged nor engages an enemy in contact with it.
pub const MARKERS_ARE_NOT_ENGAGED: bool = true;

/// `STEALTH_SKILLS` (N4 Stealth, ✅ <https://infinitythewiki.com/index.php?diff=cur&oldid=1506&title=Stealth>:
/// "If the user declares a Short Movement Skill or Cautious Movement within the Zone of Control of
/// one or more enemies and stays outside their LoF, he does not grant AROs to those enemies"):
/// the skills that wording covers, as the catalogue's ids — its Short Movement Skills (Move,
/// Discover, Idle) and Cautious Movement. Which catalogue rows are Short Movement Skills is itself
/// partly inferred (digest §5); N5 narrows the list to Idle and skills with the Movement label.
pub const STEALTH_SKILLS: &[&str] = &["move", "discover", "idle", "cautious_movement"];

/// `STEALTH_HIDES_FROM_HACKING_AREA` (N4 Stealth names the Zone of Control only; N5 adds Hacking
/// Areas): `false`, so a Stealth trooper entering a friendly Repeater's ZoC still gives that
/// side's Hackers their ARO. A Hacker's own ZoC is a Zone of Control, and Stealth hides from it.
pub const STEALTH_HIDES_FROM_HACKING_AREA: bool = false;

/// `CLIMBING_PLUS_SKILLS` (N4 Climbing Plus, <https://infinitythewiki.com/Climbing_Plus>: "alters
/// the user's Climb Skill from an Entire Order Skill to the Short Movement Skill Move … move along
/// vertical surfaces as if performing a normal Movement on a horizontal surface"): the skills that
/// go up and down walls as over level ground — Move only (N5 adds Dodge).
pub const CLIMBING_PLUS_SKILLS: &[&str] = &["move"];

/// `INFILTRATION_ENEMY_HALF_ROLL` and `INFILTRATION_ENEMY_ZONE` (⚠️: N4 Initiative and
/// Deployment names Infiltration among the skills that "place certain troops outside their
/// Deployment Zones", but the skill's own N4 text is not in the sources at hand; this is its N3
/// rule): a trooper with Infiltration deploys anywhere in its own half of the table; in the enemy
/// half by passing this Roll (the players'; the app says it is needed); inside the enemy
/// Deployment Zone only if `INFILTRATION_ENEMY_ZONE` is `true`. The halves are the table's, split
/// across the line between the two Deployment Zones (at the middle of its width or depth).
pub const INFILTRATION_ENEMY_HALF_ROLL: &str = "PH-3";
/// See [`INFILTRATION_ENEMY_HALF_ROLL`].
pub const INFILTRATION_ENEMY_ZONE: bool = false;
