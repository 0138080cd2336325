// Cards drawn as cards of their game, from the game's notation (the server sends notations only).

const TUSAC_COLOURS = { r: ["red", "đỏ"], y: ["yellow", "vàng"], g: ["green", "xanh"], w: ["white", "trắng"] };
const TUSAC_RANKS = {
  K: ["Tướng", "將"], A: ["Sĩ", "士"], E: ["Tượng", "相"], R: ["Xe", "車"],
  C: ["Pháo", "炮"], H: ["Mã", "馬"], P: ["Chốt", "卒"],
};
const CHAN_RANKS = { 2: "Nhị", 3: "Tam", 4: "Tứ", 5: "Ngũ", 6: "Lục", 7: "Thất", 8: "Bát", 9: "Cửu" };
const CHAN_SUITS = { v: ["Vạn", "萬"], n: ["Văn", "文"], s: ["Sách", "索"] };
const TIENLEN_SUITS = { s: ["♠", "black"], c: ["♣", "black"], d: ["♦", "red"], h: ["♥", "red"] };

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// The face of a card: [classes, big text, small text, full name].
function face(game, c) {
  if (game === "tusac") {
    const [colour, vn] = TUSAC_COLOURS[c[0]] || ["white", c[0]];
    const [name, glyph] = TUSAC_RANKS[c[1]] || [c[1], c[1]];
    return [`tusac ${colour}`, c[1], name, `${name} ${vn} (${glyph})`];
  }
  if (game === "chan") {
    if (c === "ch") return ["chan chichi", "✱", "Chi chi", "Chi chi"];
    const [suit, glyph] = CHAN_SUITS[c[1]] || [c[1], c[1]];
    const rank = CHAN_RANKS[c[0]] || c[0];
    return [`chan suit-${c[1]}`, c[0], `${rank} ${suit.toLowerCase()}`, `${rank} ${suit.toLowerCase()} (${glyph})`];
  }
  if (game === "tienlen") {
    const [glyph, colour] = TIENLEN_SUITS[c[1]] || [c[1], "black"];
    const rank = c[0] === "T" ? "10" : c[0];
    return [`tienlen ${colour}`, `${rank}${glyph}`, "", `${rank}${glyph}`];
  }
  return ["", c, "", c];
}

// A card element with data-card = its notation.
export function card(game, c) {
  const [cls, big, small, title] = face(game, c);
  const e = el("span", `card ${cls}`);
  e.dataset.card = c;
  e.title = `${title} (${c})`;
  e.append(el("b", "", big));
  if (small) e.append(el("small", "", small));
  return e;
}

// A row of cards.
export function cardRow(game, cards, cls = "") {
  const row = el("div", `cards ${cls}`);
  for (const c of cards) row.append(card(game, c));
  return row;
}

export { el };
