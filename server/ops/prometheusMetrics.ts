import { matchMaker } from "@colyseus/core";
import { Counter, Gauge, Registry } from "prom-client";
import { processFigures } from "./serverFigures.js";
import { hostedRooms } from "../rooms/hostedRooms.js";

type Labels = Record<string, string>;

/**
 * `GET /metrics`: the server's figures in the Prometheus text format (prom-client). Values are read from
 * the rooms and the process at each scrape, so nothing is counted twice and nothing runs between scrapes.
 * Counters are cumulative since the room (or process) started; rates come from `rate()` or from the
 * difference of two scrapes. Every name is listed in docs/load-testing.md ("Server figures").
 */
export class PrometheusMetrics {
  readonly registry = new Registry();
  private readonly gauges = new Map<string, Gauge>();
  private readonly counters = new Map<string, Counter>();

  constructor() {
    const g = (name: string, help: string, labelNames: string[] = []) => this.gauges.set(name, new Gauge({ name, help, labelNames, registers: [this.registry] }));
    const c = (name: string, help: string, labelNames: string[] = []) => this.counters.set(name, new Counter({ name, help, labelNames, registers: [this.registry] }));
    const room = ["room"];
    const quantile = ["room", "quantile"];
    c("sightline_process_cpu_seconds_total", "CPU time of the server process, seconds, by mode (user, system).", ["mode"]);
    g("sightline_process_resident_memory_bytes", "Resident set size, bytes.");
    g("sightline_process_heap_used_bytes", "V8 heap used, bytes.");
    g("sightline_process_heap_total_bytes", "V8 heap allocated, bytes.");
    g("sightline_event_loop_lag_seconds", "Event-loop lag (perf_hooks.monitorEventLoopDelay minus its resolution) over the last completed window, by quantile (1 = max).", ["quantile"]);
    g("sightline_rooms", "Stealth rooms in this process.");
    g("sightline_clients", "Clients connected to stealth rooms in this process.");
    g("sightline_room_clients", "Clients in the room.", room);
    g("sightline_room_guards", "Guards in the room (the map's plus generated ones).", room);
    g("sightline_room_culling_enabled", "1 when the room culls views, 0 when every view holds everything.", room);
    c("sightline_room_ticks_total", "Fixed simulation steps run.", room);
    c("sightline_room_steps_dropped_total", "Fixed steps the game loop dropped after firing more than 5 steps late (simulated time fell behind; 0 when healthy).", room);
    g("sightline_room_tick_seconds", "Fixed step (inputs + simulation + culling + schema updates; not the patch) over the last 1200 ticks, by quantile (1 = max).", quantile);
    g("sightline_room_patch_seconds", "Patch broadcast (encoding every client's view and sending) over the last 1200 patches, by quantile (1 = max).", quantile);
    g("sightline_room_firing_lateness_seconds", "How late the game loop's last 1200 firings ran after their grid times (waiting for the loop), by quantile (1 = max).", quantile);
    g("sightline_room_culling_seconds", "Culling part of the tick over the last 1200 ticks, by quantile (1 = max).", quantile);
    c("sightline_room_patches_total", "State patches broadcast (Colyseus broadcastPatch runs).", room);
    g("sightline_room_patches_per_second", "State patches broadcast per second over the last 5 s.", room);
    c("sightline_room_vision_rays_total", "Sight rays cast by the vision scheduler.", room);
    g("sightline_room_vision_staleness_ticks", "Scheduler staleness after the last tick: ticks the worst pending observer has waited.", room);
    c("sightline_room_detection_events_total", "Awareness events (noticed, suspicious, spotted, lost, cleared).", room);
    c("sightline_room_view_changes_total", "Entities added to or removed from client views, by change (add, remove).", ["room", "change"]);
    c("sightline_room_view_client_ticks_total", "Client-ticks of view upkeep (divide view changes by it for churn per client per tick).", room);
    g("sightline_room_potentially_visible", "Entities potentially visible after the last tick, summed over teams.", room);
    c("sightline_room_culling_leaks_total", "Audit: entities in a view that were not potentially visible (must stay 0).", room);
    c("sightline_room_culling_pop_ins_total", "Audit: entities a character truly saw that its client had not received (must stay 0).", room);
    c("sightline_room_culling_misses_total", "Audit: entities the exact oracle finds potentially visible that a view lacks (must stay 0).", room);
    c("sightline_room_culling_audited_client_ticks_total", "Audit: client-ticks audited (0 when the audit is off: leaks of 0 then prove nothing).", room);
    c("sightline_room_rejected_total", "Rejected client input, by reason.", ["room", "reason"]);
    c("sightline_room_error_disconnects_total", "Clients closed by the server with an error (4002).", room);
    c("sightline_room_exceptions_total", "Exceptions caught by onUncaughtException (the room kept running).", room);
    g("sightline_room_round_trip_seconds", "Round trips from the server's WebSocket pings, over clients, by quantile (0.5, 1 = max).", quantile);
    g("sightline_room_round_trip_clients", "Clients by how their round trip is known: measured, or capped (no pong yet, or no ping on the transport: counted at maxRoundTripMs).", ["room", "source"]);
    g("sightline_room_view_churn_max", "The largest adds + removes one client's view had in one update.", room);
    c("sightline_room_culled_messages_total", "Messages about entities, by outcome: sent (deliveries), withheld (a client whose view lacked the entity), caught_up (of sent, delivered when the entity entered the view later).", ["room", "outcome"]);
  }

