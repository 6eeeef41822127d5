// egocli timeline: one day of the log on an axis, one lane per modality; search, ask, details, forget.
// Everything from the log is inserted as text (textContent), never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
// The token travels in a header, never in a request URL; kept for this tab (the playground shares it) and
// dropped from the address bar.
const TOKEN = params.get("token") || sessionStorage.getItem("egocli-token") || "";
if (TOKEN) {
  sessionStorage.setItem("egocli-token", TOKEN);
  params.delete("token");
  history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params : "") + location.hash);
}
const HOUR = 3600e3, MIN = 60e3;
const LANE_H = 34, TOP = 22, LEFT = 64, THUMB_SPAN = 2 * HOUR;

const timeline = window.timeline = {
  day: null, events: [], lanes: [], view: [0, 0], hits: new Set(), selected: null, selection: null,
  ready: false, answer: "", citations: [], error: null, frames: new Map(),
};

function headers(extra) {
  const h = Object.assign({}, extra || {});
  if (TOKEN) h["Authorization"] = "Bearer " + TOKEN;
  return h;
}

async function api(path, body) {
  const init = body === undefined ? { headers: headers() }
    : { method: "POST", headers: headers({ "Content-Type": "application/json" }), body: JSON.stringify(body) };
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.message || res.statusText);
  return data;
}

function status(text) { $("status").textContent = text; }

const pad = (n) => String(n).padStart(2, "0");
const clock = (ms) => { const d = new Date(ms); return pad(d.getHours()) + ":" + pad(d.getMinutes()); };
const clockS = (ms) => clock(ms) + ":" + pad(new Date(ms).getSeconds());
const isoDay = (d) => d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate());

async function loadDay(day, focusId) {
  status("loading…");
  const data = await api("/api/timeline/day" + (day ? "?day=" + day : ""));
  timeline.day = data.day;
  timeline.dayStart = data.start_ms;
  timeline.dayEnd = data.end_ms;
  timeline.events = data.events;
  timeline.lanes = data.modalities.length ? data.modalities : ["note"];
  timeline.view = fitView(data.events, data.start_ms, data.end_ms);
  $("daypick").value = data.day;
  const n = data.events.length;
  status(n ? `${n} event${n === 1 ? "" : "s"}${data.truncated ? " (the densest part cut)" : ""}` : "no events this day");
  await loadMonth(data.day);
  draw();
  if (focusId !== undefined) focusEvent(focusId);
  timeline.ready = true;
}

function fitView(events, lo, hi) {
  if (!events.length) return [lo, hi];
  let a = Math.min(...events.map((e) => e.s)), b = Math.max(...events.map((e) => e.e));
  const margin = Math.max((b - a) * 0.05, 5 * MIN);
  return [Math.max(lo, a - margin), Math.min(hi, b + margin)];
}

async function loadMonth(day) {
  const [y, m] = day.split("-").map(Number);
  const first = new Date(y, m - 1, 1), last = new Date(y, m, 0);
  const data = await api(`/api/timeline/density?from=${isoDay(first)}&to=${isoDay(last)}`);
  const strip = $("month");
  strip.replaceChildren();
  const max = Math.max(1, ...Object.values(data.days));
  for (const [d, n] of Object.entries(data.days)) {
    const a = document.createElement("a");
    a.href = "#day-" + d;
    a.textContent = String(Number(d.slice(8)));
    a.title = `${d}: ${n} event${n === 1 ? "" : "s"}`;
    a.dataset.count = n;
    if (n === 0) a.className = "empty";
    else a.style.background = `rgba(47, 111, 219, ${0.15 + 0.75 * n / max})`;
    if (d === day) a.classList.add("today");
    strip.appendChild(a);
  }
}

function svgEl(tag, attrs, text) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

function scale() {
  const width = $("axis").clientWidth || 800;
  const [a, b] = timeline.view;
  const k = (width - LEFT - 8) / Math.max(b - a, 1);
  return { width, x: (ms) => LEFT + (ms - a) * k, t: (px) => a + (px - LEFT) / k };
}

