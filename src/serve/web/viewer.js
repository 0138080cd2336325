// The record viewer: a recorded game step by step (buttons and arrow keys), from one seat's view
// or with every hand, each decision with the legal actions it was chosen from, forced moves with
// their rules, and the payouts at the end.
import { api, hashParams } from "./api.js";
import { cardRow, el } from "./cards.js";
import { drawLog, drawOutcome, drawTable } from "./table.js";

const $ = (id) => document.getElementById(id);
let data = null;
let at = 0;

function showError(e) {
  $("error").textContent = e ? e.message || String(e) : "";
}

function render() {
  if (!data) return;
  const step = data.steps[at];
  const r = data.record;
  const game = r.game;
  $("title").textContent = `${data.title} · ${r.variant} · ${r.players} players` +
    (r.seed !== null && r.seed !== undefined ? ` · seed ${r.seed}` : "") +
    (r.deal !== null && r.deal !== undefined ? ` deal ${r.deal}` : "");
  $("position").textContent = `step ${at} / ${data.steps.length - 1}`;
  const view = $("seat").value;
  const seat = view === "all" ? (step.to_move ?? 0) : +view;
  const obs = step.seats[seat];
  const hands = view === "all" ? step.seats.map((s) => s.hand) : null;
  const last = at === data.steps.length - 1;
  drawTable($("table"), {
    game, obs, hands, names: r.agents, you: view === "all" ? null : seat,
    toMove: step.to_move, outcome: last ? data.outcome : null,
  });
  $("hand-title").textContent = view === "all" ? `Seat ${seat}'s hand (to move)` : `Seat ${seat}'s hand`;
  $("hand").replaceChildren(cardRow(game, obs.hand || [], "hand"));
  const legal = $("legal");
  legal.replaceChildren();
  if (step.legal.length) {
    legal.append(el("li", "muted", `seat ${step.to_move} chooses from ${step.legal.length}:`));
    for (const a of step.legal) {
      const li = el("li", a.index === step.chosen ? "chosen" : "", a.label);
      if (a.index === step.chosen) li.append(el("span", "tag", "chosen"));
      legal.append(li);
    }
  } else {
    legal.append(el("li", "muted", "no decision: the game is over"));
  }
  drawLog($("log"), step.events);
  const out = $("outcome");
  if (last) drawOutcome(out, data.outcome, data.unit);
  else out.replaceChildren();
  out.hidden = !last;
  for (const b of ["first", "prev"]) $(b).disabled = at === 0;
  for (const b of ["next", "last"]) $(b).disabled = last;
}

function go(to) {
  if (!data) return;
  at = Math.max(0, Math.min(data.steps.length - 1, to));
  render();
}

function loaded(d) {
  data = d;
  at = 0;
  const keep = $("seat").value;
  $("seat").replaceChildren(new Option("all hands", "all"),
    ...Array.from({ length: d.record.players }, (_, i) => new Option(`seat ${i}'s view`, String(i))));
  $("seat").value = [...$("seat").options].some((o) => o.value === keep) ? keep : "all";
  showError(null);
  render();
}

async function openText(text) {
  try {
    loaded(await api("/api/steps", { method: "POST", body: text }));
  } catch (e) {
    showError(e);
  }
}

async function main() {
  for (const [b, f] of [["first", () => 0], ["prev", () => at - 1], ["next", () => at + 1], ["last", () => Infinity]]) {
    $(b).addEventListener("click", () => go(f()));
  }
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: Infinity }[e.key];
    if (to !== undefined) {
      e.preventDefault();
      go(to);
    }
  });
  $("seat").addEventListener("change", render);
  $("file").addEventListener("change", async (e) => openText(await e.target.files[0].text()));
  document.body.addEventListener("dragover", (e) => { e.preventDefault(); $("drop").hidden = false; });
  document.body.addEventListener("drop", async (e) => {
    e.preventDefault();
    $("drop").hidden = true;
    openText(await e.dataTransfer.files[0].text());
  });
  const p = hashParams();
  if (p.has("dropped")) {
    await openText(sessionStorage.getItem("dropped") || "");
  } else if (p.has("file")) {
    loaded(await api(`/api/records/${p.get("file")}/${p.get("index") || 0}`));
  } else {
    showError(new Error("open a record: choose one on the home page, or open or drop a file"));
  }
}

window.addEventListener("hashchange", () => location.reload());
main().catch(showError);
