// The track player: one audio element fed from /api/audio/ID (served with byte ranges, so
// seeking never downloads the whole recording), starting at the track's offset, an A–B loop
// watched every animation frame while playing (a loop overshoots by one frame at most),
// speed 50–150 % with the pitch kept (preservesPitch).

export class Player {
  constructor() {
    this.audio = new Audio();
    this.audio.preload = 'metadata';
    this.audio.preservesPitch = true;
    this.track = null;
    this.a = null;
    this.b = null;
    this.looping = false;
    this.listeners = new Set();
    this.loops = 0;
    for (const name of ['play', 'pause', 'timeupdate', 'loadedmetadata', 'ended', 'ratechange', 'error']) {
      this.audio.addEventListener(name, () => this.changed(name));
    }
  }

  // Queues `track` (from the API; null empties the player), paused at its offset.
  load(track) {
    this.audio.pause();
    this.track = track;
    this.a = track?.loopStart ?? null;
    this.b = track?.loopEnd ?? null;
    this.looping = this.a !== null || this.b !== null;
    if (!track || track.missing) {
      this.audio.removeAttribute('src');
      this.audio.load();
      this.changed('load');
      return;
    }
    this.audio.src = `/api/audio/${track.audio}`;
    const start = track.offset ?? 0;
    if (start > 0) this.audio.addEventListener('loadedmetadata', () => { this.audio.currentTime = start; }, { once: true });
    this.audio.load();
    this.changed('load');
  }

  get playing() { return !this.audio.paused; }

  async play() {
    if (!this.track || this.track.missing) return;
    if (this.looping && this.a !== null && (this.audio.currentTime < this.a || (this.b !== null && this.audio.currentTime >= this.b))) {
      this.audio.currentTime = this.a;
    }
    await this.audio.play();
    this.watch();
  }

  pause() { this.audio.pause(); }

  toggle() { return this.playing ? (this.pause(), Promise.resolve()) : this.play(); }

  seek(seconds) { this.audio.currentTime = Math.max(0, Math.min(seconds, this.audio.duration || seconds)); }

  // 50 to 150 (percent).
  setSpeed(percent) {
    const value = Number(percent);
    if (!(value >= 50 && value <= 150)) throw new RangeError(`speed ${percent} % is out of range (valid: 50 to 150 %)`);
    // The default rate too: loading the next track resets the rate to it.
    this.audio.defaultPlaybackRate = value / 100;
    this.audio.playbackRate = value / 100;
  }

  // Sets A or B at the current position; B before A swaps them.
  mark(point) {
    const now = Math.round(this.audio.currentTime * 10) / 10;
    if (point === 'a') this.a = now; else this.b = now;
    if (this.a !== null && this.b !== null && this.b <= this.a) [this.a, this.b] = [this.b, this.a];
    if (this.a !== null && this.b !== null && this.b <= this.a) this.b = null;
    this.looping = true;
    this.changed('loop');
  }

  setLooping(on) { this.looping = on; this.changed('loop'); }

  clearLoop() { this.a = null; this.b = null; this.looping = false; this.changed('loop'); }

  // Back to A when playback passes B (or reaches the end with no B).
  watch() {
    if (this.frame) return;
    const step = () => {
      this.frame = null;
      if (!this.playing) return;
      const end = this.b ?? this.audio.duration;
      if (this.looping && this.a !== null && end && this.audio.currentTime >= end - 0.005) {
        this.audio.currentTime = this.a;
        this.loops += 1;
      }
      this.frame = requestAnimationFrame(step);
    };
    this.frame = requestAnimationFrame(step);
  }

  listen(listener) { this.listeners.add(listener); }

  changed(what) {
    // timeupdate too: animation frames stop while the page is hidden, the loop must not.
    if (what === 'timeupdate' && this.looping && this.a !== null && this.b !== null && this.audio.currentTime >= this.b) {
      this.audio.currentTime = this.a;
      this.loops += 1;
    }
    if (what === 'ended' && this.looping && this.a !== null) {
      this.audio.currentTime = this.a;
      this.loops += 1;
      this.audio.play();
    }
    for (const listener of this.listeners) listener(what);
  }
}

// Seconds as m:ss (tenths when asked).
export function clock(seconds, tenths = false) {
  if (!Number.isFinite(seconds)) return '–:––';
  const whole = tenths ? Math.round(seconds * 10) / 10 : Math.floor(seconds);
  const minutes = Math.floor(whole / 60);
  const rest = whole - minutes * 60;
  const text = tenths ? rest.toFixed(1).padStart(4, '0') : String(Math.floor(rest)).padStart(2, '0');
  return `${minutes}:${text}`;
}