function tickStep(span) {
  for (const s of [MIN, 5 * MIN, 15 * MIN, 30 * MIN, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR]) if (span / s <= 12) return s;
  return 6 * HOUR;
}

function draw() {
  const svg = $("axis"), sc = scale(), [a, b] = timeline.view;
  const height = TOP + timeline.lanes.length * LANE_H + 6;
  svg.setAttribute("height", height);
  svg.style.height = height + "px";
  svg.replaceChildren();
  timeline.lanes.forEach((lane, i) => {
    svg.appendChild(svgEl("rect", { class: "lane", x: LEFT, y: TOP + i * LANE_H + 2, width: sc.width - LEFT - 8, height: LANE_H - 4 }));
    svg.appendChild(svgEl("text", { class: "lanelabel", x: 4, y: TOP + i * LANE_H + LANE_H / 2 + 4 }, lane));
  });
  const step = tickStep(b - a);
  const offset = new Date(a).getTimezoneOffset() * MIN;
  for (let t = Math.ceil((a - offset) / step) * step + offset; t <= b; t += step) {
    svg.appendChild(svgEl("line", { class: "tick", x1: sc.x(t), x2: sc.x(t), y1: TOP - 4, y2: height }));
    svg.appendChild(svgEl("text", { class: "ticklabel", x: sc.x(t) + 2, y: 12 }, clock(t)));
  }
  const thumbs = b - a <= THUMB_SPAN;
  for (const ev of timeline.events) {
    if (ev.e < a || ev.s > b) continue;
    const lane = timeline.lanes.indexOf(ev.m);
    if (lane < 0) continue;
    const x = sc.x(ev.s), w = Math.max(3, sc.x(ev.e) - x), y = TOP + lane * LANE_H + 6;
    const cls = ["ev", ev.m];
    if (timeline.hits.has(ev.id)) cls.push("hit");
    if (timeline.selected === ev.id) cls.push("selected");
    const rect = svgEl("rect", { class: cls.join(" "), x, y, width: w, height: LANE_H - 12, "data-id": ev.id });
    rect.appendChild(svgEl("title", {}, `${clockS(ev.s)} ${ev.m}: ${ev.t}`));
    svg.appendChild(rect);
    if (thumbs && ev.f && ev.m === "visual") drawThumb(svg, ev, x, y);
  }
  if (timeline.selection) {
    const [s, e] = timeline.selection;
    svg.appendChild(svgEl("rect", { class: "sel", x: sc.x(s), y: TOP - 4, width: Math.max(1, sc.x(e) - sc.x(s)), height: height - TOP + 4 }));
  }
  $("span").textContent = `${clock(a)}–${clock(b)}`;
  $("forgetbtn").disabled = !timeline.selection;
}

function drawThumb(svg, ev, x, y) {
  const img = svgEl("image", { x, y: y - 4, width: 40, height: LANE_H - 4, "data-id": ev.id, class: "thumb" });
  svg.appendChild(img);
  frameUrl(ev.id).then((url) => { if (url) img.setAttribute("href", url); });
}

async function frameUrl(id) {
  if (timeline.frames.has(id)) return timeline.frames.get(id);
  const pending = fetch("/api/timeline/media/" + id, { headers: headers() })
    .then((r) => (r.ok ? r.blob() : null)).then((b) => (b ? URL.createObjectURL(b) : null));
  timeline.frames.set(id, pending);
  return pending;
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
    drag = { x: e.offsetX, t, view: [a, b], k: (b - a) / Math.max(1, scale().width - LEFT - 8), select: e.shiftKey };
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
  window.addEventListener("resize", draw);
}

