//! A run's deals on the worker threads: each thread's agents (and luck corrector) built once,
//! the chunk's buffers reused from chunk to chunk, every deal played into its slots (outcomes,
//! records, luck) and an agent's failure kept with the lowest deal it happened in.

use crate::agent::Agent;
use crate::deal_spec::DealPlan;
use crate::game::{GameState, Outcome, MAX_SEATS};
use crate::games::kind::GameKind;
use crate::generic_agents::catalogue::{make_agent_with, Setting};
use crate::sim::deal::{DealLoop, Event, Opening, Seating};
use crate::sim::luck::{Corrector, RolloutValue};
use crate::sim::recorder::Recorder;
use crate::sim::run::experiment::{Experiment, Runtime};
use crate::sim::stats::tally::LUCK_UNIT;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// An agent's failure in a deal (see [`Agent::fault`]): the run stops before that deal.
#[derive(Clone, Debug)]
pub(super) struct AgentFault {
    pub(super) deal: u64,
    pub(super) agent: String,
    pub(super) message: String,
}

/// How a session's deals ended.
pub(super) enum Ending {
    /// Every deal was played (or a sequential test decided).
    Done,
    /// Stopped through the run's stop flag.
    Stopped,
    /// An agent failed.
    Fault(AgentFault),
}

/// The first fault (lowest deal) that the worker threads of a chunk met.
#[derive(Default)]
pub(super) struct Faults {
    pub(super) any: AtomicBool,
    first: Mutex<Option<AgentFault>>,
}

impl Faults {
    /// How a chunk's deals ended if not all were played and tallied: a failed agent voids its
    /// deal's chunk, even when every deal was played; otherwise `played` false means stopped.
    pub(super) fn interrupted(&self, played: bool) -> Option<Ending> {
        let first = self.first.lock().unwrap_or_else(|e| e.into_inner()).take();
        match first {
            Some(fault) => Some(Ending::Fault(fault)),
            None => (!played).then_some(Ending::Stopped),
        }
    }
    /// Takes the faults of `agents` (seat slots of `exp`) after deal `deal`.
    fn collect<S: GameState>(&self, exp: &Experiment, deal: u64, agents: &mut [Box<dyn Agent<S>>]) {
        for (slot, agent) in agents.iter_mut().enumerate() {
            let Some(message) = agent.fault() else {
                continue;
            };
            self.any.store(true, Ordering::Relaxed);
            let mut first = self.first.lock().unwrap_or_else(|e| e.into_inner());
            if first.as_ref().is_none_or(|f| deal < f.deal) {
                *first = Some(AgentFault {
                    deal,
                    agent: exp.agents[slot].clone(),
                    message,
                });
            }
        }
    }
}

/// The agents of an experiment in `runtime`, one per seat slot (built once per worker thread);
/// an outside program's stderr goes to `exec-agent-K.log` (K its slot) in the output folder
/// `dir`, if any.
pub(super) fn make_agents<G: GameKind>(
    (exp, runtime): (&Experiment, &Runtime),
    dir: Option<&Path>,
) -> Vec<Box<dyn Agent<G::State>>> {
    (0..exp.agents.len())
        .map(|slot| {
            let log = dir.map(|d| d.join(format!("exec-agent-{slot}.log")));
            let setting = Setting {
                stderr_log: log.as_deref(),
                ..exp.setting(runtime)
            };
            make_agent_with::<G>(&exp.agents[slot], setting).expect("checked by Experiment::check")
        })
        .collect()
}

/// Plays one deal with `play` (which writes its games' outcomes and records), again while an
/// agent asks for it ([`Agent::retry`]: a restarted outside program), then collects the faults.
pub(super) fn play_deal<S: GameState>(
    (exp, deal, faults): (&Experiment, u64, &Faults),
    agents: &mut [Box<dyn Agent<S>>],
    mut play: impl FnMut(&mut [Box<dyn Agent<S>>]),
) {
    loop {
        play(agents);
        // Every agent is asked (no short cut): each that retries drops its fault.
        if !agents.iter_mut().fold(false, |again, a| a.retry() | again) {
            break;
        }
    }
    faults.collect(exp, deal, agents);
}

