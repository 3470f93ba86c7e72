//! The `sightline` binary: parse the command line, then open the app or run a subcommand.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

// mimalloc: the geometry's full recompute allocates one blocker list per pair, and spends about
// 4% fewer instructions with it than with the system allocator (docs/benchmark-history.md, session 7).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// sightline — a webcam companion for Infinity N4 games on a real table.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// A scene file to open in the app (default: the bundled demo table).
    #[arg(long, value_name = "SCENE.json", conflicts_with = "game")]
    scene: Option<PathBuf>,
    /// A game file to open in the app: its table, terrain and troopers, and its camera
    /// calibration; new calibrations are appended to it (format in docs/game-format.md).
    #[arg(long, value_name = "GAME.jsonl")]
    game: Option<PathBuf>,
    /// The picture of the table: camera[:N|:NAME] | image:PATH | folder:PATH | demo (default: demo).
    #[arg(long, value_name = "SOURCE")]
    source: Option<sightline::camera::SourceSpec>,
    /// Frames per second for a folder source (above 0, at most 1000).
    #[arg(long, default_value_t = 2.0, allow_negative_numbers = true, value_parser = parse_fps)]
    fps: f64,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Distance, ZoC and LoF for every ordered pair of troopers in a scene, and what each other
    /// trooper sees of every declared route; JSON on stdout.
    Measure {
        /// The scene (JSON; format in the README).
        scene: PathBuf,
        /// Add this trooper's visibility polygon (repeatable).
        #[arg(long, value_name = "ID")]
        visibility: Vec<String>,
    },
    /// List the cameras this machine offers (index and name, for `--source camera:N`).
    Cameras,
    /// Apply every event of a game file; one JSON line per event with the state after it.
    /// Exit 0 when every event was accepted, 1 when any was rejected, 2 for a file that cannot be read.
    Replay {
        /// The game file (JSON Lines; format in docs/game-format.md).
        game: PathBuf,
        /// Print only the full state after event N (0: before the first event).
        #[arg(long, value_name = "N")]
        at: Option<usize>,
    },
    /// Start a game file from a setup (table, terrain, both armies, who goes first: JSON, format in
    /// docs/game-format.md), then play it with `sightline --game GAME`. Never overwrites a file.
    New {
        /// The setup (JSON).
        setup: PathBuf,
        /// The game file to create (JSON Lines).
        game: PathBuf,
    },
    /// Decode an army code from the official army builder (JSON on stdout); with --data, the army
    /// it makes; with --out, that army written to a new army file for the New game window. Exit 2 on bad input.
    ArmyCode {
        /// The army code, as the builder's share or export button gives it.
        code: String,
        /// The army builder's data for the code's army (JSON saved from the builder; not shipped with sightline).
        #[arg(long, value_name = "ARMY_DATA.json")]
        data: Option<PathBuf>,
        /// Write the army to this new army file (never over an existing one).
        #[arg(long, value_name = "ARMY.json")]
        out: Option<PathBuf>,
        /// The trooper ids' prefix: a gives a1, a2, ...
        #[arg(long, value_name = "PREFIX", default_value = "a")]
        ids: String,
    },
    /// Map points between a photo and the table through a calibration fitted from the table's corners in the photo
    /// (and any further known pairs); JSON on stdout with the residuals and the worst error in inches. Exit 2 on bad
    /// input. Format in the README, "`sightline locate`".
    Locate {
        /// The photo (PNG/JPEG): read for its size, and for `--snap`.
        #[arg(long, value_name = "PHOTO")]
        image: PathBuf,
        /// Table size in inches, WIDTHxDEPTH.
        #[arg(long, value_name = "WxD")]
        table: String,
        /// Pixels of the corners (0,0), (W,0), (W,D), (0,D), in that order.
        #[arg(long, value_name = "X1,Y1,X2,Y2,X3,Y3,X4,Y4", allow_hyphen_values = true)]
        corners: String,
        /// Further known pairs: JSON [{"pixel": [px, py], "table": [x, y]}, ...].
        #[arg(long, value_name = "FILE")]
        pairs: Option<PathBuf>,
        /// Map table points (TX,TY inches) to pixels instead.
        #[arg(long)]
        to_image: bool,
        /// Snap each corner to the real corner in the photo first (sub-pixel).
        #[arg(long)]
        snap: bool,
        /// How far from the given corner `--snap` looks, pixels.
        #[arg(long, value_name = "PX", default_value_t = 6.0)]
        snap_radius: f64,
        /// The points to map: PX,PY pixels (TX,TY inches with --to-image, or TX,TY,TZ for a point TZ inches above the table; put negative ones after `--`).
        #[arg(value_name = "PX,PY")]
        points: Vec<String>,
    },
}

