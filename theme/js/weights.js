// Weight bars: the one drawing of "how much each item gets", shared by every view that shows
// weights. Four shapes: HTML bars (a track, a fill as wide as the weight, its number), SVG
// columns on a baseline, SVG rows beside their words, and a head's weights as a table. Each is built once and updated in
// place, so a state change never replaces an element. Nothing here computes a model number.
import { html, set, svg } from "./svg.js";

/**
 * An HTML bar in parent: a track, a fill as wide as w (0..1) and the number shown beside it
 * (inside the track's right end with inside: true). Returns set(w, text).
 */
export function weightBar(parent, { inside = false } = {}) {
  const track = html("span", { class: "weight-bar" }, parent);
  if (!inside) track.setAttribute("aria-hidden", "true");
  const fill = html("span", { class: "weight-fill" }, track);
  const num = html("span", { class: inside ? "weight-num weight-num-inside" : "weight-num" }, inside ? track : parent);
  return (w, text) => {
    fill.style.width = (100 * w).toFixed(1) + "%";
    num.textContent = text;
  };
}

/**
 * n columns of non-negative values standing on a baseline, each labelled above, in parent (an
 * SVG element). Returns update({values, labels, cx, barW, top, height, max}): cx(i) is column
 * i's centre, max the value at the top edge; returns the baseline's y.
 */
export function columnRow(parent, n, cls) {
  const items = Array.from({ length: n }, () => ({
    rect: svg("rect", { class: cls }, parent),
    text: svg("text", { class: "value", "text-anchor": "middle" }, parent),
  }));
  return ({ values, labels, cx, barW, top, height, max }) => {
    const base = top + height;
    items.forEach(({ rect, text }, i) => {
      const h = max > 0 ? height * (values[i] / max) : 0;
      set(rect, { x: cx(i) - barW / 2, y: base - h, width: barW, height: Math.max(0.5, h) });
      set(text, { x: cx(i), y: base - h - 4 });
      text.textContent = labels[i];
    });
    return base;
  };
}

/**
 * n rows of a word, a bar growing right from x0, and its number after the bar, in parent (an
 * SVG element). Returns update({words, values, labels, x0, top, rowH, barH, maxW, wordClass}):
 * wordClass(i) is the class of row i's word.
 */
export function rowBars(parent, n, cls) {
  const items = Array.from({ length: n }, () => ({
    word: svg("text", { "text-anchor": "end" }, parent),
    rect: svg("rect", { class: cls }, parent),
    text: svg("text", { class: "value" }, parent),
  }));
  return ({ words, values, labels, x0, top, rowH, barH, maxW, wordClass }) => {
    items.forEach(({ word, rect, text }, i) => {
      const y = top + i * rowH;
      const w = Math.max(0.5, maxW * values[i]);
      set(word, { x: x0 - 6, y: y + 14, class: wordClass(i) });
      word.textContent = words[i];
      set(rect, { x: x0, y: y + 4, width: w, height: barH });
      set(text, { x: x0 + w + 4, y: y + 14 });
      text.textContent = labels[i];
    });
    return top + n * rowH;
  };
}


/**
 * Head h's weights as a table (th-grid, site.css): a row per word looking, a column per word
 * read, each word's targets outlined (solid: attached word, dashed: previous word). Cells take
 * their weight as --w. Returns { box, caption, colHeads, rowHeads, cells[i][j] }.
 */
export function headTable(parent, words, targets, h) {
  const box = html("div", { class: "th-head" }, parent);
  const table = html("table", { class: "th-grid" }, box);
  const caption = html("caption", {}, table, `Head ${h + 1}`);
  const hr = html("tr", {}, html("thead", {}, table));
  html("td", {}, hr);
  const colHeads = words.map((w) => html("th", { scope: "col" }, hr, w));
  const body = html("tbody", {}, table);
  const rowHeads = [];
  const cells = words.map((word, i) => {
    const tr = html("tr", {}, body);
    rowHeads.push(html("th", { scope: "row" }, tr, word));
    return words.map((_, j) => {
      const classes = ["th-cell"];
      if (targets.attached[i] === j) classes.push("th-attached");
      if (targets.previous[i] === j) classes.push("th-previous");
      return html("td", { class: classes.join(" ") }, tr);
    });
  });
  return { box, caption, colHeads, rowHeads, cells };
}
