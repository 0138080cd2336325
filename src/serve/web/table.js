// A table drawn from seat views (the engine's observation JSON): each seat's public cards and
// counts, the situation (stock, the card or trick on the table), and a hand.
import { card, cardRow, el } from "./cards.js";

const CARD = {
  tusac: /^[rygw][KAERCHP]$/,
  chan: /^([2-9][vns]|ch)$/,
  tienlen: /^[3-9TJQKA2][scdh]$/,
};
const SKIP = new Set(["game", "variant", "players", "seat", "to_move", "phase", "hand", "seats"]);

export function isCard(game, v) {
  return typeof v === "string" && (CARD[game] || /^$/).test(v);
}

function label(key) {
  return key.replace(/_/g, " ");
}

// A value of the observation drawn: cards as cards, lists as rows, objects as fields.
export function value(game, v) {
  if (isCard(game, v)) return card(game, v);
  if (Array.isArray(v)) {
    if (v.length === 0) return el("span", "empty", "—");
    if (v.every((x) => isCard(game, x))) return cardRow(game, v, "small");
    const box = el("div", "groups");
    for (const x of v) box.append(value(game, x));
    return box;
  }
  if (v && typeof v === "object") {
    const box = el("div", "fields");
    for (const [k, x] of Object.entries(v)) {
      if (x === null || x === false || (Array.isArray(x) && x.length === 0)) continue;
      const f = el("div", "field");
      f.append(el("span", "key", label(k)), value(game, x));
      box.append(f);
    }
    return box;
  }
  return el("span", "val", v === null ? "—" : String(v));
}

// The table: `obs` is the viewing seat's observation; `hands[s]` (when given) a seat's hand to
// show face up; `names[s]` who sits there; `you` the viewing seat (null: a watcher).
export function drawTable(root, { game, obs, hands, names, you, toMove, outcome }) {
  root.replaceChildren();
  const situation = el("div", "situation");
  const phase = el("div", "field");
  phase.append(el("span", "key", "phase"), el("span", "val", obs.phase ?? "—"));
  situation.append(phase);
  for (const [k, v] of Object.entries(obs)) {
    if (SKIP.has(k) || v === null || (Array.isArray(v) && v.length === 0)) continue;
    const f = el("div", "field");
    f.append(el("span", "key", label(k)), value(game, v));
    situation.append(f);
  }
  root.append(situation);
  const seats = el("div", "seats");
  for (const s of obs.seats || []) {
    const i = s.seat;
    const panel = el("section", "seat");
    panel.dataset.seat = i;
    if (i === toMove) panel.classList.add("to-move");
    if (i === you) panel.classList.add("you");
    const title = el("h3", "", `Seat ${i}${names && names[i] ? " · " + names[i] : ""}`);
    if (i === you) title.append(el("span", "tag", "you"));
    if (i === toMove) title.append(el("span", "tag move", "to move"));
    if (outcome && outcome.payouts) {
      const p = outcome.payouts[i];
      title.append(el("span", `tag payout ${p > 0 ? "win" : p < 0 ? "loss" : ""}`, `${p > 0 ? "+" : ""}${p}`));
    }
    panel.append(title);
    if (hands && hands[i] && i !== you) {
      const h = el("div", "field hand-shown");
      h.append(el("span", "key", "hand"), cardRow(game, hands[i], "small"));
      panel.append(h);
    }
    for (const [k, v] of Object.entries(s)) {
      if (k === "seat" || v === null || v === false || (Array.isArray(v) && v.length === 0)) continue;
      const f = el("div", "field");
      f.append(el("span", "key", label(k)), value(game, v));
      panel.append(f);
    }
    seats.append(panel);
  }
  root.append(seats);
}

// The event log: decisions and forced moves with the rule that forced them.
export function drawLog(root, entries, names) {
  root.replaceChildren();
  for (const e of entries) {
    const li = el("li", e.forced ? "forced" : e.yours ? "yours" : "");
    const who = e.seat === null || e.seat === undefined ? "—" : `seat ${e.seat}`;
    li.append(el("span", "who", who), el("span", "act", e.action));
    if (e.rule) li.append(el("span", "rule", `rule ${e.rule}`));
    root.append(li);
  }
  root.scrollTop = root.scrollHeight;
}

// The payouts of a finished game.
export function drawOutcome(root, outcome, unit) {
  root.replaceChildren();
  if (!outcome) return;
  root.append(el("h3", "", "Payouts"));
  const t = el("table", "payouts");
  const head = el("tr");
  head.append(el("th", "", "seat"), el("th", "", `payout (${unit || ""})`));
  if (outcome.places) head.append(el("th", "", "place"));
  t.append(head);
  outcome.payouts.forEach((p, i) => {
    const tr = el("tr", outcome.winner === i ? "winner" : "");
    tr.append(el("td", "", String(i)), el("td", "num", `${p > 0 ? "+" : ""}${p}`));
    if (outcome.places) tr.append(el("td", "", String(outcome.places[i])));
    t.append(tr);
  });
  root.append(t);
  const why = el("p", "why", `Ended by: ${outcome.reason}` +
    (outcome.winner !== null && outcome.winner !== undefined ? `, winner seat ${outcome.winner}` : ", no winner") +
    (outcome.hand_value ? `, hand value ${outcome.hand_value}` : "") +
    ` (${outcome.turns} turns). The log's forced moves name the rules that paid.`);
  root.append(why);
}