  /** Reads every figure now and renders the text exposition. */
  render(): Promise<string> {
    // One scrape at a time: values are reset and set again at each, so two must not interleave.
    const next = this.last.then(() => this.renderNow());
    this.last = next.catch(() => "");
    return next;
  }

  private last: Promise<string> = Promise.resolve("");
  private labelledAs: string | undefined;

  private async renderNow(): Promise<string> {
    const rooms = hostedRooms.list();
    // Every series carries the process id, so one scrape config covers several processes of one cluster.
    if (matchMaker.processId !== undefined && this.labelledAs !== matchMaker.processId) {
      this.labelledAs = matchMaker.processId;
      this.registry.setDefaultLabels({ process: matchMaker.processId });
    }
    this.registry.resetMetrics();
    const p = processFigures();
    this.counter("sightline_process_cpu_seconds_total", p.cpu.userSeconds, { mode: "user" });
    this.counter("sightline_process_cpu_seconds_total", p.cpu.systemSeconds, { mode: "system" });
    this.gauge("sightline_process_resident_memory_bytes", p.memory.rss);
    this.gauge("sightline_process_heap_used_bytes", p.memory.heapUsed);
    this.gauge("sightline_process_heap_total_bytes", p.memory.heapTotal);
    const lag = p.eventLoopLagMs.last ?? p.eventLoopLagMs.current;
    this.gauge("sightline_event_loop_lag_seconds", lag.p50 / 1000, { quantile: "0.5" });
    this.gauge("sightline_event_loop_lag_seconds", lag.p99 / 1000, { quantile: "0.99" });
    this.gauge("sightline_event_loop_lag_seconds", lag.max / 1000, { quantile: "1" });

    this.gauge("sightline_rooms", rooms.length);
    this.gauge("sightline_clients", rooms.reduce((n, r) => n + r.clients.length, 0));
    const now = performance.now();
    for (const r of rooms) {
      const room = { room: r.roomId };
      const s = r.stats;
      const quantiles = (name: string, ms: { p50: number; p99: number; max: number }) => {
        this.gauge(name, ms.p50 / 1000, { ...room, quantile: "0.5" });
        this.gauge(name, ms.p99 / 1000, { ...room, quantile: "0.99" });
        this.gauge(name, ms.max / 1000, { ...room, quantile: "1" });
      };
      this.gauge("sightline_room_clients", r.clients.length, room);
      this.gauge("sightline_room_guards", r.sim.guards.length, room);
      this.gauge("sightline_room_culling_enabled", r.culling.enabled ? 1 : 0, room);
      this.counter("sightline_room_ticks_total", s.ticks, room);
      this.counter("sightline_room_steps_dropped_total", s.stepsDropped, room);
      quantiles("sightline_room_tick_seconds", s.tickTime());
      quantiles("sightline_room_culling_seconds", s.cullTime());
      quantiles("sightline_room_patch_seconds", s.patchTime());
      quantiles("sightline_room_firing_lateness_seconds", s.lateness());
      this.counter("sightline_room_patches_total", s.patches, room);
      this.gauge("sightline_room_patches_per_second", s.patchRate(now), room);
      this.counter("sightline_room_vision_rays_total", s.rays, room);
      this.gauge("sightline_room_vision_staleness_ticks", s.stalenessMax, room);
      this.counter("sightline_room_detection_events_total", s.detectionEvents, room);
      this.counter("sightline_room_view_changes_total", s.viewAdds, { ...room, change: "add" });
      this.counter("sightline_room_view_changes_total", s.viewRemoves, { ...room, change: "remove" });
      this.counter("sightline_room_view_client_ticks_total", s.viewClientTicks, room);
      this.gauge("sightline_room_potentially_visible", s.potentiallyVisible, room);
      this.counter("sightline_room_culling_leaks_total", s.leaks, room);
      this.counter("sightline_room_culling_pop_ins_total", s.popIns, room);
      this.counter("sightline_room_culling_misses_total", s.misses, room);
      this.counter("sightline_room_culling_audited_client_ticks_total", s.auditedClientTicks, room);
      const rejected: [string, number][] = [
        ["input_nonfinite", s.inputsNonFinite], ["input_skipped", s.inputsSkipped], ["join_refused", s.joinsRefused],
        ["message_unknown", s.messagesUnknown], ["message_invalid", s.messagesInvalid], ["frame_garbage", s.framesGarbage],
        ["flood", s.floodDisconnects], ["oversized", s.oversizedDisconnects],
      ];
      for (const [reason, n] of rejected) this.counter("sightline_room_rejected_total", n, { ...room, reason });
      this.counter("sightline_room_error_disconnects_total", s.errorDisconnects, room);
      this.counter("sightline_room_exceptions_total", s.exceptions, room);
      this.gauge("sightline_room_round_trip_seconds", s.roundTripMs.p50 / 1000, { ...room, quantile: "0.5" });
      this.gauge("sightline_room_round_trip_seconds", s.roundTripMs.max / 1000, { ...room, quantile: "1" });
      const sightline = r.culling.counters;
      this.gauge("sightline_room_round_trip_clients", sightline.roundTrips.measured, { ...room, source: "measured" });
      this.gauge("sightline_room_round_trip_clients", sightline.roundTrips.capped, { ...room, source: "capped" });
      this.gauge("sightline_room_view_churn_max", sightline.churnMaxPerClient, room);
      this.counter("sightline_room_culled_messages_total", sightline.messages.sent, { ...room, outcome: "sent" });
      this.counter("sightline_room_culled_messages_total", sightline.messages.withheld, { ...room, outcome: "withheld" });
      this.counter("sightline_room_culled_messages_total", sightline.messages.caughtUp, { ...room, outcome: "caught_up" });
    }
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private gauge(name: string, value: number, labels: Labels = {}): void {
    this.gauges.get(name)!.set(labels, value);
  }

  private counter(name: string, value: number, labels: Labels = {}): void {
    // Counters here mirror totals kept by the rooms: reset at each scrape, then raised to the total.
    this.counters.get(name)!.inc(labels, value);
  }
}
