// The gallery's filters (category, task, level, wrong only) and their URL hash.
// "#task=CubeCounting&level=Level1&wrong=1" opens a filtered view; "#<item id>" one item.
(function () {
  const SELECTS = ['category', 'task', 'level'];
  const BOXES = ['wrong', 'answers'];

  function control(name) { return document.getElementById(name); }

  function apply() {
    const want = {};
    for (const name of SELECTS) want[name] = control(name).value;
    const wrongOnly = control('wrong') !== null && control('wrong').checked;
    let shown = 0;
    for (const el of document.querySelectorAll('.item')) {
      const ok = SELECTS.every((k) => !want[k] || el.dataset[k] === want[k]) &&
        (!wrongOnly || el.dataset.wrong === '1');
      el.hidden = !ok;
      shown += ok ? 1 : 0;
    }
    document.body.classList.toggle('reveal', control('answers').checked);
    document.getElementById('shown').textContent = shown;
  }

  function toHash() {
    const params = new URLSearchParams();
    for (const name of SELECTS) if (control(name).value) params.set(name, control(name).value);
    for (const name of BOXES) if (control(name) && control(name).checked) params.set(name, '1');
    const text = params.toString();
    history.replaceState(null, '', text ? '#' + text : location.pathname + location.search);
  }

  function setControls(params) {
    for (const name of SELECTS) {
      const value = params.get(name) || '';
      const known = [...control(name).options].some((o) => o.value === value);
      control(name).value = known ? value : '';
    }
    for (const name of BOXES) if (control(name)) control(name).checked = params.get(name) === '1';
  }

  function fromHash() {
    const raw = location.hash.slice(1);
    if (raw.includes('=') || !raw) {
      setControls(new URLSearchParams(raw));
      apply();
      return;
    }
    setControls(new URLSearchParams(''));  // one item: show everything, then go to it
    apply();
    const item = document.getElementById(decodeURIComponent(raw));
    if (item) item.scrollIntoView();
  }

  document.addEventListener('DOMContentLoaded', () => {
    for (const name of [...SELECTS, ...BOXES]) {
      if (control(name)) control(name).addEventListener('change', () => { apply(); toHash(); });
    }
    window.addEventListener('hashchange', fromHash);
    fromHash();
  });
})();
