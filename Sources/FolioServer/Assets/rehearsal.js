// Rehearsals: one device leads, the others follow its page turns, each on their own part.
// `connect` keeps a member's WebSocket open (reconnecting by itself after a drop, as the same
// member); `leadRehearsal` is the leader's panel on the score view and in performance mode:
// it starts a rehearsal, shows the code, the join link and its QR code (drawn by the
// server), who follows and who has no part, and sends every move.
import { change } from './api.js';
import { button, emptyItem } from './dom.js';

// A member id this tab keeps across reloads and reconnections.
export function memberID() {
  let id = sessionStorage.getItem('folio-member');
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    id = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
    sessionStorage.setItem('folio-member', id);
  }
  return id;
}

// Opens the socket of rehearsal `code` with `params` (member, name, instrument, key) and
// keeps it open: after a drop it connects again (0.25 s, then up to 5 s apart) until the
// rehearsal ends or `close()` is called. A socket refused before it opened asks the server
// why: a rehearsal that is gone, or access this page lacks, ends the tries.
// `on.message(data)` gets every message; `on.status(text)` what the connection is doing.
export function connect(code, params, on) {
  let socket = null, wait = 250, closed = false, timer = null;
  const finish = (message) => { closed = true; on.message(message); };
  const open = () => {
    // Percent-encoded (a space as %20: the server reads no + as a space).
    const query = Object.entries(params()).filter(([, value]) => value)
      .map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    let opened = false;
    socket = new WebSocket(`${scheme}://${location.host}/api/rehearsals/${encodeURIComponent(code)}/socket?${query}`);
    socket.addEventListener('open', () => { opened = true; wait = 250; on.status('connected'); });
    socket.addEventListener('message', (event) => {
      let data;
      try { data = JSON.parse(event.data); } catch { return; }
      if (['ended', 'refused', 'replaced'].includes(data.type)) closed = true;
      on.message(data);
    });
    socket.addEventListener('close', async () => {
      socket = null;
      if (closed) return;
      if (!opened) {
        const answer = await fetch(`/api/rehearsals/${encodeURIComponent(code)}`).catch(() => null);
        if (answer?.status === 404) return finish({ type: 'ended', reason: 'The rehearsal has ended.' });
        if (answer?.status === 401 || answer?.status === 403) return finish({ type: 'refused', message: 'This page may not join: open the server’s address with its token or password first.' });
      }
      on.status('reconnecting');
      timer = setTimeout(open, wait);
      wait = Math.min(wait * 2, 5000);
    });
  };
  open();
  return {
    send(message) { if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message)); },
    close() { closed = true; clearTimeout(timer); socket?.close(); },
    // For tests and a flaky network alike: drop the connection as a network would.
    drop() { socket?.close(); },
  };
}

const fits = { part: 'own part', instrument: 'another desk', section: 'section part', full: 'no part: full score' };

// The leader's panel. `where()` gives the position to start from and to send
// ({score, page, halfway, two, setlist?, piece?}); call `moved()` after every turn.
export function leadRehearsal({ toggle, panel, where }) {
  // The rehearsal this tab leads, kept across its pages (a new piece opens a new page).
  const saved = () => JSON.parse(sessionStorage.getItem('folio-lead') ?? 'null');
  let session = saved(), link = null;
  const code = panel.querySelector('.code');
  const status = panel.querySelector('.rehearsal-status');
  const list = panel.querySelector('.members');
  const say = (text) => { status.textContent = text; };

  function show(members) {
    list.replaceChildren();
    const followers = members.filter((member) => !member.leader);
    if (!followers.length) list.append(emptyItem('No one has joined yet.'));
    for (const member of followers) {
      const item = document.createElement('li');
      item.dataset.member = member.id;
      item.className = member.fit === 'full' ? 'no-part' : '';
      const state = !member.connected ? 'reconnecting…' : member.attached ? 'following' : 'looking elsewhere';
      item.textContent = `${member.name}${member.instrument ? ` (${member.instrument})` : ''} — ${state}; ${fits[member.fit] ?? 'no part'}`;
      item.title = member.part ?? '';
      if (member.connected) item.append(' ', button('Hand over', `Hand over leading to ${member.name}`, () => link?.send({ type: 'handover', to: member.id })));
      list.append(item);
    }
    panel.dataset.members = String(followers.length);
    panel.dataset.following = String(followers.filter((member) => member.connected && member.attached).length);
  }

  function attach() {
    code.textContent = session.code;
    const join = new URL(session.join, location.href).href;
    const anchor = panel.querySelector('.join');
    anchor.href = join;
    anchor.textContent = join;
    panel.querySelector('.qr').src = `/api/rehearsals/${session.code}/qr.svg`;
    // A loopback address joins nobody else's device: say how to reach this server instead.
    panel.querySelector('.loopback').hidden = !['127.0.0.1', 'localhost', '[::1]'].includes(location.hostname);
    panel.hidden = false;
    toggle.setAttribute('aria-pressed', 'true');
    link = connect(session.code, () => ({ member: memberID(), name: session.name, key: session.key }), {
      status: (text) => say(text === 'connected' ? 'Leading.' : 'Connection lost; reconnecting…'),
      message(data) {
        if (data.type === 'hello') { last = null; moved(); }
        else if (data.type === 'members') show(data.members);
        else if (data.type === 'follow') {
          // Handed over: this player follows the new leader, on the follower's page.
          const code = session.code;
          sessionStorage.setItem(`folio-join:${code}`, JSON.stringify({ name: session.name, instrument: localStorage.getItem('folio-instrument') ?? '' }));
          stop();
          location.assign(`/rehearse/${encodeURIComponent(code)}`);
        }
        else if (data.type === 'ended' || data.type === 'refused') { say(data.reason ?? data.message); stop(); }
        else if (data.type === 'replaced') { say('This rehearsal is led from another window now.'); link = null; }
        else if (data.type === 'error') say(data.message);
      },
    });
  }

  function stop() {
    link?.close();
    link = null;
    sessionStorage.removeItem('folio-lead');
    session = null;
    toggle.setAttribute('aria-pressed', 'false');
  }

  async function start() {
    const name = localStorage.getItem('folio-name') || 'Leader';
    const at = where();
    try {
      const { data } = await change('POST', '/api/rehearsals', null, { score: at.score, setlist: at.setlist, piece: at.piece, leader: name });
      session = { ...data, name };
      sessionStorage.setItem('folio-lead', JSON.stringify(session));
      attach();
    } catch (error) {
      panel.hidden = false;
      say(`Cannot start a rehearsal: ${error.message}`);
    }
  }

  // Sends where the leader is, when it changed (a page drawn again after a save is no
  // move); the page notes when (data-moved-at, for tests and benchmarks).
  let last = null;
  function moved() {
    if (!link) return;
    const at = where();
    const message = JSON.stringify({ type: 'move', ...at });
    if (at.score == null || message === last) return;
    last = message;
    document.body.dataset.movedAt = String(Date.now());
    link.send({ type: 'move', ...at });
  }

  toggle.addEventListener('click', () => { if (!session) start(); else panel.hidden = !panel.hidden; });
  panel.querySelector('.end').addEventListener('click', () => { link?.send({ type: 'end' }); });
  if (session) attach();
  return { moved, leading: () => Boolean(link) };
}
