// A follower's page (/rehearse/CODE): join with a name and an instrument, then show the
// leader's position on your own part — their page turns, half turns, two pages and piece
// changes — as the server chooses it (your part, your instrument's, your section's, else the
// full score). Turning a page yourself looks elsewhere; Rejoin goes back to the leader's
// place. A dropped connection reconnects by itself and catches up; a page that cannot be had
// (a server blip) leaves the page shown on screen, says so, and is drawn once the server
// answers. If the leader hands over, this page leads: its turns reach the others. The pages
// the leader is likeliest to turn to next are drawn ahead (ahead.js), so a turn is swapped in.
import { getJSON } from './api.js';
import { openDocument, sheet, drawHalves, fit } from './pages.js';
import { drawAhead } from './ahead.js';
import { goTo, pageTurn, turnOnTapOrSwipe } from './turns.js';
import { connect, memberID } from './rehearsal.js';
import { whenReachable } from './reconnect.js';
import { whoAmI } from './who.js';

const form = document.getElementById('join');
const stage = document.getElementById('stage');
const label = document.getElementById('pageno');
const piece = document.getElementById('piece');
const partLabel = document.getElementById('part');
const status = document.getElementById('follow-status');
const rejoin = document.getElementById('rejoin');
const code = stage.dataset.code;
const state = { score: null, document: null, pages: 0, page: 1, halfway: false, two: false, attached: true, leader: null, key: null, following: null };
const fits = { part: 'your part', instrument: 'your instrument (another desk)', section: 'your section', full: 'no part of yours: the full score' };
let link = null;
const ahead = drawAhead();

function say(text) { status.textContent = text; }

// The files of the last two pieces shown, open: going back to the piece before ("once more
// from the Debussy") opens nothing anew. (Not destroyed when let go: that would end the pdf.js
// worker every document shares.)
const documents = new Map();   // score → pdf.js document
async function opened(score) {
  const pdf = documents.get(score) ?? await openDocument(`/api/scores/${score}/pdf`).promise;
  documents.delete(score);
  documents.set(score, pdf);
  for (const older of [...documents.keys()].slice(0, -2)) documents.delete(older);
  return pdf;
}

async function show(score, page, halfway, two) {
  if (score !== state.score) {
    ahead.clear();
    state.score = score;
    state.document = await opened(score);
    state.pages = state.document.numPages;
  }
  // The server keeps a follower's page within their part and never half-turns its last page.
  Object.assign(state, { page, halfway, two });
  const room = { width: stage.clientWidth - 20, height: stage.clientHeight - 20 };
  if (state.halfway) {
    const canvas = document.createElement('canvas');
    canvas.className = 'sheet';
    await drawHalves(await state.document.getPage(state.page), await state.document.getPage(state.page + 1), canvas, room);
    stage.replaceChildren(canvas);
    label.textContent = `${state.page}½ / ${state.pages}`;
    // A half turn is finished by the next whole page.
    ahead.prepare(state.document, [state.page + 1], room, 1, (page) => fit(page, room), [state.page + 1]);
  } else {
    const numbers = [state.page, state.page + 1].slice(0, two ? 2 : 1).filter((number) => number <= state.pages);
    const share = { width: room.width / numbers.length - (numbers.length - 1) * 6, height: room.height };
    // Drawn ahead: swapped in; being drawn ahead: finished, not begun again.
    const keys = numbers.map((number) => ahead.key(number, share, 1));
    const finishing = keys.map((key) => (ahead.ready(key) ? null : ahead.finishing(key)));
    if (!finishing.some(Boolean)) ahead.yield();
    const canvases = await Promise.all(numbers.map(async (number, index) => {
      let canvas = (ahead.ready(keys[index]) ?? await finishing[index])?.canvas;
      if (!canvas) {
        canvas = await sheet(await state.document.getPage(number), share);
        ahead.keep(keys[index], number, canvas, null);
      }
      canvas.className = 'sheet';
      return canvas;
    }));
    stage.replaceChildren(...canvases);
    label.textContent = numbers.length > 1 ? `${numbers[0]}–${numbers[1]} / ${state.pages}` : `${state.page} / ${state.pages}`;
    // The leader's likeliest next moves: on by a page (or two), then back.
    const step = numbers.length;
    const next = [...numbers.map((number) => number + step), ...numbers.map((number) => number - step)];
    ahead.prepare(state.document, next, share, 1, (page) => fit(page, share), [...numbers, ...next]);
  }
  stage.dataset.score = String(score);
  delete stage.dataset.missed;
  stage.dataset.rendered = state.halfway ? `${state.page}.5` : String(state.page);
  stage.dataset.two = String(state.two);
  stage.dataset.shownAt = String(Date.now());
}

// The leader's position, shown unless this player looks elsewhere.
let drawing = Promise.resolve();
function follow(position) {
  state.leader = position;
  piece.textContent = position.title ?? position.song ?? '';
  partLabel.textContent = position.part ? `${position.part} — ${fits[position.fit]}` : fits[position.fit] ?? '';
  partLabel.dataset.fit = position.fit ?? '';
  partLabel.dataset.path = position.path ?? '';
  if (!state.attached) return;
  state.asked = null;   // the leader's place is shown, not a turn of this player's own
  // Positions arrive faster than pages draw: draw each in turn, the latest last.
  drawing = drawing.then(() => (state.leader === position ? show(position.score, position.page, position.halfway, position.two) : null))
    .catch((error) => {
      // The page shown stays (show() replaces it only once the new one is drawn). The document is
      // opened again next time: one whose byte ranges failed stays broken in pdf.js.
      state.score = null;
      documents.delete(position.score);
      stage.dataset.missed = String(position.page);
      const of = position.title ?? position.song;
      say(`Page ${position.page}${of ? ` of ${of}` : ''} could not be loaded (${error.message}); the page shown stays until the server answers.`);
      whenReachable().then(() => { if (state.attached && state.leader === position) follow(position); });
    });
}

