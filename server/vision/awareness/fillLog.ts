/**
 * What explains a detection: per meter, the steps that raised it since it last stood at 0, kept in a
 * ring of plain numbers (no objects per step), and turned into an {@link Explanation} only when a
 * `spotted` fires. Apart from the model, which decides when a meter fills; this only remembers how.
 */
import type { FillFactors } from "./meterLaw.js";
import type { Pair } from "./records.js";
import type { ExplainedFill, Explanation, Heard, JudgedPoses, Sense, Sighting } from "./types.js";

// One step's numbers, at these offsets of its slot.
const TICK = 0;
const SENSE = 1;
const BEFORE = 2;
const GAIN = 3;
const AFTER = 4;
const DISTANCE = 5;
const OFF_AXIS = 6;
const VISIBILITY = 7;
const PROXIMITY = 8;
const F_DISTANCE = 9;
const F_EDGE = 10;
const F_SIDE = 11;
const F_SEEN = 12;
const F_STATE = 13;
const LOUDNESS = 14;
const SALIENCE = 15;
const POSES = 16;
const PRESENT = 17;
const REWOUND = 20;
const REWOUND_MS = 23;
const STRIDE = 24;

/** Steps a new log has room for before it grows (doubling, up to its most). */
const FIRST_CAPACITY = 8;

/** The last `most` steps that raised one meter. @internal */
export class FillLog {
  /**
   * Room for steps now. A log starts small and doubles as steps come: most meters rise for a few steps and
   * fall back, and a whole 100-step ring (19 KB) for each was most of what a room's awareness allocated.
   */
  private capacity: number;
  private data: Float64Array;
  private start = 0;
  private count = 0;

  constructor(private readonly most: number) {
    this.capacity = Math.min(FIRST_CAPACITY, most);
    this.data = new Float64Array(this.capacity * STRIDE);
  }

  /** Forgets every step (the meter stood at 0: what raised it before says nothing now). */
  clear(): void {
    this.start = 0;
    this.count = 0;
  }

  /** A step raised the meter by sight. `factors` are the rate's multipliers; `poses` what a check judged from, if any. */
  sight(tick: number, s: Sighting, before: number, gain: number, after: number, factors: FillFactors, poses: JudgedPoses | null): void {
    const at = this.slot(tick, 0, before, gain, after);
    // Read after the slot is taken: taking it may have grown the log.
    const d = this.data;
    d[at + DISTANCE] = s.distance;
    d[at + OFF_AXIS] = s.offAxis;
    d[at + VISIBILITY] = s.visibility ?? 1;
    d[at + PROXIMITY] = s.proximity === true ? 1 : 0;
    d[at + F_DISTANCE] = factors.distance;
    d[at + F_EDGE] = factors.rangeEdge;
    d[at + F_SIDE] = factors.periphery;
    d[at + F_SEEN] = factors.visibility;
    d[at + F_STATE] = factors.state;
    d[at + POSES] = poses === null ? 0 : 1;
    if (poses === null) return;
    d[at + PRESENT] = poses.present.x;
    d[at + PRESENT + 1] = poses.present.y;
    d[at + PRESENT + 2] = poses.present.facing;
    d[at + REWOUND] = poses.rewound.x;
    d[at + REWOUND + 1] = poses.rewound.y;
    d[at + REWOUND + 2] = poses.rewound.facing;
    d[at + REWOUND_MS] = poses.rewoundMs;
  }

  /** A step raised the meter by ear. */
  heard(tick: number, h: Heard, before: number, gain: number, after: number): void {
    const at = this.slot(tick, 1, before, gain, after);
    this.data[at + LOUDNESS] = h.level;
    this.data[at + SALIENCE] = h.salience ?? 1;
  }

  /** The explanation of a `spotted` by `sense`, from these steps, oldest first. */
  explain(observerId: string, targetId: string, sense: Sense, fillRate: number): Explanation {
    const fills: ExplainedFill[] = [];
    const d = this.data;
    for (let i = 0; i < this.count; i++) {
      const at = ((this.start + i) % this.capacity) * STRIDE;
      const fill: ExplainedFill = { tick: d[at + TICK]!, sense: d[at + SENSE] === 0 ? "sight" : "hearing", before: d[at + BEFORE]!, gain: d[at + GAIN]!, after: d[at + AFTER]! };
      if (fill.sense === "sight") {
        fill.distance = d[at + DISTANCE]!;
        fill.offAxis = d[at + OFF_AXIS]!;
        fill.visibility = d[at + VISIBILITY]!;
        if (d[at + PROXIMITY] === 1) fill.proximity = true;
        fill.factors = { distance: d[at + F_DISTANCE]!, rangeEdge: d[at + F_EDGE]!, periphery: d[at + F_SIDE]!, visibility: d[at + F_SEEN]!, state: d[at + F_STATE]! };
        if (d[at + POSES] === 1) {
          fill.poses = {
            present: { x: d[at + PRESENT]!, y: d[at + PRESENT + 1]!, facing: d[at + PRESENT + 2]! },
            rewound: { x: d[at + REWOUND]!, y: d[at + REWOUND + 1]!, facing: d[at + REWOUND + 2]! },
            rewoundMs: d[at + REWOUND_MS]!,
          };
        }
      } else {
        fill.loudness = d[at + LOUDNESS]!;
        fill.salience = d[at + SALIENCE]!;
      }
      fills.push(fill);
    }
    return { observerId, targetId, sense, fillRate, fills };
  }

  /** The slot of a new step (the oldest one's, when full), its common numbers written. */
  private slot(tick: number, sense: 0 | 1, before: number, gain: number, after: number): number {
    let index: number;
    if (this.count === this.capacity && this.capacity < this.most) this.grow();
    if (this.count < this.capacity) index = (this.start + this.count++) % this.capacity;
    else {
      index = this.start;
      this.start = (this.start + 1) % this.capacity;
    }
    const at = index * STRIDE;
    const d = this.data;
    d[at + TICK] = tick;
    d[at + SENSE] = sense;
    d[at + BEFORE] = before;
    d[at + GAIN] = gain;
    d[at + AFTER] = after;
    return at;
  }

  /** Doubles the room (up to the most), the steps kept in order from slot 0. */
  private grow(): void {
    const capacity = Math.min(2 * this.capacity, this.most);
    const data = new Float64Array(capacity * STRIDE);
    const firstRun = (this.capacity - this.start) * STRIDE;
    data.set(this.data.subarray(this.start * STRIDE), 0);
    data.set(this.data.subarray(0, this.start * STRIDE), firstRun);
    this.data = data;
    this.capacity = capacity;
    this.start = 0;
  }
}

/**
 * The model's explanation logs: each meter's, and the spares of dropped meters, which the next meter to
 * fill takes (cleared) instead of a new one. Every way a meter is dropped (calm, a capture, a stand-down,
 * an observer or target removed) gives its log back here. @internal
 */
export class FillLogs {
  private readonly spares: FillLog[] = [];

  /** Pair `pair`'s log (made on its first fill, of at most `capacity` steps), emptied when its meter rises from 0. */
  of(pair: Pair, was: number, capacity: number): FillLog {
    let log = pair.log;
    if (log === null) {
      log = pair.log = this.spares.pop() ?? new FillLog(capacity);
      log.clear();
    }
    if (was === 0) log.clear();
    return log;
  }

  /** A dropped pair's log goes back to the spares. */
  giveBack(pair: Pair): void {
    if (pair.log === null) return;
    this.spares.push(pair.log);
    pair.log = null;
  }
}
