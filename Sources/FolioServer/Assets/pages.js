// Pages drawn by pdf.js: fitted into a space, sharp on high-density screens.

// The viewport that fits `page` into `room` ({width, height}), at least `least` times its size.
export function fit(page, room, least = 0) {
  const base = page.getViewport({ scale: 1 });
  const scale = Math.max(least, Math.min(room.width / base.width, room.height / base.height));
  return { scale, viewport: page.getViewport({ scale }), ratio: window.devicePixelRatio || 1 };
}

// Gives `canvas` the fitted size: CSS pixels shown, device pixels drawn.
export function size(canvas, { viewport, ratio }) {
  canvas.width = Math.floor(viewport.width * ratio);
  canvas.height = Math.floor(viewport.height * ratio);
  canvas.style.width = `${Math.floor(viewport.width)}px`;
  canvas.style.height = `${Math.floor(viewport.height)}px`;
}

// Starts drawing `page` on `canvas`; returns pdf.js's render task (cancel, promise).
export function draw(page, canvas, { viewport, ratio }) {
  return page.render({ canvasContext: canvas.getContext('2d'), viewport,
    transform: ratio === 1 ? null : [ratio, 0, 0, ratio, 0, 0] });
}
