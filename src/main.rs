//! The `bailab` binary: parses the command line and reports errors with a non-zero exit.

use clap::Parser;

fn main() {
    let cli = bailab::cli::Cli::parse();
    if let Err(e) = bailab::cli::run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