function setAttached(attached) {
  state.attached = attached;
  rejoin.hidden = attached || Boolean(state.key);
  document.body.dataset.attached = String(attached);
  if (state.key) return;
  say(attached ? 'Following.' : 'Looking elsewhere — Rejoin to follow again.');
  link?.send({ type: attached ? 'attach' : 'detach' });
}

// A turn or a jump of this player's own (1, -1, 'first', 'last'), as every view turns
// (turns.js): a leader's move, or a follower looking elsewhere. The leader's half turns are
// shown; a follower's own turns are whole pages.
// Turns count from the page last asked for, not the one drawn, and only the last one asked
// for is drawn: a turn is never lost, and turns faster than pages draw never queue.
function turn(action) {
  if (!state.document) return;
  const from = state.asked ?? state;
  const next = goTo(from, action, state.pages, { two: state.two });
  if (next.page === from.page) return;
  if (!state.key && state.attached) setAttached(false);
  state.asked = next;
  const score = state.score;
  drawing = drawing.then(() => (state.asked === next ? show(score, next.page, false, state.two) : null))
    .catch((error) => say(`Page ${next.page} could not be loaded (${error.message}); the page shown stays.`));
  if (state.key) link?.send({ type: 'move', score, page: next.page, halfway: false, two: state.two });
}

function join(name, instrument) {
  form.hidden = true;
  stage.hidden = false;
  document.getElementById('following').hidden = false;
  sessionStorage.setItem(`folio-join:${code}`, JSON.stringify({ name, instrument }));
  link = connect(code, () => ({ member: memberID(), name, instrument, key: state.key }), {
    status(text) {
      document.body.dataset.connection = text;
      if (text === 'reconnecting') say('Connection lost; reconnecting…');
      else say(state.key ? 'Leading.' : state.attached ? 'Following.' : 'Looking elsewhere.');
    },
    message(data) {
      if (data.type === 'position') follow(data);
      else if (data.type === 'hello') { document.body.dataset.role = data.role; if (!state.attached) link.send({ type: 'detach' }); }
      else if (data.type === 'lead') {
        Object.assign(state, { key: data.key, attached: true });
        document.body.dataset.role = 'leader';
        rejoin.hidden = true;
        document.getElementById('end-rehearsal').hidden = false;
        say('You lead now: your turns reach the others.');
      }
      else if (data.type === 'ended' || data.type === 'refused') {
        say(data.reason ?? data.message);
        document.body.dataset.connection = 'ended';
        sessionStorage.removeItem(`folio-join:${code}`);
      } else if (data.type === 'replaced') {
        say('You follow from another window now; this one has stopped.');
        document.body.dataset.connection = 'replaced';
      } else if (data.type === 'error') say(data.message);
    },
  });
  window.folioRehearsal = link;
}

document.getElementById('end-rehearsal').addEventListener('click', () => link?.send({ type: 'end' }));
rejoin.addEventListener('click', () => {
  setAttached(true);
  if (state.leader) follow(state.leader);
});
document.getElementById('prev').addEventListener('click', () => turn(-1));
document.getElementById('next').addEventListener('click', () => turn(1));
document.addEventListener('keydown', (event) => {
  if (form.contains(event.target)) return;
  const action = pageTurn(event);
  if (action !== null) { turn(action); event.preventDefault(); }
});
turnOnTapOrSwipe(stage, turn);
window.addEventListener('resize', () => {
  if (!state.document) return;
  ahead.clear();
  drawing = drawing.then(() => show(state.score, state.page, state.halfway, state.two));
});

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const name = form.elements.name.value.trim();
  const instrument = form.elements.instrument.value.trim();
  localStorage.setItem('folio-name', name);
  localStorage.setItem('folio-instrument', instrument);
  join(name, instrument);
});

// The instruments to pick from: the library's part labels first, then every one Folio knows.
(async () => {
  form.elements.name.value = localStorage.getItem('folio-name') ?? '';
  form.elements.instrument.value = localStorage.getItem('folio-instrument') ?? '';
  const again = JSON.parse(sessionStorage.getItem(`folio-join:${code}`) ?? 'null');
  if (again) join(again.name, again.instrument);
  // A member logged in joins with one tap: the server knows their name and instrument.
  const who = await whoAmI();
  if (who?.member && !again) {
    form.elements.name.value = who.member.name;
    form.elements.instrument.value = who.member.instrument ?? '';
    for (const field of form.querySelectorAll('label')) field.hidden = true;
    form.querySelector('button[type=submit]').textContent =
      `Follow as ${who.member.name}${who.member.instrument ? ` — ${who.member.instrument}` : ''}`;
  }
  try {
    const { data } = await getJSON('/api/instruments');
    const list = document.getElementById('instruments');
    const names = [...data.library.map((label) => label.written), ...data.known.map((instrument) => instrument.name)];
    for (const name of new Set(names)) {
      const option = document.createElement('option');
      option.value = name;
      list.append(option);
    }
  } catch { /* typing an instrument works without the list */ }
})();
