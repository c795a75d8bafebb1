//! `arbiter levels`: what each `UCI_Elo` level does (docs/levels.md; the calibration script
//! reads it to know which skill it measured).

use crate::engine::strength::Level;
use std::io::Write;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct LevelsArgs {
    /// The levels to show (default: 1000 to 2800 every 100).
    pub elo: Vec<u32>,
}

pub fn run(args: LevelsArgs) -> ExitCode {
    let elos = if args.elo.is_empty() { (1000..=2800).step_by(100).collect() } else { args.elo };
    let mut out = std::io::stdout().lock();
    let _ =
        writeln!(out, "{:>5} {:>7} {:>8} {:>5} {:>11} {:>8}", "elo", "skill", "nodes", "lines", "noise_cp", "max_loss");
    for elo in elos {
        let l = Level::for_elo(elo);
        let _ = writeln!(
            out,
            "{elo:>5} {:>7.2} {:>8} {:>5} {:>11.1} {:>8}",
            l.skill, l.nodes, l.lines, l.temperature, l.max_loss
        );
    }
    ExitCode::SUCCESS
}