/// The checked plan of an experiment's `[deal]` table, if it has one.
pub(crate) fn deal_plan<G: GameKind>(game: &G, exp: &Experiment) -> Option<DealPlan> {
    exp.deal
        .as_ref()
        .map(|d| d.check(game).expect("checked by Experiment::check"))
}

/// The deal loop of an experiment: every rotation, each a match of `exp.match_games` games, the
/// agents seated by the experiment's rotation; with a plan, every deal fixes its cards and fills
/// the rest from the deal's own stream.
pub(crate) fn experiment_loop<'a, G: GameKind>(
    game: &'a G,
    plan: Option<&'a DealPlan>,
    exp: &Experiment,
) -> DealLoop<'a, G> {
    DealLoop {
        game,
        master: exp.seed,
        opening: plan.map_or(Opening::Seeded, Opening::Plan),
        seating: Seating::Rotate(exp.players()),
        rotations: 0..exp.rotations(),
        match_games: exp.match_games,
    }
}

/// The buffers of a run's chunks, reused from chunk to chunk: each deal's outcomes (records,
/// and each seat's luck in units of [`LUCK_UNIT`]) in deal order, `per_deal` slots per deal, so
/// no deal allocates.
pub(super) struct ChunkBuffers {
    pub(super) per_deal: usize,
    pub(super) outcomes: Vec<Outcome>,
    pub(super) records: Vec<String>,
    pub(super) luck: Vec<[i64; MAX_SEATS]>,
}

/// A placeholder for the outcome slots of a chunk before its deals are played.
const BLANK: Outcome = Outcome {
    seats: 0,
    winner: None,
    reason: "",
    payouts: [0; MAX_SEATS],
    hand_value: 0,
    turns: 0,
    penalized: None,
    places: [0; MAX_SEATS],
};

/// The slots of one deal's games in a chunk's buffers.
struct DealSlots<'a> {
    outcomes: &'a mut [Outcome],
    /// One JSON record per game (when records are written).
    records: &'a mut [String],
    /// Each seat's luck per game (when the study corrects for luck).
    luck: &'a mut [[i64; MAX_SEATS]],
}

impl ChunkBuffers {
    /// Empty buffers for the deals of `exp`.
    pub(super) fn new(exp: &Experiment) -> Self {
        ChunkBuffers {
            per_deal: exp.rotations() * exp.match_games as usize,
            outcomes: Vec::new(),
            records: Vec::new(),
            luck: Vec::new(),
        }
    }

    /// Sizes the buffers for `deals` deals (they only grow: the records' and luck's too, used
    /// or not, so that every deal's slots come from one zip of equal chunks) and returns them.
    fn slots(&mut self, deals: usize) -> (&mut [Outcome], &mut [String], &mut [[i64; MAX_SEATS]]) {
        let n = deals * self.per_deal;
        if self.outcomes.len() < n {
            self.outcomes.resize(n, BLANK);
            self.records.resize(n, String::new());
            self.luck.resize(n, [0; MAX_SEATS]);
        }
        (
            &mut self.outcomes[..n],
            &mut self.records[..n],
            &mut self.luck[..n],
        )
    }
}

/// What each worker thread of a run's pool keeps (by rayon's thread index), built once and
/// reused for every deal the thread plays: the agents of the seat slots and, in a
/// luck-corrected study, the corrector.
struct Worker<G: GameKind> {
    agents: Vec<Box<dyn Agent<G::State>>>,
    corrector: Option<Corrector<G, RolloutValue<G::State>>>,
}

/// The run pool's workers.
pub(super) struct Workers<G: GameKind>(Vec<Mutex<Worker<G>>>);

impl<G: GameKind> Workers<G> {
    /// A worker per thread for `exp` in `runtime` (an outside program's log in `dir`).
    pub(super) fn new(
        threads: usize,
        (exp, runtime): (&Experiment, &Runtime),
        dir: Option<&Path>,
    ) -> Self {
        Workers(
            (0..threads)
                .map(|_| {
                    Mutex::new(Worker {
                        agents: make_agents::<G>((exp, runtime), dir),
                        corrector: (exp.luck_value())
                            .map(|v| v.corrector(&exp.agents, exp.setting(runtime))),
                    })
                })
                .collect(),
        )
    }

