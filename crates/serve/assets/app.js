// eloworld live dashboard: applies the updates the server sends (server-rendered, escaped
// HTML parts) and steps through a stored game. The pages read fine without it.
'use strict';
(function () {
  const body = document.body;
  const liveState = document.getElementById('live-state');
  const say = (text) => { if (liveState) liveState.textContent = text; };

  // The index's filter and order (the server applies them to the first page; this applies
  // them to every live update too).
  const filterForm = document.getElementById('index-filter');
  const stateRank = { 'running': 0, 'paused': 1, 'not-started': 2, 'finished': 3 };
  const verdictRank = { 'none': 0, 'h1': 1, 'h0': 2, 'inconclusive': 3 };
  const applyFilter = () => {
    const table = document.getElementById('tournament-list');
    if (!filterForm || !table) return;
    const state = filterForm.elements.state.value;
    const verdict = filterForm.elements.verdict.value;
    const sort = filterForm.elements.sort.value;
    const rows = Array.from(table.querySelectorAll('tr[data-state]'));
    let shown = 0;
    for (const row of rows) {
      const keep = (!state || row.dataset.state === state) && (!verdict || row.dataset.verdict === verdict);
      row.hidden = !keep;
      if (keep) shown += 1;
    }
    const order = (row) => Number(row.dataset.order);
    const compare = {
      name: (a, b) => (a.dataset.name < b.dataset.name ? -1 : a.dataset.name > b.dataset.name ? 1 : 0),
      state: (a, b) => (stateRank[a.dataset.state] - stateRank[b.dataset.state])
        || (verdictRank[a.dataset.verdict] - verdictRank[b.dataset.verdict]) || (order(a) - order(b)),
    }[sort] || ((a, b) => order(a) - order(b));
    const parent = rows.length ? rows[0].parentNode : null;
    if (parent) rows.sort(compare).forEach((row) => parent.appendChild(row));
    const none = document.getElementById('none-shown');
    if (none) none.hidden = shown > 0;
  };
  if (filterForm) {
    filterForm.addEventListener('change', () => {
      applyFilter();
      const query = new URLSearchParams(new FormData(filterForm)).toString();
      history.replaceState(null, '', query ? '?' + query : location.pathname);
    });
  }

  const events = body.dataset.events;
  if (events && window.EventSource) {
    let version = body.dataset.version || '0';
    const source = new EventSource(events + '?v=' + encodeURIComponent(version));
    source.onopen = () => say('live: updates as games are stored');
    source.onerror = () => say('connection lost; retrying…');
    source.onmessage = (event) => {
      const update = JSON.parse(event.data);
      version = String(update.version);
      body.dataset.version = version;
      for (const [id, html] of Object.entries(update.fragments || {})) {
        const element = document.getElementById(id);
        if (element) element.innerHTML = html;
      }
      applyFilter();
      if (update.pictures !== undefined) {
        for (const img of document.querySelectorAll('img[data-picture]')) {
          const url = new URL(img.getAttribute('src'), location.href);
          if (url.searchParams.get('v') !== String(update.pictures)) {
            url.searchParams.set('v', String(update.pictures));
            img.setAttribute('src', url.pathname + url.search);
          }
        }
      }
      say('live: updated ' + new Date().toLocaleTimeString());
    };
  }

  const viewer = document.getElementById('viewer');
  if (viewer) {
    const positions = JSON.parse(viewer.dataset.positions || '[]');
    const moves = JSON.parse(viewer.dataset.moves || '[]');
    const board = document.getElementById('board');
    const label = document.getElementById('ply');
    const items = document.querySelectorAll('#moves li');
    const glyphs = { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘', P: '♙',
                     k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' };
    let ply = positions.length - 1;
    const square = (row, r, c, piece) => {
      const td = row.insertCell();
      td.className = (r + c) % 2 === 0 ? 'l' : 'd';
      if (piece === 'x' || piece === 'o' || piece === 'X' || piece === 'O') {
        const stone = document.createElement('span');
        stone.className = 'stone ' + piece.toLowerCase();
        td.appendChild(stone);
      } else if (piece) {
        td.textContent = glyphs[piece] || '?';
      }
    };
    const draw = () => {
      const text = positions[ply];
      if (text === undefined) return;
      const table = document.createElement('table');
      table.className = 'board';
      text.split(' ')[0].split('/').forEach((rowText, r) => {
        const row = table.insertRow();
        let c = 0;
        for (const ch of rowText) {
          if (ch >= '0' && ch <= '9') {
            for (let k = 0; k < Number(ch); k++) square(row, r, c++, null);
          } else if (ch === '.') {
            square(row, r, c++, null);
          } else {
            square(row, r, c++, ch);
          }
        }
      });
      board.replaceChildren(table);
      label.textContent = ply === 0 ? 'start position'
        : 'after ' + (Math.floor((ply - 1) / 2) + 1) + (ply % 2 ? '. ' : '… ') + moves[ply - 1]
          + ' (ply ' + ply + ' of ' + (positions.length - 1) + ')';
      items.forEach((li, i) => li.classList.toggle('current', i === ply - 1));
    };
    const go = (to) => { ply = Math.max(0, Math.min(positions.length - 1, to)); draw(); };
    viewer.addEventListener('click', (e) => {
      const step = e.target.dataset && e.target.dataset.step;
      if (step === 'first') go(0);
      if (step === 'back') go(ply - 1);
      if (step === 'next') go(ply + 1);
      if (step === 'last') go(positions.length - 1);
    });
    items.forEach((li, i) => li.addEventListener('click', () => go(i + 1)));
    document.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowLeft') go(ply - 1);
      if (e.key === 'ArrowRight') go(ply + 1);
      if (e.key === 'Home') go(0);
      if (e.key === 'End') go(positions.length - 1);
    });
    draw();
  }

  const copy = document.getElementById('copy-pgn');
  const pgn = document.getElementById('pgn');
  if (copy && pgn) {
    copy.addEventListener('click', () => {
      pgn.select();
      if (navigator.clipboard) {
        navigator.clipboard.writeText(pgn.value).then(() => { copy.textContent = 'copied'; });
      } else {
        document.execCommand('copy');
        copy.textContent = 'copied';
      }
    });
  }
})();
