extension ReviewPage {
    /// The page's behaviour. `window.beattag` holds its state for tests and the curious: the queue,
    /// the current track, and every click scheduled with the audio-clock time it sounds at.
    static let script = #"""
    "use strict";
    const $ = (id) => document.getElementById(id);
    const state = window.beattag = {
      session: null, queue: [], queuePage: 200, index: 0, remaining: 0, current: null, overview: null,
      clickMode: 1, playback: null, scheduledClicks: [], taps: [], lastDecision: null, undoable: [], library: { offset: 0, total: 0, tracks: [] },
    };
    // Keep the token out of the address bar and history: the HttpOnly cookie carries it from here.
    if (location.search.includes("token=")) history.replaceState(null, "", "/");

    async function api(path, body) {
      const options = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
      let response;
      try { response = await fetch("/api/" + path, options); } catch (e) {
        throw new Error("beattag review is not answering (stopped?): start it again and reload this page");
      }
      const data = await response.json().catch(() => ({ error: "the server's answer was not JSON" }));
      if (!response.ok) throw new Error(data.error || response.statusText);
      hideError();
      return data;
    }
    function showError(error) { const e = $("error"); e.textContent = String(error.message || error); e.hidden = false; }
    function hideError() { $("error").hidden = true; }
    function fmt(value, digits = 1) { return value == null ? "–" : Number(value).toFixed(digits); }
    // Cut, not rounded, as the terminal shows it: 0.796 is below 0.8 (queued as unsure) and must not read 0.80.
    function fmtConfidence(value) { return value == null ? "–" : (Math.floor(Number(value) * 100 + 1e-9) / 100).toFixed(2); }
    function cell(row, text, cls) { const td = document.createElement("td"); td.textContent = text; if (cls) td.className = cls; row.appendChild(td); return td; }

    // ---- Beats at another level: ×2 puts one between, ÷2 keeps every other (as the server rescales).
    function rescaled(beats, per, count) {
      if (per === count || beats.length < 2) return beats.slice();
      const out = [];
      for (let j = 0; ; j++) {
        const position = j * per / count, i = Math.floor(position), f = position - i;
        if (i >= beats.length) break;
        if (f === 0) out.push(beats[i]); else if (i + 1 < beats.length) out.push(beats[i] + f * (beats[i + 1] - beats[i])); else break;
      }
      return out;
    }
    function clickBeats(track) {
      const beats = track.beats || [];
      if (state.clickMode === 2) return rescaled(beats, 1, 2);
      if (state.clickMode === 0.5) return rescaled(beats, 2, 1);
      return beats.slice();
    }

