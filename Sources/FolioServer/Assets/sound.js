// The sound bar of the score view and of performance mode: the linked recording (Player)
// and the metronome (Metronome), over the markup HTMLPage.soundBar writes. In the score
// view it also links the library's audio files to the score, unlinks them and keeps a loop;
// performance mode queues each piece's track as the piece opens (`queue`). K, or the media
// play/pause key that headphones and pedals in media mode send, plays and pauses.
import { getJSON, change, sendBytes } from './api.js';
import { Player, clock } from './player.js';
import { Metronome, TapTempo } from './metronome.js';

const $ = (id) => document.getElementById(id);

// The beats of a bar from a time signature, as a musician counts them: `beats` and how many
// notes of the signature's unit make one (`division`). Compound time (6/8, 9/8, 12/8, 6/4,
// 9/16…) beats in dotted notes — 9/8 is three beats of three eighths; other times beat their
// numerator (common time 4, cut time 2). At most 16 beats.
export function meterOf(signature) {
  const match = /^\s*(\d+)\s*\/\s*(\d+)/.exec(signature ?? '');
  if (match) {
    const top = Number(match[1]), bottom = Number(match[2]);
    if (top >= 6 && top % 3 === 0 && bottom >= 4) return { beats: Math.min(16, top / 3), division: 3, dotted: true };
    return { beats: Math.min(16, Math.max(1, top)), division: 1, dotted: false };
  }
  return { beats: signature?.trim() === '¢' ? 2 : 4, division: 1, dotted: false };
}

