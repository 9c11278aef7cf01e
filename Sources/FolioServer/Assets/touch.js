// Pointers on the score view's page. View: a tap on a link follows it, elsewhere a tap or a
// swipe turns the page; on touch a long press places a text where it is, or, dragged on,
// draws a rectangle; two fingers zoom (pinch). The other tools: a pointer makes the mark
// (see tools.js). Fit width and zoom draw the page again.
import { tapOrSwipe } from './turns.js';

export function pageGestures(view, tools, links) {
  const { state, stage, canvas, overlay, say, render, turn, composed, marking } = view;
  const { gesture, point, rectangle, addMark, askText } = tools;
  const drawPreview = tools.preview, clearOverlay = tools.clear, linkAt = links.at, follow = links.follow;
  const widthButton = document.getElementById('fit-width');

  let swipe = null;
  let pinch = null;
  const pointers = new Map();
  overlay.addEventListener('pointerdown', (event) => {
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 2) { beginPinch(); return; }
    const at = point(event);
    if (state.tool === 'view') {
      swipe = { x: event.clientX, y: event.clientY, time: Date.now(), at };
      if (event.pointerType === 'touch' && !composed()) {
        const pressing = swipe;
        pressing.timer = setTimeout(() => { pressing.pressed = true; overlay.setPointerCapture(event.pointerId); say('Lift for a text, or drag for a rectangle.'); }, 500);
      }
      return;
    }
    if (state.tool === 'freetext' || state.tool === 'stamp' || !marking()) return;  // on click
    if (gesture.begin(at)) overlay.setPointerCapture(event.pointerId);
  });
  overlay.addEventListener('pointermove', (event) => {
    if (pointers.has(event.pointerId)) pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pinch) { movePinch(); return; }
    if (state.tool !== 'view') { gesture.extend(point(event)); return; }
    if (!swipe) return;
    const moved = Math.hypot(event.clientX - swipe.x, event.clientY - swipe.y);
    if (swipe.pressed) {
      swipe.rect = rectangle(swipe.at, point(event));
      if (moved > 8) drawPreview({ rect: swipe.rect });
    } else if (moved > 8) clearTimeout(swipe.timer);
  });
  overlay.addEventListener('pointerup', (event) => {
    pointers.delete(event.pointerId);
    if (pinch) { if (pointers.size < 2) endPinch(); return; }
    if (state.tool !== 'view') { gesture.end(point(event)); return; }
    if (!swipe) return;
    const started = swipe;
    swipe = null;
    clearTimeout(started.timer);
    if (started.pressed) {
      const rect = started.rect;
      if (rect && rect[2] >= 3 && rect[3] >= 3) addMark('square', { rect }, 'Rectangle saved');
      else { clearOverlay(); askText(started.at); }
      return;
    }
    const moved = Math.hypot(event.clientX - started.x, event.clientY - started.y);
    const link = moved < 10 && !composed() ? linkAt(point(event)) : null;
    if (link) follow(link);
    else turn(tapOrSwipe(started, event, overlay));
  });
  overlay.addEventListener('pointercancel', (event) => {
    pointers.delete(event.pointerId);
    if (swipe) clearTimeout(swipe.timer);
    swipe = null;
    if (pinch && pointers.size < 2) endPinch();
  });

  // Pinch: the page follows the fingers at once (a CSS scale), and is drawn again sharp at
  // its new zoom when they lift (half to four times the fitted size).
  function spread() {
    const [a, b] = [...pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y) || 1;
  }
  function beginPinch() {
    if (swipe) clearTimeout(swipe.timer);
    swipe = null;
    gesture.cancel();
    pinch = { start: spread(), factor: 1 };
  }
  function movePinch() {
    if (pointers.size < 2) return;
    pinch.factor = Math.min(4, Math.max(0.5, state.zoom * spread() / pinch.start)) / state.zoom;
    for (const element of [canvas, overlay]) { element.style.transformOrigin = '50% 0'; element.style.transform = `scale(${pinch.factor})`; }
  }
  function endPinch() {
    const factor = pinch.factor;
    pinch = null;
    for (const element of [canvas, overlay]) element.style.transform = '';
    setZoom(state.zoom * factor);
  }
  async function setZoom(zoom) {
    state.zoom = Math.min(4, Math.max(0.5, zoom));
    await render();
    stage.scrollLeft = (stage.scrollWidth - stage.clientWidth) / 2;
    stage.dataset.zoom = state.zoom.toFixed(2);
  }

  // Fit the whole page (the default) or its width, to read it scrolling down.
  widthButton.addEventListener('click', () => {
    state.fitWidth = !state.fitWidth;
    state.zoom = 1;
    widthButton.setAttribute('aria-pressed', String(state.fitWidth));
    stage.classList.toggle('wide', state.fitWidth);
    render();
  });
}