async function focusEvent(id) {
  id = Number(id);
  let ev = timeline.events.find((x) => x.id === id);
  let detail;
  try { detail = await api(`/api/timeline/event/${id}?context=3`); } catch (err) { status(err.message); return; }
  const d = new Date(detail.event.start_ms);
  if (!ev && isoDay(d) !== timeline.day) { await loadDay(isoDay(d)); ev = timeline.events.find((x) => x.id === id); }
  timeline.selected = id;
  const keep = timeline.keepView;
  timeline.keepView = false;
  // a link (search hit, citation, #event-ID) zooms to half an hour around the event; a click on the axis keeps the view
  if (ev && (!keep || ev.s < timeline.view[0] || ev.s > timeline.view[1])) {
    const span = Math.min(timeline.view[1] - timeline.view[0], 30 * MIN);
    timeline.view = [Math.max(timeline.dayStart, ev.s - span / 2), Math.min(timeline.dayEnd, ev.s + span / 2)];
  }
  draw();
  showDetail(detail);
}

function showDetail(detail) {
  const box = $("detail"), ev = detail.event;
  box.replaceChildren();
  const p = (text, cls) => { const el = document.createElement("p"); el.textContent = text; if (cls) el.className = cls; box.appendChild(el); return el; };
  p(`${ev.local} – ${ev.end_local.slice(-8)} · ${ev.modality}${ev.source ? " · " + ev.source : ""}`, "when");
  p(ev.content, "content").id = "detailtext";
  if (ev.media) {
    const img = document.createElement("img");
    img.alt = "kept frame";
    box.appendChild(img);
    frameUrl(ev.id).then((url) => { if (url) img.src = url; else img.remove(); });
  }
  const link = document.createElement("a");
  link.href = "#event-" + ev.id;
  link.textContent = "link to this event (#event-" + ev.id + ")";
  box.appendChild(link);
  if (ev.meta && Object.keys(ev.meta).length) {
    const pre = document.createElement("pre");
    pre.textContent = JSON.stringify(ev.meta, null, 1);
    box.appendChild(pre);
  }
  const h = document.createElement("h2");
  h.textContent = "Around it";
  box.appendChild(h);
  const list = document.createElement("ol");
  const all = [...detail.neighbours, ev].sort((x, y) => x.start_ms - y.start_ms || x.id - y.id);
  for (const n of all) {
    const li = document.createElement("li");
    li.className = "neighbour" + (n.id === ev.id ? " current" : "");
    const a = document.createElement("a");
    a.href = "#event-" + n.id;
    a.textContent = `${n.local.slice(-8)} ${n.modality}: ${n.content}`;
    li.appendChild(a);
    list.appendChild(li);
  }
  box.appendChild(list);
}

function markText(parent, snippet) {
  // FTS snippets mark matches with [ and ]: shown as <mark>, the rest as text.
  const parts = snippet.split(/(\[[^\]]*\])/);
  for (const part of parts) {
    if (part.startsWith("[") && part.endsWith("]")) {
      const m = document.createElement("mark");
      m.textContent = part.slice(1, -1);
      parent.appendChild(m);
    } else if (part) parent.appendChild(document.createTextNode(part));
  }
}

let searchTimer = null, searchSeq = 0;
function onSearch() {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(runSearch, 200);
}

async function runSearch() {
  const q = $("search").value.trim(), seq = ++searchSeq;
  if (!q) { timeline.hits = new Set(); $("hits").replaceChildren(); $("hitcount").textContent = ""; draw(); return; }
  let data;
  try { data = await api("/api/timeline/search?q=" + encodeURIComponent(q)); } catch (err) { status(err.message); return; }
  if (seq !== searchSeq) return;
  timeline.hits = new Set(data.hits.map((h) => h.id));
  const list = $("hits");
  list.replaceChildren();
  for (const h of data.hits) {
    const li = document.createElement("li"), a = document.createElement("a");
    a.href = "#event-" + h.id;
    a.appendChild(document.createTextNode(h.local + " "));
    markText(a, h.snippet);
    li.appendChild(a);
    list.appendChild(li);
  }
  const here = data.hits.filter((h) => timeline.events.some((e) => e.id === h.id)).length;
  $("hitcount").textContent = `(${data.hits.length}, ${here} on this day)`;
  draw();
}

