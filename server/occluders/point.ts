/** A point in world meters. */
export interface Point {
  x: number;
  y: number;
}
