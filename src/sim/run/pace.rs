//! The pace of a run's session: chunk sizes fitted to the agents' speed, the progress bar, the
//! long-run warning and when checkpoints are due.

use crate::sim::run::checkpoint::CHECKPOINT_EVERY;
use crate::text::thousands;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

fn progress_bar(done: u64, total: u64, quiet: bool) -> Option<indicatif::ProgressBar> {
    if quiet || !std::io::stdout().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template(
        "{bar:40} {human_pos}/{human_len} deals  {rate} deals/s  eta {eta}",
    )
    .expect("valid template")
    .with_key(
        "rate",
        |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{}", thousands(s.per_sec().round() as u64));
        },
    );
    bar.set_style(style);
    bar.set_position(done);
    bar.reset_eta();
    Some(bar)
}

/// A run estimated to need longer than this gets a warning (it still runs).
pub(crate) const WARN_LONGER_THAN: Duration = Duration::from_secs(24 * 3600);

/// A duration in words: seconds, minutes, hours, days or years.
pub(crate) fn human_duration(seconds: f64) -> String {
    let (value, unit) = match seconds {
        s if s < 120.0 => (s, "s"),
        s if s < 2.0 * 3600.0 => (s / 60.0, "min"),
        s if s < 2.0 * 86400.0 => (s / 3600.0, "h"),
        s if s < 2.0 * 365.25 * 86400.0 => (s / 86400.0, "days"),
        s => (s / (365.25 * 86400.0), "years"),
    };
    if value >= 1e6 {
        format!("{value:.1e} {unit}")
    } else {
        format!("{} {unit}", thousands(value.round() as u64))
    }
}

/// The most deals played per parallel batch; tallies are added in deal order after each batch.
/// Batches are sized to take about half a second (slow agents get small ones), and end at
/// multiples of their size.
const CHUNK: u64 = 4096;

/// The pace of a run's session: the chunk size fitted to the agents' speed, the progress bar,
/// the long-run warning and when the next checkpoint is due.
pub(super) struct Pace {
    /// The size of the next chunk.
    pub(super) size: u64,
    smallest: u64,
    bar: Option<indicatif::ProgressBar>,
    began: Instant,
    last_checkpoint: Instant,
    every: Duration,
    /// The wait before the first checkpoint.
    first: Duration,
    checkpoints: u32,
    warned: bool,
    threads: usize,
    /// Where this session began.
    from: u64,
    end: u64,
}

impl Pace {
    /// The pace of a session over deals `range`, at `next` (resumed at `resumed_from`),
    /// checkpointing `every` so often (default [`CHECKPOINT_EVERY`], the first after a second at
    /// most); `quiet`: no bar.
    pub(super) fn new(
        (quiet, every): (bool, Option<Duration>),
        threads: usize,
        (start, end): (u64, u64),
        next: u64,
        resumed_from: Option<u64>,
    ) -> Pace {
        let bar = progress_bar(next - start, end - start, quiet);
        let smallest = (threads as u64).next_power_of_two().clamp(8, CHUNK);
        let began = Instant::now();
        Pace {
            size: smallest,
            smallest,
            bar,
            began,
            last_checkpoint: began,
            every: every.unwrap_or(CHECKPOINT_EVERY),
            first: every.unwrap_or(CHECKPOINT_EVERY.min(Duration::from_secs(1))),
            checkpoints: 0,
            warned: false,
            threads,
            from: resumed_from.unwrap_or(start),
            end,
        }
    }

    /// Seconds since the session began.
    pub(super) fn elapsed(&self) -> f64 {
        self.began.elapsed().as_secs_f64()
    }

    /// Shows `done` deals of the range done.
    pub(super) fn progress(&self, done: u64) {
        if let Some(b) = &self.bar {
            b.set_position(done);
        }
    }

    /// Fits the next chunk to the speed of chunk `start..end` (begun at `chunk_began`): chunks
    /// of about half a second (less with frequent checkpoints), so that checkpoints and Ctrl-C
    /// come soon, whatever the agents; warns once if the rest of the run looks very long.
    pub(super) fn after_chunk(&mut self, chunk_began: Instant, (start, end): (u64, u64)) {
        let per_deal = chunk_began.elapsed().as_secs_f64() / (end - start) as f64;
        let target = (self.every.as_secs_f64() / 4.0).clamp(0.02, 0.5);
        let fits = (target / per_deal.max(1e-9)).min(CHUNK as f64) as u64;
        self.size = if fits >= 2 * self.smallest {
            (fits + 1).next_power_of_two() / 2
        } else {
            self.smallest
        };
        let elapsed = self.began.elapsed();
        if !self.warned && elapsed >= Duration::from_secs(1) && end < self.end {
            self.warned = true;
            self.warn((end - self.from) as f64 / elapsed.as_secs_f64(), end);
        }
    }

    /// The long-run warning, at `per_s` deals per second with deal `next` next.
    fn warn(&self, per_s: f64, next: u64) {
        let left = (self.end - next) as f64 / per_s.max(1e-9);
        if left > WARN_LONGER_THAN.as_secs_f64() {
            let line = format!(
                "warning: {} deals left at about {} deals/s on {} thread(s) need about {}; the \
                 run goes on (Ctrl-C stops it with a checkpoint to resume; --shard K/N splits it \
                 across machines)",
                thousands(self.end - next),
                thousands(per_s.round() as u64),
                self.threads,
                human_duration(left)
            );
            match &self.bar {
                Some(b) => b.println(line),
                None => eprintln!("{line}"),
            }
        }
    }

    /// Whether a checkpoint is due. By default the first comes after a second at most, so that
    /// even a short-lived run leaves something to resume.
    pub(super) fn checkpoint_due(&self) -> bool {
        let wait = if self.checkpoints == 0 {
            self.first
        } else {
            self.every
        };
        self.last_checkpoint.elapsed() >= wait
    }

    /// Notes a checkpoint just written.
    pub(super) fn checkpointed(&mut self) {
        self.last_checkpoint = Instant::now();
        self.checkpoints += 1;
    }

    /// Clears the progress bar.
    pub(super) fn finish(self) {
        if let Some(b) = self.bar {
            b.finish_and_clear();
        }
    }
}
