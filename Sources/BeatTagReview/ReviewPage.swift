/// The page, shipped inside the binary: one HTML file, one script, one style sheet, nothing fetched
/// from elsewhere (the Content-Security-Policy says so too). Plain JavaScript: nothing to build.
enum ReviewPage {
    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>beattag review</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/review.css">
    <script src="/review.js" defer></script>
    </head>
    <body>
    <header>
      <h1>beattag review</h1>
      <nav><button id="tab-queue" class="tab active">Queue</button><button id="tab-library" class="tab">Library</button></nav>
      <span id="remaining" class="counter" aria-live="polite"></span>
    </header>
    <div id="readonly" class="banner" hidden>This catalog is read-only: you can listen, but decisions are not saved.</div>
    <div id="error" class="banner error" role="alert" hidden></div>
    <main>
    <section id="queue-view">
      <div id="undo-bar" class="muted" aria-live="polite" hidden><span id="undo-text"></span> <button id="undo">Undo <kbd>U</kbd></button></div>
      <div id="empty" hidden>Nothing needs a human: every track has a BPM you can trust.</div>
      <article id="card" tabindex="-1" hidden>
        <div class="title" aria-live="polite"><span id="t-title"></span> <span id="t-artist" class="muted"></span></div>
        <div class="facts">
          <span><b id="t-bpm"></b> BPM</span>
          <span>confidence <b id="t-confidence"></b></span>
          <span>or <b id="t-alternative"></b></span>
          <span id="t-reason" class="muted"></span>
          <span id="t-position" class="muted"></span>
        </div>
        <canvas id="overview" width="1200" height="140" role="img" aria-label="waveform of the track with its beat grid; the orange lines are bars"></canvas>
        <div class="controls">
          <button id="play" data-key="p">Play <kbd>P</kbd></button>
          <button id="click-mode" data-key="c">Click: beat <kbd>C</kbd></button>
          <button id="offbeat" title="the click falls between the beats: move the grid half a beat (again: back)">Beats ½ off <kbd>O</kbd></button>
          <span id="t-beat" class="muted"></span>
          <span id="tap-readout" class="muted" aria-live="polite"></span>
        </div>
        <div class="decisions">
          <button class="decide" data-action="confirm">Right <kbd>R</kbd></button>
          <button class="decide" data-action="double">×2 <kbd>D</kbd></button>
          <button class="decide" data-action="half">÷2 <kbd>H</kbd></button>
          <button class="decide" data-action="threeHalves">×3/2 <kbd>3</kbd></button>
          <button class="decide" data-action="twoThirds">×2/3 <kbd>2</kbd></button>
          <button id="tap">Tap <kbd>Space</kbd> · save <kbd>Enter</kbd></button>
          <button id="skip">Skip <kbd>S</kbd></button>
          <button id="prev">Previous <kbd>←</kbd></button>
          <button id="next">Next <kbd>→</kbd></button>
        </div>
      </article>
      <table id="upcoming"><thead><tr><th>#</th><th>why</th><th>BPM</th><th>or</th><th>conf</th><th>track</th></tr></thead><tbody></tbody></table>
    </section>
    <section id="library-view" hidden>
      <div id="histogram"></div>
      <form id="filters">
        <input id="f-q" type="search" placeholder="artist or title" aria-label="artist or title">
        <input id="f-min" type="number" placeholder="min BPM" step="0.1" aria-label="lowest BPM">
        <input id="f-max" type="number" placeholder="max BPM" step="0.1" aria-label="highest BPM">
        <select id="f-source" aria-label="rights"><option value="">any rights</option></select>
        <select id="f-state" aria-label="state"><option value="">any state</option><option value="analysed">analysed</option><option value="metadata-only">metadata-only</option><option value="failed">failed</option><option value="missing">missing</option></select>
        <label><input id="f-liked" type="checkbox"> liked</label>
        <select id="f-sort" aria-label="sort by"><option value="artist">artist</option><option value="title">title</option><option value="bpm">BPM</option><option value="confidence">confidence</option><option value="path">path</option></select>
      </form>
      <table id="tracks"><thead><tr><th></th><th>BPM</th><th>conf</th><th>track</th><th>rights</th><th>state</th><th>rate</th></tr></thead><tbody></tbody></table>
      <div class="pager"><button id="page-prev">‹ previous</button> <span id="page-info"></span> <button id="page-next">next ›</button></div>
    </section>
    </main>
    </body>
    </html>
    """#

    static let style = #"""
    :root { --bg: #fafafa; --fg: #1d1d1f; --muted: #6e6e73; --line: #d2d2d7; --accent: #c2410c; --beat: #8e8e93; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 15px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--fg); }
    header { display: flex; align-items: center; gap: 1.5rem; padding: .6rem 1.2rem; border-bottom: 1px solid var(--line); background: #fff; }
    h1 { font-size: 1.1rem; margin: 0; }
    .tab { border: 0; background: none; padding: .3rem .6rem; font: inherit; cursor: pointer; border-bottom: 2px solid transparent; }
    .tab.active { border-bottom-color: var(--accent); font-weight: 600; }
    .counter { margin-left: auto; color: var(--muted); }
    .banner { padding: .5rem 1.2rem; background: #fff4e5; border-bottom: 1px solid #f5c27a; }
    .banner.error { background: #fdecea; border-color: #f19b93; }
    main { padding: 1rem 1.2rem; max-width: 1280px; }
    article { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1rem; margin-bottom: 1rem; }
    /* The card holds the keyboard's place between tracks: a quiet ring, not the browser's outline. */
    #card:focus { outline: none; } #card:focus-visible { box-shadow: 0 0 0 2px var(--line); }
    .title { font-size: 1.25rem; font-weight: 600; }
    .muted { color: var(--muted); font-weight: normal; }
    .facts { display: flex; gap: 1.4rem; margin: .4rem 0 .8rem; flex-wrap: wrap; }
    canvas { width: 100%; height: 140px; background: #f2f2f4; border-radius: 4px; display: block; }
    .controls, .decisions { display: flex; gap: .5rem; margin-top: .7rem; flex-wrap: wrap; align-items: center; }
    button { font: inherit; padding: .35rem .7rem; border: 1px solid var(--line); border-radius: 6px; background: #fff; cursor: pointer; }
    button:disabled { opacity: .45; cursor: default; }
    button.on { background: var(--accent); border-color: var(--accent); color: #fff; }
    button.decide { border-color: #9a9aa0; }
    kbd { font-size: .75em; color: var(--muted); border: 1px solid var(--line); border-radius: 3px; padding: 0 .25em; }
    table { border-collapse: collapse; width: 100%; background: #fff; }
    th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
    td.track { white-space: normal; }
    tr.current { background: #fff4e5; }
    form { display: flex; gap: .5rem; margin: .8rem 0; flex-wrap: wrap; align-items: center; }
    input, select { font: inherit; padding: .3rem .4rem; }
    .pager { margin: .8rem 0; display: flex; gap: 1rem; align-items: center; }
    #histogram svg { width: 100%; height: 160px; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
    #histogram rect { fill: var(--accent); }
    #histogram text { font-size: 11px; fill: var(--muted); }
    /* A phone or a narrow window: nothing wider than the screen; wide tables scroll on their own. */
    @media (max-width: 640px) {
      header { flex-wrap: wrap; gap: .6rem; padding: .5rem .8rem; }
      main { padding: .6rem .8rem; }
      table { display: block; overflow-x: auto; }
    }
    """#
}
