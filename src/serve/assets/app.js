// Arbiter's board page. It decides nothing about chess: every verdict, target, preview and
// sentence comes from the server (the Laws layer and the explain mode); this script sends
// what the learner does and places what comes back. Text is always set as text, never as
// markup; the one markup it places is the board's SVG, which the server draws and escapes.
'use strict';

(() => {
  const $ = (role) => document.querySelector(`[data-role="${role}"]`);
  const store = window.sessionStorage;
  const state = {
    id: store.getItem('arbiter.id'),
    // The language chosen on this tab; none yet: the server's (`arbiter serve --lang`).
    lang: store.getItem('arbiter.lang') || '',
    flipped: store.getItem('arbiter.flip') === '1',
    view: null,
    words: null,
    showWhy: false,
    poll: null,
  };

  const query = () => `?${state.lang ? `lang=${state.lang}&` : ''}flip=${state.flipped ? 1 : 0}`;

  async function call(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (e) {
      return { ok: false, status: 0, data: { error: String(e) } };
    }
    const type = response.headers.get('Content-Type') || '';
    const data = type.startsWith('application/json') ? await response.json() : await response.text();
    return { ok: response.ok, status: response.status, data };
  }

  function showError(text) {
    const el = $('error');
    el.textContent = text || '';
    el.hidden = !text;
  }

  function lines(el, list, prefix) {
    el.replaceChildren(
      ...(list || []).map((line) => {
        const p = document.createElement(prefix || 'p');
        p.textContent = line;
        return p;
      }),
    );
  }

  // ---- words ----------------------------------------------------------------------------

  async function loadWords() {
    const r = await call('GET', `/api/words${query()}`);
    if (!r.ok) return;
    state.words = r.data;
    const w = r.data.words;
    state.lang = w.lang;
    document.documentElement.lang = w.lang === 'zh' ? 'zh-CN' : 'en';
    document.title = w.title;
    for (const el of document.querySelectorAll('[data-word]')) {
      const word = w[el.dataset.word];
      if (typeof word === 'string') el.textContent = word;
    }
    $('move-input').placeholder = w.move_input_placeholder;
    const legend = $('legend');
    legend.replaceChildren(
      ...r.data.legend.map((entry) => {
        const li = document.createElement('li');
        const symbol = document.createElement('span');
        symbol.className = 'symbol';
        symbol.innerHTML = entry.svg; // drawn by the server from fixed shapes, no input in it
        const label = document.createElement('span');
        label.textContent = entry.label;
        li.append(symbol, label);
        return li;
      }),
    );
    const level = $('level');
    const chosen = level.value;
    const options = [];
    for (let elo = r.data.levels[0]; elo <= r.data.levels[1]; elo += 200) {
      const o = document.createElement('option');
      o.value = String(elo);
      o.textContent = `${elo}`;
      options.push(o);
    }
    const full = document.createElement('option');
    full.value = 'full';
    full.textContent = w.full_strength;
    options.push(full);
    level.replaceChildren(...options);
    level.value = chosen || '1400';
    for (const [role, strategy] of [['rule-drills', false], ['strategy-drills', true]]) {
      $(role).replaceChildren(
        ...r.data.drills
          .filter((d) => d.strategy === strategy)
          .map((d) => {
            const li = document.createElement('li');
            const b = document.createElement('button');
            b.type = 'button';
            b.dataset.action = 'drill';
            b.dataset.drill = d.id;
            b.textContent = d.title;
            li.append(b);
            return li;
          }),
      );
    }
  }

  // ---- the board ------------------------------------------------------------------------

  async function newBoard(body) {
    const r = await call('POST', `/api/boards${query()}`, body || {});
    if (r.ok) {
      render(r.data);
    } else {
      showError(r.data.error);
    }
    return r.ok;
  }

  async function refresh() {
    if (!state.id) return newBoard();
    const r = await call('GET', `/api/boards/${state.id}${query()}`);
    if (r.status === 404) return newBoard();
    if (r.ok) render(r.data);
    else showError(r.data.error);
  }

  async function act(action) {
    if (!state.id) await newBoard();
    const r = await call('POST', `/api/boards/${state.id}${query()}`, action);
    if (r.status === 404) {
      await newBoard();
      showError(r.data.error);
      return;
    }
    if (r.ok) {
      render(r.data);
    } else {
      showError(r.data.error);
    }
  }

  function render(v) {
    const before = state.view;
    state.view = v;
    state.id = v.id;
    store.setItem('arbiter.id', v.id);
    if (!before || !v.preview || !before.preview || before.preview.uci !== v.preview.uci) state.showWhy = false;
    showError('');

    lines($('status'), v.status);
    $('board').innerHTML = v.board; // the server's drawing: every text in it is escaped there

    const preview = $('preview');
    const newPreview = v.preview && (!before || !before.preview || before.preview.uci !== v.preview.uci);
    preview.hidden = !v.preview;
    lines($('preview-summary'), v.preview ? v.preview.summary : [], 'li');
    $('promotion').hidden = v.stage !== 'promotion';

    const why = document.querySelector('[data-action="why"]');
    why.setAttribute('aria-expanded', String(state.showWhy));
    lines($('explanation'), v.preview && !state.showWhy ? [] : v.explanation);
    lines($('claim-result'), v.claim_result);
    lines($('claims-offered'), v.claims_offered);
    // A refusal, a ruling or a claim's verdict also pops up at the bottom, in reach on a phone.
    const notice = v.preview || v.stage === 'promotion' || v.review ? [] : v.claim_result.concat(v.explanation);
    lines($('notice-lines'), notice);
    $('notice').hidden = notice.length === 0;
    lines($('result'), v.result ? [`${v.result.result} — ${v.result.text}`] : []);

    const over = !!v.result;
    const review = !!v.review;
    for (const a of ['claim-threefold', 'claim-fifty', 'resign', 'flag']) {
      document.querySelector(`[data-action="${a}"]`).disabled = over || review;
    }
    document.querySelector('[data-action="undo"]').disabled = !v.can_undo || review;
    const confirm = document.querySelector('[data-action="confirm"]');
    confirm.disabled = !v.preview;
    // From the keyboard: Enter confirms the move just previewed, Escape cancels it.
    if (newPreview) confirm.focus({ preventScroll: true });

    renderMoves(v);
    lines($('mate-possible'), v.mate_possible);
    $('tablebase-panel').hidden = !(v.tablebase && v.tablebase.length);
    lines($('tablebase'), v.tablebase);
    const fen = $('fen');
    if (document.activeElement !== fen) fen.value = v.fen;

    $('mode-two').checked = v.mode.kind !== 'engine';
    $('mode-engine').checked = v.mode.kind === 'engine';
    if (v.mode.kind === 'engine') {
      $('human').value = v.mode.human;
      $('level').value = v.mode.level ? String(v.mode.level) : 'full';
    }
    $('thinking').hidden = !v.thinking;

    const drill = v.mode.drill;
    lines($('drill-question'), drill ? [drill.title, drill.question, `FIDE ${drill.rules}`] : []);
    $('branches').replaceChildren(
      ...(drill ? drill.branches : []).map((label, i) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.dataset.action = 'branch';
        b.dataset.which = String(i);
        b.textContent = `${state.words ? state.words.words.branch : ''} ${i === 0 ? 'A' : 'B'}: ${label}`;
        return b;
      }),
    );

    const info = [];
    if (review) {
      info.push(`${v.review.white} – ${v.review.black}: ${v.review.result}`);
      if (v.review.unplayed.length) info.push(v.review.unplayed.join(' '));
    }
    lines($('review-info'), info);
    lines($('findings'), review ? v.review.findings.map((f) => `${f.ply}: ${f.text}`) : []);
    $('review-nav').hidden = !review;

    clearTimeout(state.poll);
    if (v.thinking || (v.mode.kind === 'engine' && !v.result && v.side_to_move !== v.mode.human && !review)) {
      state.poll = setTimeout(refresh, 250);
    }
  }

  function renderMoves(v) {
    const cursor = v.review ? v.review.cursor : v.moves.length;
    $('movelist').replaceChildren(
      ...v.moves.map((m) => {
        const li = document.createElement('li');
        const b = document.createElement('button');
        b.type = 'button';
        b.dataset.ply = String(m.ply);
        b.textContent = `${m.number} ${m.san}`.trim();
        if (m.ply === cursor) b.setAttribute('aria-current', 'step');
        if (m.finding) b.classList.add('finding');
        b.disabled = !v.review;
        li.append(b);
        return li;
      }),
    );
  }

  // ---- what the learner does --------------------------------------------------------------

  function flip() {
    state.flipped = !state.flipped;
    store.setItem('arbiter.flip', state.flipped ? '1' : '0');
    refresh();
  }

  async function switchLanguage() {
    state.lang = state.lang === 'zh' ? 'en' : 'zh';
    store.setItem('arbiter.lang', state.lang);
    await loadWords();
    await refresh();
  }

  function goto(ply) {
    const v = state.view;
    if (!v || !v.review) return;
    act({ action: 'goto', ply: Math.max(0, Math.min(v.review.plies, ply)) });
  }

  async function exportPgn() {
    const r = await call('GET', `/api/boards/${state.id}/pgn`);
    if (!r.ok) return showError(r.data.error);
    const out = $('pgn-out');
    out.value = r.data;
    out.hidden = false;
    const a = $('pgn-download');
    if (a.href) URL.revokeObjectURL(a.href);
    a.href = URL.createObjectURL(new Blob([r.data], { type: 'application/x-chess-pgn' }));
    a.hidden = false;
  }

  async function loadPgn() {
    const file = $('pgn-file').files[0];
    const text = file ? await file.text() : $('pgn').value;
    if (file) $('pgn').value = text;
    $('pgn-file').value = '';
    await act({ action: 'load-pgn', pgn: text });
  }

  function newGame() {
    const engine = $('mode-engine').checked;
    const level = $('level').value;
    // Against Arbiter, the learner's pieces at the bottom.
    if (engine) {
      state.flipped = $('human').value === 'black';
      store.setItem('arbiter.flip', state.flipped ? '1' : '0');
    }
    act({
      action: 'new-game',
      mode: engine ? 'engine' : 'two-players',
      human: $('human').value,
      level: engine && level !== 'full' ? Number(level) : null,
      from_current: $('from-current').checked,
    });
  }

  const actions = {
    flip,
    lang: switchLanguage,
    confirm: () => act({ action: 'confirm' }),
    cancel: () => act({ action: 'cancel' }),
    dismiss: () => act({ action: 'cancel' }),
    why: () => {
      state.showWhy = !state.showWhy;
      if (state.view) render(state.view);
    },
    undo: () => act({ action: 'undo' }),
    reset: () => act({ action: 'reset' }),
    'claim-threefold': () => act({ action: 'claim', draw: 'threefold' }),
    'claim-fifty': () => act({ action: 'claim', draw: 'fifty' }),
    resign: () => act({ action: 'resign' }),
    flag: () => act({ action: 'flag' }),
    promote: (el) => act({ action: 'promote', piece: el.dataset.piece }),
    'new-game': newGame,
    drill: (el) => act({ action: 'drill', id: el.dataset.drill }),
    branch: (el) => act({ action: 'branch', which: Number(el.dataset.which) }),
    'load-pgn': loadPgn,
    first: () => goto(0),
    prev: () => goto(state.view.review.cursor - 1),
    next: () => goto(state.view.review.cursor + 1),
    last: () => goto(state.view.review.plies),
    'play-on': () => act({ action: 'play-on' }),
    'set-fen': () => act({ action: 'set-position', fen: $('fen').value }),
    'export-pgn': exportPgn,
  };

  document.addEventListener('click', (e) => {
    const square = e.target.closest('[data-square]');
    if (square && square.closest('[data-role="board"]')) {
      act({ action: 'click', square: square.dataset.square });
      return;
    }
    const ply = e.target.closest('[data-ply]');
    if (ply) {
      goto(Number(ply.dataset.ply));
      return;
    }
    const control = e.target.closest('[data-action]');
    if (control && actions[control.dataset.action] && control.dataset.action !== 'try-move') {
      e.preventDefault();
      actions[control.dataset.action](control);
    }
  });

  $('move-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const input = $('move-input');
    const text = input.value;
    input.value = '';
    act({ action: 'move', text });
  });

  $('fen').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      act({ action: 'set-position', fen: e.target.value });
    }
  });

  document.addEventListener('keydown', (e) => {
    const typing = e.target.closest('input, textarea, select');
    if (e.key === 'Escape') {
      act({ action: 'cancel' });
      return;
    }
    if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
    const review = state.view && state.view.review;
    if (e.key === 'f' || e.key === 'F') flip();
    else if (e.key === 'ArrowLeft' && review) goto(review.cursor - 1);
    else if (e.key === 'ArrowRight' && review) goto(review.cursor + 1);
    else if (e.key === 'Home' && review) goto(0);
    else if (e.key === 'End' && review) goto(review.plies);
    else return;
    e.preventDefault();
  });

  loadWords().then(refresh);
})();