    // ---- Player: Web Audio, so clicks are scheduled on the same clock as the music.
    const player = {
      context: null, source: null, clickNodes: [], buffers: new Map(), track: null,
      async buffer(id) {
        if (this.buffers.has(id)) return this.buffers.get(id);
        let response;
        try { response = await fetch("/api/tracks/" + id + "/audio"); } catch (e) {
          throw new Error("beattag review is not answering (stopped?): start it again and reload this page");
        }
        if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || "cannot load the audio");
        const decoded = await this.context.decodeAudioData(await response.arrayBuffer());
        this.buffers.clear();  // one track's audio at a time: a long queue must not fill the memory
        this.buffers.set(id, decoded);
        return decoded;
      },
      async play(track) {
        this.stop();
        this.context = this.context || new AudioContext();
        await this.context.resume();
        const buffer = await this.buffer(track.id);
        // An O answered while the audio loaded moved this track's beats: click on the card's.
        if (state.current && state.current.id === track.id) track = state.current;
        const from = Math.min(track.playFrom || 0, Math.max(0, buffer.duration - 1));
        const start = this.context.currentTime + 0.2;
        const source = this.context.createBufferSource();
        source.buffer = buffer;
        source.connect(this.context.destination);
        source.start(start, from);
        source.onended = () => { if (this.source === source) this.stop(); };
        this.source = source; this.track = track;
        state.playback = { trackId: track.id, contextStart: start, trackOffset: from, clickMode: state.clickMode, playing: true };
        this.scheduleClicks(track, start, from, from, buffer.duration);
        $("play").firstChild.textContent = "Stop ";
        animate();
      },
      // Track time t sounds at audio-clock time start + (t - offset); clicks from track time `from` on.
      scheduleClicks(track, start, offset, from, duration) {
        this.clickNodes.forEach((node) => { try { node.stop(); } catch (e) {} });
        this.clickNodes = [];
        state.scheduledClicks = [];
        const beats = clickBeats(track), perBar = (track.beatsPerBar || 4) * (state.clickMode === 2 ? 2 : 1);
        beats.forEach((beat, n) => {
          if (beat < from - 0.001 || beat >= duration) return;  // beats are rounded to 0.1 ms: the first is `from` itself
          const at = start + (beat - offset), down = n % perBar === 0;
          const osc = this.context.createOscillator(), gain = this.context.createGain();
          osc.frequency.value = down ? 1760 : 1320;
          gain.gain.setValueAtTime(down ? 0.5 : 0.3, at);
          gain.gain.exponentialRampToValueAtTime(0.001, at + 0.04);
          osc.connect(gain).connect(this.context.destination);
          osc.start(at); osc.stop(at + 0.05);
          this.clickNodes.push(osc);
          state.scheduledClicks.push({ beat, at, downbeat: down });
        });
      },
      restartClicks() {
        if (!this.source || !state.playback) return;
        const p = state.playback;
        const now = this.context.currentTime + 0.05;
        const position = p.trackOffset + Math.max(0, now - p.contextStart);
        state.playback.clickMode = state.clickMode;
        // Same mapping from track time to audio-clock time as the music: only the beat list changes.
        this.scheduleClicks(this.track, p.contextStart, p.trackOffset, Math.max(position, p.trackOffset), this.source.buffer.duration);
      },
      stop() {
        if (this.source) { try { this.source.stop(); } catch (e) {} }
        this.clickNodes.forEach((node) => { try { node.stop(); } catch (e) {} });
        this.source = null; this.clickNodes = [];
        if (state.playback) state.playback.playing = false;
        $("play").firstChild.textContent = "Play ";
        drawOverview();
      },
      get playing() { return !!this.source; },
    };
    function animate() { drawOverview(); if (player.playing) requestAnimationFrame(animate); }

    // ---- Overview: peaks, the beat grid (bar lines darker), the play position.
    function drawOverview() {
      const canvas = $("overview"), g = canvas.getContext("2d"), track = state.current, ov = state.overview;
      const w = canvas.width, h = canvas.height;
      g.clearRect(0, 0, w, h);
      if (!track) return;
      const duration = (ov && ov.durationSeconds) || track.durationSeconds || 1;
      if (ov && ov.trackId === track.id) {
        g.fillStyle = "#9aa5b1";
        ov.peaks.forEach((p, i) => { const x = i * w / ov.peaks.length, y = p * h / 2; g.fillRect(x, h / 2 - y, Math.max(1, w / ov.peaks.length), 2 * y); });
      }
      const beats = track.beats || [], perBar = track.beatsPerBar || 4;
      beats.forEach((beat, n) => {
        const x = Math.round(beat / duration * w) + 0.5, down = n % perBar === 0;
        g.strokeStyle = down ? "#c2410c" : "rgba(60,60,67,.35)"; g.lineWidth = down ? 2 : 1;
        g.beginPath(); g.moveTo(x, down ? 0 : h * 0.25); g.lineTo(x, down ? h : h * 0.75); g.stroke();
      });
      const p = state.playback;
      if (p && p.playing && p.trackId === track.id && player.context) {
        const x = (p.trackOffset + Math.max(0, player.context.currentTime - p.contextStart)) / duration * w;
        g.fillStyle = "#111"; g.fillRect(x, 0, 2, h);
      } else if (track.playFrom != null) {
        g.fillStyle = "rgba(194,65,12,.15)"; g.fillRect(track.playFrom / duration * w, 0, 3, h);
      }
    }

    // ---- Queue
    async function loadQueue() {
      const data = await api("queue?limit=" + state.queuePage);
      state.queue = data.tracks; state.remaining = data.remaining;
      if (state.tab !== "queue") return;
      state.index = Math.min(state.index, Math.max(0, state.queue.length - 1));
      await showCurrent();
    }
    async function showCurrent() {
      player.stop();
      // Nothing is decided until the card shows this track, and a tempo tapped on another is gone.
      state.current = null; state.tappedBPM = null;
      state.taps = []; $("tap-readout").textContent = "";
      // Each card is first heard at its own BPM: a ×2 click kept from the last card played one tempo
      // while R saved another.
      state.clickMode = 1; showClickMode();
      // A button focused on the last card (a decision, Tap) would take the next Space or Enter. The
      // card takes the focus instead: Tab goes on from its first button, not from the page's top.
      if (document.activeElement && document.activeElement.closest && document.activeElement.closest("#card")) $("card").focus({ preventScroll: true });
      showRemaining();
      const item = state.queue[state.index];
      $("empty").hidden = !!item; $("card").hidden = !item;
      renderUpcoming();
      if (!item) { state.current = null; return; }
      const track = await api("tracks/" + item.id);
      // The page moved on while this loaded (the later call shows its track), or to the library.
      if (state.queue[state.index] !== item || state.tab !== "queue") return;
      if (track.queued === false) {
        // Settled since the page loaded its queue (on another copy of the recording, in another tab,
        // by `beattag tag`): nothing to ask. It leaves, and the next track takes its place.
        state.queue.splice(state.index, 1);
        state.remaining = (await api("session")).remaining;
        if (state.index >= state.queue.length && state.queue.length < state.remaining) await fetchMore();
        state.index = Math.min(state.index, Math.max(0, state.queue.length - 1));
        return showCurrent();
      }
      state.current = Object.assign({}, item, track);
      $("t-title").textContent = track.title; $("t-artist").textContent = track.artist || "";
      $("t-bpm").textContent = fmt(track.bpm); $("t-confidence").textContent = fmtConfidence(track.confidence);
      $("t-alternative").textContent = track.alternativeBPM == null ? "–" : fmt(track.alternativeBPM) + " BPM";
      $("t-reason").textContent = track.reason || item.reason || "";
      $("t-position").textContent = (state.index + 1) + " of " + state.queue.length + " shown";
      showBeatSource();
      state.overview = null; drawOverview();
      api("tracks/" + item.id + "/overview").then((ov) => {
        if (state.current && state.current.id === item.id) { state.overview = Object.assign({ trackId: item.id }, ov); drawOverview(); }
      }).catch(showError);
    }
    function showRemaining() {
      $("remaining").textContent = state.remaining + (state.remaining === 1 ? " track left" : " tracks left");
    }
    function renderUpcoming() {
      const body = $("upcoming").tBodies[0]; body.textContent = "";
      state.queue.slice(Math.max(0, state.index - 2), state.index + 12).forEach((t) => {
        const n = state.queue.indexOf(t), row = body.insertRow();
        if (n === state.index) row.className = "current";
        cell(row, String(n + 1)); cell(row, t.reason || ""); cell(row, fmt(t.bpm)); cell(row, fmt(t.alternativeBPM)); cell(row, fmtConfidence(t.confidence));
        cell(row, (t.artist ? t.artist + " – " : "") + t.title, "track");
        row.onclick = () => { state.index = n; showCurrent().catch(showError); };
      });
    }
    // One decision at a time: a second key while one is saved would act on a track the page has
    // already moved past (or save two tempi for one track).
    async function decide(body) {
      const track = state.current;
      if (!track || state.deciding || (state.session && state.session.readOnly)) return;
      state.deciding = true;
      try {
        const data = await api("tracks/" + track.id + "/bpm", body);
        state.lastDecision = { id: track.id, request: body, bpm: data.tracks[0].bpm };
        const item = state.queue.find((t) => t.id === track.id);
        state.undoable.push({ item: item || track, bpm: data.tracks[0].bpm });
        if (state.undoable.length > 50) state.undoable.shift();
        showUndo();
        state.remaining = data.remaining;
        const at = state.queue.findIndex((t) => t.id === track.id);  // decided: it has left the queue
        if (at >= 0) { state.queue.splice(at, 1); if (at < state.index) state.index -= 1; }
        // The last card the page held: the queue's next tracks, after those it has (it loaded the
        // queue from the start again, back to tracks skipped long before).
        if (state.index >= state.queue.length && state.queue.length < state.remaining) await fetchMore();
        state.index = Math.min(state.index, Math.max(0, state.queue.length - 1)); await showCurrent();
      } finally { state.deciding = false; }
    }
    // U takes back the newest decision not yet taken back (a key pressed by mistake): the track's
    // hand-set BPM is removed only if it is still the one saved, and the track is shown again.
    async function undo() {
      const last = state.undoable[state.undoable.length - 1];
      if (!last || state.deciding || (state.session && state.session.readOnly)) return;
      state.deciding = true;
      try {
        state.undoable.pop();
        const data = await api("tracks/" + last.item.id + "/bpm", { action: "undo", bpm: last.bpm });
        state.lastDecision = null;
        state.remaining = data.remaining;
        state.queue = state.queue.filter((t) => t.id !== last.item.id);
        state.index = Math.min(state.index, state.queue.length);
        state.queue.splice(state.index, 0, last.item);
        await showCurrent();
      } finally { state.deciding = false; showUndo(); }
    }
    function showUndo() {
      const last = state.undoable[state.undoable.length - 1];
      $("undo-bar").hidden = !last;
      if (last) $("undo-text").textContent = "Saved " + fmt(last.bpm) + " BPM for " + last.item.title + ".";
    }
    // "Right" saves the BPM the card shows, the one the person heard the click at: the catalog may
    // have changed since (a `beattag tag` in a terminal), and that is not what was judged.
    function decision(action) {
      return action === "confirm" && state.current && state.current.bpm != null ? { bpm: state.current.bpm } : { action };
    }
    async function move(step) {
      if (state.deciding) return;
      const next = state.index + step;
      // Skipped past what the page holds (200 at a time): the queue's next tracks, after those it has.
      if (next >= state.queue.length && state.queue.length < state.remaining) await loadMore();
      if (next < 0 || next >= state.queue.length) return;
      state.index = next; await showCurrent();
    }
    async function loadMore() {
      state.deciding = true;
      try { await fetchMore(); } finally { state.deciding = false; }
    }
    async function fetchMore() {
      const data = await api("queue?limit=" + state.queuePage + "&offset=" + state.queue.length), known = new Set(state.queue.map((t) => t.id));
      state.queue = state.queue.concat(data.tracks.filter((t) => !known.has(t.id)));
      state.remaining = data.remaining;
    }
    function tap() {
      const now = performance.now() / 1000, taps = state.taps;
      if (taps.length && now - taps[taps.length - 1] > 2.5) taps.length = 0;  // a pause starts a new count
      taps.push(now);
      if (taps.length < 4) { $("tap-readout").textContent = "tap " + taps.length + "…"; return; }
      const bpm = 60 * (taps.length - 1) / (taps[taps.length - 1] - taps[0]);
      state.tappedBPM = Math.round(bpm * 10) / 10;
      $("tap-readout").textContent = "tapped " + state.tappedBPM.toFixed(1) + " BPM (" + taps.length + " taps) · Enter saves";
    }
    function cycleClick() {
      state.clickMode = state.clickMode === 1 ? 2 : state.clickMode === 2 ? 0.5 : 1;
      showClickMode();
      player.restartClicks();
    }
    function showClickMode() {
      $("click-mode").firstChild.textContent = "Click: " + (state.clickMode === 1 ? "beat" : state.clickMode === 2 ? "×2" : "÷2") + " ";
    }
    // O: the click falls between the beats (the grid sits on the "and"s): move the grid half a beat,
    // by hand, kept through scans (again: back). The tempo is not decided by it: the card stays (a
    // track queued for its beats leaves the queue when the page next loads it).
    async function shiftBeats() {
      const track = state.current;
      if (!track || state.deciding || (state.session && state.session.readOnly)) return;
      state.deciding = true;
      try {
        // `from`: the grid this card shows; moved meanwhile (another tab), the server refuses.
        const data = await api("tracks/" + track.id + "/beat", { shift: 0.5, from: track.beatAnchor == null ? null : track.beatAnchor }),
          moved = data.tracks[0];
        state.remaining = data.remaining;
        showRemaining();
        if (!state.current || state.current.id !== track.id) return;
        state.current = Object.assign({}, state.current, { beats: moved.beats, beatAnchor: moved.beatAnchor, playFrom: moved.playFrom });
        showBeatSource();
        if (player.track && player.track.id === track.id) { player.track = state.current; player.restartClicks(); }
        drawOverview();
      } finally { state.deciding = false; }
    }
    function showBeatSource() {
      const t = state.current;
      $("t-beat").textContent = !t ? "" : t.beatAnchor != null ? "beats moved by hand"
        : t.phaseMoved ? "the analysis moved these beats half a beat: if the click falls between the beats, O" : "";
    }
    function togglePlay(track) { if (player.playing) player.stop(); else player.play(track || state.current).catch(showError); }

    // ---- Library
    function libraryQuery() {
      const q = new URLSearchParams();
      const add = (name, id) => { const v = $(id).value.trim(); if (v) q.set(name, v); };
      add("q", "f-q"); add("min", "f-min"); add("max", "f-max"); add("source", "f-source"); add("state", "f-state"); add("sort", "f-sort");
      if ($("f-liked").checked) q.set("liked", "1");
      q.set("offset", state.library.offset); q.set("limit", 50);
      return q.toString();
    }
    async function loadLibrary() {
      const data = await api("tracks?" + libraryQuery());
      state.library.tracks = data.tracks; state.library.total = data.total;
      const body = $("tracks").tBodies[0]; body.textContent = "";
      data.tracks.forEach((t) => {
        const row = body.insertRow();
        const play = document.createElement("button"); play.textContent = "▶"; play.title = "play with its click";
        play.onclick = async () => { try { const full = await api("tracks/" + t.id); state.current = full; togglePlay(full); } catch (e) { showError(e); } };
        row.insertCell().appendChild(play);
        cell(row, fmt(t.bpm)); cell(row, fmtConfidence(t.confidence)); cell(row, (t.artist ? t.artist + " – " : "") + t.title, "track");
        cell(row, t.license || t.rights); cell(row, t.state);
        const rate = row.insertCell();
        [["liked", "♥"], ["disliked", "✕"]].forEach(([value, label]) => {
          const b = document.createElement("button"); b.textContent = label; b.title = value;
          b.disabled = state.session && state.session.readOnly;
          if (t.rating === value) b.className = "on";
          b.onclick = async () => { try { await api("tracks/" + t.id + "/rating", { rating: t.rating === value ? null : value }); await loadLibrary(); } catch (e) { showError(e); } };
          rate.appendChild(b);
        });
      });
      const first = data.total ? state.library.offset + 1 : 0;
      $("page-info").textContent = first + "–" + (state.library.offset + data.tracks.length) + " of " + data.total;
      $("page-prev").disabled = state.library.offset === 0;
      $("page-next").disabled = state.library.offset + data.tracks.length >= data.total;
    }
    async function loadHistogram() {
      const stats = await api("stats"), buckets = stats.buckets || [];
      const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg"), w = 1000, h = 170, pad = 22, top = 34;  // the title's line above the tallest bar's count
      svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
      const most = Math.max(1, ...buckets.map((b) => b.tracks)), bw = (w - 2 * pad) / Math.max(1, buckets.length);
      buckets.forEach((b, i) => {
        const bh = (h - pad - top) * b.tracks / most, rect = document.createElementNS(svg.namespaceURI, "rect");
        rect.setAttribute("x", pad + i * bw + 1); rect.setAttribute("y", h - pad - bh); rect.setAttribute("width", bw - 2); rect.setAttribute("height", bh);
        const tip = document.createElementNS(svg.namespaceURI, "title"); tip.textContent = `${b.from}–${b.to} BPM: ${b.tracks}`; rect.appendChild(tip);
        svg.appendChild(rect);
        if (b.tracks > 0) {
          const count = document.createElementNS(svg.namespaceURI, "text");
          count.setAttribute("x", pad + i * bw + 2); count.setAttribute("y", h - pad - bh - 3); count.textContent = String(b.tracks);
          svg.appendChild(count);
        }
        const label = document.createElementNS(svg.namespaceURI, "text");
        label.setAttribute("x", pad + i * bw + 2); label.setAttribute("y", h - 6); label.textContent = String(b.from);
        svg.appendChild(label);
      });
      const title = document.createElementNS(svg.namespaceURI, "text");
      // As `beattag stats` says it: the tracks the chart's range leaves out are counted, not hidden.
      const low = buckets.length ? buckets[0].from : 140, high = buckets.length ? buckets[buckets.length - 1].to : 200;
      title.setAttribute("x", pad); title.setAttribute("y", 14);
      title.textContent = `tracks per ${buckets.length ? buckets[0].to - buckets[0].from : 5} BPM · outside the chart: `
        + `${stats.belowRange || 0} below ${low}, ${stats.aboveRange || 0} above ${high}, ${stats.withoutBPM || 0} without a BPM`;
      svg.appendChild(title);
      $("histogram").textContent = ""; $("histogram").appendChild(svg);
    }
    function showTab(name) {
      player.stop();
      $("queue-view").hidden = name !== "queue"; $("library-view").hidden = name !== "library";
      $("tab-queue").classList.toggle("active", name === "queue"); $("tab-library").classList.toggle("active", name === "library");
      state.tab = name;
      // The queue's card is hidden there: P and O act only on a track played from the library (P
      // played the hidden card's track, and O moved its beats).
      if (name === "library") state.current = null;
      if (name === "library") { loadHistogram().catch(showError); loadLibrary().catch(showError); } else loadQueue().catch(showError);
    }

    // ---- Wiring
    document.addEventListener("keydown", (event) => {
      if (event.target.closest("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
      // Enter and Space on a focused button press that button, as everywhere (keyboard users).
      if (event.target.closest("button, a") && (event.key === "Enter" || event.key === " ")) return;
      if (state.tab === "library") {
        if (event.key === "p" && state.current) togglePlay();
        // Only on the track playing: the queue's card is hidden here, nothing else shows what O moves.
        else if ((event.key === "o" || event.key === "O") && player.playing && state.current && player.track && player.track.id === state.current.id)
          shiftBeats().catch(showError);
        return;
      }
      const actions = { r: "confirm", d: "double", h: "half", "3": "threeHalves", "2": "twoThirds" };
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      let handled = true;
      if (actions[key]) decide(decision(actions[key])).catch(showError);
      else if (key === " ") tap();
      else if (key === "Enter") { if (state.tappedBPM) { const bpm = state.tappedBPM; state.tappedBPM = null; decide({ bpm }).catch(showError); } }
      else if (key === "s" || key === "ArrowRight") move(1).catch(showError);
      else if (key === "ArrowLeft") move(-1).catch(showError);
      else if (key === "p") togglePlay();
      else if (key === "c") cycleClick();
      else if (key === "o") shiftBeats().catch(showError);
      else if (key === "u") undo().catch(showError);
      else handled = false;
      if (handled) event.preventDefault();
    });
    // A button clicked with the mouse gives the focus back: Space and Enter stay the page's tap and
    // save (with the focus kept, each Space pressed that decision again, on the next tracks). A
    // button reached with Tab keeps it (a click from the keyboard has no detail).
    document.addEventListener("click", (event) => {
      const button = event.target.closest && event.target.closest("button");
      if (button && event.detail > 0) button.blur();
    });
    document.querySelectorAll("button.decide").forEach((b) => { b.onclick = () => decide(decision(b.dataset.action)).catch(showError); });
    $("play").onclick = () => togglePlay();
    $("click-mode").onclick = cycleClick;
    $("offbeat").onclick = () => shiftBeats().catch(showError);
    $("undo").onclick = () => undo().catch(showError);
    $("tap").onclick = tap;
    $("skip").onclick = () => move(1).catch(showError); $("next").onclick = () => move(1).catch(showError); $("prev").onclick = () => move(-1).catch(showError);
    $("tab-queue").onclick = () => showTab("queue"); $("tab-library").onclick = () => showTab("library");
    $("filters").onsubmit = (e) => { e.preventDefault(); state.library.offset = 0; loadLibrary().catch(showError); };
    let typing = null;
    $("filters").oninput = () => { clearTimeout(typing); typing = setTimeout(() => { state.library.offset = 0; loadLibrary().catch(showError); }, 200); };
    $("page-prev").onclick = () => { state.library.offset = Math.max(0, state.library.offset - 50); loadLibrary().catch(showError); };
    $("page-next").onclick = () => { state.library.offset += 50; loadLibrary().catch(showError); };

    (async () => {
      try {
        state.session = await api("session");
        $("readonly").hidden = !state.session.readOnly;
        document.querySelectorAll("button.decide, #tap, #offbeat").forEach((b) => { b.disabled = state.session.readOnly; });
        state.session.sources.forEach((s) => { const o = document.createElement("option"); o.value = s; o.textContent = s; $("f-source").appendChild(o); });
        showTab("queue");
        state.ready = true;
      } catch (e) { showError(e); }
    })();
    """#
}
