/**
 * What a bot carries to throw (smoke grenades, distractions) and when it feels like throwing one: a seeded
 * chance each tick from a mean interval, likelier while a guard is alerted to it. It counts what is left
 * itself (the room's count, owner-only in the state, reaches decoding bots a patch late) and is refilled at
 * every respawn, as the room refills it.
 */
export class BotPouch {
  private left: number;
  private readonly chancePerTick: number;

  /**
   * @param full how many a life carries
   * @param meanSeconds mean seconds between throws while any are left
   * @param pressedFactor how much likelier a throw is while a guard is alerted to the bot
   */
  constructor(
    private readonly full: number,
    private readonly random: () => number,
    meanSeconds: number,
    private readonly pressedFactor: number,
    tickSeconds: number,
  ) {
    this.left = full;
    this.chancePerTick = tickSeconds / meanSeconds;
  }

  /** A new life: a full pouch again. */
  refill(): void {
    this.left = this.full;
  }

  /**
   * Whether the bot throws one this tick: one is left (by its count, and by the room's `roomCount` when it
   * can read it) and the roll says so. `pressed` (is a guard alerted to it?) is asked only when it decides.
   */
  wants(pressed: () => boolean, roomCount?: number): boolean {
    if (this.left <= 0 || (roomCount !== undefined && roomCount <= 0)) return false;
    const roll = this.random();
    return roll < this.chancePerTick || (roll < this.chancePerTick * this.pressedFactor && pressed());
  }

  /** One was thrown. */
  spend(): void {
    this.left--;
  }
}