/// Write `lines` to standard output, one per line. A reader that stops early (`sightline measure
/// … | head`) closes the pipe: that ends the output quietly, as in other command-line tools;
/// any other write error is named on stderr with exit 1 (never a panic, as `println!` would).
/// `--fps`: a number, checked as the folder source checks it, so a bad rate is refused at once
/// whatever the source.
fn parse_fps(s: &str) -> Result<f64, String> {
    let fps: f64 = s.trim().parse().map_err(|_| format!("{s}: not a number"))?;
    sightline::camera::check_fps(fps).map_err(|e| e.to_string())
}

fn write_out<T: AsRef<str>>(command: &str, lines: impl IntoIterator<Item = T>) -> ExitCode {
    use std::io::Write as _;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = lines.into_iter().try_for_each(|l| writeln!(out, "{}", l.as_ref())).and_then(|()| out.flush());
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sightline {command}: cannot write to standard output: {e}");
            ExitCode::from(1)
        }
    }
}

/// Print a subcommand's JSON result (pretty) or its error, and give the exit code.
fn print_json(command: &str, result: Result<serde_json::Value, sightline::cli::CliError>) -> ExitCode {
    match result {
        Ok(v) => match serde_json::to_string_pretty(&v) {
            Ok(text) => write_out(command, [text]),
            Err(e) => {
                eprintln!("sightline {command}: cannot write JSON: {e}");
                ExitCode::from(1)
            }
        },
        Err(e) => {
            eprintln!("sightline {command}: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Measure { scene, visibility }) => {
            let result = sightline::cli::load_scene(&scene).and_then(|s| sightline::cli::measure(&s, &visibility));
            print_json("measure", result)
        }
        Some(Command::Cameras) => match sightline::camera::list_devices() {
            Ok(list) if list.is_empty() => {
                eprintln!("sightline cameras: no camera found");
                ExitCode::from(1)
            }
            Ok(list) => {
                write_out("cameras", list.iter().map(|d| format!("{}\t{}\t{}", d.index, d.name, d.description)))
            }
            Err(e) => {
                eprintln!("sightline cameras: {e}");
                ExitCode::from(1)
            }
        },
        Some(Command::Replay { game, at }) => match sightline::cli::replay(&game, at) {
            Ok(report) => {
                for w in &report.warnings {
                    eprintln!("sightline replay: {w}");
                }
                match write_out("replay", report.lines.iter().map(|l| l.to_string())) {
                    code if code == ExitCode::SUCCESS => ExitCode::from(report.code),
                    failed => failed,
                }
            }
            Err(e) => {
                eprintln!("sightline replay: {}", e.message);
                ExitCode::from(e.code)
            }
        },
        Some(Command::New { setup, game }) => match sightline::cli::new_game(&setup, &game) {
            Ok(()) => {
                println!("{}: a new game; play it with: sightline --game {}", game.display(), game.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("sightline new: {}", e.message);
                ExitCode::from(e.code)
            }
        },
        Some(Command::Locate { image, table, corners, pairs, to_image, snap, snap_radius, points }) => {
            let args = sightline::cli::LocateArgs {
                image,
                table,
                corners,
                pairs,
                points,
                to_image,
                snap_px: snap.then_some(snap_radius),
            };
            print_json("locate", sightline::cli::locate(&args))
        }
        Some(Command::ArmyCode { code, data, out, ids }) => {
            print_json("army-code", sightline::cli::army_code(&code, data.as_deref(), out.as_deref(), &ids))
        }
        None => match sightline::app::run(cli.scene.as_deref(), cli.game.as_deref(), cli.source.as_ref(), cli.fps) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("sightline: {e:#}");
                ExitCode::from(1)
            }
        },
    }
}
