// egocli timeline: the overview (see timeline.js): one lane per modality, the events' text beside their marks
// where there is room, kept frames as a strip once the view spans two hours or less; drag, wheel and keys.
"use strict";

// Geometry in CSS px at the normal text size (large text scales it); LEFT and RIGHT are the lanes' margins.
const LANE_H = 30, TOP = 22, LEFT = 64, RIGHT = 8, THUMB_SPAN = 2 * HOUR, LABEL_MIN = 70, LABEL_MAX = 360;
const THUMB_W = 72, THUMB_H = 54;

function svgEl(tag, attrs, text) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function geometry() {
  const k = uiScale();
  return { k, laneH: LANE_H * k, top: TOP * k, left: LEFT * k, thumbW: THUMB_W * k, thumbH: THUMB_H * k };
}

function scale() {
  const width = $("axis").clientWidth || 800, left = geometry().left;
  const [a, b] = timeline.view;
  const k = (width - left - RIGHT) / Math.max(b - a, 1);
  return { width, x: (ms) => left + (ms - a) * k, t: (px) => a + (px - left) / k };
}

function tickStep(span) {
  for (const s of [10e3, 30e3, MIN, 5 * MIN, 15 * MIN, 30 * MIN, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR]) if (span / s <= 12) return s;
  return 6 * HOUR;
}

let measurer = null;
/** The text cut (with an ellipsis) to fit `px` pixels in the axis' label font; "" when not even a word fits. */
function fitText(text, px) {
  if (!measurer) measurer = document.createElement("canvas").getContext("2d");
  const probe = document.querySelector("#axis .ticklabel");
  measurer.font = `${12 * uiScale()}px ${getComputedStyle(probe || document.body).fontFamily}`;
  if (measurer.measureText(text).width <= px) return text;
  let lo = 0, hi = text.length;
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (measurer.measureText(text.slice(0, mid) + "…").width <= px) lo = mid; else hi = mid - 1; }
  return lo >= 4 ? text.slice(0, lo).trimEnd() + "…" : "";
}

function draw() {
  const svg = $("axis"), sc = scale(), g = geometry(), [a, b] = timeline.view;
  const lanesBottom = g.top + timeline.lanes.length * g.laneH;
  const inView = timeline.events.filter((ev) => ev.e >= a && ev.s <= b);
  const framed = b - a <= THUMB_SPAN ? inView.filter((ev) => ev.f) : [];
  const height = lanesBottom + (framed.length ? g.thumbH + 14 * g.k : 0) + 6;
  svg.setAttribute("height", height);
  svg.style.height = height + "px";
  svg.replaceChildren();
  timeline.lanes.forEach((lane, i) => {
    svg.appendChild(svgEl("rect", { class: "lane", x: g.left, y: g.top + i * g.laneH + 2, width: sc.width - g.left - RIGHT, height: g.laneH - 4 }));
    svg.appendChild(svgEl("text", { class: "lanelabel", x: 4, y: g.top + i * g.laneH + g.laneH / 2 + 4 * g.k }, lane));
  });
  const step = tickStep(b - a);
  const offset = new Date(a).getTimezoneOffset() * MIN;
  for (let t = Math.ceil((a - offset) / step) * step + offset; t <= b; t += step) {
    svg.appendChild(svgEl("line", { class: "tick", x1: sc.x(t), x2: sc.x(t), y1: g.top - 4, y2: lanesBottom }));
    svg.appendChild(svgEl("text", { class: "ticklabel", x: sc.x(t) + 2, y: 12 * g.k }, step < MIN ? clockS(t) : clock(t)));
  }
  const byLane = timeline.lanes.map(() => []);
  for (const ev of inView) {
    const lane = timeline.lanes.indexOf(ev.m);
    if (lane >= 0) byLane[lane].push(ev);
  }
  byLane.forEach((evs, lane) => drawLane(svg, sc, g, evs, lane));
  if (framed.length) drawStrip(svg, sc, g, framed, lanesBottom);
  if (timeline.selection) {
    const [s, e] = timeline.selection;
    svg.appendChild(svgEl("rect", { class: "sel", x: sc.x(s), y: g.top - 4, width: Math.max(1, sc.x(e) - sc.x(s)), height: height - g.top + 4 }));
  }
  $("span").textContent = `${clock(a)}–${clock(b)}`;
  svg.setAttribute("aria-label", `Overview of ${timeline.day || "the day"} from ${clock(a)} to ${clock(b)}: `
    + `${plural(inView.length, "event")} in view, one lane per kind (${timeline.lanes.join(", ")}). `
    + "Arrow keys move earlier or later, + and - zoom, Home shows the whole day.");
  $("forgetbtn").disabled = !timeline.selection;
}

