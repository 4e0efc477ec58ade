// The spatialcad quiz page: name, one practice item, then the quiz items one at a time, no
// feedback; choices by keys A-D or clicks (or a typed answer), Enter to go on, Esc to pause.
// State lives in localStorage under the quiz id, so a reload resumes where it stopped.
// At the end the page offers human-<name>.jsonl in the line format of a run's results.jsonl.
(function () {
  'use strict';
  const DATA = JSON.parse(document.getElementById('page-data').textContent);
  const STORE = 'spatialcad-quiz:' + DATA.quiz;
  const LETTERS = 'ABCD';
  const N = DATA.items.length;
  const FILL = DATA.form === 'open';
  const NAME = new RegExp('^(?:' + DATA.name_pattern + ')$');
  const app = document.getElementById('app');

  // ---- state, saved after every change ------------------------------------------------
  function fresh() {
    return { name: '', stage: 'intro', answers: [], pending: null, elapsed: 0, paused: false,
             practice: null };
  }

  function restore() {
    try {
      const saved = JSON.parse(localStorage.getItem(STORE));
      if (saved && saved.stage) {
        if (saved.stage === 'practice' || saved.stage === 'test') saved.paused = true;
        return saved;
      }
    } catch (e) { /* unreadable: start afresh */ }
    return fresh();
  }

  let state = restore();
  let since = null;  // performance.now() when the clock of the current item last started

  function seconds() {
    return state.elapsed + (since === null ? 0 : (performance.now() - since) / 1000);
  }
  function startClock() { if (since === null) since = performance.now(); }
  function stopClock() { state.elapsed = seconds(); since = null; }

  function save() {
    try {
      localStorage.setItem(STORE, JSON.stringify(Object.assign({}, state, { elapsed: seconds() })));
    } catch (e) { /* storage full or off: the quiz goes on, without resume */ }
  }

  // ---- the practice item's feedback (the quiz items are scored by report, from the
  // benchmark: the page holds no answer of theirs) ---------------------------------------
  const NUMBER = /-?\d+(?:\.\d+)?/g;
  function numbers(text) { return (String(text).match(NUMBER) || []).map(Number); }
  function normal(text) { return String(text).replace(/[\s*_`'".]+/g, ' ').trim().toLowerCase(); }
  function correct(extracted, gold) {
    if (extracted === null || extracted === undefined) return false;
    if (!FILL) return extracted === gold;
    const want = numbers(gold);
    if (want.length) {
      const got = numbers(extracted);
      return got.length === want.length && got.every((v, i) => v === want[i]);
    }
    return normal(extracted) === normal(gold);
  }

  function resultLines() {
    return DATA.items.map((item, i) => {
      const a = state.answers[i];
      return {
        id: item.id, system: DATA.system_prefix + state.name, category: item.category,
        task: item.task, level: item.level, form: DATA.form, extracted: a.extracted,
        rule: 'human', latency_s: a.latency_s, quiz: DATA.quiz,
        quiz_parameters: DATA.quiz_parameters, benchmark_sha256: DATA.benchmark_sha256,
        benchmark_manifest_sha256: DATA.benchmark_manifest_sha256,
        benchmark_path: DATA.benchmark_path,
      };
    });
  }

  function fileName() { return DATA.file_prefix + state.name + '.jsonl'; }

  function download() {
    const text = resultLines().map((line) => JSON.stringify(line)).join('\n') + '\n';
    const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
    const link = el('a', { href: url, download: fileName() });
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
    const done = document.getElementById('downloaded');
    if (done) done.hidden = false;
  }

  // ---- building the screens ------------------------------------------------------------
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? '' : v);
    }
    for (const child of children) {
      if (child !== null && child !== undefined && child !== false) {
        node.append(child instanceof Node ? child : String(child));
      }
    }
    return node;
  }

  function show(...nodes) {
    app.replaceChildren(...nodes);
    const focus = app.querySelector('[data-focus]');
    if (focus) focus.focus();
  }

  function howTo() {
    return FILL
      ? 'Type your answer in the box and press Enter (or click Next).'
      : 'Choose one of the four options with the keys A, B, C, D or a click, then press ' +
        'Enter (or click Next) to go on.';
  }

  function intro() {
    const error = el('p', { class: 'error', id: 'name-error', hidden: true },
      'Please type a name of letters, digits, - or _ (no spaces), at most 40 characters.');
    const input = el('input', { id: 'name', type: 'text', autocomplete: 'off', spellcheck: 'false',
      maxlength: 40, 'data-focus': true, value: state.name });
    const start = () => {
      const name = input.value.trim();
      if (!NAME.test(name)) { error.hidden = false; input.focus(); return; }
      state.name = name;
      state.stage = 'practice';
      state.pending = null;
      state.elapsed = 0;
      save();
      render();
    };
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.repeat) { e.preventDefault(); start(); }
    });
    show(el('section', { class: 'card intro' },
      el('h1', {}, 'Spatial reasoning quiz'),
      el('p', {}, `You will see ${N} pictures, one at a time, each with a question about the ` +
        'shapes it shows. ' + howTo()),
      el('ul', {},
        el('li', {}, 'Answer as well as you can; take the time you need. Each item is timed.'),
        el('li', {}, 'You will not be told whether an answer is right, and you cannot go back.'),
        el('li', {}, 'One practice item comes first; it does not count.'),
        el('li', {}, 'Need a break? Press Esc or click Pause. You may even close the page: ' +
          'your answers are kept in this browser and you resume where you stopped.'),
        el('li', {}, 'At the end you download a results file; send it to the person running ' +
          'the study.')),
      el('label', { for: 'name' }, 'Your name or participant code: '), input,
      el('button', { id: 'start', type: 'button', onclick: start }, 'Start'),
      error));
  }

  function itemScreen(item, label, k) {
    const next = el('button', { id: 'next', type: 'button', class: 'next', disabled: true,
      onclick: confirm }, 'Next');
    let answer;
    if (FILL) {
      answer = el('input', { id: 'answer', type: 'text', autocomplete: 'off', spellcheck: 'false',
        'data-focus': true, value: state.pending || '' });
      answer.addEventListener('input', () => {
        state.pending = answer.value;
        next.disabled = !answer.value.trim();
        save();
      });
      next.disabled = !(state.pending || '').trim();
    } else {
      answer = el('div', { class: 'choices', role: 'radiogroup' },
        ...item.choices.map((text, i) => el('button', {
          type: 'button', class: 'choice', role: 'radio', 'data-letter': LETTERS[i],
          'aria-checked': state.pending === LETTERS[i] ? 'true' : 'false',
          onclick: () => choose(LETTERS[i]) },
        el('span', { class: 'letter' }, LETTERS[i]), el('span', { class: 'text' }, text))));
      next.disabled = state.pending === null;
    }
    const progress = k === null ? el('span', { class: 'practice-label' }, label)
      : el('span', { class: 'progress' },
        el('span', { id: 'progress-text' }, `Item ${k + 1} of ${N}`),
        el('progress', { max: N, value: k }));
    show(
      el('header', { class: 'bar' }, progress,
        el('button', { id: 'pause', type: 'button', onclick: pause }, 'Pause (Esc)')),
      el('section', { class: 'item side' },
        el('div', { class: 'picture' }, el('img', { id: 'picture', src: item.image,
          alt: 'the picture the question is about', onload: fit })),
        el('div', { class: 'panel' },
          el('p', { class: 'question' }, item.question), answer,
          el('div', { class: 'go' }, next,
            el('p', { class: 'hint' }, FILL ? 'Enter: next' : 'Keys A-D: choose · Enter: next')))));
    fit();
    startClock();
  }

  // ---- fitting an item into the window ---------------------------------------------------
  // Each layout is tried with the picture hidden: the picture's cell is what the panel leaves.
  // The layout whose whole panel fits and whose picture comes out largest wins (ties: side).
  const MAX_ZOOM = 1.5;  // wide, short pictures may be shown larger than drawn, up to this

  function fit() {
    const item = app.querySelector('.item');
    const img = document.getElementById('picture');
    if (!item || !img || !img.naturalWidth) return;
    const panel = item.querySelector('.panel');
    let best = null;
    item.style.gridTemplateRows = '';
    for (const layout of ['side', 'stacked']) {
      item.className = 'item ' + layout;
      img.style.display = 'none';
      const cell = img.parentElement.getBoundingClientRect();
      const fits = panel.scrollHeight <= panel.clientHeight + 1 &&
        item.scrollHeight <= item.clientHeight + 1;
      const zoom = Math.min(cell.width / img.naturalWidth, cell.height / img.naturalHeight,
        MAX_ZOOM);
      if (!best || (fits && !best.fits) || (fits === best.fits && zoom > best.zoom * 1.02)) {
        best = { layout, fits, zoom };
      }
    }
    item.className = 'item ' + best.layout;
    // stacked: the panel right under the picture, not at the bottom of the window
    if (best.layout === 'stacked') item.style.gridTemplateRows = 'auto auto';
    img.style.width = Math.max(1, Math.floor(img.naturalWidth * best.zoom) - 2) + 'px';
    img.style.height = 'auto';
    img.style.display = '';
  }

  function choose(letter) {
    state.pending = letter;
    for (const b of app.querySelectorAll('.choice')) {
      b.setAttribute('aria-checked', b.dataset.letter === letter ? 'true' : 'false');
    }
    document.getElementById('next').disabled = false;
    save();
  }

  function confirm() {
    const value = FILL ? (state.pending || '').trim() : state.pending;
    if (!value) return;
    stopClock();
    if (state.stage === 'practice') {
      state.practice = value;
      state.stage = 'practiced';
    } else {
      state.answers.push({ extracted: value, latency_s: Math.round(state.elapsed * 1000) / 1000 });
      if (state.answers.length === N) state.stage = 'done';
    }
    state.pending = null;
    state.elapsed = 0;
    save();
    render();
  }

  function pause() {
    if (state.paused) return;
    stopClock();
    state.paused = true;
    save();
    render();
  }

  function resume() {
    state.paused = false;
    save();
    render();
  }

  function paused() {
    const where = state.stage === 'practice' ? 'the practice item'
      : `item ${state.answers.length + 1} of ${N}`;
    show(el('section', { class: 'card paused' },
      el('h1', {}, 'Paused'),
      el('p', {}, `${state.name}, you have answered ${state.answers.length} of ${N} items; ` +
        'they are saved in this browser. The clock is stopped.'),
      el('p', {}, `Next: ${where}.`),
      el('button', { id: 'resume', type: 'button', 'data-focus': true, onclick: resume },
        'Resume (Enter)'),
      el('p', { class: 'small' }, el('button', { id: 'forget', type: 'button', onclick: startOver },
        `Not ${state.name}? Start over (deletes the saved answers)`))));
  }

  // a shared computer: the next person must not carry on the last one's quiz
  function startOver() {
    if (!window.confirm('Delete the saved answers of this quiz from this browser?')) return;
    localStorage.removeItem(STORE);
    stopClock();
    state = fresh();
    render();
  }

  function practiced() {
    const gold = DATA.practice_answer;
    const right = correct(state.practice, gold);
    show(el('section', { class: 'card' },
      el('h1', {}, 'Practice done'),
      el('p', {}, `You answered ${state.practice}; the right answer was ${gold}` +
        (right ? ' - well done.' : '.')),
      el('p', {}, `Now the ${N} quiz items follow. From here on you get no feedback.`),
      el('button', { id: 'begin', type: 'button', 'data-focus': true, onclick: begin },
        'Start the quiz (Enter)')));
  }

  function begin() {
    state.stage = 'test';
    state.paused = false;
    state.elapsed = 0;
    save();
    render();
  }

  function finished() {
    show(el('section', { class: 'card done' },
      el('h1', {}, `Thank you, ${state.name}!`),
      el('p', {}, `You answered all ${N} items.`),
      el('button', { id: 'download', type: 'button', 'data-focus': true, onclick: download },
        `Download ${fileName()} (Enter)`),
      el('p', { id: 'downloaded', hidden: true },
        `Your browser was asked to save ${fileName()} (usually into your Downloads folder; ` +
        'check there, or where you chose to save it). Please send the file to the person ' +
        'running the study. Nothing arrived? Click the button again.'),
      el('p', { class: 'small' }, el('button', { id: 'forget', type: 'button', onclick: startOver },
        'Start over (deletes the saved answers)'))));
  }

  function render() {
    since = null;
    if (state.stage === 'intro') return intro();
    if (state.stage === 'practiced') return practiced();
    if (state.stage === 'done') return finished();
    if (state.paused) return paused();
    if (state.stage === 'practice') return itemScreen(DATA.practice, 'Practice item (not scored)', null);
    return itemScreen(DATA.items[state.answers.length], null, state.answers.length);
  }

  // ---- keys ------------------------------------------------------------------------------
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const onItem = (state.stage === 'practice' || state.stage === 'test') && !state.paused;
    if (e.key === 'Enter') {
      if (e.repeat || state.stage === 'intro') return;
      e.preventDefault();
      if (state.paused) resume();
      else if (onItem) confirm();
      else if (state.stage === 'practiced') begin();
      else if (state.stage === 'done') download();
    } else if (e.key === 'Escape' && onItem) {
      e.preventDefault();
      pause();
    } else if (onItem && !FILL && LETTERS.includes(e.key.toUpperCase()) && e.key.length === 1) {
      e.preventDefault();
      choose(e.key.toUpperCase());
    }
  });

  // time away from the page does not count: hiding it pauses the item
  document.addEventListener('visibilitychange', () => {
    if (document.hidden && (state.stage === 'practice' || state.stage === 'test')) pause();
  });
  window.addEventListener('pagehide', save);
  window.addEventListener('resize', fit);
  setInterval(() => { if (since !== null) save(); }, 2000);

  render();
})();
