// When the plugin brings views up to date: at each update, and before each send that falls between two
// updates; what each does and counts, and where an error inside a patch goes. Kept apart from the plugin
// facade, which only wires it: this is the one place that decides when `ViewCulling` hears of positions.
import { TimestepException, type Room } from "@colyseus/core";
import type { CullingReport } from "../culling/index.js";
import type { ClientViews } from "../culling/clientViews.js";
import { fail } from "../../shared/validation/rangeChecks.js";
import type { CulledMessages } from "./culledMessages.js";
import type { CulledNoises } from "./culledNoises.js";
import type { EntityRegistry } from "./entityRegistry.js";
import type { RoundTrips } from "./roundTrips.js";
import type { SessionViews } from "./sessionViews.js";

/** What the update cycle counts since the room started. @internal */
export interface UpdateCounts {
  updates: number;
  lastUpdateMs: number;
  churnMaxPerClient: number;
  badPositions: number;
  settles: number;
  settled: number;
}

/**
 * The plugin's update cycle. An update reads every position (handing on those that changed), applies the
 * round trips, brings the views up to date and the team tags with them. A settle, before a send between
 * two updates, reads the positions again and lets the culling apply at once what may not wait
 * (`ViewCulling.settle`). Before each patch: a settle (`update: "manual"`) or an update
 * (`"beforePatch"`), then the culled messages and noises.
 * @internal
 */
export class ViewUpdates {
  readonly counts: UpdateCounts = { updates: 0, lastUpdateMs: 0, churnMaxPerClient: 0, badPositions: 0, settles: 0, settled: 0 };

  constructor(
    private readonly room: Room,
    private readonly views: ClientViews,
    private readonly entities: EntityRegistry,
    private readonly sessions: SessionViews,
    private readonly roundTrips: RoundTrips,
    private readonly router: CulledMessages,
    private readonly noises: CulledNoises,
    private readonly manual: boolean,
    private readonly pauseUnheld: boolean,
  ) {}

  /** See `SightlinePlugin.update`. */
  update(): Readonly<CullingReport> {
    const views = this.views;
    const started = performance.now();
    const moved = this.entities.moveAll(views);
    const bad = moved.bad;
    this.counts.badPositions += moved.count;
    this.roundTrips.apply(this.sessions.sessions.keys(), views);
    const report = views.update();
    this.sessions.retagAll();
    if (this.pauseUnheld) this.sessions.pauseUnheld();
    const c = this.counts;
    c.updates++;
    c.lastUpdateMs = performance.now() - started;
    if (report.maxPerClient > c.churnMaxPerClient) c.churnMaxPerClient = report.maxPerClient;
    if (bad !== undefined) {
      const at = this.entities.at;
      (bad.fixed ? this.entities.readFixed : this.entities.read)(bad.instance, at);
      fail(`SightlinePlugin entity ${JSON.stringify(bad.id)} position`, "must be finite numbers of meters; it keeps its last position", Number.isFinite(at.x) ? at.y : at.x);
    }
    return report;
  }

  // Each part in its own try: an error must not escape into the patch (it would stop the process), and
  // a failed update must not keep the messages from going out. No closures: this runs at every patch.
  /** Just before each patch, after the room's own `onBeforePatch`. */
  beforePatch(): void {
    try {
      if (this.manual) this.settle();
      else this.update();
    } catch (err) {
      this.report(err);
    }
    try {
      this.router.flush(performance.now());
    } catch (err) {
      this.report(err);
    }
    try {
      this.noises.flush();
    } catch (err) {
      this.report(err);
    }
  }

  /** Before any other send (the room clock's timers inside a patch, a join's full state). */
  beforeSend(): void {
    try {
      this.settle();
    } catch (err) {
      this.report(err);
    }
  }

  /**
   * Before state leaves the room between two updates: positions are read again, and what is news since the
   * update (a teleport, a team change) is applied to the views at once. Positions that are not numbers are
   * left for the next update to report.
   */
  private settle(): void {
    const views = this.views;
    if (!views.cullingEnabled) return;
    this.entities.moveAll(views);
    const c = this.counts;
    c.settles++;
    c.settled += views.settle();
    this.sessions.retagAll();
  }

  /** The room's hook gets what an update before a send threw. */
  private report(err: unknown): void {
    const cause = err instanceof Error ? err : new Error(String(err));
    const room = this.room;
    if (room.onUncaughtException !== undefined) room.onUncaughtException(new TimestepException(cause, `sightline update before the patch threw: ${cause.message}`), "setTimestep");
    else console.error(`[sightline ${room.roomId}] update before the patch threw:`, cause);
  }
}
