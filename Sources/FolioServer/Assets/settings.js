// Settings for new marks, as the seminar's popover has them: a colour from the palette or a
// custom one, line width, text size and font, opacity. Remembered on this device (the
// browser's local storage) and applied to the next mark made; the checks and the defaults
// of a value left out are the server's.

const key = 'folio.markSettings';
const defaults = { color: '#d62828', width: 2, size: 12, font: 'sans', opacity: 1 };
export const palette = ['#d62828', '#1d4ed8', '#2a9d3f', '#000000', '#f77f00', '#7b2cbf', '#ffe94d'];

function stored() {
  try {
    return { ...defaults, ...JSON.parse(localStorage.getItem(key) ?? '{}') };
  } catch {
    return { ...defaults };
  }
}

// Binds the menu `root` (#mark-settings); returns { current(), forMark(type) } where
// forMark gives the fields a new mark of `type` takes from the settings.
export function markSettings(root) {
  const settings = stored();
  const colors = root.querySelector('.palette');
  const custom = root.querySelector('#setting-color');
  const width = root.querySelector('#setting-width');
  const size = root.querySelector('#setting-size');
  const font = root.querySelector('#setting-font');
  const opacity = root.querySelector('#setting-opacity');
  const swatch = root.querySelector('.swatch');

  for (const color of palette) {
    const choice = document.createElement('button');
    choice.type = 'button';
    choice.className = 'color';
    choice.style.background = color;
    choice.dataset.color = color;
    choice.setAttribute('aria-label', `Colour ${color}`);
    choice.addEventListener('click', () => save({ color }));
    colors.append(choice);
  }
  custom.addEventListener('input', () => save({ color: custom.value }));
  width.addEventListener('input', () => save({ width: Number(width.value) }));
  size.addEventListener('change', () => { if (size.checkValidity()) save({ size: Number(size.value) }); });
  font.addEventListener('change', () => save({ font: font.value }));
  opacity.addEventListener('input', () => save({ opacity: Number(opacity.value) }));

  function show() {
    custom.value = settings.color;
    width.value = String(settings.width);
    size.value = String(settings.size);
    font.value = settings.font;
    opacity.value = String(settings.opacity);
    root.querySelector('output[for="setting-width"]').textContent = `${settings.width} pt`;
    root.querySelector('output[for="setting-opacity"]').textContent = `${Math.round(settings.opacity * 100)} %`;
    swatch.style.background = settings.color;
    swatch.style.opacity = String(settings.opacity);
    for (const choice of colors.querySelectorAll('.color')) {
      choice.setAttribute('aria-pressed', String(choice.dataset.color === settings.color));
    }
  }
  function save(change) {
    Object.assign(settings, change);
    try { localStorage.setItem(key, JSON.stringify(settings)); } catch { /* private mode: kept while the page is open */ }
    show();
  }
  show();

  return {
    current: () => ({ ...settings }),
    forMark(type) {
      const style = { color: settings.color, opacity: settings.opacity };
      if (type === 'square' || type === 'ink') style.width = settings.width;
      if (type === 'freetext') Object.assign(style, { size: settings.size, font: settings.font });
      return style;
    },
  };
}
