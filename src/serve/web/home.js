// The home page: choose a game and play, or open a record or a run.
import { api } from "./api.js";
import { el } from "./cards.js";

const $ = (id) => document.getElementById(id);
let catalog;

function fillVariants() {
  const g = catalog.games.find((x) => x.name === $("game").value);
  $("variant").replaceChildren(...g.variants.map((v) => new Option(v.name, v.name)));
  $("agent-list").replaceChildren(...g.agents.map((a) => new Option(a)),
    ...catalog.net_files.map((f) => new Option(`net:${f}`)));
  fillSeats();
}

function fillSeats() {
  const g = catalog.games.find((x) => x.name === $("game").value);
  const v = g.variants.find((x) => x.name === $("variant").value);
  const [lo, hi] = v.seats;
  const p = $("players");
  p.min = lo;
  p.max = hi;
  if (+p.value < lo) p.value = lo;
  if (+p.value > hi) p.value = hi;
  const keep = +$("seat").value || 0;
  $("seat").replaceChildren(...Array.from({ length: +p.value }, (_, i) => new Option(`seat ${i}`, i)));
  $("seat").value = Math.min(keep, +p.value - 1);
}

async function play(event) {
  event.preventDefault();
  $("error").textContent = "";
  const body = {
    game: $("game").value,
    variant: $("variant").value,
    players: +$("players").value,
    seat: +$("seat").value,
    agents: $("agents").value.split(",").map((s) => s.trim()).filter(Boolean),
    seed: +$("seed").value,
  };
  if ($("deal").value) body.deal = $("deal").value;
  try {
    const made = await api("/api/games", { json: body });
    location.href = `/play.html#id=${made.id}`;
  } catch (e) {
    $("error").textContent = e.message;
  }
}

function openText(text) {
  sessionStorage.setItem("dropped", text);
  location.href = "/viewer.html#dropped";
}

async function records() {
  const list = await api("/api/records");
  const box = $("records");
  for (const f of list.files) {
    const details = el("details", "record-file");
    details.open = list.files.length <= 8;
    details.append(el("summary", "", `${f.path} (${f.records.length}${f.more ? "+" : ""})`));
    const ol = el("ol", "record-list");
    for (const r of f.records) {
      const li = el("li");
      const a = el("a", "", `${r.game} ${r.variant}, ${r.players} players` +
        (r.seed !== null ? `, seed ${r.seed}` : "") + (r.deal !== null ? ` deal ${r.deal}` : "") +
        `: ${r.payouts.join(" ")}`);
      a.href = `/viewer.html#file=${f.file}&index=${r.index}`;
      li.append(a);
      ol.append(li);
    }
    details.append(ol);
    box.append(details);
  }
}

async function main() {
  catalog = await api("/api/games");
  $("game").replaceChildren(...catalog.games.map((g) => new Option(`${g.title} (${g.name})`, g.name)));
  $("deal").append(...catalog.deal_files.map((f) => new Option(f, f)));
  $("game").addEventListener("change", fillVariants);
  $("variant").addEventListener("change", fillSeats);
  $("players").addEventListener("change", fillSeats);
  $("new-game").addEventListener("submit", play);
  fillVariants();
  if (catalog.runs.length) {
    $("runs-panel").hidden = false;
    for (const r of catalog.runs) {
      const li = el("li");
      const a = el("a", "", r.path);
      a.href = `/runs/${r.run}`;
      li.append(a);
      $("runs").append(li);
    }
  }
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", async (e) => {
    e.preventDefault();
    openText(await e.dataTransfer.files[0].text());
  });
  $("file").addEventListener("change", async (e) => openText(await e.target.files[0].text()));
  await records();
}

main().catch((e) => { $("error").textContent = e.message; });
