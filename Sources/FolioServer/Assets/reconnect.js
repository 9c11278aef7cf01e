// A server blip never blanks the music: a page that cannot be fetched leaves the page drawn
// before it on screen, with a notice on the stage saying so; the counter stays on the page
// shown. The server is asked again every two seconds (and at once when the browser says it
// is online); when it answers, the CSRF token is renewed on the way and the page the musician
// turned to is drawn — no reload.
import { renewSession } from './api.js';

// Resolves when the server answers /api/session again.
export function whenReachable(every = 2000) {
  return new Promise((resolve) => {
    let timer = 0;
    const ask = async () => {
      clearTimeout(timer);
      if (await renewSession()) {
        window.removeEventListener('online', ask);
        resolve();
      } else {
        timer = setTimeout(ask, every);
      }
    };
    window.addEventListener('online', ask);
    timer = setTimeout(ask, every);
  });
}

// A view's drawing made blip-proof. `view`: stage, state ({page, halfway}), draw() (the page
// the state names, to the screen), place() (the state into the address), reopen() (the PDF
// opened again). Returns render(): what draw() did, or — the page not to be had — the state
// back on the page shown, a notice, and the page drawn once the server answers (first asked
// again of pdf.js, then, should that fail too, of a newly opened document). One drawing at a
// time: a render asked for while one runs is done once after it, for the state as it is then,
// so a slow drawing never lands over a newer one and turns in between are not drawn at all;
// `cancel()` (optional) stops the drawing under way then, so a page flipped past is never
// finished before the page asked for is begun.
export function blipProof({ stage, state, draw, place, reopen, cancel = () => {} }) {
  let retries = 0;
  const notice = pageNotice(stage, async (page) => {
    retries += 1;
    if (retries > 1) {
      try { await reopen(); } catch { /* drawn below, or missed again */ }
    }
    Object.assign(state, { page, halfway: false });
    await render();
    if (!stage.dataset.missed) retries = 0;
  });
  let running = null;
  let again = false;
  function render() {
    if (running) {
      again = true;
      cancel();
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await drawOnce();
      } while (again);
    })().finally(() => { running = null; });
    return running;
  }
  async function drawOnce() {
    const wanted = { page: state.page, halfway: state.halfway };
    try {
      await within(20, draw());
      state.shown = wanted;
      notice.drawn();
    } catch (error) {
      if (error?.name === 'RenderingCancelledException') return;   // a newer turn draws
      if (state.shown) Object.assign(state, state.shown);
      place();
      notice.missed(wanted.page, error);
    }
  }
  return render;
}

// The notice on `stage` and the retry: `missed(page, error)` after a page could not be
// drawn, `drawn()` after one was; `retry(page)` is called once the server answers.
function pageNotice(stage, retry) {
  const notice = document.createElement('p');
  notice.className = 'page-notice';
  notice.setAttribute('role', 'status');
  notice.hidden = true;
  stage.append(notice);
  let waiting = null;
  return {
    missed(page, error) {
      // The network's failure (pdf.js names it UnknownErrorException, UnexpectedResponseException
      // or MissingPDFException), or the page's own: only the first is asked again.
      const said = `${error?.name ?? ''} ${error?.message ?? error}`;
      const offline = !navigator.onLine
        || /fetch|network|server|503|reach|answer|UnknownError|UnexpectedResponse|MissingPDF/i.test(said);
      notice.textContent = offline
        ? `Page ${page} could not be loaded: the server is out of reach. It will show as soon as the connection is back.`
        : `Page ${page} could not be drawn: ${error?.message ?? error}`;
      notice.hidden = false;
      stage.dataset.missed = String(page);
      if (offline && !waiting) {
        waiting = whenReachable().then(() => { waiting = null; retry(page); });
      }
    },
    drawn() {
      notice.hidden = true;
      delete stage.dataset.missed;
    },
  };
}

// `work` within `seconds`, else rejected as a server that did not answer.
async function within(seconds, work) {
  let timer = 0;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('the server did not answer')), seconds * 1000);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
