//! The progress bars of the commands that run in phases (`learn`, `tune`): one bar on stderr,
//! restarted for each phase, none when quiet or when stderr is not a terminal.

use crate::learn::Progress;
use std::io::IsTerminal;

/// Progress bars on stderr, one per phase (none when quiet or not on a terminal).
pub(crate) struct PhaseBars {
    bar: Option<indicatif::ProgressBar>,
}

impl PhaseBars {
    /// The bars, hidden with `quiet`.
    pub(crate) fn new(quiet: bool) -> PhaseBars {
        let show = !quiet && std::io::stderr().is_terminal();
        PhaseBars {
            bar: show.then(|| indicatif::ProgressBar::new(0)),
        }
    }

    /// Clears the last bar.
    pub(crate) fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl Progress for PhaseBars {
    fn phase(&self, what: &str, len: u64) {
        if let Some(b) = &self.bar {
            let style = indicatif::ProgressStyle::with_template(
                "{msg:40!} {bar:30} {human_pos}/{human_len} eta {eta}",
            )
            .expect("valid template");
            b.set_style(style);
            b.set_message(what.to_string());
            b.set_length(len);
            b.set_position(0);
            b.reset_eta();
        }
    }
    fn tick(&self) {
        if let Some(b) = &self.bar {
            b.inc(1);
        }
    }
}
