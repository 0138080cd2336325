// The play table: the human seat's view from the server, its legal actions to click, the agents'
// moves one by one at the chosen pace, hints, and at the end the payouts and the record.
import { api, hashParams } from "./api.js";
import { cardRow, el } from "./cards.js";
import { drawLog, drawOutcome, drawTable } from "./table.js";

const $ = (id) => document.getElementById(id);
let id = hashParams().get("id");
let state;
let timer = null;
let busy = false;
let selected = null;
let hints = null;

function showError(e) {
  $("error").textContent = e ? e.message || String(e) : "";
}

async function send(path, json) {
  busy = true;
  try {
    state = await api(path, json === undefined ? { method: "POST" } : { json });
    hints = null;
    showError(null);
  } catch (e) {
    showError(e);
  } finally {
    busy = false;
  }
  render();
}

function drawActions() {
  const box = $("actions");
  box.replaceChildren();
  if (!state.your_turn) return;
  const shown = selected ? state.legal.filter((a) => a.cards.includes(selected)) : state.legal;
  for (const a of shown.length ? shown : state.legal) {
    const b = el("button", "action", a.label);
    b.type = "button";
    b.dataset.index = a.index;
    if (hints) {
      const h = hints.values[a.index];
      b.append(el("span", "hint", Number.isFinite(h.value) ? h.value.toFixed(2) : "—"));
    }
    b.addEventListener("click", () => {
      selected = null;
      send(`/api/games/${id}/act`, { index: a.index });
    });
    box.append(b);
  }
  if (selected) {
    const clear = el("button", "action clear", "show every action");
    clear.type = "button";
    clear.addEventListener("click", () => { selected = null; drawActions(); });
    box.append(clear);
  }
}

function clickCard(c) {
  if (!state.your_turn) return;
  const naming = state.legal.filter((a) => a.cards.includes(c));
  if (naming.length === 1) {
    selected = null;
    send(`/api/games/${id}/act`, { index: naming[0].index });
    return;
  }
  selected = naming.length ? c : null;
  drawActions();
}

function render() {
  if (!state) return;
  const obs = state.observation;
  $("title").textContent = `${state.title} · ${state.variant} · ${state.players} players · you are seat ${state.seat}`;
  document.title = `bailab: ${state.title}`;
  const hands = state.over ? state.outcome.hands : null;
  drawTable($("table"), { game: state.game, obs, hands, names: state.agents, you: state.seat, toMove: state.to_move, outcome: state.over ? state.outcome : null });
  const hand = cardRow(state.game, obs.hand || [], "hand");
  const playable = new Set(state.legal.flatMap((a) => a.cards));
  for (const c of hand.children) {
    if (playable.has(c.dataset.card)) c.classList.add("playable");
    if (c.dataset.card === selected) c.classList.add("selected");
    c.addEventListener("click", () => clickCard(c.dataset.card));
  }
  $("hand").replaceChildren(hand);
  drawActions();
  drawLog($("log"), state.log);
  $("status").textContent = state.over ? "game over" : state.your_turn ? "your turn" : `seat ${state.to_move ?? "?"} to move`;
  $("hint-source").textContent = $("hint").checked ? `hints: ${state.hint}` : "";
  $("end").hidden = !state.over;
  $("step").disabled = state.over || state.your_turn;
  if (state.over) {
    drawOutcome($("outcome"), state.outcome, state.outcome.unit);
    $("download").href = `/api/games/${id}/record`;
  }
  if ($("hint").checked && state.your_turn && !hints) loadHints();
  schedule();
}

async function loadHints() {
  try {
    hints = await api(`/api/games/${id}/hints`);
    drawActions();
  } catch (e) {
    showError(e);
  }
}

function schedule() {
  clearTimeout(timer);
  if (!state || state.over || state.your_turn || busy) return;
  const pace = +$("pace").value;
  if (pace < 0) return;
  timer = setTimeout(() => send(`/api/games/${id}/advance`), pace);
}

async function main() {
  if (!id) {
    showError(new Error("no game: start one from the home page"));
    return;
  }
  $("pace").value = localStorage.getItem("pace") || "800";
  $("pace").addEventListener("change", () => { localStorage.setItem("pace", $("pace").value); schedule(); });
  $("step").addEventListener("click", () => send(`/api/games/${id}/advance`));
  $("hint").addEventListener("change", () => { hints = null; render(); });
  $("again").addEventListener("click", async () => {
    try {
      const made = await api(`/api/games/${id}/again`, { method: "POST" });
      location.hash = `id=${made.id}`;
    } catch (e) {
      showError(e);
    }
  });
  state = await api(`/api/games/${id}`);
  render();
}

window.addEventListener("hashchange", () => location.reload());
main().catch(showError);