    /// The calling worker's state.
    fn get(&self) -> std::sync::MutexGuard<'_, Worker<G>> {
        let i = rayon::current_thread_index().expect("called on the run's pool");
        self.0[i]
            .lock()
            .expect("a worker's agents are never poisoned")
    }
}

/// Plays deals `start..end` on the pool into `out` (their outcomes, and records when asked
/// for). Returns false if the run was stopped before every deal was played.
#[allow(clippy::too_many_arguments)]
pub(super) fn play_chunk<G: GameKind>(
    pool: &rayon::ThreadPool,
    (game, plan): (&G, Option<&DealPlan>),
    exp: &Experiment,
    workers: &Workers<G>,
    (start, end): (u64, u64),
    out: &mut ChunkBuffers,
    records_on: bool,
    (stop, faults): (&AtomicBool, &Faults),
) -> bool {
    let halted = || stop.load(Ordering::Relaxed) || faults.any.load(Ordering::Relaxed);
    let per_deal = out.per_deal;
    let (outcomes, lines, luck) = out.slots((end - start) as usize);
    let skipped = AtomicBool::new(false);
    pool.install(|| {
        let deals = (outcomes.par_chunks_mut(per_deal))
            .zip(lines.par_chunks_mut(per_deal))
            .zip(luck.par_chunks_mut(per_deal));
        deals
            .enumerate()
            .for_each(|(i, ((outcomes, records), luck))| {
                let deal = start + i as u64;
                if halted() {
                    return skipped.store(true, Ordering::Relaxed);
                }
                let looper = experiment_loop(game, plan, exp);
                let mut worker = workers.get();
                let Worker { agents, corrector } = &mut *worker;
                let mut slots = DealSlots {
                    outcomes,
                    records,
                    luck,
                };
                play_deal((exp, deal, faults), agents, |agents| {
                    play_slots(
                        &looper,
                        (exp, records_on),
                        deal,
                        agents,
                        &mut slots,
                        corrector.as_mut(),
                    )
                });
            });
    });
    !skipped.into_inner()
}

/// Plays one deal into its slots: each game's outcome, its JSON record when `recording`, each
/// seat's luck when `corrector` is given.
fn play_slots<G: GameKind>(
    looper: &DealLoop<'_, G>,
    (exp, recording): (&Experiment, bool),
    deal: u64,
    agents: &mut [Box<dyn Agent<G::State>>],
    slots: &mut DealSlots<'_>,
    mut corrector: Option<&mut Corrector<G, RolloutValue<G::State>>>,
) {
    let mut g = 0;
    let mut recorder = Recorder::<G>::default();
    let mut start: Option<G::State> = None;
    looper.play(deal, agents, |at, event| match event {
        Event::Step((s, step)) => {
            if let Some(c) = corrector.as_deref_mut() {
                if step.is_none() {
                    let mut slots = [0; MAX_SEATS];
                    (0..exp.players()).for_each(|x| slots[x] = exp.slot(at.rotation, x));
                    c.seat(&slots[..exp.players()]);
                }
                c.observe((s, step));
            }
            if recording {
                if step.is_none() {
                    start = Some(s.clone());
                }
                recorder.observe(s, step)
            }
        }
        Event::End(end, o) => {
            if recording {
                let specs: Vec<String> = (0..exp.players())
                    .map(|s| exp.agents[exp.slot(at.rotation, s)].clone())
                    .collect();
                let first = start.take().expect("observed at the deal");
                let mut record = std::mem::take(&mut recorder).finish(
                    looper.game,
                    &first,
                    end,
                    &specs,
                    Some(at.id),
                );
                record.match_game = (exp.match_games > 1).then_some(at.game);
                slots.records[g] = serde_json::to_string(&record).expect("records serialize");
            }
            if let Some(c) = corrector.as_deref() {
                slots.luck[g] = c.luck().map(|l| (l * LUCK_UNIT as f64).round() as i64);
            }
            slots.outcomes[g] = o;
            g += 1;
        }
    });
}
