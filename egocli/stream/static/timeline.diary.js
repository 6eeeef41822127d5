// egocli timeline: the digest and the diary (see timeline.js). The digest is GET /api/timeline/digest, the
// `egocli day --json` document; it is read again every minute and on coming back, so summaries built later show.
"use strict";

const DIGEST_POLL = 60e3;

/** Fetch the day's digest and (re)draw the diary when it changed; polled, so summaries built later appear. */
async function loadDigest(day, poll) {
  let data;
  try { data = await api("/api/timeline/digest" + (day ? "?day=" + day : "")); } catch (err) {
    if (!poll) $("digestline").textContent = "The digest could not be read: " + err.message;
    return;
  }
  if (poll && data.day !== timeline.day) return;  // the reader moved to another day meanwhile
  const text = JSON.stringify(data);
  if (text === timeline.digestText) return;  // unchanged: keep the reader's place and focus
  timeline.digest = data;
  timeline.digestText = text;
  showDigest(data);
  showDiary(data);
}

function showDigest(dg) {
  $("dayname").textContent = longDay(dg.day);
  const line = $("digestline");
  line.textContent = dg.digest || "Nothing was logged this day.";
  line.dataset.from = dg.digest_from;
  const meta = $("digestmeta");
  meta.replaceChildren();
  for (const [m, n] of Object.entries(dg.counts)) {
    const span = el("span", { class: "count" });
    span.append(el("span", { class: "swatch", "aria-hidden": "true" }), `${n} ${m}`);
    span.firstChild.style.background = `var(--${m}, var(--tool))`;
    meta.appendChild(span);
  }
  const told = dg.hours.filter((h) => h.summary).length, how = el("span", { class: "how" });
  if (dg.digest_from === "summary") how.append(`The day's summary (${dg.summary.model}${dg.summary.stale ? ", built before some of its events" : ""}).`);
  else if (dg.digest_from === "extractive") how.append("Picked from the day's events; ", el("code", {}, "egocli summarize"),
                                                       " writes summaries, shown here once built.");
  if (dg.hours.length) how.append(` Hour summaries: ${told} of ${dg.hours.length}.`);
  if (dg.truncated) how.append(" A very dense day: only its first events are told.");
  meta.appendChild(how);
}

function showDiary(dg) {
  const list = $("hours");
  list.replaceChildren();
  if (!dg.hours.length) { list.appendChild(el("li", { class: "empty-day" }, "No events this day.")); return; }
  for (const hour of dg.hours) list.appendChild(hourItem(hour));
  markSelected();
}

function hourItem(hour) {
  const li = el("li", { class: "hour", id: "hour-" + hour.start_ms });
  const head = el("h3");
  head.append(el("span", { class: "label" }, hour.label.replace("-", "–")));
  const kinds = Object.entries(hour.counts).map(([m, n]) => `${n} ${m}`).join(", ");
  head.append(el("span", { class: "n" }, `${plural(hour.events, "event")} (${kinds})`));
  const zoomTo = el("button", { type: "button", "aria-label": `Show ${hour.label} on the overview` }, "on the overview");
  zoomTo.onclick = () => { showBusy(hour.start_ms, hour.end_ms); $("axis").focus(); };
  head.append(zoomTo);
  li.appendChild(head);
  if (hour.summary && hour.summary.text.trim()) {
    const p = el("p", { class: "summary" + (hour.summary.model === "extractive" ? " extractive" : "") },
                 hour.summary.text.trim());
    if (hour.summary.stale) p.title = "Built before some of this hour's events; `egocli summarize` updates it.";
    li.appendChild(p);
  }
  const moments = el("ul", { class: "moments", "aria-label": `What happened ${hour.label}` });
  for (const m of hour.salient) moments.appendChild(momentItem(m));
  li.appendChild(moments);
  const rest = hour.events - hour.salient.length;
  if (rest > 0) li.appendChild(el("p", { class: "more" }, `and ${plural(rest, "more event")} (on the overview).`));
  return li;
}

function momentItem(m) {
  const li = el("li", { class: "moment " + m.modality });
  li.dataset.id = m.id;
  const a = el("a", { href: "#event-" + m.id });
  a.append(el("time", { class: "when", datetime: new Date(m.start_ms).toISOString() }, m.time),
           el("span", { class: "kind " + m.modality }, m.modality),
           el("span", { class: "what" }, m.content));
  li.appendChild(a);
  if (m.media) {
    const img = el("img", { alt: `kept frame, ${m.time}`, width: "96", height: "72", loading: "lazy" });
    img.onclick = () => { location.hash = "event-" + m.id; };
    frameUrl(m.id).then((url) => { if (url) img.src = url; else img.remove(); });
    li.appendChild(img);
  }
  return li;
}

function markSelected() {
  for (const li of document.querySelectorAll(".moment")) li.classList.toggle("selected", Number(li.dataset.id) === timeline.selected);
}

function refreshDigest() {
  if (timeline.day && document.visibilityState === "visible") loadDigest(timeline.day, true);
}
