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
    // A Go game (Black first): a grid of lines with star points and GTP coordinates
    // (columns A–T without I, rows counted from the bottom), the last move marked and the
    // stones each side has captured.
    const isGo = viewer.dataset.game === 'go';
    const svgNs = 'http://www.w3.org/2000/svg';
    const stones = (text, c) => (text.split(' ')[0].match(new RegExp(c, 'g')) || []).length;
    const captures = [[0, 0]];
    for (let k = 1; k < positions.length; k++) {
      const [b, w] = captures[k - 1];
      // The mover's captures: the opponent's stones the move took off.
      const black = (k % 2) === 1;
      const before = positions[k - 1], after = positions[k];
      const taken = black ? stones(before, 'o') - stones(after, 'o') : stones(before, 'x') - stones(after, 'x');
      captures.push(black ? [b + Math.max(0, taken), w] : [b, w + Math.max(0, taken)]);
    }
    const goBoard = (text) => {
      const rows = text.split(' ')[0].split('/');
      const n = rows.length, cell = 36, margin = 30, side = margin * 2 + cell * (n - 1);
      const letters = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';
      const svg = document.createElementNS(svgNs, 'svg');
      svg.setAttribute('class', 'goban');
      svg.setAttribute('viewBox', '0 0 ' + side + ' ' + side);
      svg.setAttribute('width', side);
      svg.setAttribute('height', side);
      const add = (tag, attrs, text) => {
        const el = document.createElementNS(svgNs, tag);
        for (const k in attrs) el.setAttribute(k, attrs[k]);
        if (text !== undefined) el.textContent = text;
        svg.appendChild(el);
        return el;
      };
      const at = (i) => margin + cell * i;
      add('rect', { x: 0, y: 0, width: side, height: side, class: 'wood' });
      for (let i = 0; i < n; i++) {
        add('line', { x1: at(0), y1: at(i), x2: at(n - 1), y2: at(i), class: 'grid' });
        add('line', { x1: at(i), y1: at(0), x2: at(i), y2: at(n - 1), class: 'grid' });
        add('text', { x: at(i), y: margin / 2 + 4, class: 'coord' }, letters[i]);
        add('text', { x: at(i), y: side - margin / 2 + 8, class: 'coord' }, letters[i]);
        add('text', { x: margin / 2 - 4, y: at(i) + 4, class: 'coord' }, String(n - i));
        add('text', { x: side - margin / 2 + 4, y: at(i) + 4, class: 'coord' }, String(n - i));
      }
      const edge = n >= 13 ? 3 : 2;
      const stars = n < 7 ? [] : (n % 2 === 1 && n >= 9 ? [edge, (n - 1) / 2, n - 1 - edge] : [edge, n - 1 - edge]);
      for (const r of stars) for (const c of stars) {
        if (n < 13 && (r === (n - 1) / 2) !== (c === (n - 1) / 2)) continue;
        add('circle', { cx: at(c), cy: at(r), r: 3.5, class: 'star' });
      }
      rows.forEach((rowText, r) => {
        [...rowText].forEach((ch, c) => {
          if (ch === 'x' || ch === 'o') {
            add('circle', { cx: at(c), cy: at(r), r: cell * 0.46, class: 'stone ' + (ch === 'x' ? 'black' : 'white'),
                            'data-vertex': letters[c] + (n - r) });
          }
        });
      });
      const last = ply > 0 ? moves[ply - 1] : null;
      const m = last && /^([A-HJ-Z])(\d+)$/.exec(last);
      if (m) {
        const c = letters.indexOf(m[1]), r = n - Number(m[2]);
        add('circle', { cx: at(c), cy: at(r), r: cell * 0.2, class: 'last ' + ((ply % 2) ? 'on-black' : 'on-white') });
      }
      return svg;
    };
    const draw = () => {
      const text = positions[ply];
      if (text === undefined) return;
      if (isGo) {
        board.replaceChildren(goBoard(text));
        const [b, w] = captures[ply] || [0, 0];
        label.textContent = (ply === 0 ? 'empty board'
          : 'after move ' + ply + ': ' + ((ply % 2) ? 'Black ' : 'White ') + moves[ply - 1]
            + ' (move ' + ply + ' of ' + (positions.length - 1) + ')')
          + '; captures: Black ' + b + ', White ' + w;
        items.forEach((li, i) => li.classList.toggle('current', i === ply - 1));
        return;
      }
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
