// The playground through a Janus VideoRoom: Janus's WebSocket JSON API spoken directly (no janus.js).
// The page publishes its microphone (and camera) with a "control" data channel into the wearer's room,
// subscribes to the room's egocli agent (answer audio + the agent's control channel), and says hello
// until the agent, which subscribes to the page's feed in turn, welcomes it.
"use strict";
window.egocliJanus = (() => {
  const AGENT = "egocli-agent"; // the display name agents publish under (egocli.stream.janus_room)
  const KEEPALIVE_MS = 25000;   // Janus drops a session after 60 s without a request

  // One Janus session over one WebSocket: requests by transaction, pushed events per handle.
  async function session(url, token, onClose) {
    const ws = new WebSocket(url, "janus-protocol");
    const pending = new Map(), listeners = new Map();
    let id = null, closed = false;
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = () => reject(new Error(`cannot reach Janus at ${url} (not up, or not named by serve --janus)`));
    });
    ws.onclose = () => {
      closed = true;
      for (const p of pending.values()) p.reject(new Error("the Janus connection closed"));
      pending.clear();
      if (onClose) onClose();
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.janus === "ack") return;
      const p = msg.transaction && pending.get(msg.transaction);
      if (p) { pending.delete(msg.transaction); p.resolve(msg); return; }
      const on = listeners.get(msg.sender);
      if (on) on(msg);
    };
    function call(msg, timeoutMs = 20000) {
      if (closed) return Promise.reject(new Error("the Janus connection is closed"));
      const transaction = Math.random().toString(36).slice(2);
      const body = { ...msg, transaction };
      if (id !== null) body.session_id = id;
      if (token) body.token = token;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(transaction);
          reject(new Error(`Janus: ${msg.janus} timed out`));
        }, timeoutMs);
        pending.set(transaction, {
          resolve: (reply) => {
            clearTimeout(timer);
            if (reply.janus === "error") reject(new Error(`Janus ${msg.janus}: ${reply.error && reply.error.reason}`));
            else resolve(reply);
          },
          reject: (e) => { clearTimeout(timer); reject(e); },
        });
        ws.send(JSON.stringify(body));
      });
    }
    id = (await call({ janus: "create" })).data.id;
    const keepalive = setInterval(() => call({ janus: "keepalive" }).catch(() => {}), KEEPALIVE_MS);

    // A VideoRoom handle: request() returns the plugin's data (with .jsep when Janus sent one).
    async function attach(onEvent) {
      const handle = (await call({ janus: "attach", plugin: "janus.plugin.videoroom" })).data.id;
      if (onEvent) listeners.set(handle, onEvent);
      return async (body, jsep) => {
        const msg = { janus: "message", handle_id: handle, body };
        if (jsep) msg.jsep = jsep;
        const reply = await call(msg);
        const data = { ...((reply.plugindata || {}).data || {}) };
        if (data.error) throw new Error(`Janus ${body.request}: ${data.error} (code ${data.error_code})`);
        if (reply.jsep) data.jsep = reply.jsep;
        return data;
      };
    }
    function close() {
      clearInterval(keepalive);
      if (!closed) { call({ janus: "destroy" }, 3000).catch(() => {}); setTimeout(() => ws.close(), 300); }
    }
    return { attach, close };
  }

  function agentOf(publishers) {
    return (publishers || []).find((p) => String(p.display || "").startsWith(AGENT));
  }

  // The agent's feed: publishing when the page joined or since (`seen`: every publisher announced from the
  // join on, as the announcement can come while the page is still publishing), or the next one to appear.
  function waitForAgent(seen, events, timeoutMs) {
    const now = agentOf(seen);
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no egocli agent in the room")), timeoutMs);
      events.push((data) => {
        const agent = agentOf(data.publishers);
        if (agent) { clearTimeout(timer); resolve(agent); }
      });
    });
  }

  function sdp(pc) { return { type: pc.localDescription.type, sdp: pc.localDescription.sdp, trickle: false }; }

  // Join `room`, publish `media` with a "control" channel, subscribe to the agent's feed.
  // opts: { display, pin, token, waitForIce(pc), onMessage(event), onTrack(event), onClose(), onAgentLeft(),
  //         timeoutMs }
  async function connect(url, room, media, opts) {
    const janus = await session(url, opts.token, opts.onClose);
    const events = [];
    const pubRequest = await janus.attach((msg) => {
      const data = (msg.plugindata || {}).data || {};
      for (const on of events) on(data);
    });
    const join = { request: "join", ptype: "publisher", room, display: opts.display || "wearer" };
    if (opts.pin) join.pin = opts.pin;
    const joined = await pubRequest(join);
    const seen = [...(joined.publishers || [])];
    events.push((data) => { seen.push(...(data.publishers || [])); });
    const pub = new RTCPeerConnection({ iceServers: [] });
    const channel = pub.createDataChannel("control");
    for (const track of media.getTracks()) pub.addTrack(track, media);
    await pub.setLocalDescription(await pub.createOffer());
    await opts.waitForIce(pub);
    const answer = await pubRequest({ request: "publish", display: opts.display || "wearer" }, sdp(pub));
    if (!answer.jsep) throw new Error("Janus did not answer the page's offer");
    await pub.setRemoteDescription(answer.jsep);

    // an agent still starting (loading its models on a busy laptop) gets a minute and a half to join
    const agent = await waitForAgent(seen, events, opts.timeoutMs || 90000);
    events.push((data) => { // stopped, crashed or restarting: its feed (and this subscription) is gone
      if ((data.unpublished === agent.id || data.leaving === agent.id) && opts.onAgentLeft) opts.onAgentLeft();
    });
    const sub = new RTCPeerConnection({ iceServers: [] });
    sub.ontrack = opts.onTrack;
    sub.ondatachannel = (ev) => { ev.channel.onmessage = opts.onMessage; };
    const subRequest = await janus.attach(null);
    const subJoin = { request: "join", ptype: "subscriber", room, streams: [{ feed: agent.id }] };
    if (opts.pin) subJoin.pin = opts.pin;
    const offer = await subRequest(subJoin);
    if (!offer.jsep) throw new Error("Janus sent no offer for the agent's feed");
    await sub.setRemoteDescription(offer.jsep);
    // Janus relays the agent's messages only to a subscriber that opened a channel of its own.
    if (offer.jsep.sdp.includes("m=application")) sub.createDataChannel("JanusDataChannel").onmessage = opts.onMessage;
    await sub.setLocalDescription(await sub.createAnswer());
    await opts.waitForIce(sub);
    await subRequest({ request: "start" }, sdp(sub));
    return {
      channel, pcs: [pub, sub], agent,
      close: () => { pub.close(); sub.close(); janus.close(); },
    };
  }

  return { connect };
})();