/** One lane's marks, and beside each its text where the next mark leaves room (so: at closer zooms). */
function drawLane(svg, sc, g, evs, lane) {
  const y = g.top + lane * g.laneH + 5 * g.k, h = g.laneH - 10 * g.k;
  evs.sort((p, q) => p.s - q.s);
  let free = -Infinity;  // where the last label ended
  evs.forEach((ev, i) => {
    const x = sc.x(ev.s), w = Math.max(3, sc.x(ev.e) - x);
    const cls = ["ev", ev.m];
    if (timeline.hits.has(ev.id)) cls.push("hit");
    if (timeline.selected === ev.id) cls.push("selected");
    const rect = svgEl("rect", { class: cls.join(" "), x, y, width: w, height: h, "data-id": ev.id });
    rect.appendChild(svgEl("title", {}, `${clockS(ev.s)} ${ev.m}: ${ev.t}`));
    svg.appendChild(rect);
    const start = Math.max(x + w + 3, free);
    const next = i + 1 < evs.length ? sc.x(evs[i + 1].s) : sc.width - RIGHT;
    const room = Math.min(next - start - 4, LABEL_MAX * g.k);
    if (start - (x + w) > 40 || room < LABEL_MIN * g.k) return;
    const text = fitText(ev.t, room);
    if (!text) return;
    svg.appendChild(svgEl("text", { class: "evlabel", x: start, y: y + h / 2 + 4 * g.k, "data-id": ev.id }, text));
    free = start + room + 4;
  });
}

/** Kept frames of the events in view as a strip under the lanes, each joined to its time on the axis. */
function drawStrip(svg, sc, g, framed, top) {
  const y = top + 8 * g.k;
  svg.appendChild(svgEl("rect", { class: "stripbg", x: g.left, y: y - 4, width: sc.width - g.left - RIGHT, height: g.thumbH + 8 }));
  let free = g.left;
  for (const ev of framed.sort((p, q) => p.s - q.s)) {
    const at = sc.x(ev.s), x = Math.max(free, Math.min(at - g.thumbW / 2, sc.width - RIGHT - g.thumbW));
    if (x + g.thumbW > sc.width - RIGHT + 1) break;
    const link = svgEl("line", { class: "striplink", x1: at, x2: x + g.thumbW / 2, y1: top - 2, y2: y });
    const img = svgEl("image", { x, y, width: g.thumbW, height: g.thumbH, "data-id": ev.id, class: "thumb",
                                 preserveAspectRatio: "xMidYMid slice" });
    img.appendChild(svgEl("title", {}, `${clockS(ev.s)} ${ev.m}: ${ev.t}`));
    const edge = svgEl("rect", { class: "thumbframe", x, y, width: g.thumbW, height: g.thumbH, "data-id": ev.id });
    svg.append(link, img, edge);
    frameUrl(ev.id).then((url) => { if (url) img.setAttribute("href", url); else { link.remove(); img.remove(); edge.remove(); } });
    free = x + g.thumbW + 4;
  }
}

