//! The per-game files of a run (`games.csv`, `records.jsonl`), written in deal order as
//! `NAME.partial` and renamed into place when the run is complete.

use crate::game::Outcome;
pub(crate) use crate::sim::files::atomic::remove_stale;
use crate::sim::files::guard::ResultSet;
use crate::sim::run::experiment::Experiment;
use anyhow::{bail, Context};
use std::collections::BTreeMap;
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};

/// A per-game file being written as `NAME.partial`, renamed to `NAME` when the run is complete.
/// A checkpoint records its length, so a resumed run cuts off whatever was written after it.
pub(crate) struct PartialFile {
    name: &'static str,
    partial: PathBuf,
    writer: std::io::BufWriter<std::fs::File>,
    buffer: Vec<u8>,
}

impl PartialFile {
    pub(crate) fn partial_path(dir: &Path, name: &str) -> PathBuf {
        dir.join(format!("{name}.partial"))
    }

    /// A new, empty `NAME.partial`.
    fn create(dir: &Path, name: &'static str) -> anyhow::Result<PartialFile> {
        let partial = Self::partial_path(dir, name);
        let file = std::fs::File::create(&partial)
            .with_context(|| format!("creating {}", partial.display()))?;
        Ok(PartialFile {
            name,
            partial,
            writer: std::io::BufWriter::new(file),
            buffer: Vec::new(),
        })
    }

    /// `NAME.partial` of a stopped run, cut to the `len` bytes its checkpoint vouches for. A
    /// file already renamed to `NAME` (a run killed while finishing) is taken back.
    fn resume(dir: &Path, name: &'static str, len: u64) -> anyhow::Result<PartialFile> {
        let partial = Self::partial_path(dir, name);
        let done = dir.join(name);
        if !partial.exists() && done.exists() {
            std::fs::rename(&done, &partial)
                .with_context(|| format!("taking back {}", done.display()))?;
        }
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&partial)
            .with_context(|| {
                format!(
                    "{}: the checkpoint needs it to resume (start over with --force)",
                    partial.display()
                )
            })?;
        let have = file.metadata()?.len();
        if have < len {
            bail!(
                "{}: {have} bytes, but the checkpoint counts {len}: the folder was changed since \
                 (start over with --force)",
                partial.display()
            );
        }
        file.set_len(len)?;
        let mut writer = std::io::BufWriter::new(file);
        writer.seek(std::io::SeekFrom::Start(len))?;
        Ok(PartialFile {
            name,
            partial,
            writer,
            buffer: Vec::new(),
        })
    }

    /// Flushes what is written to the disk and returns the file's length.
    fn sync(&mut self) -> anyhow::Result<u64> {
        let named = || format!("writing {}", self.partial.display());
        self.writer.flush().with_context(named)?;
        let file = self.writer.get_ref();
        file.sync_data()
            .with_context(|| format!("syncing {}", self.partial.display()))?;
        Ok(file.metadata().with_context(named)?.len())
    }

    /// Adds the finished file to `set`, to be renamed to its name.
    fn stage(mut self, set: &mut ResultSet) -> anyhow::Result<()> {
        self.sync()?;
        set.adopt(self.partial, self.name);
        Ok(())
    }
}

/// The optional per-game files of a run, written as the deals come in, in deal order.
pub(crate) struct GameFiles {
    games: Option<PartialFile>,
    records: Option<PartialFile>,
}

impl GameFiles {
    pub(crate) fn create(
        dir: &Path,
        exp: &Experiment,
        games: bool,
        records: bool,
    ) -> anyhow::Result<Self> {
        let games = if games {
            let mut f = PartialFile::create(dir, "games.csv")?;
            let mut w = csv::Writer::from_writer(f.writer.by_ref());
            (w.write_record(games_header(exp))
                .and_then(|()| Ok(w.flush()?)))
            .with_context(|| format!("writing {}", f.partial.display()))?;
            drop(w);
            Some(f)
        } else {
            None
        };
        let records = if records {
            Some(PartialFile::create(dir, "records.jsonl")?)
        } else {
            None
        };
        Ok(GameFiles { games, records })
    }

