// The metronome: Web Audio with look-ahead scheduling. A timer wakes every 25 ms and
// schedules, on the AudioContext's own clock, every beat due in the next 100 ms; beat n of
// a run falls at start + n × 60 / bpm exactly (computed, never accumulated), so the clicks
// are sample-accurate however late the timer wakes. The first beat of each bar is accented;
// a count-in plays one bar and tells when the next downbeat falls. The click is synthesized,
// or the user's WAV sample (`useSample`). `beats` lists what was scheduled, for the beat
// light and for tests. With `subdivide`, each beat is divided into `division` quieter clicks
// (three in compound time, where a beat is a dotted note; two otherwise).

const lookAhead = 0.1;
const wake = 25;

export class Metronome {
  constructor() {
    this.context = null;
    this.bpm = 100;
    this.beatsPerBar = 4;
    this.division = 2;
    this.subdivide = false;
    this.sample = null;
    this.useSample = false;
    this.running = false;
    this.beats = [];
    this.timer = null;
    this.listeners = new Set();
  }

  // The audio clock, made on first use (a browser allows sound after a gesture). Where the
  // platform lets a page say so (Safari's navigator.audioSession), the click is playback, heard
  // with an iPad's Silent switch on, as a recording is.
  audio() {
    if (navigator.audioSession && navigator.audioSession.type !== 'playback') {
      try { navigator.audioSession.type = 'playback'; } catch { /* the platform keeps its own */ }
    }
    this.context ??= new AudioContext({ latencyHint: 'interactive' });
    if (this.context.state === 'suspended') this.context.resume();
    return this.context;
  }

  // Decodes the WAV `bytes` (an ArrayBuffer) as the sample.
  async loadSample(bytes) {
    this.sample = await this.audio().decodeAudioData(bytes);
    return this.sample;
  }

  // Runs `bars` bars (forever when null) from the next moment; returns when the run's
  // first beat falls on the audio clock.
  start({ bars = null } = {}) {
    this.stop();
    const context = this.audio();
    this.running = true;
    this.run = { start: context.currentTime + 0.05, next: 0, end: bars === null ? Infinity : bars * this.beatsPerBar };
    this.schedule();
    this.timer = setInterval(() => this.schedule(), wake);
    return this.run.start;
  }

  // One bar of clicks; resolves at the downbeat after it, with its time on the audio clock.
  countIn() {
    const start = this.start({ bars: 1 });
    const downbeat = start + this.beatsPerBar * this.interval();
    return new Promise((resolve) => {
      setTimeout(() => resolve(downbeat), Math.max(0, (downbeat - this.context.currentTime) * 1000));
    });
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.running = false;
    this.notify();
  }

  interval() { return 60 / this.bpm; }

  // A new tempo takes effect from the next beat: the run is anchored again there.
  setTempo(bpm) {
    const value = Math.round(Number(bpm));
    if (!(value >= 20 && value <= 400)) throw new RangeError(`tempo ${bpm} is out of range (valid: 20 to 400 bpm)`);
    if (this.running && this.run) {
      const nextTime = this.run.start + this.run.next * this.interval();
      this.run = { start: nextTime, next: 0, end: this.run.end - this.run.next, offset: (this.run.offset ?? 0) + this.run.next };
    }
    this.bpm = value;
  }

  schedule() {
    const context = this.context;
    const run = this.run;
    while (run.next < run.end) {
      const time = run.start + run.next * this.interval();
      if (time > context.currentTime + lookAhead) break;
      const number = (run.offset ?? 0) + run.next;
      this.click(time, number % this.beatsPerBar === 0);
      if (this.subdivide && this.division > 1) {
        for (let part = 1; part < this.division; part++) this.click(time + part * this.interval() / this.division, false, true);
      }
      run.next += 1;
    }
    if (run.next >= run.end) {
      clearInterval(this.timer);
      this.timer = null;
      const last = run.start + (run.end - 1) * this.interval();
      setTimeout(() => { if (this.run === run) { this.running = false; this.notify(); } },
        Math.max(0, (last - context.currentTime) * 1000 + 150));
    }
  }

  click(time, accent, sub = false) {
    const context = this.context;
    const gain = context.createGain();
    gain.connect(context.destination);
    let sound;
    if (this.useSample && this.sample) {
      const source = context.createBufferSource();
      source.buffer = this.sample;
      gain.gain.value = accent ? 1 : sub ? 0.3 : 0.6;
      source.connect(gain);
      source.start(time);
      sound = { kind: 'sample', duration: this.sample.duration, length: this.sample.length };
    } else {
      const oscillator = context.createOscillator();
      oscillator.frequency.value = accent ? 1600 : sub ? 800 : 1000;
      gain.gain.setValueAtTime(accent ? 0.9 : sub ? 0.3 : 0.6, time);
      gain.gain.exponentialRampToValueAtTime(0.001, time + 0.04);
      oscillator.connect(gain);
      oscillator.start(time);
      oscillator.stop(time + 0.05);
      sound = { kind: 'click', duration: 0.05 };
    }
    this.beats.push({ time, accent, sub, bpm: this.bpm, ...sound });
    if (this.beats.length > 2000) this.beats.splice(0, this.beats.length - 2000);
    if (!sub) this.notify({ time, accent });
  }

  // `listener({time, accent})` for each scheduled beat; (undefined) when it stops.
  listen(listener) { this.listeners.add(listener); }
  notify(beat) { for (const listener of this.listeners) listener(beat); }
}

// Tap tempo: the mean interval of the last taps (at most 8, none more than 2 s apart).
export class TapTempo {
  constructor() { this.taps = []; }

  // Records a tap at `now` (ms); returns the tempo in bpm once two taps are in, else null.
  tap(now = performance.now()) {
    if (this.taps.length && now - this.taps[this.taps.length - 1] > 2000) this.taps = [];
    this.taps.push(now);
    if (this.taps.length > 8) this.taps.shift();
    if (this.taps.length < 2) return null;
    const mean = (this.taps[this.taps.length - 1] - this.taps[0]) / (this.taps.length - 1);
    return Math.min(400, Math.max(20, Math.round(60000 / mean)));
  }
}
