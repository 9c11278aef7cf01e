// Small DOM helpers the pages share: list placeholders, buttons, the keys that turn pages.

// A muted list item standing for an empty list.
export function emptyItem(text) {
  const item = document.createElement('li');
  item.className = 'muted empty';
  item.textContent = text;
  return item;
}

// Pages as a musician writes them: "p. 3", "pp. 3–5"; nothing without a start.
export function pages(start, end) {
  if (start == null) return '';
  return start === end || end == null ? `p. ${start}` : `pp. ${start}–${end}`;
}

// A button with its accessible name.
export function button(text, label, action, disabled = false) {
  const element = document.createElement('button');
  element.textContent = text;
  element.setAttribute('aria-label', label);
  element.disabled = disabled;
  element.addEventListener('click', action);
  return element;
}

// Search as you type: the returned function runs `task` `delay` ms (120 by default) after
// its last call; `task` gets `current()`, false once a newer call came, so an answer
// that arrives late does not overwrite a newer one.
export function latest(task) {
  let ticket = 0;
  return (delay = 120) => {
    const mine = ++ticket;
    setTimeout(() => { if (mine === ticket) task(() => mine === ticket); }, delay);
  };
}

// Tabs (the ARIA tabs pattern): a click shows a tab's panel, the arrow keys move between tabs.
export function tabList(tabs) {
  function showTab(tab) {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      document.getElementById(other.getAttribute('aria-controls')).hidden = !selected;
    }
  }
  for (const tab of tabs) {
    tab.addEventListener('click', () => showTab(tab));
    tab.addEventListener('keydown', (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length];
      showTab(next);
      next.focus();
      event.preventDefault();
      event.stopPropagation();
    });
  }
}