    pub(crate) fn resume(dir: &Path, lens: &BTreeMap<String, u64>) -> anyhow::Result<Self> {
        let open = |name: &'static str| {
            lens.get(name)
                .map(|&len| PartialFile::resume(dir, name, len))
                .transpose()
        };
        Ok(GameFiles {
            games: open("games.csv")?,
            records: open("records.jsonl")?,
        })
    }

    pub(crate) fn write_deal(
        &mut self,
        exp: &Experiment,
        deal: u64,
        outcomes: &[Outcome],
        records: &[String],
    ) -> anyhow::Result<()> {
        if let Some(f) = self.games.as_mut() {
            f.buffer.clear();
            let mut w = csv::Writer::from_writer(&mut f.buffer);
            for (g, o) in outcomes.iter().enumerate() {
                w.write_record(game_row(exp, deal, g, o))?;
            }
            w.flush()?;
            drop(w);
            (f.writer.write_all(&f.buffer))
                .with_context(|| format!("writing {}", f.partial.display()))?;
        }
        if let Some(f) = self.records.as_mut() {
            for line in records {
                writeln!(f.writer, "{line}")
                    .with_context(|| format!("writing {}", f.partial.display()))?;
            }
        }
        Ok(())
    }

    /// Flushes both files to the disk: their lengths, by name, for a checkpoint.
    pub(crate) fn sync(&mut self) -> anyhow::Result<BTreeMap<String, u64>> {
        let mut lens = BTreeMap::new();
        for f in [self.games.as_mut(), self.records.as_mut()]
            .into_iter()
            .flatten()
        {
            lens.insert(f.name.to_string(), f.sync()?);
        }
        Ok(lens)
    }

    /// Adds the finished files to the run's result `set`, and the stale ones an earlier run left
    /// to its files removed.
    pub(crate) fn stage(self, set: &mut ResultSet) -> anyhow::Result<()> {
        for (file, name) in [(self.games, "games.csv"), (self.records, "records.jsonl")] {
            match file {
                Some(f) => f.stage(set)?,
                None => set.remove(name),
            }
        }
        Ok(())
    }
}

/// The `games.csv` header of an experiment: a `match_game` column when it plays matches, and
/// `place_S` columns when its game ranks the seats.
pub(crate) fn games_header(exp: &Experiment) -> Vec<String> {
    let n = exp.players();
    let mut h = vec!["deal".to_string(), "rotation".to_string()];
    if exp.match_games > 1 {
        h.push("match_game".into());
    }
    h.extend((0..n).map(|s| format!("agent_{s}")));
    h.extend(["winner", "winner_agent", "reason"].map(String::from));
    h.extend((0..n).map(|s| format!("payout_{s}")));
    h.extend(["turns", "winning_hand_value", "penalized"].map(String::from));
    if ranks_places(exp) {
        h.extend((0..n).map(|s| format!("place_{s}")));
    }
    h
}

/// Whether the experiment's game ranks every seat (its outcomes carry places).
fn ranks_places(exp: &Experiment) -> bool {
    crate::games::game_info(&exp.game).is_ok_and(|g| g.ranks_places)
}

/// The `games.csv` row of game `g` of a deal (rotation-major, then the games of the match).
fn game_row(exp: &Experiment, deal: u64, g: usize, o: &Outcome) -> Vec<String> {
    let n = exp.players();
    let k = exp.match_games as usize;
    let rotation = g / k;
    let opt = |x: Option<u8>| x.map(|s| s.to_string()).unwrap_or_default();
    let mut row = vec![deal.to_string(), rotation.to_string()];
    if k > 1 {
        row.push((g % k).to_string());
    }
    row.extend((0..n).map(|s| exp.agents[exp.slot(rotation, s)].clone()));
    let winner_agent = o
        .winner
        .map(|w| exp.agents[exp.slot(rotation, w as usize)].clone())
        .unwrap_or_default();
    row.extend([opt(o.winner), winner_agent, o.reason.to_string()]);
    row.extend(o.payouts().iter().map(|p| p.to_string()));
    row.extend([
        o.turns.to_string(),
        o.hand_value.to_string(),
        opt(o.penalized),
    ]);
    if ranks_places(exp) {
        row.extend(o.places[..n].iter().map(|p| p.to_string()));
    }
    row
}
