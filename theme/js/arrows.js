// Arrowheads shared by the views that draw vectors as arrows from the origin: one SVG marker per
// colour, referenced by id from a line's marker-end.
import { svg } from "./svg.js";

/**
 * Add an arrowhead marker to the svg's <defs> (created when missing) and return its url(#id).
 * refX moves the head back from the line's end (past a handle drawn on the tip).
 */
export function arrowHead(root, id, cls, { refX = 8, size = 6 } = {}) {
  const defs = root.querySelector("defs") ?? svg("defs", {}, null);
  if (!defs.parentNode) root.prepend(defs);
  const m = svg("marker", { id, viewBox: "0 0 10 10", refX, refY: 5, markerWidth: size, markerHeight: size,
    orient: "auto-start-reverse" }, defs);
  svg("path", { d: "M0,0 L10,5 L0,10 z", class: cls }, m);
  return `url(#${id})`;
}