/** Zoom the overview to the stretch of [lo, hi) that holds events (an hour's 15 busy seconds fill the lanes). */
function showBusy(lo, hi) {
  const inside = timeline.events.filter((ev) => ev.s >= lo && ev.s < hi);
  if (inside.length) {
    const a = Math.min(...inside.map((e) => e.s)), b = Math.max(...inside.map((e) => e.e));
    const margin = Math.max((b - a) * 0.08, 30e3), mid = (a + b) / 2, half = Math.max((b - a) / 2 + margin, MIN);
    [lo, hi] = [Math.max(lo, a - margin, mid - half), Math.min(hi, b + margin, mid + half)];
    if (hi - lo < 2 * MIN) [lo, hi] = [mid - MIN, mid + MIN];  // a burst of seconds: centred, not at the edge
  }
  showSpan(lo, hi);
}

function showSpan(lo, hi) {
  lo = Math.max(timeline.dayStart, Math.min(lo, timeline.dayEnd - 2 * MIN));
  hi = Math.min(timeline.dayEnd, hi);
  timeline.view = [lo, Math.max(hi, lo + 2 * MIN)];
  draw();
}

function zoom(factor, centre) {
  const [a, b] = timeline.view, c = centre === undefined ? (a + b) / 2 : centre;
  let span = Math.min(timeline.dayEnd - timeline.dayStart, Math.max(2 * MIN, (b - a) * factor));
  let lo = c - (c - a) * span / (b - a);
  lo = Math.max(timeline.dayStart, Math.min(lo, timeline.dayEnd - span));
  timeline.view = [lo, lo + span];
  draw();
}

function pan(ms) {
  const [a, b] = timeline.view, span = b - a;
  const lo = Math.max(timeline.dayStart, Math.min(a + ms, timeline.dayEnd - span));
  timeline.view = [lo, lo + span];
  draw();
}

function installAxis() {
  const svg = $("axis");
  let drag = null;
  svg.addEventListener("pointerdown", (e) => {
    const id = e.target.getAttribute && e.target.getAttribute("data-id");
    if (id && !e.shiftKey) { timeline.keepView = true; location.hash = "event-" + id; return; }
    const t = scale().t(e.offsetX);
    const [a, b] = timeline.view;
    drag = { x: e.offsetX, t, view: [a, b], k: (b - a) / Math.max(1, scale().width - geometry().left - RIGHT), select: e.shiftKey };
    if (drag.select) timeline.selection = [t, t];
    svg.setPointerCapture(e.pointerId);
  });
  svg.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const t = scale().t(e.offsetX);
    if (drag.select) { timeline.selection = [Math.min(drag.t, t), Math.max(drag.t, t)]; draw(); return; }
    timeline.view = drag.view.slice();
    pan((drag.x - e.offsetX) * drag.k);
  });
  svg.addEventListener("pointerup", () => {
    if (drag && drag.select && timeline.selection && timeline.selection[1] - timeline.selection[0] < 1000) timeline.selection = null;
    drag = null;
    draw();
  });
  svg.addEventListener("wheel", (e) => { e.preventDefault(); zoom(e.deltaY > 0 ? 1.25 : 0.8, scale().t(e.offsetX)); }, { passive: false });
  svg.addEventListener("keydown", (e) => {
    const span = timeline.view[1] - timeline.view[0];
    const keys = { ArrowLeft: () => pan(-span / 4), ArrowRight: () => pan(span / 4), "+": () => zoom(0.5), "=": () => zoom(0.5),
                   "-": () => zoom(2), Home: wholeDay };
    if (!keys[e.key]) return;
    e.preventDefault();
    e.stopPropagation();  // on the overview the arrows pan; elsewhere they change the day
    keys[e.key]();
  });
  window.addEventListener("resize", draw);
}

function wholeDay() { timeline.view = [timeline.dayStart, timeline.dayEnd]; draw(); }