async function ask(question) {
  timeline.answer = ""; timeline.citations = []; timeline.error = null; timeline.asking = true;
  $("answer").textContent = "Thinking…";
  $("citations").replaceChildren();
  $("askbtn").disabled = true;
  try {
    const res = await fetch("/api/timeline/ask", { method: "POST", headers: headers({ "Content-Type": "application/json" }), body: JSON.stringify({ question }) });
    if (!res.ok) throw new Error((await res.json().catch(() => ({}))).message || res.statusText);
    const reader = res.body.getReader(), decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) { onAskLine(JSON.parse(buffer.slice(0, nl))); buffer = buffer.slice(nl + 1); }
    }
  } catch (err) {
    timeline.error = err.message;
    $("answer").textContent = "Error: " + err.message;
  } finally {
    timeline.asking = false;
    $("askbtn").disabled = false;
  }
}

function onAskLine(line) {
  if (line.token !== undefined) {
    timeline.answer += line.token;
    $("answer").textContent = timeline.answer;
  } else if (line.error) {
    timeline.error = line.error;
    $("answer").textContent = "Error: " + line.error;
  } else {
    timeline.answer = line.answer;
    timeline.citations = line.citations;
    $("answer").textContent = line.answer;
    const list = $("citations");
    for (const c of line.citations) {
      const li = document.createElement("li"), a = document.createElement("a");
      a.href = "#event-" + c.event_id;
      a.className = "citation";
      a.textContent = `${c.time} ${c.content}`;
      li.appendChild(a);
      list.appendChild(li);
    }
  }
}

async function forgetSelection() {
  if (!timeline.selection) return;
  const [s, e] = timeline.selection.map(Math.round);
  const count = (await api("/api/timeline/forget", { since_ms: s, until_ms: e })).would_forget;
  $("confirmtext").textContent = `Forget ${count} event${count === 1 ? "" : "s"} from ${clockS(s)} to ${clockS(e)} on ${timeline.day}?`;
  const dialog = $("confirm");
  dialog.returnValue = "";
  dialog.showModal();
  dialog.addEventListener("close", async () => {
    if (dialog.returnValue !== "ok") return;
    const done = await api("/api/timeline/forget", { since_ms: s, until_ms: e, confirm: true });
    timeline.selection = null;
    timeline.frames.clear();
    await loadDay(timeline.day);
    status(`forgot ${done.forgotten} event${done.forgotten === 1 ? "" : "s"}`);
  }, { once: true });
}

function shiftDay(n) {
  const [y, m, d] = timeline.day.split("-").map(Number);
  location.hash = "day-" + isoDay(new Date(y, m - 1, d + n));
}

async function route() {
  const h = decodeURIComponent(location.hash.slice(1));
  try {
    if (h.startsWith("event-")) await focusEvent(h.slice(6));
    else if (h.startsWith("day-")) await loadDay(h.slice(4));
    else if (!timeline.day) await loadDay(params.get("day") || "");
  } catch (err) {
    status("Error: " + err.message);
    timeline.error = err.message;
  }
}

function init() {
  $("prev").onclick = () => shiftDay(-1);
  $("next").onclick = () => shiftDay(1);
  $("daypick").onchange = () => { if ($("daypick").value) location.hash = "day-" + $("daypick").value; };
  $("zoomall").onclick = () => { timeline.view = [timeline.dayStart, timeline.dayEnd]; draw(); };
  $("zoomin").onclick = () => zoom(0.5);
  $("zoomout").onclick = () => zoom(2);
  $("forgetbtn").onclick = forgetSelection;
  $("search").addEventListener("input", onSearch);
  $("askform").addEventListener("submit", (e) => { e.preventDefault(); const q = $("question").value.trim(); if (q) ask(q); });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") shiftDay(-1);
    else if (e.key === "ArrowRight") shiftDay(1);
    else if (e.key === "+") zoom(0.5);
    else if (e.key === "-") zoom(2);
  });
  installAxis();
  window.addEventListener("hashchange", route);
  (location.hash ? loadDay(params.get("day") || "").then(route) : route());
}

init();
