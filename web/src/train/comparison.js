// A comparison: one run per divisor of a plan (form.js), each a TrainSession
// in a worker of the pool it is given (pool.js), and what the page shows of
// them as plain data: each run's rows, init checkpoint, heatmap captures and
// pace, and the comparison's timing (active time, pauses). It knows nothing of
// the DOM: the views read its state, and listeners (on()) hear what changed:
//   configured {run}, rows {run, first}, done {run}, failed {run},
//   finished {}        every run is done or failed (totalMs is set)
//   pausing {}, paused {}, resumed {}   paused: every live run has answered after its last batch
// The clock is a parameter, so tests can drive the timing with a fake pool.
import { EVAL_SAMPLES, mapEvery, trainOptions } from './config.js';
import { errorFields } from '../bridge/rpc.js';

// Wall-clock steps per second over the last PACE_MS (runs sharing a worker
// share its time, so this is what the reader waits for, not the core's rate).
export const PACE_MS = 3000;

export class Comparison {
  /**
   * @param {object} plan   from form.js: {values, steps, lr, divisors, config}
   * @param {object} pool   a Pool (run, pause, resume, drop)
   * @param {object} opts   workers: how many the runs are spread over; clickAt: when the reader asked;
   *                        now: the clock (performance.now)
   */
  constructor(plan, pool, { workers, clickAt, now = () => performance.now() }) {
    this.plan = plan;
    this.pool = pool;
    this.now = now;
    this.clickAt = clickAt;
    this.workers = workers;
    this.mapEvery = mapEvery(plan.steps);
    this.firstPointMs = null;  // set by the page when it first draws a point
    this.totalMs = null;       // active time from the click to the last run's end
    this.pausedMs = 0;
    this.pausedAt = null;
    this.paused = false;
    this.pausing = null;       // runs yet to answer a pause
    this.timeline = { validated: now() - clickAt };
    this.listeners = new Set();
    this.runs = plan.divisors.map((d, index) => ({
      ...d, index, runId: 0, worker: 0, columns: null, data: { step: [] }, init: null, divisorValue: 0, maps: [],
      stepsDone: 0, latest: null, finished: false, failed: null, eval: null, stepsTo90: 0, diverged: 0, qkClips: 0, busyMs: 0,
      pace: [],  // [time, stepsDone] of the last few seconds: the run's rate as the reader waits for it
    }));
    this.stopped = false;
  }

  /** Listen to what changes; returns a function that stops listening. */
  on(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  emit(type, detail = {}) {
    for (const fn of this.listeners) fn(type, detail);
  }

  get done() {
    return this.totalMs !== null;
  }

  /** Running or pausing, not done: Start waits. */
  get busy() {
    return this.totalMs === null && !this.paused;
  }

  /** Start every run, round-robin over the workers. */
  start() {
    const base = trainOptions(this.plan.values, '', this.plan.lr);
    this.runs.forEach((run, i) => {
      const spec = {
        options: { ...base, divisor: run.option }, steps: this.plan.steps, mapEvery: this.mapEvery, evalSamples: EVAL_SAMPLES,
      };
      run.worker = i % this.workers;
      run.runId = this.pool.run(run.worker, spec, this.handlersFor(run));
    });
  }

  handlersFor(run) {
    const live = () => !this.stopped;
    return {
      configured: (m) => {
        if (!live()) return;
        this.timeline.configured ??= this.now() - this.clickAt;
        run.columns = m.columns;
        for (const c of m.columns) run.data[c] ??= [];
        run.init = m.init;
        run.divisorValue = m.divisorValue;
        if (m.map) run.maps.push(m.map);
        this.emit('configured', { run });
      },
      rows: (m) => {
        if (!live()) return;
        const cols = run.columns;
        const n = m.rows.length / cols.length;
        const first = run.data.step.length === 0 && n > 0;
        this.timeline.firstRows ??= this.now() - this.clickAt;
        for (let i = 0; i < n; i++) for (let j = 0; j < cols.length; j++) run.data[cols[j]].push(m.rows[i * cols.length + j]);
        run.stepsDone = m.stepsDone;
        run.latest = m.latest;
        this.notePace(run, m.stepsDone);
        run.busyMs = m.busyMs;
        if (m.map) run.maps.push(m.map);
        this.emit('rows', { run, first });
      },
      done: (m) => {
        if (!live()) return;
        run.finished = true;
        run.eval = m.eval;
        run.stepsTo90 = m.stepsTo90;
        run.diverged = m.diverged ?? 0;  // the step it diverged at (eval is null then), else 0
        run.qkClips = m.qkClips ?? 0;    // steps at which QK-clip rescaled a head
        run.busyMs = m.busyMs;
        this.emit('done', { run });
        this.ended(run);
      },
      paused: () => {
        if (live()) this.pausedAck(run);
      },
      failed: (m) => {
        if (!live()) return;
        run.failed = m.error;
        run.failedError = errorFields(m);  // argument, kind, params: the page's sentence (bridge/errors.js)
        this.emit('failed', { run });
        this.ended(run);
      },
    };
  }

  ended(run) {
    this.pausedAck(run);
    if (this.runs.every((r) => r.finished || r.failed)) {
      this.totalMs = this.activeMs();
      this.emit('finished');
    }
  }

  notePace(run, stepsDone) {
    const now = this.now();
    run.pace.push([now, stepsDone]);
    while (run.pace.length > 2 && now - run.pace[1][0] > PACE_MS) run.pace.shift();
  }

  /** A run's recent rate and the seconds it has left, or null (too little to tell, paused, ended). */
  paceOf(run) {
    if (run.finished || run.failed || this.paused || run.pace.length < 2) return null;
    const [t0, s0] = run.pace[0], [t1, s1] = run.pace.at(-1);
    if (t1 - t0 < 200 || s1 <= s0) return null;
    const rate = (1000 * (s1 - s0)) / (t1 - t0);
    return { rate, left: (this.plan.steps - run.stepsDone) / rate };
  }

  /** Milliseconds since the click, less the time spent paused. */
  activeMs() {
    const now = this.now();
    return now - this.clickAt - this.pausedMs - (this.pausedAt !== null ? now - this.pausedAt : 0);
  }

  /** Steps done by every run, and the total asked of them. */
  progress() {
    return { done: this.runs.reduce((a, r) => a + r.stepsDone, 0), total: this.plan.steps * this.runs.length };
  }

  // Pausing is asked of every worker; it is done when each has answered 'paused'
  // after its last batch (so every row before it has arrived).
  togglePause() {
    if (this.done || this.stopped) return;
    this.paused = !this.paused;
    const live = this.runs.filter((r) => !r.finished && !r.failed);
    this.pausing = new Set(this.paused ? live : []);
    for (const r of live) (this.paused ? this.pool.pause : this.pool.resume).call(this.pool, r.runId);
    if (this.paused) this.pausedAt = this.now();
    else {
      this.pausedMs += this.now() - this.pausedAt;
      this.pausedAt = null;
    }
    for (const r of live) r.pace = [];  // a pause is no part of any run's pace
    this.emit(this.paused ? 'pausing' : 'resumed');
    if (this.paused && live.length === 0) this.pausedAck(null);
  }

  pausedAck(run) {
    if (!this.paused || !this.pausing) return;  // null once the pause has been acknowledged
    this.pausing.delete(run);
    if (this.pausing.size > 0) return;
    this.pausing = null;
    this.emit('paused');
  }

  /** Drop every run; later events are ignored. */
  stop() {
    if (this.stopped) return;
    this.stopped = true;
    for (const r of this.runs) this.pool.drop(r.runId);
    this.listeners.clear();
  }
}