export function mountSound({ score = null } = {}) {
  const bar = $('sound');
  const player = new Player();
  const metronome = new Metronome();
  const taps = new TapTempo();
  const state = { tracks: [], version: null, countingIn: false };
  const controller = { player, metronome, queue, show, load: () => loadScore() };
  bar.sound = controller;

  const status = (text) => { $('sound-status').textContent = text; };
  const failed = (error) => status(error.message);

  function show(open = true) {
    bar.hidden = !open;
    $('sound-toggle').setAttribute('aria-pressed', String(open));
  }
  $('sound-toggle').addEventListener('click', () => show(bar.hidden));

  // --- The player -----------------------------------------------------------------
  function trackName(track) {
    const name = track.title ?? track.file.split('/').pop();
    return (track.bookmark ? `${track.bookmark}: ` : '') + name + (track.missing ? ' (missing)' : '');
  }

  function listTracks(selected) {
    const select = $('track');
    select.replaceChildren(...state.tracks.map((track) => new Option(trackName(track), String(track.id))));
    if (!state.tracks.length) select.append(new Option('No recording linked', ''));
    select.disabled = !state.tracks.length;
    const chosen = state.tracks.find((track) => track.id === selected) ?? state.tracks.find((track) => !track.missing) ?? null;
    if (chosen) select.value = String(chosen.id);
    if (chosen?.id !== player.track?.id || !chosen) player.load(chosen);
  }

  function queue(piece) {
    state.tracks = piece?.track ? [piece.track] : [];
    listTracks(piece?.track?.id);
    if (piece?.tempo) useTempo(piece.tempo);
    useMeter(piece?.timeSignature);
    status(piece?.track ? `Queued: ${trackName(piece.track)}` : '');
  }

  $('track').addEventListener('change', () => {
    player.load(state.tracks.find((track) => String(track.id) === $('track').value) ?? null);
  });

  async function togglePlay() {
    if (!player.track) { status('No recording is linked here.'); return; }
    try {
      if (player.playing || state.countingIn) { player.pause(); return; }
      if ($('count-in').checked) {
        state.countingIn = true;
        await metronome.countIn();
        state.countingIn = false;
      }
      await player.play();
    } catch (error) { state.countingIn = false; failed(error); }
  }
  $('play').addEventListener('click', togglePlay);
  $('seek').addEventListener('input', () => player.seek(Number($('seek').value)));
  $('set-a').addEventListener('click', () => player.mark('a'));
  $('set-b').addEventListener('click', () => player.mark('b'));
  $('loop').addEventListener('change', () => player.setLooping($('loop').checked));
  $('speed').addEventListener('input', () => {
    player.setSpeed($('speed').value);
    $('speed-value').value = `${$('speed').value} %`;
  });

  player.listen(() => {
    const audio = player.audio;
    $('play').textContent = player.playing ? '❚❚' : '▶';
    $('play').setAttribute('aria-label', player.playing ? 'Pause' : 'Play');
    $('position').textContent = `${clock(audio.currentTime)} / ${clock(audio.duration)}`;
    $('seek').max = String(Number.isFinite(audio.duration) ? audio.duration : 0);
    $('seek').value = String(audio.currentTime);
    $('loop').checked = player.looping;
    $('loop-range').textContent = player.a !== null || player.b !== null
      ? `${clock(player.a ?? 0, true)}–${player.b === null ? 'end' : clock(player.b, true)}` : '';
    $('play').disabled = !player.track || player.track.missing;
  });

  // --- Links (score view) -----------------------------------------------------------
  async function loadScore() {
    if (score === null) return;
    try {
      const [{ data: tracks, version }, { data: details }, { data: audio }] = await Promise.all([
        getJSON(`/api/scores/${score}/tracks`), getJSON(`/api/scores/${score}`), getJSON('/api/audio')]);
      state.tracks = tracks.tracks;
      state.version = version;
      listTracks(player.track?.id);
      if (details.tempo) useTempo(details.tempo);
      useMeter(details.timeSignature);
      $('link-audio').replaceChildren(new Option('Link a recording…', ''),
        ...audio.audio.map((file) => new Option(file.path, String(file.id))));
      librarySamples(audio.audio);
      if (state.tracks.length) show(true);
    } catch (error) { failed(error); }
  }

  // The library's WAV files, offered as the metronome's sample.
  function librarySamples(files) {
    const group = document.createElement('optgroup');
    group.label = 'From the library';
    group.append(...files.filter((file) => file.kind === 'wav').map((file) => new Option(file.path, `file:${file.path}`)));
    $('click-sound').querySelector('optgroup')?.remove();
    if (group.children.length) $('click-sound').append(group);
  }
  controller.librarySamples = librarySamples;

  async function changeTracks(method, url, body) {
    try {
      const { data, version } = await change(method, url, state.version, body);
      state.tracks = data.tracks;
      state.version = version;
      return true;
    } catch (error) {
      failed(error);
      if (error.status === 409) await loadScore();
      return false;
    }
  }

  $('link-audio')?.addEventListener('change', async () => {
    const audio = Number($('link-audio').value);
    $('link-audio').value = '';
    if (!audio) return;
    if (await changeTracks('POST', `/api/scores/${score}/tracks`, { audio })) {
      const added = state.tracks.reduce((last, track) => (track.id > (last?.id ?? 0) ? track : last), null);
      listTracks(added?.id);
      status(`Linked ${added ? trackName(added) : 'the recording'}`);
    }
  });
  $('unlink')?.addEventListener('click', async () => {
    const track = player.track;
    if (!track) return;
    if (await changeTracks('DELETE', `/api/scores/${score}/tracks/${track.id}`)) {
      listTracks(null);
      status(`Unlinked ${trackName(track)} (the file stays in the library)`);
    }
  });
  $('save-loop')?.addEventListener('click', async () => {
    const track = player.track;
    if (!track) return;
    const loop = player.looping ? { loopStart: player.a, loopEnd: player.b } : { loopStart: null, loopEnd: null };
    if (await changeTracks('PATCH', `/api/scores/${score}/tracks/${track.id}`, loop)) {
      player.track = state.tracks.find((item) => item.id === track.id) ?? track;
      status(player.looping ? `Loop kept: ${$('loop-range').textContent}` : 'Loop removed');
    }
  });

  // --- The metronome ----------------------------------------------------------------
  function useTempo(bpm) {
    try {
      metronome.setTempo(bpm);
      $('bpm').value = String(metronome.bpm);
    } catch (error) { failed(error); }
  }
  // A piece's time signature: its beats, and in compound time the dotted beat (the tempo is
  // in dotted beats, "♩. =") with its three notes as the subdivision the checkbox clicks.
  function useMeter(signature) {
    const meter = meterOf(signature);
    metronome.beatsPerBar = meter.beats;
    metronome.division = meter.division === 1 ? 2 : meter.division;
    $('beats').value = String(meter.beats);
    $('beat-unit').textContent = meter.dotted ? '♩.' : '♩';
  }
  $('subdivide').addEventListener('change', () => { metronome.subdivide = $('subdivide').checked; });
  $('bpm').addEventListener('change', () => useTempo($('bpm').value));
  $('tap').addEventListener('click', () => {
    const bpm = taps.tap();
    if (bpm) useTempo(bpm);
  });
  $('beats').addEventListener('change', () => {
    const beats = Number($('beats').value);
    if (beats >= 1 && beats <= 16) metronome.beatsPerBar = beats; else status('beats per bar: 1 to 16');
  });
  $('metronome-start').addEventListener('click', () => {
    if (metronome.running) metronome.stop(); else metronome.start();
  });
  $('click-sound').addEventListener('change', async () => {
    const chosen = $('click-sound').value;
    if (chosen.startsWith('file:')) {
      try {
        await change('PUT', `/api/metronome/sample?file=${encodeURIComponent(chosen.slice(5))}`);
        metronome.sample = null;
        status(`Sample kept: ${chosen.slice(5)}`);
      } catch (error) { failed(error); }
      $('click-sound').value = 'sample';
    }
    metronome.useSample = $('click-sound').value === 'sample';
    if (metronome.useSample && !metronome.sample && !(await fetchSample())) {
      status('No sample yet: choose a WAV file with "Sample…"');
      $('click-sound').value = 'click';
      metronome.useSample = false;
    }
  });
  $('sample-file').addEventListener('change', async () => {
    const file = $('sample-file').files[0];
    $('sample-file').value = '';
    if (!file) return;
    try {
      const format = await sendBytes('/api/metronome/sample', file, 'PUT');
      await metronome.loadSample(await file.arrayBuffer());
      metronome.useSample = true;
      $('click-sound').value = 'sample';
      status(`Sample kept: ${file.name} (${format.seconds.toFixed(2)} s)`);
    } catch (error) { failed(error); }
  });

  async function fetchSample() {
    const response = await fetch('/api/metronome/sample');
    if (!response.ok) return false;
    await metronome.loadSample(await response.arrayBuffer());
    return true;
  }

  // The beat light, lit on the audio clock's time of each scheduled beat.
  const light = $('beat');
  const pending = [];
  metronome.listen((beat) => {
    $('metronome-start').textContent = metronome.running ? 'Stop' : 'Start';
    $('metronome-start').setAttribute('aria-pressed', String(metronome.running));
    if (beat) { pending.push(beat); requestAnimationFrame(flash); }
  });
  function flash() {
    const now = metronome.context?.currentTime ?? 0;
    while (pending.length && pending[0].time <= now) {
      const beat = pending.shift();
      light.className = beat.accent ? 'beat on accent' : 'beat on';
      setTimeout(() => { light.className = 'beat'; }, 90);
    }
    if (pending.length) requestAnimationFrame(flash);
  }

  // Silent when the page is hidden.
  document.addEventListener('visibilitychange', () => {
    if (document.hidden && metronome.running) {
      metronome.stop();
      status('Metronome stopped: the page was hidden');
    }
  });

  // K and the media key play and pause (not while typing).
  document.addEventListener('keydown', (event) => {
    if (event.target.closest?.('input, select, textarea, [contenteditable]')) return;
    if (event.key === 'MediaPlayPause' || ((event.key === 'k' || event.key === 'K') && !event.ctrlKey && !event.metaKey && !event.altKey)) {
      event.preventDefault();
      togglePlay();
    }
  });
  if ('mediaSession' in navigator) {
    navigator.mediaSession.setActionHandler('play', () => player.play());
    navigator.mediaSession.setActionHandler('pause', () => player.pause());
  }

  return controller;
}
